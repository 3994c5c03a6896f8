"""The figures the client works with: rough token counts, the price of a request, and a prompt that does not fit
the context a local server gives."""

import json

import pytest

from narnat_agent.provider.endpoint import Server
from narnat_agent.provider.fit import Fit
from narnat_agent.provider.pricing import cost
from narnat_agent.provider.reply import Usage
from narnat_agent.provider.tokens import IMAGE_TOKENS, estimate


def test_a_text_is_a_token_for_every_four_characters():
    assert [estimate("x" * n) for n in (0, 3, 4, 7, 8)] == [0, 0, 1, 1, 2]
    assert estimate("é" * 8) == 2  # characters, not bytes


def test_messages_count_as_their_json_with_each_picture_at_a_fixed_price():
    picture = {"type": "image_url", "image_url": {"url": "data:image/png;base64," + "A" * 9_000}}
    message = {"role": "user", "content": [{"type": "text", "text": "é"}, picture, picture]}
    without = {"role": "user", "content": [{"type": "text", "text": "é"}, None, None]}
    assert estimate(message) == len(json.dumps(without, ensure_ascii=False)) // 4 + 2 * IMAGE_TOKENS
    assert IMAGE_TOKENS == 1_600
    assert estimate([{"type": "text", "text": "x" * 40}]) == len(json.dumps([{"type": "text", "text": "x" * 40}])) // 4


def test_a_request_is_priced_per_million_tokens_with_cached_ones_at_their_price():
    pricing = {"input": 2.0, "output": 8.0, "cached_input": 0.5}
    assert cost(Usage(prompt=1_000_000, completion=0, cached=0), pricing) == 2.0
    assert cost(Usage(prompt=0, completion=1_000_000), pricing) == 8.0
    assert cost(Usage(prompt=1_000_000, completion=0, cached=1_000_000), pricing) == 0.5


def test_without_a_cached_price_cached_tokens_cost_as_input_and_a_missing_price_is_free():
    assert cost(Usage(prompt=1_000_000, completion=1_000_000, cached=500_000), {"input": 2.0}) == 2.0
    assert cost(Usage(prompt=1_000_000, completion=1_000_000, cached=1_000_000), {"output": 3.0}) == 3.0


def test_no_price_without_pricing_or_usage_and_never_a_negative_one():
    assert cost(Usage(10, 10), {}) is None and cost(None, {"input": 1.0}) is None
    assert cost(Usage(prompt=10, completion=0, cached=1_000_000), {"input": 1.0, "cached_input": 0.0}) == 0.0


OLLAMA = Server("Ollama", 2048)


def fit(server=OLLAMA):
    said: list[str] = []
    return Fit(said.append, "qwen3:8b", server), said


def test_a_prompt_larger_than_the_servers_context_is_said_once_with_the_fix():
    checked, said = fit()
    checked.before(2048)
    assert said == []
    checked.before(2049)
    checked.before(5000)
    assert said == [
        "This request is about 2,049 tokens, but Ollama runs qwen3:8b with a 2,048-token context and cuts the rest "
        "without an error; the model loses part of its instructions, tools or conversation. To fix: set "
        "OLLAMA_CONTEXT_LENGTH=32768 in the environment of `ollama serve` (or PARAMETER num_ctx 32768 in a "
        "Modelfile), then set context_window in .narnat/narnat.json to match."
    ]


def test_no_server_or_no_known_context_says_nothing_before():
    for server in (None, Server("vLLM", None)):
        checked, said = fit(server)
        checked.before(10**9)
        assert said == []


def test_a_server_that_counted_far_fewer_tokens_than_were_sent_is_said_once():
    checked, said = fit(Server("vLLM", None))
    checked.after(4000, Usage(prompt=1999, completion=1, cached=1000))  # 2,999 of 4,000: just under three quarters
    checked.after(4000, Usage(prompt=10))
    assert len(said) == 1 and said[0].startswith(
        "vLLM counted 2,999 prompt tokens but about 4,000 were sent: it cut the prompt to fit a smaller context; "
    )
    assert said[0].endswith("To fix: start vllm serve with a larger --max-model-len, then set context_window in "
                            ".narnat/narnat.json to match.")  # fmt: skip


@pytest.mark.parametrize(
    ("sent", "usage"),
    [
        (4000, Usage(prompt=3000)),  # three quarters exactly
        (4000, Usage(prompt=2000, cached=1000)),  # the cached tokens count as sent
        (1999, Usage(prompt=1000)),  # under a thousand missing: the estimate's own error
        (9000, Usage(prompt=10, estimated=True)),  # Narnat's own estimate says nothing of the server
        (9000, None),
    ],
)
def test_a_count_close_enough_or_no_count_says_nothing(sent, usage):
    checked, said = fit(Server("llama.cpp", None))
    checked.after(sent, usage)
    assert said == []


def test_a_cut_just_a_thousand_tokens_short_is_said():
    checked, said = fit(Server("llama.cpp", None))
    checked.after(4000, Usage(prompt=2000, cached=1000 - 1))
    assert len(said) == 1
    checked, said = fit(Server("llama.cpp", None))
    checked.after(2000, Usage(prompt=1000))
    assert len(said) == 1


def test_a_cloud_provider_is_never_doubted_after():
    checked, said = fit(None)
    checked.after(9000, Usage(prompt=10))
    assert said == []


def test_once_said_after_nothing_more_is_said_before():
    checked, said = fit()
    checked.after(9000, Usage(prompt=10))
    checked.before(9000)
    assert len(said) == 1 and said[0].startswith("Ollama counted 10 prompt tokens")
