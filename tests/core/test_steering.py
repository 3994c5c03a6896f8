"""Steering: a message sent while the agent works joins the turn at the next tool boundary, appended."""

import json

from narnat_agent.prompts.texts import STEERED
from tests.fake_llm import text_reply, tool_reply


def test_a_message_sent_meanwhile_is_delivered_after_the_calls_in_flight_and_the_turn_goes_on(harness, fake_llm):
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"}), ("Glob", {"pattern": "*.py"})), text_reply("Both done."))
    h = harness()
    sent = [["and the README too"], []]
    h.agent.steering = lambda: sent.pop(0) if sent else []  # what the person typed, as the REPL hands it over
    outcome = h.agent.ask("list the files")
    assert outcome.completed and outcome.answer == "Both done." and h.conversation.turns == 1
    first, second = (r["messages"] for r in fake_llm.requests)
    assert second[: len(first)] == first  # appended: the cached prefix holds
    roles = [m["role"] for m in second[len(first) :]]
    assert roles == ["assistant", "tool", "tool", "user"]  # after the results of both calls in flight
    assert second[-1]["content"] == f"and the README too\n\n<system-reminder>\n{STEERED}\n</system-reminder>"
    assert "❯ and the README too · delivered while the agent worked" in h.err.getvalue()


def test_a_turn_that_makes_no_call_leaves_the_message_for_the_next_question(harness, fake_llm):
    fake_llm.add(text_reply("Hello."))
    h = harness()
    asked = []
    h.agent.steering = lambda: asked.append(1) or []
    h.agent.ask("hi")
    assert not asked and len(fake_llm.requests) == 1


def test_the_api_key_pasted_into_a_message_sent_meanwhile_is_neither_sent_nor_saved_nor_shown(harness, fake_llm):
    key = "sk-canary-5f2c9e1b7d"
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), text_reply("Done."))
    h = harness(api_key=key)
    sent = [[f"use {key} for the upload"], []]
    h.agent.steering = lambda: sent.pop(0) if sent else []
    h.agent.ask("list the files")
    assert fake_llm.requests[1]["messages"][-1]["content"].startswith("use [API key] for the upload")
    assert key not in json.dumps(h.conversation.messages) and key not in json.dumps(fake_llm.requests)
    assert "❯ use [API key] for the upload · delivered" in h.err.getvalue() and key not in h.err.getvalue()
