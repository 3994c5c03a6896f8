"""The request as it goes out (the body grown from the messages sent before) and the events as they come in."""

import json
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st

from narnat_agent import __version__
from narnat_agent.provider import body as body_module
from narnat_agent.provider.body import Body
from narnat_agent.provider.tokens import estimate
from narnat_agent.provider.transport import APIError, ConnectionFailed, StatusError, TimedOut, Transport, _data
from tests.fake_llm import SSE, Status, Unanswered, chunk, text_reply


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


def test_a_rewind_after_a_new_form_sends_the_conversation_as_it_is_now():
    body = Body()
    messages = [{"role": role, "content": role[0]} for role in ("system", "user", "assistant")]
    sent(body, messages, "with")
    sent(body, messages, "without")  # the provider refused a field: every message serialised again
    del messages[2:]
    assert sent(body, messages, "without")["messages"] == messages
    assert body.grow(messages, "without", lambda m: m) == sum(estimate(m) for m in messages)


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


def test_lines_end_at_a_cr_split_from_its_lf_and_at_a_cr_that_ends_the_stream():
    assert events(b"data: 1\r", b"\n\r", b"\n") == ["1"]
    assert events(b"data: 1\r\r") == ["1"]
    assert events(b"data: 1\n", b"\r") == ["1"]
    assert events(b"data: a\r", b"\ndata: b\r\n\r\n") == ["a\nb"]  # a CRLF cut in two is one line end


def test_only_the_four_fields_open_an_event_and_a_retry_only_with_its_number():
    assert events(b"retry: 10\n\n", b"retry: x\n\n", b"other: x\n\n", b"data:  two\n\n") == ["", " two"]
    assert events(b"event: a\n\n", b"id: 7\n\n", b"data\n\n") == ["", "", ""]


def wire(fake, read_timeout: float = 5.0):
    return Transport(fake.base_url + "/", "sk-wire-key", read_timeout)


def test_a_request_carries_the_key_the_length_and_who_sent_it(fake_llm):
    fake_llm.add(text_reply("a"))
    list(wire(fake_llm).stream("/chat/completions", [b'{"model":', b'"m"}']))
    headers = fake_llm.headers[0]
    assert headers["authorization"] == "Bearer sk-wire-key" and headers["user-agent"] == f"narnat/{__version__}"
    assert headers["content-length"] == "13" and headers["accept"] == "application/json"
    assert fake_llm.requests == [{"model": "m"}]


@pytest.mark.parametrize(
    ("body", "message", "data"),
    [
        ({"error": {"message": "bad model"}}, "Error code: 400 - bad model", {"message": "bad model"}),
        ({"message": "top level"}, "Error code: 400 - top level", {"message": "top level"}),
        ({"error": {"message": ""}}, "Error code: 400", {"message": ""}),
        ({"error": "just words"}, "Error code: 400", "just words"),
        ("[1, 2]", "Error code: 400", [1, 2]),
        ("  not json  ", "Error code: 400", "not json"),
    ],
)
def test_a_refusal_carries_its_code_the_providers_message_and_its_body(fake_llm, body, message, data):
    fake_llm.add(Status(400, body, {"X-Request-Id": "r1"}))
    with pytest.raises(StatusError) as refused:
        wire(fake_llm).stream("/chat/completions", [b"{}"])
    error = refused.value
    assert (error.message, error.body, error.status_code) == (message, data, 400)
    assert str(error) == message and error.headers["x-request-id"] == "r1"


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"error": {"message": "overloaded"}}, "overloaded"),
        ({"error": {"message": ""}}, "An error occurred during streaming"),
        ({"error": "boom"}, "An error occurred during streaming"),
    ],
)
def test_an_error_event_ends_the_stream_as_an_error(fake_llm, event, message):
    fake_llm.add(SSE([chunk({"content": "a"}), event, chunk({"content": "never"})]))
    got = []
    with pytest.raises(APIError) as failed:
        got.extend(wire(fake_llm).stream("/chat/completions", [b"{}"]))
    assert failed.value.message == message and failed.value.body == event["error"] and len(got) == 1


def test_an_empty_error_field_is_no_error_and_done_ends_the_stream(fake_llm):
    fake_llm.add(SSE([chunk({"content": "a"}, error=None), "[DONE]", chunk({"content": "after"})], done=False))
    got = list(wire(fake_llm).stream("/chat/completions", [b"{}"]))
    assert [c["choices"][0]["delta"]["content"] for c in got] == ["a"]


def test_a_server_that_accepts_and_says_nothing_is_a_silent_timeout(fake_llm):
    fake_llm.add(Unanswered())
    with pytest.raises(TimedOut) as timed_out:
        wire(fake_llm, read_timeout=0.2).stream("/chat/completions", [b"{}"])
    assert timed_out.value.silent_server and str(timed_out.value) == "Request timed out."


def test_a_stream_that_goes_silent_times_out_and_one_hung_up_ends(fake_llm):
    fake_llm.add(SSE([chunk({"content": "a"}), chunk({"content": "b"})], delay=5))
    stream = wire(fake_llm, read_timeout=0.2).stream("/chat/completions", [b"{}"])
    with pytest.raises(TimedOut):
        list(stream)
    fake_llm.add(SSE([chunk({"content": "a"})], trickle=": keep-alive\n\n", delay=0.05))
    events = wire(fake_llm).stream("/chat/completions", [b"{}"])
    got = iter(events)
    next(got)
    events.hang_up()
    assert list(got) == [] and fake_llm.answered == []  # else a minute of keep-alives, all sent


def test_nothing_listening_is_a_connection_error(fake_llm):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ConnectionFailed) as failed:
        Transport(f"http://127.0.0.1:{port}/v1", "k", 5).stream("/chat/completions", [b"{}"])
    assert str(failed.value) == "Connection error." and not isinstance(failed.value, TimedOut)
    assert failed.value.__cause__ is not None


def test_a_page_that_is_not_json_is_an_error_and_a_refused_one_a_status_error(fake_llm):
    fake_llm.pages = {"/v1/models": "<html>"}
    with pytest.raises(APIError, match="^not JSON: ") as failed:
        wire(fake_llm).get_json("/models", 5)
    assert not isinstance(failed.value, StatusError)
    fake_llm.pages = {"/v1/models": {"data": []}}
    assert wire(fake_llm).get_json("/models", 5) == {"data": []}
    with pytest.raises(StatusError, match="^Error code: 404 - not found$"):
        wire(fake_llm).get_json("/nothing", 5)


def test_the_body_is_compact_utf_8_without_nan():
    raw = b"".join(Body().build({"model": "m", "stream": True}, [{"role": "user", "content": "hé"}], None, lambda m: m))
    assert raw == '{"model":"m","messages":[{"role":"user","content":"hé"}],"stream":true}'.encode()
    with pytest.raises(ValueError):
        Body().build({"model": "m"}, [{"role": "user", "content": float("nan")}], None, lambda m: m)


def test_the_model_list_is_asked_for_with_the_key(fake_llm):
    fake_llm.models = ["m"]
    assert wire(fake_llm).get_json("/models", 5) == {
        "object": "list",
        "data": [{"id": "m", "object": "model", "created": 0, "owned_by": "fake"}],
    }
    assert fake_llm.probe_headers[0]["authorization"] == "Bearer sk-wire-key"


def test_only_a_server_silent_after_the_connection_is_a_silent_timeout():
    import httpx2

    for cause, silent in ((httpx2.ReadTimeout("r"), True), (httpx2.ConnectTimeout("c"), False), (None, False)):
        timed_out = TimedOut()
        timed_out.__cause__ = cause
        assert timed_out.silent_server is silent


def test_a_stream_cut_after_a_one_character_line_ended_by_a_cr_completes_no_event():
    # the CR that ends the stream ends the line before it: that line is ":" (a keep-alive), not a blank line
    assert events(b"data: 1\n", b":\r") == []


def test_hanging_up_a_stream_already_closed_is_harmless(fake_llm):
    fake_llm.add(SSE([chunk({"content": "a"})]))
    events = wire(fake_llm).stream("/chat/completions", [b"{}"])
    assert [c["choices"][0]["delta"]["content"] for c in events] == ["a"]
    events.close()
    events.hang_up()  # Ctrl-C as the answer ends: its socket is gone


def test_the_model_list_waits_its_own_timeout_not_the_streams():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()  # the connection is accepted by the system and never answered
        port = server.getsockname()[1]
        with pytest.raises(TimedOut) as timed_out:
            Transport(f"http://127.0.0.1:{port}/v1", "k", 600).get_json("/models", 0.2)
    assert timed_out.value.silent_server


def test_a_base_url_loses_only_its_trailing_slashes(fake_llm):
    fake_llm.pages = {"/v1/X/models": {"data": []}}  # a proxy's path ending in a letter the strip must keep
    assert Transport(fake_llm.base_url + "/X//", "k", 5).get_json("/models", 5) == {"data": []}


def test_a_provider_that_moved_is_followed_with_the_whole_body(fake_llm):
    fake_llm.add(Status(307, "", {"Location": fake_llm.base_url + "/moved/chat/completions"}))
    fake_llm.add(SSE([chunk({"content": "a"})]))
    got = list(wire(fake_llm).stream("/chat/completions", [b"{", b"}"]))
    assert [c["choices"][0]["delta"]["content"] for c in got] == ["a"]


def test_a_model_list_that_drips_is_given_up_at_its_timeout():
    # each piece came within the read timeout: /model, which nothing interrupts, waited for ever
    from tests.provider.test_endpoint import _raw_server

    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"
    listener = _raw_server(head, then=b" ", every=0.05)
    try:
        with pytest.raises(TimedOut):
            Transport(f"http://127.0.0.1:{listener.getsockname()[1]}/v1", "k", 600).get_json("/models", 0.3)
    finally:
        listener.close()
