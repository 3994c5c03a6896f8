"""Headless JSON in process: the events of a real turn on the fake server, the result object, what stays off stdout."""

import io
import json
import time

import pytest

from narnat_agent.core.turn import GoalRecord, Round, Stop, TurnOutcome, TurnStats
from narnat_agent.provider.reply import ToolCall
from narnat_agent.tools.base import Result
from narnat_agent.tools.verification import Verification
from narnat_agent.ui.events import VERSION, EventUI
from tests.fake_llm import chunk, text_reply, tool_reply, usage


class Latin1(io.StringIO):
    encoding = "latin-1"


class Gone(io.StringIO):
    """A reader that went away after the first line (`| head -1`): later writes fail as a closed pipe's do."""

    def write(self, text: str) -> int:
        if self.getvalue():
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def lines(out: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_turn_streams_one_event_a_line_in_the_order_things_happen(harness, fake_llm, project):
    (project / "a.txt").write_text("alpha\n")
    out, err = io.StringIO(), io.StringIO()
    run = harness(ui=EventUI(True, out, err), api_key="sk-test-key-123456", pricing={"input": 1.0, "output": 2.0})
    run.ui.secret = "sk-test-key-123456"
    first = tool_reply(("Read", {"file_path": "a.txt"}), ("Glob", {"pattern": "sk-test-key-123456*"}), text="Reading.")
    first.chunks[:0] = [chunk({"role": "assistant", "reasoning_content": "Look first."})]
    first.chunks[-1] = usage(700, 30, 100)
    last = text_reply("Alpha.", pieces=1)
    last.chunks[-1] = usage(900, 12, 650)
    fake_llm.add(first, last)
    run.ui.begin("s-1", "fake-model")
    outcome = run.agent.ask("a?")
    run.ui.notice("waiting")
    run.ui.warning("slow")
    run.ui.error("broken")
    events = lines(out)
    call_ids = [e["id"] for e in events if e["type"] == "tool_call"]
    assert events == [
        {"type": "start", "version": VERSION, "session": "s-1", "model": "fake-model"},
        {"type": "reasoning", "text": "Look first."},
        {"type": "text", "text": "Reading."},
        {"type": "usage", "sent": 700, "cached": 100, "out": 30, "estimated": False, "cost": 0.00076},
        {"type": "tool_call", "id": call_ids[0], "name": "Read", "arguments": {"file_path": "a.txt"},
         "header": "Read(a.txt)"},
        {"type": "tool_result", "id": call_ids[0], "name": "Read", "summary": "Read 1 line", "is_error": False},
        {"type": "tool_call", "id": call_ids[1], "name": "Glob", "arguments": {"pattern": "[API key]*"},
         "header": "Glob([API key]*)"},
        events[7],  # Glob refuses the key: its wording is Glob's
        {"type": "text", "text": "Alpha."},
        {"type": "usage", "sent": 900, "cached": 650, "out": 12, "estimated": False, "cost": pytest.approx(0.000924)},
        {"type": "notice", "level": "notice", "text": "waiting"},
        {"type": "notice", "level": "warning", "text": "slow"},
        {"type": "notice", "level": "error", "text": "broken"},
    ]  # fmt: skip
    assert events[7]["type"] == "tool_result" and events[7]["id"] == call_ids[1] and events[7]["is_error"] is True
    assert len(set(call_ids)) == 2 and outcome.answer == "Alpha."
    said = err.getvalue()
    assert "● Read(a.txt)" in said and "! waiting\n⚠ slow\n✗ broken\n" in said
    assert " · session s-1\n" in said  # the footer names the session, as the text output does


def test_json_prints_only_the_result_with_the_runs_figures():
    out, err = io.StringIO(), io.StringIO()
    ui = EventUI(False, out, err)
    ui.begin("s-2", "m")
    view = ui.turn_view()
    view.feed("Done.")
    view.feed_reasoning("hm")
    for n in (1, 2):
        ui.tool_start("Read(a)", ToolCall(f"c{n}", "Read", "{}", args={"file_path": "a"}))
        ui.tool_end(Result("…", "Read 1 line"))
    ui.tool_start("check", ToolCall("check", "Bash", "{}"))  # a goal's check: Narnat's call, not the model's
    ui.tool_end(Result("…", "exit 0"))
    stats = TurnStats(sent=10, cached=4, completion=3, requests=2, cost=0.5, estimated=True)
    stats.verified(Verification("pytest", 1, "pytest -k x", filtered=True))
    stats.verified(Verification("pytest", 0, "pytest"))
    stats.unproven = Verification("ruff", None, "ruff check")
    goal = GoalRecord("pytest", (Round(Stop.STEP_LIMIT, None), Round(Stop.COMPLETED, Verification("pytest", 0))),
                      Stop.COMPLETED)  # fmt: skip
    outcome = TurnOutcome(Stop.COMPLETED, "", "Done.", stats, goal, ("a.py",), ("rm -rf b",))
    ui.started = time.monotonic() - 1.23456  # the run began that long ago
    ui.report(outcome, "s-2", 0)
    [result] = lines(out)
    assert result.pop("duration_s") == 1.235  # seconds, to the millisecond
    assert result == {
        "type": "result", "version": VERSION, "answer": "Done.", "is_error": False, "stop": "completed", "message": "",
        "exit_code": 0, "session": "s-2", "requests": 2, "tool_calls": 2, "cost": 0.5,
        "usage": {"sent": 10, "cached": 4, "out": 3, "estimated": True},
        "verifications": [
            {"command": "pytest", "run": "pytest -k x", "filtered": True, "outcome": "failed", "exit_code": 1},
            {"command": "pytest", "run": "pytest", "filtered": False, "outcome": "passed", "exit_code": 0},
        ],
        "suite": {"command": "pytest", "run": "pytest", "filtered": False, "outcome": "passed", "exit_code": 0},
        "unproven_claim": {"command": "ruff", "run": "ruff check", "filtered": False, "outcome": "timed_out",
                           "exit_code": None},
        "changed_files": ["a.py"], "refused": ["rm -rf b"],
        "goal": {"until": "pytest", "verified": True, "stop": "completed", "rounds": 2, "verifications": [
            {"turn": "step_limit", "check": None},
            {"turn": "completed", "check": {"command": "pytest", "run": "", "filtered": False, "outcome": "passed",
                                            "exit_code": 0}},
        ]},
    }  # fmt: skip


def test_a_failed_run_without_figures_says_so_and_names_no_session():
    out = io.StringIO()
    ui = EventUI(False, out, io.StringIO())
    ui.report(TurnOutcome(Stop.PROVIDER_ERROR, "No key."), None, 1)
    [result] = lines(out)
    assert (result["is_error"], result["stop"], result["message"], result["session"]) == (True, "provider_error",
                                                                                           "No key.", None)  # fmt: skip
    assert (result["suite"], result["unproven_claim"], result["goal"], result["cost"]) == (None, None, None, None)


def test_the_key_is_masked_and_terminal_controls_and_line_separators_are_escaped():
    out = io.StringIO()
    ui = EventUI(True, out, io.StringIO())
    ui.secret = "sk-live-0123456789"
    ui.turn_view().feed("key sk-live-0123456789 \x9b2J \x7f \u2028 \u2029 é \x1b")
    assert out.getvalue() == ('{"type": "text", "text": "key [API key] \\u009b2J \\u007f \\u2028 \\u2029 é \\u001b"}\n')
    assert out.getvalue().count("\n") == 1


def test_an_output_that_cannot_encode_everything_gets_ascii_escapes():
    out = Latin1()
    EventUI(True, out, io.StringIO()).turn_view().feed("é 中")
    assert out.getvalue() == '{"type": "text", "text": "\\u00e9 \\u4e2d"}\n'


def test_usage_a_reply_did_not_report_is_no_event():
    out = io.StringIO()
    EventUI(True, out, io.StringIO()).turn_view().replied(None, None)
    assert out.getvalue() == ""


@pytest.mark.parametrize(("stop", "code", "error"), [(Stop.COMPLETED, 0, False), (Stop.STEP_LIMIT, 3, True),
                                                     (Stop.CANCELLED, 130, True), (Stop.FAILED, 1, True)])  # fmt: skip
def test_every_run_that_did_not_complete_is_an_error(stop, code, error):
    out = io.StringIO()
    EventUI(False, out, io.StringIO()).report(TurnOutcome(stop), "s", code)
    [result] = lines(out)
    assert (result["is_error"], result["exit_code"], result["stop"]) == (error, code, stop.value)


def test_text_for_a_person_goes_to_stderr_even_what_the_plain_output_puts_on_stdout():
    out, err = io.StringIO(), io.StringIO()
    ui = EventUI(False, out, err)
    ui.info("3 sessions")
    ui.table(["name", "turns"], [["fix-save", "2"]])
    ui.review("a.py (+1 -1)", "@@ -1 +1 @@\n-a\n+b")
    assert out.getvalue() == ""
    assert err.getvalue() == "3 sessions\nname      turns\nfix-save  2\na.py (+1 -1)\n@@ -1 +1 @@\n-a\n+b\n"


def test_a_reader_that_went_away_ends_the_events_without_a_traceback():
    out, err = Gone(), io.StringIO()
    ui = EventUI(True, out, err)
    view = ui.turn_view()
    for text in ("one", "two", "three"):
        view.feed(text)
    ui.report(TurnOutcome(Stop.COMPLETED, answer="onetwothree"), "s", 0)
    assert out.getvalue() == '{"type": "text", "text": "one"}\n' and err.getvalue() == ""
