"""Goals: turn after turn until a command the person named passes, checked by Narnat, never by the model's word."""

import sys

import pytest

from narnat_agent.commands.dispatch import dispatch
from narnat_agent.core.goal import Goal, GoalRefused, pursue, split_goal
from narnat_agent.core.turn import Stop, claims_success
from narnat_agent.tools.verification import Verification
from narnat_agent.ui.plain import PlainStream, PlainUI
from tests.fake_llm import text_reply, tool_reply, usage


@pytest.mark.slow
def test_the_loop_goes_on_after_the_model_says_done_until_the_check_passes(harness, fake_llm, project):
    fake_llm.add(
        text_reply("Done, all tests pass."),  # a claim, and nothing done
        tool_reply(("Write", {"file_path": "check.txt", "content": "ok\n"})),
        text_reply("Fixed."),
    )
    h = harness()
    outcome = pursue(h.agent, Goal("make check.txt say ok", "grep -q ok check.txt", 5))
    assert outcome.stop is Stop.COMPLETED and outcome.goal and outcome.goal.verified
    assert [(r.stop, r.check and r.check.status) for r in outcome.goal.rounds] == [
        (Stop.COMPLETED, "failed"), (Stop.COMPLETED, "passed")
    ]  # fmt: skip
    first, second = (r["messages"] for r in (fake_llm.requests[0], fake_llm.requests[1]))
    assert "After each of your turns Narnat runs `grep -q ok check.txt`" in first[-1]["content"]
    told = second[-1]["content"]
    assert (
        told.startswith("Go on with the goal: make check.txt say ok")
        and "`grep -q ok check.txt`: failed (exit 2)" in told
    )
    assert second[: len(first)] == first  # the failure is appended: the history the provider cached stays
    err = h.err.getvalue()
    assert "● Check(grep -q ok check.txt)" in err and "Round 1 of 5: grep -q ok check.txt: failed (exit 2)" in err
    assert "⚠ the answer claims success, but grep -q ok check.txt: failed (exit 2)" in err  # the first footer
    assert "Goal met: grep -q ok check.txt passed after 2 turns." in err
    assert len(fake_llm.requests) == 3 and h.conversation.turns == 2


def test_the_turns_of_a_goal_are_bounded_by_max_turns(harness, fake_llm):
    fake_llm.add(text_reply("Done."), text_reply("Done, really."))
    h = harness()
    outcome = pursue(h.agent, Goal("make it pass", "test -f never.txt", 2))
    assert outcome.stop is Stop.TURN_LIMIT and outcome.stop.kind == "stopped"
    assert outcome.goal and not outcome.goal.verified and len(outcome.goal.rounds) == 2
    assert outcome.stats.unproven and outcome.stats.unproven.command == "test -f never.txt"
    assert "Goal not met after 2 turns (max_turns): test -f never.txt: failed (exit 1)." in h.err.getvalue()
    assert len(fake_llm.requests) == 2


def test_a_turn_that_stops_early_ends_the_goal_without_a_check(harness, fake_llm, project):
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})))
    h = harness(max_steps=1)
    outcome = pursue(h.agent, Goal("list", "touch ran.txt", 5))
    assert outcome.stop is Stop.STEP_LIMIT and outcome.goal and outcome.goal.rounds[0].check is None
    assert not (project / "ran.txt").exists() and "Goal not met: stopped (step limit) in turn 1" in h.err.getvalue()


def test_a_destructive_check_is_refused_before_anything_starts(harness, fake_llm, project):
    (project / "build").mkdir()
    h = harness()
    with pytest.raises(GoalRefused, match=r"^The --until command is refused: .*build.*only checks"):
        pursue(h.agent, Goal("clean up", "rm -rf build && pytest", 3))
    assert not fake_llm.requests and (project / "build").exists()


@pytest.mark.parametrize("until", ["pytest && top", "python -i check.py"])
def test_a_check_that_would_wait_for_a_person_is_refused_before_anything_starts(harness, fake_llm, until):
    h = harness()
    with pytest.raises(GoalRefused, match=r"^The --until command is refused: .*(interactive|waits for input).*checks"):
        pursue(h.agent, Goal("make it pass", until, 3))
    assert not fake_llm.requests and h.agent.until is None


def test_slash_goal_runs_the_loop_and_says_how_to_write_it(harness, fake_llm):
    fake_llm.add(tool_reply(("Write", {"file_path": "a.txt", "content": "x"})), text_reply("ok"))
    h = harness()
    assert dispatch(h.agent, "/goal write a.txt") is True
    assert '✗ Say what to do and how to check it: /goal TEXT --until "COMMAND".' in h.err.getvalue()
    assert dispatch(h.agent, "/goal write a.txt, don't stop --until 'test -s a.txt'") is True
    assert "Goal met: test -s a.txt passed after 1 turn." in h.err.getvalue()
    assert fake_llm.requests[0]["messages"][-1]["content"].startswith("write a.txt, don't stop\n\n<system-reminder>")


def test_split_goal():
    assert split_goal('fix it --until "pytest -q tests/a.py"') == ("fix it", "pytest -q tests/a.py")
    assert split_goal("fix --until-ish --until make check") == ("fix --until-ish", "make check")
    for bad in ("fix it", "--until pytest", "fix it --until", "fix it --until ''"):
        with pytest.raises(GoalRefused):
            split_goal(bad)


@pytest.mark.parametrize(
    ("answer", "claims"),
    [("All tests pass now.", True), ("Fixed the off-by-one.", True), ("Done!", True), ("测试通过。", True),
     ("The test is not fixed yet.", False), ("It still does not work.", False), ("I changed parse().", False),
     ("还没有完成", False)],
)  # fmt: skip
def test_claims_of_success_are_told_from_their_negations(answer, claims):
    assert claims_success(answer) is claims


def test_a_turn_whose_answer_claims_success_after_its_own_tests_failed_is_marked(harness, fake_llm):
    fake_llm.add(tool_reply(("Bash", {"command": "make no-such-target"})), text_reply("All tests pass."),
                 tool_reply(("Bash", {"command": "make no-such-target"})), text_reply("It still fails."))  # fmt: skip
    h = harness()
    outcome = h.agent.ask("run the tests")
    assert outcome.stats.unproven and outcome.stats.unproven.status == "failed"
    assert "⚠ the answer claims success, but make no-such-target: failed (exit 2)" in h.err.getvalue()
    assert h.agent.ask("again").stats.unproven is None


def test_a_check_that_runs_a_script_decides_the_goal_as_any_command(harness, fake_llm, project):
    (project / "check.py").write_text("raise SystemExit(3)\n")
    fake_llm.add(text_reply("Done."))
    h = harness()
    check = f"{sys.executable} check.py"
    outcome = pursue(h.agent, Goal("make the check pass", check, 1))
    assert outcome.goal and [r.check for r in outcome.goal.rounds] == [Verification(check, 3, check)]
    assert f"Goal not met after 1 turn (max_turns): {check}: failed (exit 3)." in h.err.getvalue()


def test_a_goal_in_plan_mode_is_refused_and_nothing_is_sent(harness, fake_llm):
    h = harness()
    h.agent.plan_mode(True)
    with pytest.raises(GoalRefused, match=r"^plan mode is on, and a goal changes things: /go or Shift-Tab"):
        pursue(h.agent, Goal("do it", "true", 3))
    assert not fake_llm.requests and h.agent.until is None


def test_the_goals_figures_are_its_turns_summed_and_the_next_question_carries_the_checks_last_output(
    harness, fake_llm, project
):
    (project / "out.txt").write_text("".join(f"line {n}\n" for n in range(1, 1001)))  # some 9,000 characters
    first, second = text_reply("Done."), text_reply("Done again.")
    first.chunks[-1] = usage(prompt=1000, completion=10, cached=100)
    second.chunks[-1] = usage(prompt=1200, completion=20, cached=300)
    fake_llm.add(first, second)
    h = harness(pricing={"input": 1_000_000.0, "output": 0.0, "cached_input": 0.0})
    outcome = pursue(h.agent, Goal("make it pass", "cat out.txt && false", 2))
    assert outcome.stop is Stop.TURN_LIMIT and h.agent.until is None
    stats = outcome.stats
    assert (stats.sent, stats.cached, stats.completion, stats.requests, stats.context) == (2200, 400, 30, 2, 1200)
    assert stats.cost == pytest.approx(900 + 900) and len(stats.verifications) == 0
    told = fake_llm.requests[1]["messages"][-1]["content"]
    assert told.startswith("Go on with the goal: make it pass")
    assert "Narnat ran `cat out.txt && false`: failed (exit 1). The goal is not met yet." in told
    assert "line 1000\n(exit code 1)\n```" in told and "\nline 500\n" not in told  # the end, where errors are
    err = h.err.getvalue()
    assert "! Round 1 of 2: cat out.txt && false: failed (exit 1); going on." in err.splitlines()
    assert "Round 2 of 2" not in err and "The goal is not met yet. The end of its output:\n```\n" in told
    assert "⚠ Goal not met after 2 turns (max_turns): cat out.txt && false: failed (exit 1)." in err.splitlines()
    assert stats.cost is not None and stats.seconds >= 0 and not stats.estimated


def test_a_goal_stopped_by_the_provider_says_so_and_that_the_check_did_not_run(harness, fake_llm):
    from tests.fake_llm import Status

    fake_llm.add(Status(401, {"error": {"message": "bad key"}}))
    h = harness()
    outcome = pursue(h.agent, Goal("do it", "true", 3))
    assert outcome.stop is Stop.PROVIDER_ERROR and outcome.goal and len(outcome.goal.rounds) == 1
    assert outcome.message == "Goal not met: stopped (provider error) in turn 1; true: not run."
    assert "⚠ Goal not met: stopped (provider error) in turn 1; true: not run." in h.err.getvalue().splitlines()
    assert [r.stop for r in outcome.goal.rounds] == [Stop.PROVIDER_ERROR]


def test_a_goal_met_at_once_says_so_in_the_singular_and_carries_no_message(harness, fake_llm):
    fake_llm.add(text_reply("Nothing to do."))
    h = harness()
    outcome = pursue(h.agent, Goal("check", "true", 3))
    assert outcome.stop is Stop.COMPLETED and outcome.message == "" and outcome.goal.verified
    assert "! Goal met: true passed after 1 turn." in h.err.getvalue().splitlines()
    assert [r.stop for r in outcome.goal.rounds] == [Stop.COMPLETED]
    assert "After each of your turns Narnat runs `true`;" in fake_llm.requests[0]["messages"][-1]["content"]


def test_a_check_quoted_whole_is_taken_without_its_quotes():
    assert split_goal("fix it --until 'make check'") == ("fix it", "make check")
    assert split_goal("fix it --until \"make check'") == ("fix it", "\"make check'")  # quotes that do not pair
    assert split_goal('fix it --until "') == ("fix it", '"')
    assert split_goal("fix it --until XyX") == ("fix it", "XyX")


def test_a_goal_met_in_its_second_turn_sums_what_the_turns_cost_and_says_so_in_the_plural(harness, fake_llm):
    estimated = text_reply("Done.")
    estimated.chunks.pop()  # no usage: the turn's counts are estimated
    fake_llm.add(estimated, tool_reply(("Write", {"file_path": "made.txt", "content": "x"})), text_reply("Now."))
    h = harness()
    outcome = pursue(h.agent, Goal("make it", "test -f made.txt", 1 + 1))
    assert outcome.stop is Stop.COMPLETED and outcome.stats.estimated and outcome.stats.cost is None
    assert "! Goal met: test -f made.txt passed after 2 turns." in h.err.getvalue().splitlines()


def test_a_goal_of_one_turn_says_so_in_the_singular(harness, fake_llm):
    fake_llm.add(text_reply("Done."))
    h = harness()
    outcome = pursue(h.agent, Goal("make it", "test -f never.txt", 1))
    assert outcome.message == "Goal not met after 1 turn (max_turns): test -f never.txt: failed (exit 1)."
    assert f"⚠ {outcome.message}" in h.err.getvalue().splitlines()


@pytest.mark.slow  # two checks each stopped at their timeout
def test_a_check_stopped_at_the_bash_timeout_has_not_passed_and_the_goal_goes_on(harness, fake_llm):
    fake_llm.add(text_reply("Done."), text_reply("Done again."))
    h = harness(bash_timeout_ms=200)
    outcome = pursue(h.agent, Goal("make it quick", "sleep 30", 2))
    assert outcome.goal and not outcome.goal.verified and outcome.stop is Stop.TURN_LIMIT
    assert [r.check and r.check.status for r in outcome.goal.rounds] == ["timed_out", "timed_out"]
    assert outcome.message == "Goal not met after 2 turns (max_turns): sleep 30: timed out."
    assert "`sleep 30`: timed out. The goal is not met yet." in fake_llm.requests[1]["messages"][-1]["content"]


def test_a_goal_stopped_in_a_later_turn_names_that_turn_and_the_last_check(harness, fake_llm):
    from tests.fake_llm import Status

    fake_llm.add(text_reply("Done."), Status(401, {"error": {"message": "bad key"}}))
    h = harness()
    outcome = pursue(h.agent, Goal("make it", "test -f never.txt", 3))
    assert outcome.message == ("Goal not met: stopped (provider error) in turn 2; test -f never.txt: failed (exit 1).")


def test_slash_goal_is_bounded_by_the_max_turns_setting(harness, fake_llm):
    fake_llm.add(text_reply("Done."), text_reply("Done, really."))
    h = harness(max_turns=2)
    assert dispatch(h.agent, "/goal make it pass --until 'test -f never.txt'") is True
    assert "Goal not met after 2 turns (max_turns): test -f never.txt: failed (exit 1)." in h.err.getvalue()
    assert len(fake_llm.requests) == 2


class Rounds(PlainUI):
    """The plain UI, keeping each turn's outcome as its view finishes."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.outcomes: list = []

    def turn_view(self) -> PlainStream:
        ui = self

        class Kept(PlainStream):
            def finish(self, outcome) -> None:
                ui.outcomes.append(outcome)
                super().finish(outcome)

        self.stream = Kept(self)
        return self.stream


def test_a_goals_time_runs_from_its_first_turns_start_to_its_last_turns_end(harness, fake_llm):
    import io

    fake_llm.add(text_reply("Done."), text_reply("Done, really."))
    ui = Rounds(io.StringIO(), io.StringIO(), io.StringIO())
    outcome = pursue(harness(ui=ui).agent, Goal("make it pass", "test -f never.txt", 2))
    first, last = (turn.stats for turn in ui.outcomes)
    assert (outcome.stats.started, outcome.stats.ended) == (first.started, last.ended)


def test_a_check_that_cannot_run_ends_the_goal_at_once_naming_why(harness, fake_llm):
    fake_llm.add(text_reply("Done."), text_reply("never sent"))
    h = harness()
    outcome = pursue(h.agent, Goal("make it", "no-such-runner-xyz --all", 5))
    assert outcome.stop is Stop.CHECK_COULD_NOT_RUN and outcome.stop.kind == "stopped"
    assert outcome.goal and len(outcome.goal.rounds) == 1 and len(fake_llm.requests) == 1  # no second round
    assert outcome.message.startswith("Goal stopped: the check no-such-runner-xyz --all could not run (exit 127: ")
    assert "no-such-runner-xyz: command not found" in outcome.message
    assert outcome.message.endswith("install what it needs, or give the goal a command that runs here.")
    assert f"⚠ {outcome.message}" in h.err.getvalue().splitlines()
