"""narnat -p in plain text, in process: narration to stderr as each tool call follows it, the answer alone on stdout."""

import io

from narnat_agent.core.turn import Stop, TurnOutcome, TurnStats
from narnat_agent.provider.reply import ToolCall
from narnat_agent.ui.headless import HeadlessUI


def headless() -> tuple[HeadlessUI, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    ui = HeadlessUI(out, err, io.StringIO())
    ui.begin("2026-11-28_06-00-00-1234", "m")
    return ui, out, err


STATS = TurnStats(context=10, context_window=100, sent=10, completion=2, requests=1, started=0.0, ended=1.0)


def test_narration_goes_to_stderr_when_a_tool_call_follows_it_and_the_answer_to_stdout_once():
    ui, out, err = headless()
    view = ui.turn_view()
    view.feed("\nReading ")
    view.feed("the file.\n\n")
    ui.tool_start("Read(a.py)", ToolCall("c1", "Read", "{}"))
    view.feed("  \n")  # blank narration says nothing
    ui.tool_start("Read(b.py)", ToolCall("c2", "Read", "{}"))
    view.feed("It is fixed.")
    view.finish(TurnOutcome(Stop.COMPLETED, answer="It is fixed.", stats=STATS))
    ui.report(TurnOutcome(Stop.COMPLETED, answer="It is fixed.", stats=STATS), "s", 0)
    assert out.getvalue() == "It is fixed.\n"
    assert err.getvalue() == (
        "Reading the file.\n● Read(a.py)\n● Read(b.py)\n"
        "  ctx 10/100 · sent 10 · out 2 · 1.0s · session 2026-11-28_06-00-00-1234\n"
    )


def test_text_of_a_turn_without_an_answer_is_narration_and_stdout_stays_empty():
    ui, out, err = headless()
    view = ui.turn_view()
    view.feed("Stopped here")
    view.finish(TurnOutcome(Stop.STEP_LIMIT, "step limit", stats=STATS))
    ui.report(TurnOutcome(Stop.STEP_LIMIT, "step limit", stats=STATS), "s", 3)
    assert out.getvalue() == ""
    assert err.getvalue().startswith("Stopped here\n  ctx 10/100")


def test_the_answer_is_printed_with_the_key_masked_and_controls_shown_ending_its_line_once():
    ui, out, _ = headless()
    ui.secret = "sk-live-0123456789"
    ui.report(TurnOutcome(Stop.COMPLETED, answer="key sk-live-0123456789 \x1b[2J\n"), "s", 0)
    assert out.getvalue() == "key [API key] ␛[2J\n"


def test_narration_keeps_its_indentation_and_last_character():
    ui, _, err = headless()
    ui.turn_view().feed("\n  fix X\n\n")
    ui.tool_start("Read(a.py)", ToolCall("c1", "Read", "{}"))
    assert err.getvalue() == "  fix X\n● Read(a.py)\n"


def test_blank_narration_before_a_tool_call_is_dropped_not_carried_into_the_next():
    ui, _, err = headless()
    view = ui.turn_view()
    view.feed("  \n")  # the spaces a model streams before its first call
    ui.tool_start("Read(a.py)", ToolCall("c1", "Read", "{}"))
    view.feed("Now b.\n")
    ui.tool_start("Read(b.py)", ToolCall("c2", "Read", "{}"))
    assert err.getvalue() == "● Read(a.py)\nNow b.\n● Read(b.py)\n"
