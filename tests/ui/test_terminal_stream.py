"""A turn on a terminal, in process: the spinner and what waits under it, reasoning, the answer, the footer."""

import io

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console, Group
from rich.spinner import Spinner

from narnat_agent.core.turn import Stop, TurnOutcome, TurnStats
from narnat_agent.provider.reply import ToolCall
from narnat_agent.tools.base import Result
from narnat_agent.ui.terminal import TerminalUI
from narnat_agent.ui.terminal_stream import Elapsed, TerminalStream


@pytest.fixture
def terminal(project):
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        console = Console(file=io.StringIO(), width=60, record=True, color_system="standard")
        yield TerminalUI(console, project / ".narnat", project, {})


def printed(ui: TerminalUI) -> str:
    """What the turn left in the scrollback (the live region is transient: it leaves nothing)."""
    return ui.console.export_text(clear=False)


def spinner_text(renderable) -> str:
    spinner = renderable.renderables[0] if isinstance(renderable, Group) else renderable
    assert isinstance(spinner, Spinner) and spinner.style == "cyan"
    return spinner.text.__rich__().plain


def styled(ui: TerminalUI) -> str:
    return ui.console.export_text(styles=True, clear=False)


def still(ui: TerminalUI) -> TerminalStream:
    """A turn whose clock never moves: the answer waits, undrawn, until its block ends."""
    ui.watcher.working(True)
    ui.stream = TerminalStream(ui, clock=lambda: 0.0)
    return ui.stream


def stats(seconds: float) -> TurnStats:
    return TurnStats(context=10, context_window=100, sent=10, completion=2, requests=1, started=0.0, ended=seconds)


def test_a_turn_shows_its_reasoning_dimmed_then_the_answer_then_the_footer(terminal):
    view = terminal.turn_view()
    assert spinner_text(view.live.get_renderable()) == "Thinking… 0s · esc to interrupt"
    view.feed_reasoning("Look at the\x1b[2J te")
    view.feed_reasoning("sts\nThen fix")
    view.feed("Fixed **it**.")
    view.finish(TurnOutcome(Stop.COMPLETED, stats=stats(2.0)))
    assert printed(terminal) == (
        "│ Look at the␛[2J tests\n│ Then fix\nFixed it.\n── ctx 10/100 · sent 10 · out 2 · 2.0s ──\n"
    )
    assert not terminal.watcher.busy and not view.live.is_started


def test_a_cancelled_turn_says_so_above_its_footer(terminal):
    view = terminal.turn_view()
    view.feed("Half")
    view.cancelled = True
    view.finish(TurnOutcome(Stop.CANCELLED, stats=stats(1.0)))
    assert printed(terminal) == "Half\n  ⎿  Interrupted by user\n── ctx 10/100 · sent 10 · out 2 · 1.0s ──\n"


def test_a_notice_while_waiting_for_the_model_goes_under_the_spinner_and_leaves_with_it(terminal):
    view = terminal.turn_view()
    terminal.notice("No answer for 30 s")
    assert spinner_text(view.live.get_renderable()) == "Thinking… 0s · esc to interrupt"
    assert view.live.get_renderable().renderables[1].plain == "  No answer for 30 s"
    view.feed("Hello")
    terminal.notice("Retrying")  # the answer streams: no spinner to go under
    view.finish(TurnOutcome(Stop.COMPLETED, stats=stats(1.0)))
    assert printed(terminal).startswith("  Retrying\nHello\n")
    assert "No answer" not in printed(terminal)


def test_a_running_tool_spins_under_its_line_and_a_notice_then_stays(terminal):
    view = terminal.turn_view()
    view.feed("Reading")
    terminal.tool_start("Read(a.py)", ToolCall("c1", "Read", "{}"))
    assert spinner_text(view.live.get_renderable()) == "Running Read… 0s · esc to interrupt"
    assert not view.aside("slow disk")
    terminal.tool_end(Result("…", "3 lines"))
    assert spinner_text(view.live.get_renderable()) == "Thinking… 0s · esc to interrupt"
    assert view.aside("No answer for 30 s")
    view.finish(TurnOutcome(Stop.COMPLETED, stats=stats(1.0)))
    assert printed(terminal).startswith("Reading\n● Read(a.py)\n  ⎿  3 lines\n── ctx")


def test_reasoning_cut_short_by_the_answer_or_a_tool_ends_its_line(terminal):
    view = terminal.turn_view()
    view.feed_reasoning("first thought")
    terminal.tool_start("Read(a.py)", ToolCall("c1", "Read", "{}"))
    view.feed_reasoning("second")
    view.feed("Done")
    view.finish(TurnOutcome(Stop.COMPLETED, stats=stats(1.0)))
    assert printed(terminal).startswith("│ first thought\n● Read(a.py)\n│ second\nDone\n")


class Interrupted(Exception):
    pass


def test_a_cancel_arriving_as_the_turn_ends_draws_nothing_more_and_still_stops_the_live_region(terminal):
    view = terminal.turn_view()
    view.feed("Half")

    def cancel(lines: list[str]) -> None:
        raise KeyboardInterrupt

    view.markdown.emit = cancel
    view.finish(TurnOutcome(Stop.CANCELLED, stats=stats(1.0)))
    assert view.cancelled and not view.live.is_started
    assert printed(terminal) == "  ⎿  Interrupted by user\n── ctx 10/100 · sent 10 · out 2 · 1.0s ──\n"


def test_a_notice_after_a_turn_whose_end_a_cancel_cut_short_is_printed(terminal):
    view = still(terminal)  # the answer waits under the spinner: the cancel lands before it is drawn
    view.feed("Half")

    def cancel(lines: list[str]) -> None:
        raise KeyboardInterrupt

    view.markdown.emit = cancel
    view.finish(TurnOutcome(Stop.CANCELLED, stats=stats(1.0)))
    terminal.notice("Saved.")
    assert printed(terminal).endswith("── ctx 10/100 · sent 10 · out 2 · 1.0s ──\n  Saved.\n")


@pytest.mark.parametrize(("after", "seconds", "rings"), [(30.0, 30.0, True), (30.0, 29.9, False), (None, 99.0, False)])
def test_the_bell_rings_when_a_turn_of_at_least_the_set_seconds_ends(project, after, seconds, rings):
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        out = io.StringIO()
        ui = TerminalUI(Console(file=out, force_terminal=True, width=60), project / ".narnat", project, {})
        ui.use_bell(after)
        ui.turn_view().finish(TurnOutcome(Stop.COMPLETED, stats=stats(seconds)))
        assert (f"\x1b]0;narnat · {project.name} · done\x07\a" in out.getvalue()) is rings


def test_the_spinner_counts_the_seconds_waited():
    import time

    assert Elapsed("Thinking", time.monotonic() - 61.6).__rich__().plain == "Thinking… 62s · esc to interrupt"
    assert Elapsed("Thinking", time.monotonic()).__rich__().style == "dim"


def test_the_live_region_redraws_itself_ten_times_a_second_on_the_uis_console_and_crops(terminal):
    live = terminal.turn_view().live
    assert (live.console, live.auto_refresh, live.refresh_per_second, live.vertical_overflow, live.transient) == (
        terminal.console,
        True,
        10,
        "crop",
        True,
    )


def test_the_answer_is_drawn_in_the_live_region_as_it_streams(terminal):
    view = terminal.turn_view()
    view.feed("Hello")
    assert view.live.get_renderable().plain == "Hello"
    view.end_block()
    assert view.live.get_renderable() == ""


def test_reasoning_and_an_interruption_are_dimmed_and_a_long_thought_is_left_to_the_terminal_to_wrap(terminal):
    view = terminal.turn_view()
    view.feed_reasoning("x" * 100 + "\n")
    view.cancelled = True
    view.finish(TurnOutcome(Stop.CANCELLED, stats=stats(1.0)))
    assert printed(terminal).startswith(f"│ {'x' * 100}\n  ⎿  Interrupted by user\n")
    assert styled(terminal).startswith(f"\x1b[2;3m│ {'x' * 100}\x1b[0m\n\x1b[2;31m  ⎿  Interrupted by user\x1b[0m\n")


def test_a_notice_under_the_spinner_is_dim(terminal):
    view = terminal.turn_view()
    assert view.aside("No answer for 30 s")
    assert view.live.get_renderable().renderables[1].style == "dim"


def test_a_notice_after_the_turn_is_printed(terminal):
    view = terminal.turn_view()
    view.finish(TurnOutcome(Stop.COMPLETED, stats=stats(1.0)))
    terminal.notice("Saved.")
    assert printed(terminal).endswith("── ctx 10/100 · sent 10 · out 2 · 1.0s ──\n  Saved.\n")


def test_an_answer_that_floods_is_printed_whole_as_plain_text_tabs_and_all(terminal):
    view = still(terminal)
    flood = "x" * 17_000 + "\tend"
    view.feed(flood)
    assert not view.cancelled
    view.finish(TurnOutcome(Stop.COMPLETED, stats=stats(1.0)))
    assert printed(terminal).startswith(flood + "\n── ctx")


def test_after_a_cancel_a_flood_is_counted_not_drawn(terminal):
    view = still(terminal)
    view.feed("x" * 17_000)
    view.cancelled = True
    view.finish(TurnOutcome(Stop.CANCELLED, stats=stats(1.0)))
    assert printed(terminal).startswith("… 17,000 more characters of the interrupted answer are not shown\n")


def test_an_unfinished_line_of_reasoning_is_printed_before_the_answer_that_interrupts_it(terminal):
    view = terminal.turn_view()
    view.feed_reasoning("Then fix")
    view.feed("Done.\n\nNext")  # the first paragraph is printed at once, the second waits
    view.finish(TurnOutcome(Stop.COMPLETED, stats=stats(1.0)))
    assert printed(terminal).startswith("│ Then fix\nDone.\n\nNext\n")
