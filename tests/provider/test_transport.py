"""The request as it goes out (the body grown from the messages sent before) and the events as they come in."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from narnat_agent.provider import body as body_module
from narnat_agent.provider.body import Body
from narnat_agent.provider.tokens import estimate
from narnat_agent.provider.transport import _data
from tests.fake_llm import SSE, Status, chunk, text_reply


def sent(body, messages, form=None, outgoing=lambda m: m, **fields):
    return json.loads(b"".join(body.build({"model": "m", **fields}, messages, form, outgoing)))


def test_the_body_carries_the_fields_and_messages_as_json():
    messages = [{"role": "user", "content": 'héllo "quoted"'}]
    assert sent(Body(), messages, stream=True, tools=[{"a": 1}]) == {
        "model": "m", "messages": messages, "stream": True, "tools": [{"a": 1}]}  # fmt: skip
    assert sent(Body(), []) == {"model": "m", "messages": []}


def test_a_grown_body_serialises_only_the_new_messages_and_stays_whole():
    body, seen = Body(), []
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "q"}]

    def outgoing(message):
        seen.append(message["content"])
        return message

    sent(body, messages, outgoing=outgoing)
    messages.append({"role": "assistant", "content": "a"})
    assert sent(body, messages, outgoing=outgoing)["messages"] == messages and seen == ["s", "q", "a"]


def test_a_rewound_conversation_is_sent_as_it_is_now():
    body = Body()
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "first"}]
    sent(body, messages)
    del messages[1:]
    messages.append({"role": "user", "content": "second"})
    assert sent(body, messages)["messages"] == messages
    replaced = [{"role": "system", "content": "summary"}]
    assert sent(body, replaced)["messages"] == replaced


def test_a_new_form_serialises_every_message_again():
    body = Body()
    messages = [{"role": "assistant", "content": None, "reasoning_content": "hmm"}]
    sent(body, messages, "with")
    stripped = sent(body, messages, "without", lambda m: {"role": m["role"], "content": None})
    assert stripped["messages"] == [{"role": "assistant", "content": None}]


def test_full_blocks_are_sent_as_they_are():
    body = Body()
    messages = [{"role": "tool", "content": "x" * 100_000} for _ in range(8)]
    before = body.build({"model": "m"}, messages, None, lambda m: m)
    messages.append({"role": "user", "content": "next"})
    after = body.build({"model": "m"}, messages, None, lambda m: m)
    assert len(before) > 3 and all(a is b for a, b in zip(before[1:-2], after[1:-2], strict=False))


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 40), st.integers(0, 3)), max_size=12))
def test_any_growth_and_rewind_sends_and_counts_the_conversation_as_it_is(steps):
    body, messages = Body(), []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(body_module, "BLOCK", 30)  # blocks of a message or two, so every cut meets a block's edge
        for grown, size, cut in steps:
            messages += [{"role": "user", "content": "y" * size} for _ in range(grown)]
            assert sent(body, messages)["messages"] == messages
            del messages[max(0, len(messages) - cut) :]
            assert body.grow(messages, None, lambda m: m) == sum(estimate(m) for m in messages)  # counted as sent


def events(*chunks: bytes) -> list[str]:
    return list(_data(iter(chunks)))


def test_events_end_at_a_blank_line_whatever_the_line_ends_and_chunk_cuts():
    for stream in (b"data: 1\n\ndata: 2\n\n", b"data: 1\r\n\r\ndata: 2\r\n\r\n", b"data: 1\r\rdata: 2\r\r"):
        assert events(stream) == ["1", "2"]
        assert events(*(stream[i : i + 1] for i in range(len(stream)))) == ["1", "2"]  # one byte at a time


def test_comments_are_keep_alives_and_data_lines_join():
    assert events(b": ping\n\n", b"data: a\ndata:b\n\n", b"event: x\nid: 1\n\n") == ["a\nb", ""]


def test_an_event_cut_off_without_its_blank_line_is_not_taken():
    assert events(b'data: 1\n\ndata: {"half') == ["1"]


def test_a_long_line_arriving_in_many_chunks_is_one_event():
    text = "x" * 100_000
    stream = f"data: {text}\n\n".encode()
    assert events(*(stream[i : i + 100] for i in range(0, len(stream), 100))) == [text]


@pytest.fixture
def client(project, fake_llm):
    from narnat_agent.config.loader import load_config
    from narnat_agent.provider.client import Client

    env = {"NARNAT_API_KEY": "k", "NARNAT_BASE_URL": fake_llm.base_url}
    return Client(load_config(project, project.parent / "home", env=env), notify=lambda text: None)


class Sink:
    text, reasoning, cancelled = "", "", False

    def feed(self, text):
        self.text += text

    def feed_reasoning(self, text):
        self.reasoning += text


def test_each_request_carries_the_whole_conversation_as_it_grew(client, fake_llm):
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "one"}]
    fake_llm.add(text_reply("a"), text_reply("b"))
    client.stream(messages, [], Sink())
    messages += [{"role": "assistant", "content": "a"}, {"role": "user", "content": "two"}]
    client.stream(messages, [], Sink())
    assert fake_llm.requests[1]["messages"] == messages
    assert fake_llm.requests[1]["stream_options"] == {"include_usage": True}
    assert fake_llm.headers[1]["content-type"] == "application/json"


def test_an_error_event_inside_the_stream_is_named_in_the_providers_words(client, fake_llm):
    fake_llm.add(SSE([chunk({"content": "Hel"}), {"error": {"message": "overloaded", "code": 529}}]))
    reply = client.stream([{"role": "user", "content": "hi"}], [], Sink())
    assert reply.cut_off and reply.error == "overloaded" and reply.content == "Hel"


def test_the_model_list_is_read_without_the_sdk(client, fake_llm):
    fake_llm.models = ["b-model", "a-model"]
    assert client.models() == ["a-model", "b-model"]
    fake_llm.models = None
    assert client.models() is None


def test_a_refusal_in_plain_text_is_named_by_its_code(client, fake_llm):
    from narnat_agent.provider.errors import LLMError

    fake_llm.add(Status(403, "Forbidden by the gateway"))
    with pytest.raises(LLMError, match=r"refused access \(403\): Error code: 403"):
        client.stream([{"role": "user", "content": "hi"}], [], Sink())
