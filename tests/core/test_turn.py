"""How a turn went: the kind of each way it ends, its figures, the verifications it ran and an answer that claims
more than they showed; a headless run's refused commands."""

import pytest

from narnat_agent.core.headless import NobodyToAsk
from narnat_agent.core.turn import GoalRecord, Round, Stop, TurnOutcome, TurnStats, TurnStopped, claims_success
from narnat_agent.i18n import N_, _
from narnat_agent.provider.reply import Reply, Usage
from narnat_agent.tools.base import ToolError
from narnat_agent.tools.verification import Verification


def test_each_stop_has_its_kind():
    kinds = {stop: stop.kind for stop in Stop}
    assert kinds[Stop.COMPLETED] == "completed" and kinds[Stop.CANCELLED] == "cancelled"
    assert kinds[Stop.PROVIDER_ERROR] == kinds[Stop.FAILED] == "failed"
    assert {stop for stop, kind in kinds.items() if kind == "stopped"} == {
        Stop.STEP_LIMIT, Stop.REPEATED_CALLS, Stop.CUT_OFF, Stop.CONFIRMATION_REFUSED, Stop.BUDGET, Stop.TURN_LIMIT,
        Stop.CHECK_COULD_NOT_RUN,
    }  # fmt: skip


def test_a_stopped_turn_says_why_to_the_person_and_in_english_to_the_model():
    stopped = TurnStopped(Stop.STEP_LIMIT, lambda: _(N_("Stopped after {n} steps.")).format(n=3))
    assert str(stopped) == stopped.for_model == "Stopped after 3 steps." and stopped.stop is Stop.STEP_LIMIT


def reply(prompt, completion, cached=0, estimated=False):
    return Reply(usage=Usage(prompt, completion, cached, estimated))


def test_a_turns_figures_add_up_its_requests_and_the_context_is_the_last_ones():
    stats = TurnStats()
    stats.add(reply(1000, 50, 200), None)
    stats.add(Reply(), 5.0)  # a request without usage adds nothing, not even its price
    stats.add(reply(1500, 20, 1000, estimated=True), 0.25)
    stats.add(reply(1600, 10), 0.5)
    assert (stats.context, stats.sent, stats.cached, stats.completion) == (1600, 4100, 1200, 80)
    assert stats.estimated and stats.cost == 0.75


def test_a_turn_without_pricing_has_no_cost_and_its_counts_stay_the_providers():
    stats = TurnStats()
    stats.add(reply(10, 1), None)
    assert stats.cost is None and not stats.estimated


def test_a_turns_duration_is_kept_once_it_ended():
    stats = TurnStats(started=100.0)
    stats.end()
    ended = stats.ended
    assert ended is not None and stats.seconds == ended - 100.0 and stats.seconds == stats.seconds


def check(command, code, filtered=False, run=""):
    return Verification(command, code, run or command, filtered)


def test_the_latest_outcome_of_each_verification_in_the_order_they_last_ran():
    stats = TurnStats()
    for v in (check("pytest", 1), check("ruff", 0), None, check("pytest", 0), check("mypy", 1)):
        stats.verified(v)
    assert [(v.command, v.exit_code) for v in stats.latest] == [("ruff", 0), ("pytest", 0), ("mypy", 1)]
    assert len(stats.verifications) == 4


def test_the_suite_is_the_latest_run_of_the_whole_of_one():
    stats = TurnStats()
    assert stats.suite is None
    stats.verified(check("pytest", 1))
    stats.verified(check("pytest", 0, filtered=True, run="pytest -k one"))
    assert stats.suite == check("pytest", 1)
    stats.verified(check("cargo test", 0))
    assert stats.suite == check("cargo test", 0)


def test_a_goals_whole_check_after_the_turn_is_the_suite_and_a_filtered_one_is_not():
    stats = TurnStats()
    stats.verified(check("pytest", 1))
    stats.check = check("pytest", 0, run="pytest -q")  # --until "pytest -q", run by Narnat after the turn
    assert stats.suite == check("pytest", 0, run="pytest -q") and stats.verifications == [check("pytest", 1)]
    stats.check = check("pytest", 0, filtered=True, run="pytest -k io")
    assert stats.suite == check("pytest", 1)


def test_a_claim_of_success_is_judged_against_the_last_verification_or_the_goals_check():
    stats = TurnStats()
    stats.judge("All tests pass.")
    assert stats.unproven is None  # nothing ran
    stats.verified(check("pytest", 0))
    stats.verified(check("ruff", 1))
    stats.judge("I could not fix it.")
    assert stats.unproven is None
    stats.judge("All tests pass.")
    assert stats.unproven == check("ruff", 1)
    passed = TurnStats(verifications=[check("ruff", 1)], check=check("make check", 0))
    passed.judge("Done.")
    assert passed.unproven is None  # the goal's check decides, and it passed
    timed_out = TurnStats(verifications=[check("pytest", 0)], check=check("make check", None))
    timed_out.judge("Done.")
    assert timed_out.unproven == check("make check", None)


@pytest.mark.parametrize(
    ("answer", "claims"),
    [
        ("The tests passed.", True),
        ("It works now", True),
        ("Everything is now passing.", True),
        ("Verified ✅", True),
        ("The build succeeded.", True),
        ("This isn't done.", False),
        ("It never works.", False),
        ("The tests do not pass yet.", False),
        ("Not really fixed", False),
        ("It works, although it is not done yet.", True),  # one claim the words before do not take back
        ("还未修复", False),
        ("undone", False),
    ],
)
def test_claims_of_success_and_the_words_that_take_them_back(answer, claims):
    assert claims_success(answer) is claims


def test_only_words_close_before_a_claim_take_it_back():
    assert claims_success("No problem: " + "x" * 40 + " all tests pass.")
    assert not claims_success("It is not quite done")  # one word may stand between
    assert not claims_success("not " + "x" * 25 + " done") and claims_success("not " + "x" * 26 + " done")  # 30 before
    assert not claims_success("Not fixed: the parser still fails on an empty input, as before.")  # at the start


def test_a_goal_is_verified_only_when_its_check_passed():
    rounds = (Round(Stop.COMPLETED, check("make", 1)),)
    assert GoalRecord("make", rounds, Stop.COMPLETED).verified
    assert not GoalRecord("make", rounds, Stop.TURN_LIMIT).verified
    assert TurnOutcome(Stop.COMPLETED).completed and not TurnOutcome(Stop.CUT_OFF).completed


def test_nobody_to_ask_refuses_each_command_and_tells_the_model_how_the_user_allows_it():
    nobody = NobodyToAsk()
    with pytest.raises(ToolError) as refused:
        nobody("rm -rf build", "deletes build")
    assert "deletes build" in str(refused.value) and "--yes" in str(refused.value)
    with pytest.raises(ToolError):
        nobody("git push -f", "rewrites the remote")
    assert nobody.refused == ["rm -rf build", "git push -f"]


def test_a_turn_that_completed_around_refused_commands_is_said_to_have_left_them_out():
    nobody = NobodyToAsk()
    done = TurnOutcome(Stop.COMPLETED, answer="ok")
    assert nobody.judge(done) is done
    for command in ("rm -rf build", "git push -f"):
        with pytest.raises(ToolError):
            nobody(command, "why")
    judged = nobody.judge(done)
    assert judged.stop is Stop.CONFIRMATION_REFUSED and judged.answer == "ok"
    assert judged.refused == ("rm -rf build", "git push -f")
    assert judged.message == (
        "The turn finished, but a command that needs confirmation was not run: rm -rf build; git push -f (run with "
        "--yes to allow it)."
    )
    cut = TurnOutcome(Stop.CUT_OFF, message="cut off")
    assert nobody.judge(cut) is cut  # a turn that did not complete says its own reason
