"""One turn on a terminal: spinner, streamed markdown, dimmed reasoning, and the footer."""

import time
from collections.abc import Callable

from rich.console import Group
from rich.live import Live
from rich.segment import Segment
from rich.spinner import Spinner
from rich.text import Text

from narnat_agent.core.turn import Stop, TurnOutcome
from narnat_agent.i18n import _
from narnat_agent.inert import inert
from narnat_agent.provider.reply import Usage
from narnat_agent.ui import render
from narnat_agent.ui.markdown_stream import MarkdownStream


class Elapsed:
    """Spinner text that shows the seconds waited and how to interrupt."""

    def __init__(self, label: str, started: float):
        self.label, self.started = label, started

    def __rich__(self) -> Text:
        seconds = f"{time.monotonic() - self.started:.0f}"
        return Text(_("{label}… {seconds}s · esc to interrupt").format(label=self.label, seconds=seconds), style="dim")


class _Raw:
    """Text the terminal wraps itself, in one piece: rich's per-line work would cost seconds for megabytes."""

    def __init__(self, text: str):
        self.text = text

    def __rich_console__(self, console, options):
        yield Segment(self.text)
        yield Segment.line()


class TerminalStream:
    """The live region (spinner or the open markdown block) exists from turn_view() until finish()."""

    def __init__(self, ui, clock: Callable[[], float] = time.monotonic):
        self.ui, self.cancelled, self.clock = ui, False, clock  # the clock paces the answer's redraws
        self.live = Live(
            console=ui.console, transient=True, auto_refresh=True, refresh_per_second=10, vertical_overflow="crop"
        )
        self.markdown = self._new_markdown()
        self.thinking = ""
        self.waiting: Spinner | None = None  # the spinner while it waits for the model (not for a tool)
        self.live.start()
        self.spin(_("Thinking"))

    def _new_markdown(self) -> MarkdownStream:
        return MarkdownStream(self.ui.console, self._emit, self._show, self.clock, self._emit_plain)

    def _emit(self, lines: list[str]) -> None:
        self.ui.console.print(Text.from_ansi("\n".join(lines)), soft_wrap=True)

    def _emit_plain(self, text: str) -> None:
        self.ui.console.print(_Raw(text), crop=False)

    def _show(self, renderable) -> None:
        self.waiting = None
        self.live.update(renderable if renderable is not None else "")

    def spin(self, label: str) -> None:
        spinner = Spinner("dots", text=Elapsed(label, time.monotonic()), style="cyan")
        self.waiting = spinner if label == _("Thinking") else None
        self.live.update(spinner)

    def aside(self, text: str) -> bool:
        """A notice while waiting for the model (a silent provider, a retry) is drawn under the spinner and goes
        with it, so the transcript keeps the answer only; False when the live region is not waiting for it."""
        if self.waiting is None:
            return False
        self.live.update(Group(self.waiting, Text(f"  {text}", style="dim")))
        return True

    def feed(self, text: str) -> None:
        self._end_thinking()
        self.markdown.feed(text)

    def feed_reasoning(self, text: str) -> None:
        self.thinking += inert(text)
        *done, self.thinking = self.thinking.split("\n")
        for line in done:
            self.ui.console.print(Text(f"│ {line}", style="dim italic"), soft_wrap=True)

    def _end_thinking(self) -> None:
        if self.thinking:
            self.feed_reasoning("\n")

    def end_block(self) -> None:
        """Before tool lines: what has streamed is printed and the live region freed."""
        self._end_thinking()
        self.markdown.finish(self.cancelled)
        self.markdown = self._new_markdown()

    def replied(self, usage: Usage | None, price: float | None) -> None:
        """Usage is shown once, in the footer."""

    def finish(self, outcome: TurnOutcome) -> None:
        """The turn is over: keys stop cancelling first, so no late cancel can interrupt the cleanup."""
        self.ui.watcher.working(False)
        try:
            self.end_block()
        except KeyboardInterrupt:  # a cancel that was already on its way: what is left is not drawn
            self.cancelled = True
        finally:
            self.waiting = None
            self.live.stop()
        if outcome.stop is Stop.CANCELLED:
            self.ui.console.print("  ⎿  " + _("Interrupted by user"), style="dim red")
        self.ui.console.print(render.footer(outcome.stats))
        if self.ui.bell_after is not None and outcome.stats.seconds >= self.ui.bell_after:
            self.ui.ring(_("done"))
