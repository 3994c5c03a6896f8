"""Headless working modes: a goal (`-p TEXT --until COMMAND`) with its rounds in the JSON and the exit code, and a
plan (`-p --plan`) that changes nothing."""

import json

import pytest

from narnat_agent.prompts.texts import PLANNING
from tests.fake_llm import text_reply, tool_reply
from tests.run.test_cli import narnat


@pytest.mark.slow
def test_a_goal_goes_on_until_its_check_passes_and_the_json_tells_each_round(project, fake_llm):
    fake_llm.add(
        text_reply("Done: all tests pass."),
        tool_reply(("Write", {"file_path": "out.txt", "content": "ok\n"})),
        text_reply("Wrote it."),
    )
    done = narnat(project, "-p", "write ok to out.txt", "--until", "grep -q ok out.txt", "--output-format", "json",
                  base_url=fake_llm.base_url)  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["stop"], result["answer"], result["changed_files"]) == ("completed", "Wrote it.", ["out.txt"])
    goal = result["goal"]
    assert (goal["until"], goal["verified"], goal["stop"], goal["rounds"]) == (
        "grep -q ok out.txt",
        True,
        "completed",
        2,
    )
    assert [r["check"]["outcome"] for r in goal["verifications"]] == ["failed", "passed"]
    assert result["unproven_claim"] is None  # the last answer came with a passing check
    # the run's figures count every round, and the model's calls only (the checks are Narnat's)
    assert (result["requests"], result["tool_calls"]) == (len(fake_llm.requests), 1) == (3, 1)
    assert "Round 1 of 10: grep -q ok out.txt: failed (exit 2); going on." in done.stderr
    assert "⚠ the answer claims success, but grep -q ok out.txt: failed (exit 2)" in done.stderr


@pytest.mark.slow
def test_a_goal_out_of_turns_exits_3_and_marks_the_answer_that_claims_success(project, fake_llm):
    fake_llm.add(text_reply("Fixed."), text_reply("Fixed, all tests pass."))
    done = narnat(project, "-p", "fix it", "--until", "test -f fixed", "--max-turns", "2", "--output-format", "json",
                  base_url=fake_llm.base_url)  # fmt: skip
    assert done.returncode == 3, done.stderr
    result = json.loads(done.stdout)
    assert (result["stop"], result["is_error"], result["goal"]["verified"], result["goal"]["rounds"]) == (
        "turn_limit", True, False, 2)  # fmt: skip
    check = {"command": "test -f fixed", "run": "test -f fixed", "filtered": False, "outcome": "failed", "exit_code": 1}
    assert result["unproven_claim"] == check and result["suite"] == check  # the check is the suite: run last, whole
    assert "Goal not met after 2 turns (max_turns): test -f fixed: failed (exit 1)." in done.stderr
    assert len(fake_llm.requests) == 2


@pytest.mark.slow
def test_a_destructive_check_is_refused_in_one_sentence_before_any_request(project, fake_llm):
    (project / "build").mkdir()
    done = narnat(project, "-p", "go", "--until", "rm -rf build", base_url=fake_llm.base_url)
    assert done.returncode == 2 and done.stderr.startswith("✗ The --until command is refused: ")
    assert "Traceback" not in done.stderr and not fake_llm.requests and (project / "build").exists()
    done = narnat(project, "--until", "pytest")
    assert done.returncode == 2 and "--until needs -p" in done.stderr


@pytest.mark.slow
def test_a_headless_plan_changes_nothing_and_the_model_is_told_it_plans(project, fake_llm):
    fake_llm.add(tool_reply(("Write", {"file_path": "new.py", "content": "x\n"})), text_reply("1. Create new.py."))
    done = narnat(project, "-p", "add new.py", "--plan", "--output-format", "json", base_url=fake_llm.base_url)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["answer"], result["changed_files"]) == ("1. Create new.py.", []) and not (
        project / "new.py"
    ).exists()
    assert PLANNING in fake_llm.requests[0]["messages"][-1]["content"]
    assert "plan mode: this would change new.py" in done.stderr
    done = narnat(project, "-p", "x", "--plan", "--until", "make")
    assert done.returncode == 2 and "--plan and --until cannot go together" in done.stderr
