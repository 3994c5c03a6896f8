"""The one object through which all terminal I/O goes: TerminalUI on a terminal, PlainUI everywhere else."""

import contextlib
import os
import sys
import threading
import time
from pathlib import Path

from narnat_agent.core.turn import Stop, TurnOutcome
from narnat_agent.core.ui import UI
from narnat_agent.tools.workspace import Diff, Output, Todos
from narnat_agent.ui.plain import PlainUI, QuietSink


def make_ui(headless: bool, root: Path, commands: dict[str, str]) -> UI:
    """A rich terminal UI when both ends are a colour-capable terminal; plain text otherwise (and for -p)."""
    plain = headless or not (sys.stdin.isatty() and sys.stdout.isatty())
    if plain or os.environ.get("NO_COLOR") or os.environ.get("TERM", "dumb") == "dumb":
        return PlainUI(sys.stdout, sys.stderr, sys.stdin)
    from rich.console import Console

    return TerminalUI(Console(highlight=False), root / ".narnat", root, commands)


class TerminalStream:
    """One turn on screen: spinner, streamed markdown, dimmed reasoning, tool lines, footer."""

    def __init__(self, ui: "TerminalUI"):
        from rich.live import Live

        self.ui, self.cancelled = ui, False
        self.live = Live(console=ui.console, transient=True, auto_refresh=True, refresh_per_second=10,
                         vertical_overflow="crop")  # fmt: skip
        self.markdown = self._new_markdown()
        self.thinking = ""
        self.live.start()
        self.spin("Thinking")

    def _new_markdown(self):
        from narnat_agent.ui.markdown_stream import MarkdownStream

        return MarkdownStream(self.ui.console, self._emit, self._show)

    def _emit(self, lines: list[str]) -> None:
        from rich.text import Text

        self.ui.console.print(Text.from_ansi("\n".join(lines)), soft_wrap=True)

    def _show(self, renderable) -> None:
        self.live.update(renderable if renderable is not None else "")

    def spin(self, label: str) -> None:
        from rich.spinner import Spinner

        started = time.monotonic()
        self.live.update(Spinner("dots", text=_Elapsed(label, started), style="cyan"))

    def feed(self, text: str) -> None:
        self._end_thinking()
        self.markdown.feed(text)

    def feed_reasoning(self, text: str) -> None:
        from rich.text import Text

        self.thinking += text
        *done, self.thinking = self.thinking.split("\n")
        for line in done:
            self.ui.console.print(Text(f"│ {line}", style="dim italic"), soft_wrap=True)

    def _end_thinking(self) -> None:
        if self.thinking:
            self.feed_reasoning("\n")

    def end_block(self) -> None:
        """Before tool lines: what has streamed is printed and the live region freed."""
        self._end_thinking()
        self.markdown.finish()
        self.markdown = self._new_markdown()

    def finish(self, outcome: TurnOutcome) -> None:
        from narnat_agent.ui import render

        self.end_block()
        self.live.stop()
        if outcome.stop is Stop.CANCELLED:
            self.ui.console.print("  ⎿  Interrupted by user", style="dim red")
        self.ui.console.print(render.footer(outcome.stats))
        self.ui.watcher.stop()


class _Elapsed:
    """Spinner text that shows the seconds waited and how to interrupt."""

    def __init__(self, label: str, started: float):
        self.label, self.started = label, started

    def __rich__(self):
        from rich.text import Text

        return Text(f"{self.label}… {time.monotonic() - self.started:.0f}s · esc to interrupt", style="dim")


class TerminalUI:
    def __init__(self, console, state_dir: Path, root: Path, commands: dict[str, str]):
        from prompt_toolkit import PromptSession

        from narnat_agent.ui.keys import (
            CommandCompleter,
            MergedCompleter,
            PathCompleter,
            Watcher,
            prompt_session,
            restore_terminal_on_signals,
        )

        self.console = console
        with contextlib.suppress(OSError):  # a read-only project: the history is then not kept
            state_dir.mkdir(parents=True, exist_ok=True)
        history = state_dir / "history"
        self.session = prompt_session(history, MergedCompleter(CommandCompleter(commands), PathCompleter(root)))
        self.short = PromptSession()  # y/n and setup answers: no history, no completion
        self.watcher = Watcher(on_cancel=self._cancelled)
        restore_terminal_on_signals()
        self.stream: TerminalStream | None = None
        self.pending = ""  # text for the next prompt: a question given back, or keys typed while busy
        self.compressing = None
        threading.Thread(target=_preload, daemon=True).start()

    def use_interrupt_key(self, key: str) -> None:
        """The configured key that stops a turn: "escape", "escape-twice" or "ctrl-c" (Ctrl-C always works)."""
        self.watcher.key = key

    def _cancelled(self) -> None:
        if self.stream:
            self.stream.cancelled = True

    def read_input(self) -> str | None:
        default, self.pending = self.pending + self.watcher.take_typed(), ""
        try:
            return self.session.prompt([("class:prompt", "❯ ")], default=default)
        except KeyboardInterrupt:
            return ""
        except EOFError:
            return None

    def create_stream(self) -> TerminalStream:
        self.watcher.start()
        self.stream = TerminalStream(self)
        return self.stream

    def tool_start(self, title: str) -> None:
        from narnat_agent.ui import render

        if self.stream:
            self.stream.end_block()
        self.console.print(render.header(title, self.console.width))
        if self.stream:
            self.stream.spin(f"Running {title.split('(', 1)[0]}")

    def tool_end(self, result) -> None:
        from narnat_agent.ui import render

        self.console.print(render.result(result.summary, result.is_error))
        if isinstance(result.detail, Todos):
            self.console.print(render.todos(list(result.detail.items)))
        elif isinstance(result.detail, Diff) and result.detail.text:
            self.console.print(render.diff(result.detail.text))
        elif (
            isinstance(result.detail, Output) and result.is_error and (preview := render.output_preview(result.detail))
        ):
            self.console.print(preview)
        if self.stream:
            self.stream.spin("Thinking")

    def confirm(self, command: str, reason: str) -> bool:
        """y/n before a deleting command: the exact command, why, default No; the watcher pauses meanwhile."""
        from rich.text import Text

        live = self.stream.live if self.stream else None
        if live:
            live.stop()
        self.watcher.stop()
        self.console.print(Text.assemble(("  ⎿  ⚠ ", "yellow"), (reason, "yellow")))
        self.console.print(Text(f"     {command}", style="bold"))
        try:
            answer = self.short.prompt("     Run it? [y/N] ")
        except (KeyboardInterrupt, EOFError):
            answer = ""
        finally:
            if live:
                live.start()
                self.watcher.start()
        yes = answer.strip().lower() in ("y", "yes")
        if not yes:
            self.console.print("  ⎿  Declined", style="dim")
        return yes

    def notice(self, text: str) -> None:
        self.console.print(f"  {text}", style="dim", markup=False)

    def warning(self, text: str) -> None:
        self.console.print(f"⚠ {text}", style="yellow", markup=False)

    def error(self, text: str) -> None:
        self.console.print(f"✗ {text}", style="red", markup=False)

    def info(self, text: str) -> None:
        self.console.print(text, markup=False, soft_wrap=True)

    def begin_compressing(self) -> QuietSink:
        from rich.live import Live
        from rich.spinner import Spinner

        self.watcher.start()
        self.compressing = Live(Spinner("dots", text=_Elapsed("Compressing the conversation", time.monotonic())),
                                console=self.console, transient=True)  # fmt: skip
        self.compressing.start()
        return QuietSink()

    def end_compressing(self) -> None:
        self.compressing.stop()
        self.watcher.stop()

    def give_back(self, question: str) -> None:
        self.pending = question
        self.notice("Your question is back on the input line, to edit and send again.")

    def ask(self, question: str, default: str = "", secret: bool = False) -> str:
        answer = self.short.prompt(f"{question} [{default}]: " if default else f"{question}: ", is_password=secret)
        return answer.strip() or default


def _preload() -> None:
    """Import and warm what the first turn draws with, while the user types the first question."""
    import io

    import rich.live  # noqa: F401
    import rich.spinner  # noqa: F401
    from prompt_toolkit.input import create_input  # noqa: F401
    from rich.console import Console

    from narnat_agent.ui.markdown_stream import render_lines

    render_lines("# warm\n\n`code` and **bold**\n\n```python\nx = 1\n```\n", Console(file=io.StringIO()))
