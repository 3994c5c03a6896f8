"""Malformed streams: each is one sentence from the client, in the REPL and in a headless run alike."""

import pytest

from narnat_agent.config.loader import load_config
from narnat_agent.provider.client import Client
from narnat_agent.provider.errors import LLMError
from tests.fake_llm import SSE, chunk, text_reply, usage
from tests.run.test_cli import narnat

BROKEN = {
    "not JSON": "{not json",
    "content a list": chunk({"content": [{"type": "text", "text": "hi"}]}),
    "content a number": chunk({"content": 42}),
    "reasoning a number": chunk({"reasoning_content": 7}),
    "tool name a number": chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {"name": 5, "arguments": "{}"}}]}),
    "choices an object": {"id": "x", "object": "chat.completion.chunk", "choices": {"delta": {}}},
    "finish_reason a number": chunk(finish=3),
}


class Sink:
    text, reasoning, cancelled = "", "", False

    def feed(self, text):
        self.text += text

    def feed_reasoning(self, text):
        self.reasoning += text


@pytest.fixture
def client(project, fake_llm):
    env = {"NARNAT_API_KEY": "k", "NARNAT_BASE_URL": fake_llm.base_url}
    config = load_config(project, project.parent / "home", env=env)
    return Client(config, notify=lambda text: None, sleep=lambda seconds: None)  # the retries do not wait


@pytest.mark.parametrize("shape", BROKEN)
def test_a_malformed_chunk_after_some_text_cuts_the_reply_off_with_a_reason(client, fake_llm, shape):
    fake_llm.add(SSE([chunk({"content": "Hello"}), BROKEN[shape], chunk(finish="stop")]))
    reply = client.stream([{"role": "user", "content": "hi"}], [], Sink())
    assert reply.cut_off and reply.tool_calls == []
    assert reply.error.startswith("malformed stream: ") and reply.content == "Hello"


@pytest.mark.parametrize("shape", ["not JSON", "content a list"])
def test_a_malformed_first_chunk_is_retried_then_one_sentence(client, fake_llm, shape):
    fake_llm.add(*[SSE([BROKEN[shape]]) for _ in range(4)])
    with pytest.raises(LLMError, match=r"^The provider failed before answering \(malformed stream: "):
        client.stream([{"role": "user", "content": "hi"}], [], Sink())
    assert len(fake_llm.requests) == 4


def test_usage_counts_that_are_not_numbers_are_estimated_instead(client, fake_llm):
    bad = usage()
    bad["usage"]["prompt_tokens"] = "12"
    bad["usage"]["completion_tokens"] = None
    fake_llm.add(SSE([chunk({"content": "x" * 40}), chunk(finish="stop"), bad]))
    reply = client.stream([{"role": "user", "content": "hi"}], [], Sink())
    assert reply.usage.estimated and reply.usage.completion == 10 and not reply.cut_off


@pytest.mark.slow
@pytest.mark.parametrize("shape", BROKEN)
def test_headless_run_says_one_sentence_and_exits_1(project, fake_llm, shape):
    fake_llm.add(SSE([chunk({"content": "Hello"}), BROKEN[shape], chunk(finish="stop")]))
    done = narnat(project, "-p", "hi", base_url=fake_llm.base_url)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "malformed stream" in done.stderr and len(done.stderr.strip().splitlines()) <= 2


@pytest.mark.slow
def test_headless_usage_with_a_string_count_still_answers(project, fake_llm):
    bad = usage()
    bad["usage"]["prompt_tokens"] = "lots"
    fake_llm.add(SSE([chunk({"content": "fine"}), chunk(finish="stop"), bad]))
    done = narnat(project, "-p", "hi", base_url=fake_llm.base_url)
    assert done.returncode == 0 and done.stdout == "fine\n" and "Traceback" not in done.stderr


@pytest.mark.slow
def test_headless_text_reply_still_fine(project, fake_llm):
    fake_llm.add(text_reply("all good"))
    assert narnat(project, "-p", "hi", base_url=fake_llm.base_url).stdout == "all good\n"
