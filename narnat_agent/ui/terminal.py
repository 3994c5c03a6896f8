"""The one object through which all terminal I/O goes: TerminalUI on a terminal, PlainUI everywhere else.

Every text it is given is shown through `inert`, before rich styles it: rich passes ESC through as it is."""

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from narnat_agent import state
from narnat_agent.core.ui import UI
from narnat_agent.i18n import _, spoken
from narnat_agent.inert import inert
from narnat_agent.processes import start_thread
from narnat_agent.provider.reply import ToolCall
from narnat_agent.tools.base import Diff, Output, Todos
from narnat_agent.ui.plain import PlainUI, QuietSink

if TYPE_CHECKING:
    from rich.live import Live

    from narnat_agent.ui.terminal_stream import TerminalStream


def make_ui(root: Path, state_dir: Path, commands: dict[str, str]) -> UI:
    """A rich terminal UI when both ends are a terminal (without colours under NO_COLOR); plain text otherwise."""
    plain = not (sys.stdin.isatty() and sys.stdout.isatty())
    if plain or os.environ.get("TERM", "dumb") == "dumb":
        return PlainUI(sys.stdout, sys.stderr, sys.stdin)
    from rich.console import Console

    from narnat_agent.ui.markdown_stream import THEME

    # the terminal's own size, as prompt_toolkit reads it: a COLUMNS or LINES exported from another window (rich
    # would take it over the terminal's) cut every line at a width that is not the window's
    sized = {name: value for name, value in os.environ.items() if name not in ("COLUMNS", "LINES")}
    return TerminalUI(Console(highlight=False, theme=THEME, _environ=sized), state_dir, root, commands)


class TerminalUI:
    def __init__(self, console, state_dir: Path, root: Path, commands: dict[str, str]):
        from prompt_toolkit import PromptSession

        from narnat_agent.ui.keys import (
            CommandCompleter,
            MergedCompleter,
            PathCompleter,
            Watcher,
            input_history,
            prompt_session,
            restore_terminal_on_signals,
        )

        self.console = console
        self.history_path = state.input_history(state_dir)
        self.history, problem = input_history(self.history_path)
        self.commands = CommandCompleter(dict(commands))
        completer = MergedCompleter(self.commands, PathCompleter(root))
        self.session = prompt_session(self.history, completer, self._toolbar)
        self.short: PromptSession[str] = PromptSession()  # setup answers: no history, no completion
        self.watcher = Watcher(on_cancel=self._cancelled, on_queued=self._queued)
        restore_terminal_on_signals()
        self.watcher.hold()  # from now on: keys typed while Narnat starts wait for the first prompt as typed
        self.stream: TerminalStream | None = None
        self.pending = ""  # text for the next prompt: a question given back, or keys typed while busy
        self.compressing: Live | None = None
        self.model, self.context, self.hinted, self.history_told = "", "", False, bool(problem)
        self.mode = ""  # plan mode, when on: the status line says it first
        self.at_once: Callable[[str], bool] = lambda line: False
        self.bell_after: float | None = None
        self.title, self.titled = inert(f"narnat · {root.name}"), False
        if problem:
            self._history_lost(problem)
        start_thread(_preload)

    def _history_lost(self, why: str) -> None:
        self.notice(
            _("Input history is not kept this session: {path} cannot be used ({why}).").format(
                path=self.history_path, why=why
            )
        )

    def _toolbar(self):
        return inert(" · ".join(part for part in (self.mode, self.model, self.context, "/help") if part))

    def use_interrupt_key(self, key: str) -> None:
        """The configured key that stops a turn: "escape", "escape-twice" or "ctrl-c" (Ctrl-C always works)."""
        self.watcher.key = key

    def use_bell(self, after_s: float | None) -> None:
        self.bell_after = after_s

    def ring(self, state: str) -> None:
        """The terminal bell, and the window title saying what Narnat waits for."""
        if self.bell_after is None or not self.console.is_terminal:
            return
        self.console.file.write(f"\x1b]0;{self.title} · {state}\x07\a")
        self.console.file.flush()
        self.titled = True

    def add_commands(self, commands: dict[str, str]) -> None:
        self.commands.commands.update(commands)

    def status(self, stats) -> None:
        from narnat_agent.ui.plain import context

        self.model, self.context = stats.model or self.model, context(stats)

    def banner(self, model: str, lines: list[str]) -> None:
        """The dim header at start: version, model, endpoint, project, resumed session; the model stays below."""
        from rich.text import Text

        self.model = model
        self.console.print(Text(inert("\n".join(lines)), style="dim"))

    def _cancelled(self) -> None:
        if self.stream:
            self.stream.cancelled = True
        # a stop stops what was queued too: sent at the turn's end, it had the agent working again at once
        if queued := [self.watcher.queued.pop(0) for _ in range(len(self.watcher.queued))]:
            self.pending = "\n".join([*queued, self.pending] if self.pending else queued)
            self._say(_("Stopped: what you queued is back on the input line, not sent."))

    def _queued(self, question: str) -> None:
        """Called by the watcher's thread: a command that only shows something runs now, the rest waits."""
        if self.at_once(question):
            with contextlib.suppress(ValueError):  # the watcher queued it before asking
                self.watcher.queued.remove(question)
            return
        if question.strip().startswith("/"):  # a command is never delivered as a message: it runs after the turn
            queued = _("Queued, to run when this turn ends: {question}")
        else:
            queued = _("Queued, to be delivered at the next tool result or when this turn ends: {question}")
        self._say(inert(queued.format(question=" ".join(question.split()))))  # never aside: it stays

    def take_sent(self, accept: Callable[[str], bool]) -> list[str]:
        taken = []
        while self.watcher.queued and accept(self.watcher.queued[0]):
            taken.append(self.watcher.queued.pop(0))
        return taken

    def run_at_once(self, run: Callable[[str], bool]) -> None:
        self.at_once = run

    def delivered(self, text: str) -> None:
        from rich.text import Text

        shown = Text("❯ ").append(inert(text)).append("  " + _("delivered while the agent worked"), style="dim")
        self.console.print(shown, highlight=False)

    def read_input(self) -> str | None:
        from narnat_agent.ui.keys import PLAN_KEY

        if self.watcher.queued:  # sent while the agent worked: it goes now, shown as sent
            question = self.watcher.queued.pop(0)
            self.console.print(f"❯ {inert(question)}", markup=False, highlight=False)
            return question
        self.watcher.stop()
        default, self.pending = self.pending + self.watcher.take_typed(), ""
        try:
            text = self.session.prompt([("class:prompt", "❯ ")], default=default)
            if text.startswith(PLAN_KEY):  # the key that switches plan mode: what was typed waits on the next line
                text, self.pending = "/plan", text.removeprefix(PLAN_KEY)
        except KeyboardInterrupt:
            if self.session.default_buffer.text.strip():  # struck through, but not every terminal draws that
                self.notice(_("cleared, not sent"))
            elif not self.hinted:
                self.hinted = True
                self.notice(_("Ctrl-C clears the line; Ctrl-D or /exit leaves (the conversation is saved)."))
            text = ""
        except (EOFError, OSError):  # OSError: the terminal went away (a closed window, a hung-up ssh)
            return None
        self.watcher.start()  # until the next prompt, keys go to the watcher, not to the terminal's line mode
        if self.titled:  # the user is back: the title stops saying what Narnat waited for
            self.console.file.write(f"\x1b]0;{self.title}\x07")
            self.titled = False
        if (failure := getattr(self.history, "failure", "")) and not self.history_told:
            self.history_told = True
            self._history_lost(failure)
        return text

    def turn_view(self):
        from narnat_agent.ui.terminal_stream import TerminalStream

        self.watcher.start()
        self.watcher.working(True)
        self.stream = TerminalStream(self)
        return self.stream

    def tool_start(self, title: str, call: ToolCall) -> None:
        from narnat_agent.ui import render

        title = inert(spoken(title))
        if self.stream:
            self.stream.end_block()
        self.console.print(render.header(title, self.console.width, call.origin))
        if self.stream:
            self.stream.spin(_("Running {tool}").format(tool=title.split("(", 1)[0]))

    def tool_end(self, result) -> None:
        from narnat_agent.ui import render

        result = result.cleaned(inert)
        detail = result.detail
        output = detail if isinstance(detail, Output) else None
        self.console.print(render.result(result.summary, result.is_error, output))
        if isinstance(detail, Todos):
            self.console.print(render.todos(list(detail.items)))
        elif isinstance(detail, Diff) and detail.text:
            self.console.print(render.diff(detail.text))
            if detail.syntax:
                self.console.print(render.syntax_finding(spoken(detail.syntax)))
        elif output and (tail := render.output_tail(output, result.is_error)):
            self.console.print(tail)
        if self.stream:
            self.stream.spin(_("Thinking"))

    def confirm(self, command: str, reason: str) -> bool:
        """y/n before a deleting command, one key press; the watcher and the live region pause meanwhile."""
        from rich.text import Text

        from narnat_agent.ui import render
        from narnat_agent.ui.keys import yes_no

        live = self.stream.live if self.stream and self.watcher.busy else None
        if live:
            live.stop()
        running = self.watcher.stop()
        self.console.print(
            render.Hanging(Text("  ⎿  ⚠ ", style="magenta"), Text(inert(spoken(reason)), style="magenta"))
        )
        self.console.print(Text(f"     {inert(command)}", style="bold"))
        self.ring(_("waiting for you"))
        try:
            return yes_no("     " + _("Run it? [y/n] "))
        finally:
            if running:
                self.watcher.start()
            if live:
                live.start()

    def notice(self, text: str) -> None:
        text = inert(text)
        if not (self.stream and self.stream.aside(text)):
            self._say(text)

    def _say(self, text: str) -> None:
        from rich.text import Text

        from narnat_agent.ui.render import Hanging

        self.console.print(Hanging("  ", Text(text, style="dim")))

    def warning(self, text: str) -> None:
        self.console.print(f"⚠ {inert(text)}", style="magenta", markup=False)

    def error(self, text: str) -> None:
        self.console.print(f"✗ {inert(text)}", style="red", markup=False)

    def info(self, text: str) -> None:
        self.console.print(inert(text), markup=False)

    def table(self, columns: list[str], rows: list[list[str]]) -> None:
        """A listing that fits the width: the other columns whole, the last one cut with … rather than wrapped."""
        from rich.cells import cell_len
        from rich.table import Table

        columns, rows = [inert(c) for c in columns], [[inert(cell) for cell in row] for row in rows]
        table = Table(box=None, header_style="dim", pad_edge=False, show_edge=False)
        widths = [max(cell_len(row[i]) for row in [columns, *rows]) for i in range(len(columns) - 1)]
        for name, width in zip(columns, widths, strict=False):
            table.add_column(name, no_wrap=True, width=width)
        room = self.console.width - sum(widths) - 2 * len(widths)  # two spaces between columns
        table.add_column(columns[-1], no_wrap=True, overflow="ellipsis", max_width=max(room, 1))
        for row in rows:
            table.add_row(*row)
        self.console.print(table)

    def review(self, title: str, diff: str) -> None:
        from narnat_agent.ui import render

        diff = inert(diff)  # a file's name and lines are whatever a command or a repository wrote
        self.console.print(f"● {inert(title)}", style="bold", markup=False, highlight=False)
        if diff:
            self.console.print(render.diff(diff, limit=len(diff)))  # the whole diff: it was asked for

    def planning(self, on: bool) -> None:
        self.mode = _("plan mode · shift-tab leaves") if on else ""

    def separator(self, title: str) -> None:
        from narnat_agent.ui import render

        self.console.print(render.separator(inert(title), self.console.width))

    def begin_compressing(self) -> QuietSink:
        from rich.live import Live
        from rich.spinner import Spinner

        from narnat_agent.ui.terminal_stream import Elapsed

        self.watcher.start()
        self.watcher.working(True)
        self.compressing = Live(Spinner("dots", text=Elapsed(_("Compressing the conversation"), time.monotonic())),
                                console=self.console, transient=True)  # fmt: skip
        self.compressing.start()
        return QuietSink()

    def end_compressing(self) -> None:
        self.watcher.working(False)
        if self.compressing is not None:
            self.compressing.stop()

    def stop_reading(self) -> bool:
        from prompt_toolkit.application import get_app_or_none

        app = get_app_or_none()
        if app is None or not app.is_running or app.loop is None:
            return False
        # the loop may be asleep in select(): wake it rather than raise in the middle of prompt_toolkit's code
        app.loop.call_soon_threadsafe(lambda: app.is_done or app.exit(exception=EOFError))
        return True

    def give_back(self, question: str) -> None:
        self.pending = question
        self.notice(_("Your question is back on the input line, to edit and send again."))

    def ask(self, question: str, default: str = "", secret: bool = False) -> str:
        """One answer typed at its own prompt; the watcher lets go of the keyboard meanwhile."""
        running = self.watcher.stop()
        try:
            asked = f"{question} [{default}]: " if default else f"{question}: "
            answer = self.short.prompt(inert(asked), is_password=secret)
        finally:
            if running:
                self.watcher.start()
        return answer.strip() or default


def _preload() -> None:
    """Import and warm what the first turn draws with, while the user types the first question."""
    import io

    from prompt_toolkit.input import create_input  # noqa: F401
    from rich.console import Console

    import narnat_agent.ui.terminal_stream  # noqa: F401
    from narnat_agent.ui.markdown_stream import render_lines

    render_lines("# warm\n\n`code` and **bold**\n\n```python\nx = 1\n```\n", Console(file=io.StringIO()))
