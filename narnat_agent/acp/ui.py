"""What the core needs from a UI (core/ui.py), said to an editor: each call becomes a protocol message.

The core runs on the main thread; the connection lives on its own loop in another thread. Each message is handed to
that loop and waited for, so messages leave in the order the core said them and a turn's last update is out before
its prompt is answered.
"""

import asyncio
import concurrent.futures
import itertools
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from acp import Client, RequestError, text_block, tool_content, update_agent_message_text, update_agent_thought_text
from acp.helpers import update_current_mode
from acp.schema import AllowedOutcome, ClientCapabilities, PermissionOption, ToolCallUpdate

from narnat_agent.acp.calls import Running, ended, started
from narnat_agent.core.turn import TurnOutcome, TurnStats
from narnat_agent.i18n import _, spoken
from narnat_agent.inert import inert
from narnat_agent.logger import get_logger
from narnat_agent.provider.reply import ToolCall, Usage
from narnat_agent.tools.base import Result
from narnat_agent.tools.workspace import Workspace
from narnat_agent.ui.plain import QuietSink

log = get_logger("acp.ui")
ALLOW, REJECT = "allow", "reject"  # the options of a permission request
WAIT = 10.0  # seconds the editor has to give or take a file's text; then the disk's is used
DEFAULT, PLAN = "default", "plan"  # the session's modes: plan mode off and on


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # a thread without a loop: the main thread, a worker
        return None


class Link:
    """The connection as the main thread uses it."""

    def __init__(self, loop: asyncio.AbstractEventLoop, client: Client, capabilities: ClientCapabilities | None):
        self.loop, self.client = loop, client
        self.capabilities = capabilities or ClientCapabilities()

    def call(self, coroutine: Coroutine[Any, Any, Any], timeout: float | None = None) -> Any:
        """Run on the connection's loop and wait; a cancel (KeyboardInterrupt) withdraws what was asked."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result(timeout)
        except BaseException:
            future.cancel()
            raise

    def edits_files(self) -> bool:
        """Whether the client gives its buffers' text and takes it back: both, or the disk stays the only copy."""
        fs = self.capabilities.fs
        return bool(fs and fs.read_text_file and fs.write_text_file)


class EditorTurn:
    """One turn: the answer and the reasoning as they stream."""

    def __init__(self, ui: "EditorUI"):
        self.ui = ui
        self.cancelled = False  # set by session/cancel: the client stops reading the provider

    def feed(self, text: str) -> None:
        self.ui.update(update_agent_message_text(text))

    def feed_reasoning(self, text: str) -> None:
        self.ui.update(update_agent_thought_text(text))

    def replied(self, usage: Usage | None, price: float | None) -> None:
        """The editor has no footer: usage stays in the log."""

    def finish(self, outcome: TurnOutcome) -> None:
        """The prompt's response says how the turn ended; a failure was said in the reply."""


class EditorUI:
    """The UI of one session: what Narnat says goes into the reply of the prompt being answered, and before the first
    prompt waits for it; a question goes to the editor as session/request_permission."""

    def __init__(self, link: Link, session_id: str = ""):
        self.link, self.session_id = link, session_id
        self.workspace: Workspace | None = None  # the agent's, once it is built
        self.stream: EditorTurn | None = None
        self.compressing: QuietSink | None = None
        self.running: Running | None = None
        self.answering = False  # a prompt is being answered: what is said goes into its reply
        self.held: list[str] = []  # said while no prompt was being answered: it opens the next reply
        self.errors: list[str] = []  # said while the session opened: the reason it could not be
        self.asked = itertools.count(1)
        self.mode = DEFAULT  # the mode the editor shows

    def update(self, update: Any) -> None:
        """One session/update; a connection gone cannot be told anything (the run ends when it notices)."""
        if _running_loop() is self.link.loop:  # said on the connection's own thread: waiting there would never end
            self.link.loop.create_task(self.link.client.session_update(session_id=self.session_id, update=update))
            return
        try:
            self.link.call(self.link.client.session_update(session_id=self.session_id, update=update))
        except (ConnectionError, concurrent.futures.CancelledError, RuntimeError) as e:
            log.warning("an update was not sent: %s", e)

    def say(self, text: str) -> None:
        if not self.answering:
            self.held.append(text)
            sys.stderr.write(f"{inert(text)}\n")  # the editor's log of the agent, or a terminal
            return
        self.update(update_agent_message_text(f"\n\n{text}\n\n"))

    def begin(self) -> None:
        """A prompt is being answered: what was held is said first."""
        self.answering = True
        held, self.held = self.held, []
        for text in held:
            self.say(text)

    def end(self) -> None:
        self.answering, self.stream = False, None

    def cancel(self) -> None:
        """session/cancel, from the connection's thread: the streams stop reading (the signal stops the rest)."""
        for sink in (self.stream, self.compressing):
            if sink is not None:
                sink.cancelled = True

    # the UI protocol (core/ui.py)

    def read_input(self) -> str | None:
        return None  # questions arrive as session/prompt

    def confirm(self, command: str, reason: str) -> bool:
        """session/request_permission with the same one-line reason the terminal shows; anything but "allow" (a
        rejection, a cancelled prompt, a connection gone, an error the editor answers) is a no."""
        call = self.running.call.id if self.running else f"question-{next(self.asked)}"
        asked = ToolCallUpdate(tool_call_id=call, title=spoken(reason),
                               content=[tool_content(text_block(f"{spoken(reason)}:\n\n    {command}"))])  # fmt: skip
        options = [PermissionOption(option_id=ALLOW, name=_("Run it"), kind="allow_once"),
                   PermissionOption(option_id=REJECT, name=_("Do not run it"), kind="reject_once")]  # fmt: skip
        try:
            answer = self.link.call(self.link.client.request_permission(
                session_id=self.session_id, tool_call=asked, options=options))  # fmt: skip
        except (ConnectionError, concurrent.futures.CancelledError, RuntimeError, ValueError, RequestError) as e:
            log.warning("permission not given: %s", e)
            return False
        outcome = answer.outcome
        if isinstance(outcome, AllowedOutcome) and outcome.option_id not in (ALLOW, REJECT):
            # an editor's own option (an "always" it made up, a typo): taken as no, said rather than silently
            self.notice(_("The editor answered with an option that was not offered ({option}): taken as no.").format(
                option=outcome.option_id))  # fmt: skip
        return isinstance(outcome, AllowedOutcome) and outcome.option_id == ALLOW

    def ask(self, question: str, default: str, secret: bool = False) -> str:
        return default  # nothing is set up from an editor: it has no place to type the answer

    def give_back(self, question: str) -> None:
        self.notice(_("Your question, to edit and send again:\n{question}").format(question=question))

    def stop_reading(self) -> bool:
        return False

    def use_interrupt_key(self, key: str) -> None:
        """The editor's stop button sends session/cancel."""

    def use_bell(self, after_s: float | None) -> None:
        """The editor says when a turn ends."""

    def add_commands(self, commands: dict[str, str]) -> None:
        """The editor learns the commands from available_commands_update."""

    def status(self, stats: TurnStats) -> None:
        """No status line."""

    def turn_view(self) -> EditorTurn:
        self.stream = EditorTurn(self)
        return self.stream

    def tool_start(self, header: str, call: ToolCall) -> None:
        assert self.workspace is not None  # the agent that calls tools was built with it
        self.running, update = started(call, header, self.workspace)
        self.update(update)

    def tool_end(self, result: Result) -> None:
        if self.running is None:
            return
        for update in ended(self.running, result):
            self.update(update)
        self.running = None

    def notice(self, text: str) -> None:
        self.say(f"! {text}")

    def warning(self, text: str) -> None:
        self.say(f"⚠ {text}")

    def error(self, text: str) -> None:
        if not self.answering:
            self.errors.append(text)
        self.say(f"✗ {text}")

    def info(self, text: str) -> None:
        self.say(text)

    def begin_compressing(self) -> QuietSink:
        self.say("… " + _("Compressing the conversation (summarising it for a fresh context)…"))
        self.compressing = QuietSink()
        return self.compressing

    def end_compressing(self) -> None:
        self.compressing = None
        self.say("… " + _("Compression finished."))

    def banner(self, model: str, lines: list[str]) -> None:
        """No banner: the editor names the agent."""

    def separator(self, title: str) -> None:
        self.say(f"── {title} ──")

    def take_sent(self, accept: Callable[[str], bool]) -> list[str]:
        """An editor sends one prompt at a time (a second while a turn runs is refused): nothing waits to be sent."""
        return []

    def run_at_once(self, run: Callable[[str], bool]) -> None:
        """Nothing arrives while the agent works."""

    def delivered(self, text: str) -> None:
        """Never called: nothing is sent while the agent works."""

    def review(self, title: str, diff: str) -> None:
        """A diff the person asked for (/diff), as a fenced block the editor draws."""
        self.say(f"{title}\n```diff\n{diff}\n```" if diff else title)

    def planning(self, on: bool) -> None:
        """Plan mode switched by /plan or /go: the editor's mode picker follows (the commands say it in the reply).
        A switch the editor asked for (session/set_mode) is already what it shows, so it is not told again."""
        mode = PLAN if on else DEFAULT
        if mode != self.mode:
            self.mode = mode
            self.update(update_current_mode(mode))

    def table(self, columns: list[str], rows: list[list[str]]) -> None:
        """A markdown table, which editors draw."""
        lines = [columns, ["---"] * len(columns), *rows]
        self.say("\n".join("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in lines))


class Buffers:
    """The editor's files (tools/base.py's EditorFiles), through fs/read_text_file and fs/write_text_file: what a
    buffer holds that is not saved yet is what the model reads and edits."""

    def __init__(self, ui: EditorUI, wait: float = WAIT):
        self.ui = ui
        self.wait = wait  # seconds the editor has to answer

    def text(self, path: Path) -> str | None:
        link = self.ui.link
        try:
            asked = link.client.read_text_file(session_id=self.ui.session_id, path=str(path))
            return link.call(asked, self.wait).content
        except Exception as e:  # no buffer, a client error, no answer in time: the disk's text is the file's
            log.info("the editor gave no text for %s: %s", path, e)
            return None

    def wrote(self, path: Path, text: str) -> None:
        link = self.ui.link
        try:
            given = link.client.write_text_file(session_id=self.ui.session_id, path=str(path), content=text)
            link.call(given, self.wait)
        except Exception as e:
            log.warning("the editor's buffer of %s was not updated: %s", path, e)
