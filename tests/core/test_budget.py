"""The run's budget: max_cost and max_tokens_sent stop a turn before the request that would go over."""

import json

import pytest

from narnat_agent.core.budget import Budget
from narnat_agent.core.turn import Stop, TurnStopped
from narnat_agent.provider.reply import Usage
from narnat_agent.provider.usage import doubt, text_floor
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


LIES = {  # what a gateway that counts wrong reports
    "no usage at all": usage(0, 0),
    "more cached than prompt tokens": usage(10, 5, cached=900),
    "negative numbers": usage(-3_000, 5),
    "a prompt far below what was sent": usage(1, 5),
}
DOUBTED = "The provider's token counts cannot be right ("


def reading(n: int, reported: dict):
    """The model reads file n (each call differs: the doom-loop guard stays out of it), the provider counting so."""
    reply = tool_reply(("Read", {"file_path": f"a{n}.txt"}))
    reply.chunks[-1] = reported
    return reply


@pytest.mark.parametrize("lie", LIES)
def test_a_gateway_whose_counts_cannot_be_right_does_not_switch_the_token_budget_off(harness, fake_llm, project, lie):
    for n in range(10):
        (project / f"a{n}.txt").write_text("alpha\n")
    first = harness().agent.window().next_request  # Narnat's own count of the first request
    h = harness(max_tokens_sent=3 * first)
    fake_llm.add(*(reading(n, LIES[lie]) for n in range(10)))
    outcome = h.agent.ask("read them all")
    assert outcome.stop is Stop.BUDGET and len(fake_llm.requests) <= 4, (outcome, len(fake_llm.requests))
    assert h.err.getvalue().count(DOUBTED) == 1 and outcome.stats.estimated


def test_a_gateway_counting_more_cached_than_prompt_tokens_cannot_make_the_cost_negative(harness, fake_llm, project):
    for n in range(10):
        (project / f"a{n}.txt").write_text("alpha\n")
    first = harness().agent.window().next_request
    h = harness(pricing=PRICING, max_cost=3 * first * PRICING["input"] / 1e6)
    fake_llm.add(*(reading(n, usage(10, 5, cached=100_000)) for n in range(10)))
    outcome = h.agent.ask("read them all")
    assert outcome.stop is Stop.BUDGET and len(fake_llm.requests) <= 4 and outcome.stats.cost > 0


def test_a_provider_whose_counts_can_be_right_is_believed(harness, fake_llm, project):
    (project / "a.txt").write_text("alpha\n")
    first = harness().agent.window().next_request
    h = harness()
    fake_llm.add(costly(tool_reply(("Read", {"file_path": "a.txt"})), first // 2),  # a tokenizer's count may be lower
                 costly(text_reply("done"), first))  # fmt: skip
    outcome = h.agent.ask("read a.txt")
    assert outcome.completed and DOUBTED not in h.err.getvalue() and not outcome.stats.estimated
    assert outcome.stats.sent == first // 2 + first


@pytest.mark.slow
def test_headless_json_never_reports_a_negative_cost(project, fake_llm):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text(json.dumps({"pricing": PRICING}))
    reply = text_reply("hello")
    reply.chunks[-1] = usage(10, 5, cached=36_000_000)  # the gateway of the report: "cost": -359.88
    fake_llm.add(reply)
    done = narnat(project, "-p", "hi", "--output-format", "json", base_url=fake_llm.base_url)
    result = json.loads(done.stdout)
    assert done.returncode == 0 and result["cost"] > 0 and DOUBTED in done.stderr, done.stderr


def test_a_server_people_run_themselves_may_count_only_what_it_had_not_cached():
    assert doubt(Usage(10, 5), floor=3_000, local=True) is None  # Ollama counts the prompt it evaluated
    assert doubt(Usage(10, 5), floor=3_000, local=False) == "10 prompt tokens for a request of at least 3,000"
    assert doubt(Usage(10, 5, cached=20), floor=0, local=True) == "20 cached tokens of 10 prompt tokens"
    assert doubt(Usage(750, 5), floor=3_000, local=False) is None  # a quarter of the floor: a tokenizer may do so


def test_a_request_that_reaches_the_limit_exactly_is_sent_and_one_past_it_is_not():
    tokens = Budget(None, 3_000, {})
    tokens.check(3_000)
    with pytest.raises(TurnStopped) as stopped:
        tokens.check(3_001)
    assert stopped.value.stop is Stop.BUDGET and str(stopped.value).startswith("Stopped before the next request:")
    money = Budget(0.03, None, PRICING)  # 3,000 tokens cost 0.03
    money.check(3_000)
    with pytest.raises(TurnStopped) as stopped:
        money.check(3_001)
    assert str(stopped.value).startswith("Stopped before the next request: about 0.0300 would take")


def test_the_next_request_is_priced_as_input_at_the_input_price():
    budget = Budget(0.03, None, {"input": 10.0, "output": 60.0})  # 3,000 tokens in cost 0.03; out, 0.18
    budget.check(3_000)
    with pytest.raises(TurnStopped) as stopped:
        budget.check(3_001)
    assert str(stopped.value).startswith("Stopped before the next request: about 0.0300 would take")


def test_a_model_without_a_price_costs_nothing_against_max_cost():
    budget = Budget(0.01, None, {})
    budget.spend(Usage(1_000_000, 5), None)
    budget.check(1_000_000)
    assert budget.spent == 0.0 and budget.sent == 1_000_000


def test_going_on_past_the_limit_counts_again_from_zero_once():
    budget = Budget(None, 3_000, {})
    budget.spend(Usage(2_000, 5), None)
    with pytest.raises(TurnStopped):
        budget.check(2_000)
    budget.renew()
    budget.check(3_000)  # as much again as the whole budget
    budget.spend(Usage(2_000, 5), None)
    budget.renew()  # no stop since: nothing to renew
    assert budget.sent == 2_000 and not budget.reached


def test_the_floor_counts_the_text_and_the_calls_arguments_and_nothing_else():
    messages = [
        {"role": "system", "content": "s" * 403},
        {"role": "user", "content": [{"type": "text", "text": "t" * 400}, {"type": "image_url", "image_url": {}}]},
        {"role": "assistant", "content": None, "reasoning_content": "r" * 4_000,
         "tool_calls": [{"id": "1", "type": "function", "function": {"name": "Read", "arguments": "a" * 400}}]},
        {"role": "tool", "tool_call_id": "1", "content": "o" * 400},
    ]  # fmt: skip
    assert text_floor(messages) == 400  # 1,603 characters, 4 a token, rounded down
    assert text_floor([]) == 0


@pytest.mark.parametrize("counts", [(-1, 5, 0), (10, -1, 0), (10, 5, -1)])
def test_any_negative_count_is_doubted(counts):
    assert doubt(Usage(*counts), floor=0, local=True) == "negative token counts"


def test_cached_tokens_are_believed_up_to_the_prompt_and_not_one_past_it():
    assert doubt(Usage(3_000, 5, cached=3_000), floor=3_000, local=False) is None
    doubted = doubt(Usage(3_000, 5, cached=3_001), floor=3_000, local=False)
    assert doubted == "3,001 cached tokens of 3,000 prompt tokens"


def test_cached_tokens_are_sent_too():
    budget = Budget(None, 3_000, {})
    budget.spend(Usage(2_000, 5, cached=1_500), None)
    assert budget.sent == 2_000  # max_tokens_sent counts what goes over the wire, cached or not
    with pytest.raises(TurnStopped):
        budget.check(1_001)
