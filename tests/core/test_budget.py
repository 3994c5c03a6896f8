"""The run's budget: max_cost and max_tokens_sent stop a turn before the request that would go over."""

import json

import pytest

from narnat_agent.core.turn import Stop
from tests.fake_llm import text_reply, tool_reply, usage
from tests.run.test_cli import narnat

PRICING = {"input": 10.0, "output": 10.0}  # per million tokens: 3,000 tokens cost 0.03


def costly(reply, prompt: int):
    reply.chunks[-1] = usage(prompt)
    return reply


def test_a_token_budget_stops_before_the_request_that_would_go_over(harness, fake_llm, project):
    (project / "a.txt").write_text("alpha\n")
    h = harness(max_tokens_sent=5000)
    fake_llm.add(costly(tool_reply(("Read", {"file_path": "a.txt"})), 3000), text_reply("never asked"))
    outcome = h.agent.ask("read a.txt")
    assert outcome.stop is Stop.BUDGET and len(fake_llm.requests) == 1
    assert "would take this run over max_tokens_sent 5,000 (sent 3,000)" in outcome.message
    assert "A new message allows as much again" in h.err.getvalue()
    assert h.conversation.messages[-1]["role"] == "tool"  # the call that had been made kept its result


def test_a_cost_budget_stops_cleanly_and_a_new_message_allows_as_much_again(harness, fake_llm, project):
    (project / "a.txt").write_text("alpha\n")
    h = harness(pricing=PRICING, max_cost=0.05)
    fake_llm.add(costly(tool_reply(("Read", {"file_path": "a.txt"})), 3000))
    outcome = h.agent.ask("read a.txt")
    assert outcome.stop is Stop.BUDGET and len(fake_llm.requests) == 1
    assert "would take this run's cost over max_cost 0.05 (spent 0.030" in outcome.message
    fake_llm.add(text_reply("went on"))
    assert h.agent.ask("go on").completed and len(fake_llm.requests) == 2


@pytest.mark.slow
def test_headless_over_budget_has_its_own_stop_and_exit_code_3(project, fake_llm):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text(json.dumps({"pricing": PRICING}))
    (project / "a.txt").write_text("alpha\n")
    fake_llm.add(costly(tool_reply(("Read", {"file_path": "a.txt"})), 3000))
    done = narnat(
        project, "-p", "read a.txt", "--max-cost", "0.04", "--output-format", "json", base_url=fake_llm.base_url
    )
    result = json.loads(done.stdout)
    assert done.returncode == 3 and result["stop"] == "budget" and result["exit_code"] == 3, done.stderr
    assert "max_cost 0.04" in result["message"] and len(fake_llm.requests) == 1


@pytest.mark.slow
def test_the_repl_says_the_budget_stopped_the_turn_and_how_to_go_on(project, fake_llm):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text(json.dumps({"max_tokens_sent": 5000}))
    (project / "a.txt").write_text("alpha\n")
    fake_llm.add(costly(tool_reply(("Read", {"file_path": "a.txt"})), 3000), text_reply("went on"))
    done = narnat(project, stdin="read a.txt\ngo on\n", base_url=fake_llm.base_url)
    stopped = "! Stopped before the next request: about 3,"
    assert stopped in done.stderr and "A new message allows as much again" in done.stderr
    assert "went on" in done.stdout and len(fake_llm.requests) == 2


@pytest.mark.parametrize("value", ["0", "-1", "abc", "nan", "inf"])
def test_a_budget_flag_that_is_not_a_positive_number_is_refused(project, value):
    done = narnat(project, "-p", "hi", f"--max-cost={value}")
    assert done.returncode == 2 and f"--max-cost: must be a positive number, not '{value}'" in done.stderr


@pytest.mark.parametrize(("settings", "error"), [
    ({"max_cost": 0}, "'max_cost' must be a positive number"),
    ({"max_cost": "5"}, "'max_cost' must be a positive number"),
    ({"max_tokens_sent": 1.5}, "'max_tokens_sent' must be a positive integer"),
    ({"max_cost": 1.0}, 'A cost budget needs prices: add "pricing"'),
])  # fmt: skip
def test_a_budget_in_the_config_that_cannot_work_is_one_sentence(project, settings, error):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text(json.dumps(settings))
    done = narnat(project, "-p", "hi")
    assert done.returncode == 2 and error in done.stderr and "Traceback" not in done.stderr
