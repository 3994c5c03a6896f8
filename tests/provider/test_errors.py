"""What a provider's refusal means: which status ends the turn with which sentence, which is asked again and after how
long, and the provider's own words as the person reads them."""

import pytest

from narnat_agent.provider.errors import (
    ContextTooLong,
    LLMError,
    ModelRefused,
    Retry,
    provider_words,
    refusal,
    retry_after,
)
from narnat_agent.provider.transport import APIError

URL = "https://api.example.com/v1"


def refused(status: int, message: str, headers: dict | None = None) -> Exception:
    return refusal(status, message, headers, "m-1", URL)


@pytest.mark.parametrize("status", [408, 409, 429, 500, 503])
def test_statuses_worth_asking_again_are_retried_in_the_providers_words(status):
    retry = refused(status, "try again")
    assert isinstance(retry, Retry) and retry.wait is None
    assert str(retry) == retry.english == f"The provider answered status {status} (try again)"


@pytest.mark.parametrize("status", [400, 410, 413, 499])
def test_other_statuses_are_refusals_said_once(status):
    error = refused(status, "bad")
    assert type(error) is LLMError and str(error) == f"The provider rejected the request ({status}): bad"


def test_a_long_message_is_cut_in_the_retry_notice():
    assert str(refused(502, "x" * 300)) == f"The provider answered status 502 ({'x' * 200})"


def test_the_wait_asked_for_is_kept_up_to_a_minute():
    assert refused(429, "slow down", {"retry-after": "60"}).wait == 60.0
    too_long = refused(503, "busy", {"retry-after": "61"})
    assert type(too_long) is LLMError
    assert str(too_long) == "The provider is busy (status 503) and asks to wait 61s; try later."


def test_retry_after_in_milliseconds_comes_first_and_an_unreadable_value_is_skipped():
    assert retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert retry_after({"retry-after-ms": "soon", "retry-after": "9"}) == 9.0
    assert retry_after({"retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"}) is None
    assert retry_after({}) is None and retry_after(None) is None


@pytest.mark.parametrize("value", ["nan", "-5", "inf", "-inf", "1e400"])
def test_a_wait_that_is_no_time_to_sleep_is_skipped(value):
    # a provider's NaN or negative wait reached time.sleep, which raised out of the turn
    assert retry_after({"retry-after": value}) is None
    assert retry_after({"retry-after-ms": value, "retry-after": "2"}) == 2.0
    retry = refused(429, "slow down", {"retry-after": value})
    assert isinstance(retry, Retry) and retry.wait is None


def test_a_full_context_is_its_own_error_only_for_a_400():
    full = refused(400, "This model's maximum context length is 8192 tokens")
    assert type(full) is ContextTooLong
    assert str(full) == (
        "The conversation no longer fits the model's context window (This model's maximum context length is 8192 "
        "tokens)."
    )
    assert type(refused(413, "maximum context length exceeded")) is LLMError


def test_a_429_out_of_quota_is_not_asked_again():
    quota = refused(429, "Insufficient balance")
    assert type(quota) is LLMError
    assert str(quota) == "The provider says the account is out of quota (429): Insufficient balance"


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (401, "The provider rejected the API key (401): check api_key in .narnat/narnat.json or NARNAT_API_KEY."),
        (402, "The provider says the account has no balance (402): no"),
        (403, "The provider refused access (403): no"),
        (404, f"Not found (404): check the model 'm-1' and base_url {URL}."),
    ],
)
def test_each_refusal_names_its_fix(status, expected):
    assert str(refused(status, "no")) == expected


@pytest.mark.parametrize("status", [400, 403, 422])
def test_a_refusal_naming_the_model_is_a_model_refusal(status):
    assert type(refused(status, "Model Not Exist")) is ModelRefused
    assert type(refused(status, "bad field")) is LLMError


def test_not_found_is_always_a_model_refusal():
    assert type(refused(404, "no route")) is ModelRefused
    assert type(refused(401, "model key")) is LLMError


KEY = "sk-abcdefgh12345678"


def test_the_providers_words_come_from_its_error_body_without_the_key():
    assert provider_words(APIError("Error code: 400", {"message": f"bad key {KEY}"}), KEY) == "bad key [API key]"
    assert provider_words(APIError("Error code: 400", {"error": "plain words"}), KEY) == "plain words"
    assert provider_words(APIError("Error code: 400", {"code": "né", "n": 1}), KEY) == '{"code": "né", "n": 1}'
    assert provider_words(APIError("Error code: 400", {"message": {"text": "x"}}), KEY) == '{"text": "x"}'
    assert provider_words(APIError("Error code: 500 - it broke", "it broke"), KEY) == "Error code: 500 - it broke"
    assert provider_words(ValueError("odd"), KEY) == "odd"
