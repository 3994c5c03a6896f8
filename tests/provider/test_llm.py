"""Errors, retries, fallbacks and cost of the streaming client, against the local fake provider."""

import pytest

from narnat_agent.provider.errors import ContextTooLong
from narnat_agent.provider.pricing import cost
from narnat_agent.provider.reply import Usage
from tests.conftest import assert_failed
from tests.fake_llm import SSE, Status, chunk, text_reply, tool_reply, usage


def fail(code, message, **headers):
    return Status(code, {"error": {"message": message, "type": "invalid_request_error"}}, headers)


@pytest.mark.parametrize(
    ("status", "message", "expected"),
    [
        (401, "Authentication Fails", "API key"),
        (402, "Insufficient Balance", "no balance"),
        (403, "blocked by moderation", "refused access"),
        (404, "model not found", "check the model 'fake-model'"),
        (400, "temperature must be 1", "rejected the request"),
        (429, "You exceeded your current quota: insufficient_quota", "out of quota"),
    ],
)
def test_errors_that_retrying_cannot_fix_are_one_sentence_and_sent_once(harness, fake_llm, status, message, expected):
    h = harness()
    fake_llm.add(fail(status, message))
    assert_failed(h.agent.turn("hi"), expected)
    assert len(fake_llm.requests) == 1


def test_context_length_errors_are_their_own_exception(harness, fake_llm):
    h = harness()
    fake_llm.add(fail(400, "This model's maximum context length is 65536 tokens. However, you requested 69648 tokens"))
    with pytest.raises(ContextTooLong):
        h.agent.turn("hi")


def test_glm_context_window_finish_reason_is_a_context_error(harness, fake_llm):
    h = harness()
    fake_llm.add(SSE([chunk({"content": "x"}), chunk(finish="model_context_window_exceeded")]))
    with pytest.raises(ContextTooLong):
        h.agent.turn("hi")


def test_retry_after_is_honoured_and_gives_up_after_four_tries(harness, fake_llm):
    h = harness()
    fake_llm.add(*[fail(429, "slow down", **{"Retry-After": "0"})] * 4)
    assert_failed(h.agent.turn("hi"), "gave up after 4 tries")
    assert len(fake_llm.requests) == 4
    assert h.err.getvalue().count("retrying") == 3


def test_a_long_retry_after_is_not_waited_for(harness, fake_llm):
    h = harness()
    fake_llm.add(fail(503, "busy", **{"Retry-After": "3600"}))
    assert_failed(h.agent.turn("hi"), "asks to wait 3600s")


def test_rejected_stream_options_are_dropped_once_and_remembered(harness, fake_llm):
    h = harness()
    fake_llm.add(fail(400, "Unrecognized request argument supplied: stream_options"), text_reply("a"), text_reply("b"))
    h.agent.turn("one")
    h.agent.turn("two")
    assert ["stream_options" in r for r in fake_llm.requests] == [True, False, False]


def test_reasoning_is_sent_back_on_tool_call_turns_in_its_own_field(harness, fake_llm, project):
    (project / "a.txt").write_text("a\n")
    h = harness()
    thinking = tool_reply(("Read", {"file_path": "a.txt"}))
    thinking.chunks.insert(0, chunk({"reasoning_content": "need the file"}))
    fake_llm.add(thinking, text_reply("done"))
    h.agent.turn("go")
    assistant = fake_llm.requests[1]["messages"][-2]
    assert assistant["reasoning_content"] == "need the file" and assistant["content"] is None
    assert "need the file" in h.err.getvalue()


def test_a_provider_rejecting_the_reasoning_field_gets_it_stripped(harness, fake_llm, project):
    (project / "a.txt").write_text("a\n")
    h = harness()
    thinking = tool_reply(("Read", {"file_path": "a.txt"}))
    thinking.chunks.insert(0, chunk({"reasoning_content": "hmm"}))
    unsupported = fail(400, "messages.2.assistant.reasoning_content: property is unsupported")
    fake_llm.add(thinking, unsupported, text_reply("done"))
    h.agent.turn("go")
    assert "reasoning_content" in fake_llm.requests[1]["messages"][-2]
    assert "reasoning_content" not in fake_llm.requests[2]["messages"][-2]
    assert "reasoning_content" in h.conversation.messages[-3]  # the history itself is unchanged


def test_cost_uses_cached_input_price():
    pricing = {"input": 2.0, "output": 8.0, "cached_input": 0.5}
    assert cost(Usage(prompt=1_000_000, completion=500_000, cached=400_000), pricing) == pytest.approx(1.2 + 0.2 + 4.0)
    assert cost(Usage(10, 10), {}) is None


def test_footer_tells_the_context_from_the_turns_totals(harness, fake_llm, project):
    (project / "a.txt").write_text("x\n")
    h = harness(pricing={"input": 1000.0, "output": 2000.0, "cached_input": 100.0})
    first, second = tool_reply(("Read", {"file_path": "a.txt"})), text_reply("done")
    first.chunks[-1] = usage(prompt=1000, completion=50, cached=0)
    second.chunks[-1] = usage(prompt=1500, completion=20, cached=1000)
    fake_llm.add(first, second)
    outcome = h.agent.turn("x")
    assert (outcome.stats.context, outcome.stats.sent, outcome.stats.cached, outcome.stats.completion) == (
        1500,
        2500,
        1000,
        70,
    )
    footer = h.err.getvalue().strip().splitlines()[-1]
    assert "ctx 1.5k/128k · sent 2.5k (1k cached) · out 70 · 2 requests" in footer
    # per million tokens: 1,500 fresh at 1000 + 1,000 cached at 100 + 70 out at 2000
    assert "cost 1.7400 (session 1.7400)" in footer
