"""What an editor asks of Narnat over the protocol (acp's Agent), and the main thread that answers with turns.

The connection runs on an event loop in a thread of its own; each turn and slash command runs on the main thread, as
in the REPL, so that session/cancel reaches it the way Esc does there: a SIGINT that stops the model's stream or the
running command at once. Opening a session (which reads the settings and may ask a local server about its model)
runs in a worker thread, so it never waits for a turn.
"""

import asyncio
import concurrent.futures
import queue
import signal
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from acp import PROTOCOL_VERSION, Client, RequestError, run_agent
from acp.helpers import update_available_commands
from acp.schema import (
    AgentCapabilities,
    ClientCapabilities,
    Implementation,
    InitializeResponse,
    LoadSessionResponse,
    McpCapabilities,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    SetSessionModeResponse,
)

from narnat_agent import __version__
from narnat_agent.acp.replay import replayed
from narnat_agent.acp.sessions import (
    INVALID_PARAMS,
    NOT_OFFERED,
    Opened,
    Settings,
    choose_mode,
    modes,
    offered,
    open_session,
    question,
)
from narnat_agent.acp.ui import EditorUI, Link
from narnat_agent.acp.wire import Lines
from narnat_agent.core.turn import Stop
from narnat_agent.i18n import _
from narnat_agent.logger import get_logger
from narnat_agent.platform.signals import ENDING
from narnat_agent.processes import start_thread
from narnat_agent.run.start import save

log = get_logger("acp.server")
STOP_REASONS = {Stop.COMPLETED: "end_turn", Stop.CANCELLED: "cancelled", Stop.STEP_LIMIT: "max_turn_requests",
                Stop.CUT_OFF: "max_tokens"}  # fmt: skip  # any other end is said in the reply, and ends the turn


class Turns:
    """The main thread's work: one job at a time, each a turn or a slash command."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[tuple[Callable[[], Any], concurrent.futures.Future] | None] = queue.Queue()
        self.cancellable = False  # a turn runs that a SIGINT may stop (once)
        self.leaving = 0  # the signal that ends the run, once one has
        self.done: concurrent.futures.Future[None] = concurrent.futures.Future()

    def submit(self, job: Callable[[], Any]) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        self.jobs.put((job, future))
        return future

    def serve(self) -> None:
        """Run the jobs until the connection ends or a signal ends the run."""
        signal.signal(signal.SIGINT, self._interrupt)
        for signum in ENDING:  # SIGTERM and SIGHUP; SIGTERM and SIGBREAK on Windows
            signal.signal(signum, self._leave)
        while not self.leaving:
            try:
                item = self.jobs.get()
            except KeyboardInterrupt:  # SIGTERM while waiting
                continue
            if item is None:
                return
            job, future = item
            # running from here on, the editor's hang-up cannot cancel it: the turn's end is set, not refused; a job
            # the editor gave up on before it began is not run
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(job())
            except BaseException as e:  # a signal that landed outside a turn's own handling: the prompt fails alone
                future.set_exception(e)

    def interruptible(self, work: Callable[[], Any]) -> Any:
        self.cancellable = True
        try:
            return work()
        finally:
            self.cancellable = False

    def _interrupt(self, signum: int, frame: object) -> None:
        """session/cancel's SIGINT: a KeyboardInterrupt in the turn, once; outside a turn it changes nothing."""
        if self.cancellable:
            self.cancellable = False  # a second one could land in the code that cleans up after the first
            raise KeyboardInterrupt

    def _leave(self, signum: int, frame: object) -> None:
        """The first ending signal stops the turn; later ones (a closed terminal sends several) change nothing: one
        raised again could land in the turn's end or the exit save."""
        first = not self.leaving
        self.leaving = self.leaving or signum
        if first:
            raise KeyboardInterrupt  # the turn stops as on a cancel; the wait for the next job ends

    def cancel(self) -> None:
        """From the connection's thread: stop the running turn."""
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    def finish(self) -> None:
        """The connection has ended: the running turn stops, and the main thread ends once it has."""
        if self.cancellable:
            self.cancel()
        self.jobs.put(None)


class Editor:
    """acp's Agent: each request of the client, answered."""

    def __init__(self, turns: Turns, settings: Settings):
        self.turns, self.settings = turns, settings
        self.sessions: dict[str, Opened] = {}
        self.busy: Opened | None = None  # the session whose turn runs: one turn at a time, as the main thread runs it
        self.client: Client | None = None
        self.link: Link | None = None

    def on_connect(self, conn: Client) -> None:
        self.client = conn

    async def initialize(self, protocol_version: int, client_capabilities: ClientCapabilities | None = None,
                         client_info: Implementation | None = None, **kwargs: Any) -> InitializeResponse:  # fmt: skip
        assert self.client is not None  # set as the connection was made
        self.link = Link(asyncio.get_running_loop(), self.client, client_capabilities)
        capabilities = AgentCapabilities(
            load_session=True,
            prompt_capabilities=PromptCapabilities(image=False, audio=False, embedded_context=False),
            mcp_capabilities=McpCapabilities(http=False, sse=False),  # the nine tools, no more
        )
        about = Implementation(name="narnat", title="Narnat", version=__version__)
        version = min(protocol_version, PROTOCOL_VERSION)
        return InitializeResponse(protocol_version=version, agent_capabilities=capabilities, auth_methods=[],
                                  agent_info=about)  # fmt: skip

    async def new_session(self, cwd: str, mcp_servers: list | None = None, **kwargs: Any) -> NewSessionResponse:
        opened = await self._open(cwd, None)
        self._offer_commands(opened)
        return NewSessionResponse(session_id=opened.id, modes=modes(opened))

    async def load_session(self, cwd: str, session_id: str, mcp_servers: list | None = None,
                           **kwargs: Any) -> LoadSessionResponse:  # fmt: skip
        opened = self.sessions.get(session_id)
        if opened is self.busy and opened is not None:
            raise RequestError(INVALID_PARAMS, _("This session is answering a prompt; load it once the turn is over."))
        if opened is None:
            opened = await self._open(cwd, session_id)
        for update in replayed(opened.agent.conversation.messages):
            await self._client().session_update(session_id=session_id, update=update)
        self._offer_commands(opened)
        return LoadSessionResponse(modes=modes(opened))

    async def prompt(self, prompt: list, session_id: str, **kwargs: Any) -> PromptResponse:
        opened = self._opened(session_id)
        if self.busy is not None:
            busy = _("A turn is already running (session {id}): wait for it to end, or cancel it.")
            raise RequestError(-32600, busy.format(id=self.busy.id))
        text = question(prompt, opened.agent.workspace.root)
        self.busy = opened
        try:
            stop = await asyncio.wrap_future(self.turns.submit(lambda: self._answer(opened, text)))
        except KeyboardInterrupt:  # a signal ending the run, landed outside the turn's own handling
            stop = "cancelled"  # raised here, it would end this loop, the prompt unanswered
        finally:
            self.busy = None
        return PromptResponse(stop_reason=stop)

    async def set_session_mode(self, session_id: str, mode_id: str, **kwargs: Any) -> SetSessionModeResponse:
        """Plan mode on or off, here on the connection's thread: the session's agent is idle (its turn would run on
        the main thread, and a switch in the middle of one is refused), and the answer does not wait for another
        session's turn."""
        opened = self._opened(session_id)
        if opened is self.busy:
            raise RequestError(-32600, _("This session is answering a prompt; change the mode once the turn is over, "
                                         "or cancel it."))  # fmt: skip
        choose_mode(opened, mode_id)
        return SetSessionModeResponse()

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        opened = self.sessions.get(session_id)
        if opened is not None and opened is self.busy:
            opened.ui.cancel()
            self.turns.cancel()

    def _client(self) -> Client:
        assert self.client is not None
        return self.client

    def _opened(self, session_id: str) -> Opened:
        opened = self.sessions.get(session_id)
        if opened is None:
            raise RequestError(INVALID_PARAMS, _("There is no session {id} in this run; open it with session/load.")
                               .format(id=session_id))  # fmt: skip
        return opened

    async def _open(self, cwd: str, name: str | None) -> Opened:
        if self.link is None:
            raise RequestError(-32600, _("Initialize the connection first."))
        ui = EditorUI(self.link)
        taken = set(self.sessions)
        opened = await asyncio.to_thread(open_session, cwd, name, ui, self.settings, taken)
        self.sessions[opened.id] = opened
        return opened

    def _offer_commands(self, opened: Opened) -> None:
        """The slash commands, sent once the session's own response is out (a task runs after it is written)."""
        update = update_available_commands(offered(opened))
        asyncio.get_running_loop().create_task(self._client().session_update(session_id=opened.id, update=update))

    def _answer(self, opened: Opened, text: str) -> str:
        """On the main thread: a question or a slash command answered; the conversation saved whatever happens."""
        agent, ui = opened.agent, opened.ui
        ui.begin()
        try:
            return self._turn(opened, text)
        except KeyboardInterrupt:  # a cancel that landed between the turn's own steps: the turn is over all the same
            agent.conversation.answer_open_calls()
            return "cancelled"
        except Exception as e:  # a bug must not end the session; the history stays valid
            log.exception("unexpected error")
            agent.conversation.answer_open_calls(f"Failed: {type(e).__name__}")
            ui.error(_("Unexpected error ({kind}: {error}); the conversation is kept.")
                     .format(kind=type(e).__name__, error=e))  # fmt: skip
            return "end_turn"
        finally:
            save(opened.agent, ui, quiet=True)
            ui.end()

    def _turn(self, opened: Opened, text: str) -> str:
        from narnat_agent.commands.dispatch import dispatch

        agent = opened.agent
        if text.strip().startswith("/"):
            name = text.strip().removeprefix("/").split(" ", 1)[0].lower()
            if name in NOT_OFFERED:
                why = _(NOT_OFFERED[name])
                opened.ui.error(_("/{name} is not offered in an editor: {why}.").format(name=name, why=why))
                return "end_turn"
            done = self.turns.interruptible(lambda: dispatch(agent, text.strip(), opened.user))
            if not isinstance(done, str):
                return "end_turn"
            text = done  # a command of the user's own stands for this question
        if not text.strip():
            return "end_turn"
        outcome = self.turns.interruptible(lambda: agent.ask(text))
        return STOP_REASONS.get(outcome.stop, "end_turn")

    def close(self) -> None:
        """The run ends: every conversation saved, every background command stopped."""
        from narnat_agent.run.start import stop_jobs

        for opened in self.sessions.values():
            save(opened.agent, opened.ui, quiet=True)
            stop_jobs(opened.agent)


Streams = Callable[[], Awaitable[tuple[asyncio.StreamReader, asyncio.StreamWriter]]]


def serve(settings: Settings, streams: Streams) -> int:
    """Serve one client over the streams `streams` opens (stdin and stdout in `narnat acp`) until it closes them, or a
    signal ends the run; the exit code says which. This thread runs the turns; the connection, a thread of its own."""
    turns = Turns()
    editor = Editor(turns, settings)
    start_thread(asyncio.run, _connect(editor, turns, streams, settings.secrets))
    try:
        turns.serve()
    finally:
        editor.close()
        turns.done.set_result(None)
    return 128 + turns.leaving if turns.leaving else 0


async def _connect(editor: Editor, turns: Turns, streams: Streams, secrets: set[str]) -> None:
    """The connection, until the client closes it; the loop goes on until the main thread is done with it."""
    reader, writer = await streams()
    try:
        await run_agent(editor, Lines(reader, writer, secrets))  # type: ignore[arg-type]  # acp calls its methods by name
    finally:
        turns.finish()
        await asyncio.wrap_future(turns.done)
