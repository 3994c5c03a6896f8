"""Running one slash command in process: which command a line names, what an unknown one is told, the person's own
commands beside the built-in ones, a failure said as one sentence, and what runs while the agent works."""

import pytest

from narnat_agent.commands.custom import UserCommand
from narnat_agent.commands.dispatch import at_once, dispatch

MINE = {"review": UserCommand("review", "Review $ARGUMENTS carefully.", "review a file")}


def test_an_unknown_command_is_named_with_the_closest_one_and_the_line_stays_in_the_repl(harness):
    h = harness()
    assert dispatch(h.agent, "/shwo") is True
    assert dispatch(h.agent, "/rw") is True  # half of "rewind": close enough to suggest
    assert dispatch(h.agent, "/zzz") is True
    assert h.err.getvalue().splitlines() == [
        "✗ Unknown command /shwo. Did you mean /show? /help lists them.",
        "✗ Unknown command /rw. Did you mean /rewind? /help lists them.",
        "✗ Unknown command /zzz. /help lists them.",
    ]


def test_the_persons_own_commands_are_run_suggested_and_listed_by_help_and_a_builtin_wins_its_name(harness):
    h = harness()
    assert dispatch(h.agent, "/REVIEW   app.py  ", MINE) == "Review app.py carefully."
    assert dispatch(h.agent, "/reviw", MINE) is True
    assert h.err.getvalue() == "✗ Unknown command /reviw. Did you mean /review? /help lists them.\n"
    # a mapping that holds a built-in's name too (the loader refuses such files): the built-in runs
    assert dispatch(h.agent, "/jobs", {"jobs": UserCommand("jobs", "not this", "x")}) is True
    assert h.out.getvalue() == "No background commands.\n"
    h.out.truncate(0)
    h.out.seek(0)
    assert dispatch(h.agent, "/help", MINE) is True
    assert "/review [arguments]" in h.out.getvalue() and "review a file" in h.out.getvalue()


def test_exit_is_the_one_command_that_leaves(harness):
    h = harness()
    assert dispatch(h.agent, "/exit") is False
    assert dispatch(h.agent, "/EXIT now") is False
    assert dispatch(h.agent, "/jobs") is True


def test_a_failing_command_says_one_sentence_starting_with_a_capital_and_the_repl_goes_on(harness):
    h = harness()
    assert dispatch(h.agent, "/enter") is True
    assert dispatch(h.agent, "/delete nobody") is True
    assert dispatch(h.agent, "/goal fix the parser") is True  # a goal refused: no check to prove it
    assert h.err.getvalue().splitlines() == [
        "✗ Say which session: /enter <name> (see /show).",
        "✗ There is no session named 'nobody' (see /show).",
        '✗ Say what to do and how to check it: /goal TEXT --until "COMMAND".',
    ]


@pytest.mark.parametrize("line", ["/jobs", "  /JOBS  ", "/context now", "/context the whole window"])
def test_a_command_that_only_shows_something_runs_at_once_while_the_agent_works(harness, line):
    h = harness()
    assert at_once(h.agent, line) is True
    shown = h.out.getvalue()
    assert shown == "No background commands.\n" if "jobs" in line.lower() else shown.startswith("ctx "), shown
    assert h.err.getvalue() == ""


@pytest.mark.parametrize("line", ["/save later", "/exit", "/nosuch", "jobs", "hello /jobs", "/jobs\tnow", "/"])
def test_other_lines_wait_for_the_turns_end_untouched(harness, project, line):
    h = harness()
    assert at_once(h.agent, line) is False
    assert h.out.getvalue() == h.err.getvalue() == ""
    assert not (project / ".narnat" / "sessions").exists()


@pytest.mark.parametrize(
    ("count", "counted"),
    [
        (20, []),
        (21, ["  … 1 more command of your own, in the folders under Files"]),
        (1020, ["  … 1,000 more commands of your own, in the folders under Files"]),
    ],
)
def test_help_names_twenty_commands_of_ones_own_and_counts_the_rest(harness, count, counted):
    h = harness()
    mine = {f"c{n:04}": UserCommand(f"c{n:04}", "text", f"command {n}") for n in range(count)}
    dispatch(h.agent, "/help", mine)
    shown = h.out.getvalue()
    assert shown.count("[arguments]") == 20 and "/c0019 [arguments]" in shown and "/c0020" not in shown
    assert [line for line in shown.splitlines() if "more command" in line] == counted
