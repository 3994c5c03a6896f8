"""/model's switch, undone when the provider refuses the new model at its first request — by the refusal's kind, in
each provider's words, never by the wording of Narnat's own message."""

import pytest

from narnat_agent.core.turn import Stop
from tests.fake_llm import Status, text_reply

UNDONE = "The provider refused 'nope', so the switch is undone and fake-model answers again ("


@pytest.mark.parametrize(
    "refusal",
    [
        Status(404, {"error": {"message": "The model `nope` does not exist or you do not have access to it."}}),
        Status(404, {"error": "Not Found"}),  # a server that names nothing
        Status(400, {"error": {"message": "Model Not Exist", "type": "invalid_request_error"}}),
        Status(400, {"error": {"code": "model_not_found", "message": "model_not_found"}}),
        Status(403, {"error": {"message": "You are not allowed to use this model."}}),
    ],
)
def test_a_model_refused_at_its_first_request_is_switched_back(harness, fake_llm, refusal):
    h = harness()
    h.agent.use_model("nope")
    fake_llm.add(refusal, text_reply("answered"))
    outcome = h.agent.turn("one")
    assert outcome.stop is Stop.PROVIDER_ERROR and outcome.message.startswith(UNDONE)
    assert h.agent.client.model == "fake-model" and h.agent.model_from == 0
    h.agent.turn("two")
    assert [r["model"] for r in fake_llm.requests] == ["nope", "fake-model"]


@pytest.mark.parametrize(
    "refusal",
    [
        Status(401, {"error": {"message": "Invalid model API key"}}),
        Status(400, {"error": {"message": "messages: at least one message is required"}}),
        Status(402, {"error": {"message": "Insufficient Balance for this model"}}),
    ],
)
def test_other_refusals_keep_the_new_model(harness, fake_llm, refusal):
    h = harness()
    h.agent.use_model("nope")
    fake_llm.add(refusal)
    outcome = h.agent.turn("one")
    assert outcome.stop is Stop.PROVIDER_ERROR and "switch is undone" not in outcome.message
    assert h.agent.client.model == "nope"


def test_a_model_that_has_answered_once_is_kept_when_it_is_refused_later(harness, fake_llm):
    h = harness()
    h.agent.use_model("nope")
    fake_llm.add(text_reply("answered"), Status(404, {"error": "Not Found"}))
    h.agent.turn("one")
    outcome = h.agent.turn("two")
    assert outcome.message == "Not found (404): check the model 'nope' and base_url " + h.config.base_url + "."
    assert h.agent.client.model == "nope" and h.agent.model_from == 1


def test_without_a_switch_a_refused_model_is_an_error_and_nothing_more(harness, fake_llm):
    h = harness()
    fake_llm.add(Status(404, {"error": "Not Found"}))
    outcome = h.agent.turn("one")
    assert outcome.message.startswith("Not found (404): check the model 'fake-model'")
    assert h.agent.client.model == "fake-model"


def test_a_switch_back_to_a_model_other_than_the_configured_one_keeps_its_turn(harness, fake_llm):
    h = harness()
    fake_llm.add(text_reply("a"), text_reply("b"))
    h.agent.turn("one")
    h.agent.use_model("second")
    h.agent.turn("two")
    h.agent.use_model("nope")
    fake_llm.add(Status(404, {"error": "Not Found"}))
    outcome = h.agent.turn("three")
    assert outcome.message.startswith("The provider refused 'nope', so the switch is undone and second answers again")
    assert h.agent.client.model == "second" and h.agent.model_from == 2


def test_the_footer_of_each_turn_names_the_model_switched_to_and_its_first_turn(harness, fake_llm):
    h = harness()
    fake_llm.add(text_reply("a"), text_reply("b"))
    h.agent.turn("one")
    h.agent.use_model("second")
    outcome = h.agent.turn("two")
    assert (outcome.stats.model, outcome.stats.model_from) == ("second", 2)
    assert "second from turn 2" in h.err.getvalue().splitlines()[-1]
