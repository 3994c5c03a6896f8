"""The streaming client in process: the key kept off the screen, retries and their waits, limits, refusals cured by
a field dropped, the model list, and the usage it counts where the provider did not."""

import gzip
import json
import random
import socket
import threading

import pytest

from narnat_agent.config.loader import load_config
from narnat_agent.provider.client import Client
from narnat_agent.provider.endpoint import Server
from narnat_agent.provider.errors import LLMError
from narnat_agent.provider.tokens import estimate
from tests.conftest import assert_failed
from tests.fake_llm import SSE, Headers, Raw, Status, chunk, text_reply, tool_reply, usage

KEY = "sk-live-0123456789abcdef"
USER = [{"role": "user", "content": "hi"}]


class Sink:
    """What reached the screen, in order, each piece with its kind."""

    def __init__(self) -> None:
        self.pieces: list[tuple[str, str]] = []
        self.cancelled = False

    def feed(self, text):
        self.pieces.append(("text", text))

    def feed_reasoning(self, text):
        self.pieces.append(("reasoning", text))

    def joined(self) -> list[tuple[str, str]]:
        """Runs of one kind joined: how the screen shows them."""
        runs: list[tuple[str, str]] = []
        for kind, text in self.pieces:
            if runs and runs[-1][0] == kind:
                runs[-1] = (kind, runs[-1][1] + text)
            else:
                runs.append((kind, text))
        return runs


class Clock:
    """The silence's time: still until the provider has the request, then far past every limit."""

    def __init__(self, asked: threading.Event, jump: float) -> None:
        self.asked, self.jump = asked, jump

    def __call__(self) -> float:
        return self.jump if self.asked.is_set() else 0.0


def config(project, base_url, key=KEY, **settings):
    if settings:
        (project / ".narnat").mkdir(exist_ok=True)
        (project / ".narnat" / "narnat.json").write_text(json.dumps(settings))
    env = {"NARNAT_API_KEY": key, "NARNAT_BASE_URL": base_url, "NARNAT_MODEL": "fake-model"}
    return load_config(project, project.parent / "home", env=env)


@pytest.fixture
def made(project, fake_llm):
    """A client of the fake provider, with what it said and how long it waited between tries."""

    def make(server=None, clock=None, base_url=None, **settings):
        said, waits = [], []
        extra = {"clock": clock} if clock else {}
        client = Client(config(project, base_url or fake_llm.base_url, **settings), said.append, server,
                        sleep=waits.append, **extra)  # fmt: skip
        client.said, client.waits = said, waits
        return client

    return make


def fail(code, message, **headers):
    return Status(code, {"error": {"message": message}}, headers)


@pytest.mark.parametrize(
    ("held", "shown"),
    [
        ((2, 3, 1), [("reasoning", "I use " + KEY[:2]), ("text", "Done with " + KEY[:3]), ("reasoning", " more"),
                     ("text", "and " + KEY[:1])]),  # a few characters come out before the other kind's piece
        ((6, 9, 4), [("reasoning", "I use "), ("text", "Done with "), ("reasoning", KEY[:6] + " more"),
                     ("text", KEY[:9] + "and " + KEY[:4])]),  # more waits for its own kind's next piece, or the end
    ],
)  # fmt: skip
def test_what_may_start_the_key_waits_for_the_next_piece_of_its_kind_but_a_few_characters(made, fake_llm, held, shown):
    reasoning, answer, last = held
    fake_llm.add(SSE([
        chunk({"reasoning_content": "I use " + KEY[:reasoning]}),
        chunk({"content": "Done with " + KEY[:answer]}),
        chunk({"reasoning_content": " more"}),
        chunk({"content": "and " + KEY[:last]}),
        chunk(finish="stop"),
        usage(),
    ]))  # fmt: skip
    sink = Sink()
    made().stream(USER, [], sink)
    assert sink.joined() == shown


@pytest.mark.parametrize("cut", [1, 3, 4, 9, len(KEY) - 1])
@pytest.mark.parametrize(("held", "between"), [("content", "reasoning_content"), ("reasoning_content", "content")])
def test_a_key_cut_by_a_piece_of_the_other_kind_is_masked(made, fake_llm, held, between, cut):
    fake_llm.add(SSE([
        chunk({held: "key: " + KEY[:cut]}),
        chunk({between: "thinking"}),
        chunk({held: KEY[cut:] + "."}),
        chunk(finish="stop"),
    ]))  # fmt: skip
    sink = Sink()
    made().stream(USER, [], sink)
    kind = "text" if held == "content" else "reasoning"
    shown = "".join(t for k, t in sink.pieces if k == kind)
    let_go = KEY[:cut] if cut < 4 else ""  # a few characters come out before the other kind's piece
    assert KEY[:4] not in shown and shown == f"key: {let_go}[API key]."
    assert "".join(t for k, t in sink.pieces if k != kind) == "thinking"


def test_a_key_written_across_pieces_is_masked_in_the_answer_and_the_reasoning(made, fake_llm):
    fake_llm.add(SSE([
        chunk({"reasoning_content": "also " + KEY[:12]}),
        chunk({"reasoning_content": KEY[12:]}),
        chunk({"content": "key: " + KEY[:5]}),
        chunk({"content": KEY[5:] + "."}),
        chunk(finish="stop"),
    ]))  # fmt: skip
    sink = Sink()
    made().stream(USER, [], sink)
    text = "".join(t for kind, t in sink.pieces if kind == "text")
    reasoning = "".join(t for kind, t in sink.pieces if kind == "reasoning")
    assert KEY not in text and KEY not in reasoning and text.startswith("key: ") and text.endswith(".")
    assert reasoning.startswith("also ") and [kind for kind, _ in sink.joined()] == ["reasoning", "text"]


def test_retries_wait_longer_each_time_and_say_which_try_comes(made, fake_llm):
    fake_llm.add(*[fail(500, "upstream broke")] * 3, text_reply("fine"))
    client = made()
    random.seed(7)
    reply = client.stream(USER, [], Sink())
    assert reply.content == "fine" and len(fake_llm.requests) == 4
    for wait, base in zip(client.waits, (0.5, 1.0, 2.0), strict=True):
        assert 0.75 * base <= wait <= base  # up to a quarter less, so clients do not come back together
    assert [said.split("(try ")[1] for said in client.said] == ["2 of 4).", "3 of 4).", "4 of 4)."]
    first = client.said[0]
    assert first.startswith("The provider answered status 500 (upstream broke); retrying in ")
    assert f"retrying in {client.waits[0]:.1f}s" in first


def test_the_wait_the_provider_asks_for_is_taken_in_seconds_or_milliseconds(made, fake_llm):
    client = made()
    fake_llm.add(fail(429, "slow down", **{"Retry-After": "3"}), fail(429, "slow down", **{"retry-after-ms": "1500"}),
                 text_reply("ok"))  # fmt: skip
    client.stream(USER, [], Sink())
    assert 2.25 <= client.waits[0] <= 3.0 and 1.125 <= client.waits[1] <= 1.5


def test_a_wait_the_provider_asks_for_beyond_the_own_backoffs_longest_is_kept(made, fake_llm):
    client = made()
    fake_llm.add(fail(429, "slow down", **{"Retry-After": "30"}), text_reply("ok"))
    client.stream(USER, [], Sink())
    assert 22.5 <= client.waits[0] <= 30.0  # coming back sooner is refused again


def test_a_wait_that_is_not_a_number_falls_back_to_the_own_backoff(made, fake_llm):
    client = made()
    fake_llm.add(fail(429, "slow down", **{"Retry-After": "nan"}), fail(503, "busy", **{"Retry-After": "-5"}),
                 text_reply("ok"))  # fmt: skip
    assert client.stream(USER, [], Sink()).content == "ok"
    assert 0.375 <= client.waits[0] <= 0.5 and 0.75 <= client.waits[1] <= 1.0


def never_ending(delta: dict) -> SSE:
    """A provider that streams the same piece of the answer until the client hangs up (at most 60 s)."""
    return SSE([chunk({"role": "assistant"})], trickle=f"data: {json.dumps(chunk(delta))}\n\n")


@pytest.mark.parametrize(
    "delta",
    [{"content": "la " * 3000}, {"reasoning_content": "hmm " * 2500},
     {"tool_calls": [{"index": 0, "id": "c1", "type": "function",
                     "function": {"name": "Bash", "arguments": "a" * 9000}}]}],
)  # fmt: skip
def test_an_answer_that_never_ends_is_stopped_past_what_the_context_window_holds(made, fake_llm, delta):
    # it was read until request_timeout_s (30 min): 888 MB of memory in 20 s
    client = made()
    fake_llm.add(never_ending(delta))
    reply = client.stream(USER, [], Sink())
    limit = 128_000 * 8
    assert reply.cut_off and not reply.tool_calls and reply.error is None
    assert len(reply.content) + len(reply.reasoning) <= limit + 9000
    assert client.said == [f"The provider sent more than {limit:,} characters in one answer, more than the context "
                           f"window holds; the answer stops there."]  # fmt: skip


@pytest.mark.slow
def test_a_turn_whose_answer_was_stopped_at_its_size_says_so_not_that_the_connection_broke(harness, fake_llm):
    h = harness()
    fake_llm.add(never_ending({"content": "la " * 3000}))
    outcome = h.agent.ask("hi")
    assert_failed(outcome, "^The answer was cut off: the provider sent more than 1,024,000 characters in one "
                           "answer, more than the context window holds\\.$")  # fmt: skip


def test_a_line_of_the_stream_longer_than_any_event_is_not_read_further(made, fake_llm):
    # a gzip bomb unpacks to gigabytes without a line end: the line grew until memory ran out
    client = made()
    fake_llm.add(*[SSE(["x" * (33 * 2**20)])] * 4)
    with pytest.raises(LLMError) as failed:
        client.stream(USER, [], Sink())
    assert str(failed.value) == ("The provider failed before answering (malformed stream: a line of the stream is "
                                 "longer than 32 MB); gave up after 4 tries.")  # fmt: skip


def test_a_refusal_is_read_up_to_its_first_megabyte_however_large_it_unpacks_to(made, fake_llm):
    # a 500 whose gzip body unpacked to gigabytes was read whole, four times over
    body = gzip.compress(b'{"error": {"message": "' + b"a" * (8 * 2**20) + b'"}}')
    refusal = Raw(500, body, {"Content-Type": "application/json", "Content-Encoding": "gzip"})
    client = made()
    fake_llm.add(*[refusal] * 4)
    with pytest.raises(LLMError) as failed:
        client.stream(USER, [], Sink())
    # past its first megabyte the body is not read: the refusal is said by its status alone
    assert str(failed.value) == "The provider answered status 500 (Error code: 500); gave up after 4 tries."


def test_four_failed_tries_are_one_sentence_with_the_last_problem(made, fake_llm):
    client = made()
    fake_llm.add(*[fail(502, "bad gateway")] * 4)
    with pytest.raises(LLMError) as failed:
        client.stream(USER, [], Sink())
    assert str(failed.value) == "The provider answered status 502 (bad gateway); gave up after 4 tries."
    assert len(client.waits) == 3 and client.requests == 4


def closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_a_provider_out_of_reach_is_named_by_its_address_and_tried_four_times(made):
    url = closed_port()
    client = made(base_url=url)
    with pytest.raises(LLMError) as failed:
        client.stream(USER, [], Sink())
    assert str(failed.value) == f"Cannot reach {url} (Connection error.); gave up after 4 tries."
    assert client.said[0].startswith(f"Cannot reach {url} (Connection error.); retrying in ")


def test_the_model_list_out_of_reach_is_one_sentence(made):
    url = closed_port()
    with pytest.raises(LLMError) as failed:
        made(base_url=url).models()
    assert str(failed.value) == f"Cannot reach {url} (Connection error.)."


def test_a_model_list_that_is_not_json_or_refused_is_no_list(made, fake_llm):
    client = made()
    fake_llm.pages = {"/v1/models": "not a list"}
    assert client.models() is None  # not JSON
    fake_llm.pages = {"/v1/models": ["a", "b"]}
    assert client.models() == []  # JSON, but no object: no list either
    fake_llm.pages = {}
    assert client.models() is None  # 404


def test_the_model_list_keeps_only_named_entries_sorted(made, fake_llm):
    fake_llm.pages = {"/v1/models": {"data": [{"id": "b"}, {"id": 3}, "c", {"name": "d"}, {"id": "a"}]}}
    assert made().models() == ["a", "b"]
    fake_llm.pages = {"/v1/models": {"data": None}}
    assert made().models() == []


def test_keep_alives_alone_end_the_request_at_the_idle_limit_and_it_is_asked_again(made, fake_llm):
    client = made(clock=Clock(fake_llm.asked, 10_000.0), stream_idle_timeout_s=100, request_timeout_s=86_400)
    fake_llm.add(SSE([], trickle=": keep-alive\n\n", delay=0.05), text_reply("Here it is."))
    reply = client.stream(USER, [], Sink())
    assert reply.content == "Here it is." and len(fake_llm.requests) == 2
    notice = client.said[-1]
    assert notice.startswith("The provider sent only keep-alives for 100 s (stream_idle_timeout_s); retrying in ")


# streamed in HTTP chunks, as hosted providers stream, the hang-up at the limit leaves a broken body: an error
@pytest.mark.parametrize("chunked", [False, True])
def test_a_request_past_the_overall_limit_before_any_answer_is_not_asked_again(made, fake_llm, chunked):
    client = made(clock=Clock(fake_llm.asked, 10_000.0), stream_idle_timeout_s=3600, request_timeout_s=5000)
    fake_llm.add(SSE([], trickle=": keep-alive\n\n", delay=0.05, chunked=chunked))
    with pytest.raises(LLMError) as failed:
        client.stream(USER, [], Sink())
    assert str(failed.value) == (
        "The request ran longer than 5000 s (request_timeout_s), and nothing of the answer had arrived."
    )
    assert len(fake_llm.requests) == 1


def test_headers_sent_a_line_at_a_time_end_at_the_overall_limit(made, fake_llm):
    # each line came within the read timeout and no answer had begun, so nothing ended the request
    client = made(clock=Clock(fake_llm.asked, 10_000.0), stream_idle_timeout_s=3600, request_timeout_s=5000)
    fake_llm.add(Headers())
    with pytest.raises(LLMError) as failed:
        client.stream(USER, [], Sink())
    assert str(failed.value) == (
        "The request ran longer than 5000 s (request_timeout_s), and nothing of the answer had arrived."
    )
    assert len(fake_llm.requests) == 1


def test_an_answer_past_a_limit_stops_where_it_was_and_says_why(made, fake_llm):
    asked = threading.Event()
    client = made(clock=Clock(asked, 10_000.0), stream_idle_timeout_s=100, request_timeout_s=86_400)
    fake_llm.add(SSE([chunk({"content": "The first half"})], trickle=": keep-alive\n\n", delay=0.05))
    sink = Sink()

    class Watching(Sink):
        def feed(self, text):
            super().feed(text)
            asked.set()  # the silence starts once part of the answer is here

    sink = Watching()
    reply = client.stream(USER, [], sink)
    assert reply.content == "The first half" and reply.cut_off and len(fake_llm.requests) == 1
    assert client.said[-1] == (
        "The provider sent only keep-alives for 100 s (stream_idle_timeout_s); the answer stops there."
    )


IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}


def test_a_provider_that_refuses_images_gets_their_words_for_the_rest_of_the_run(made, fake_llm):
    client = made()
    messages = [{"role": "user", "content": [{"type": "text", "text": "a.png:"}, IMAGE, {"type": "text", "text": "b"}]}]
    fake_llm.add(fail(415, "this model does not support vision"), text_reply("one"), text_reply("two"))
    client.stream(messages, [], Sink())
    client.stream(messages, [], Sink())
    words = "a.png:\nb\n(The images are not shown: this provider refused them.)"
    assert [r["messages"][0]["content"] for r in fake_llm.requests[1:]] == [words, words]
    assert client.said == ["The provider refused an image; images are left out of what this run sends."]
    assert messages[0]["content"][1] is IMAGE  # the conversation itself keeps them


@pytest.mark.parametrize("status", [400, 422])
def test_an_image_refusal_without_images_sent_is_the_providers_refusal(made, fake_llm, status):
    fake_llm.add(fail(status, "image input is not supported"))
    with pytest.raises(LLMError, match=rf"rejected the request \({status}\): image input is not supported"):
        made().stream(USER, [], Sink())
    assert len(fake_llm.requests) == 1


def test_images_refused_with_another_status_are_not_dropped(made, fake_llm):
    fake_llm.add(fail(403, "image content is forbidden here"))
    with pytest.raises(LLMError, match=r"refused access \(403\)"):
        made().stream([{"role": "user", "content": [IMAGE]}], [], Sink())


@pytest.mark.parametrize("status", [400, 422])
def test_a_refused_field_is_dropped_for_422_as_for_400(made, fake_llm, status):
    client = made()
    fake_llm.add(fail(status, "unknown field stream_options"), text_reply("a"))
    client.stream(USER, [], Sink())
    assert ["stream_options" in r for r in fake_llm.requests] == [True, False]


REASONING = [{"role": "assistant", "content": None, "reasoning_content": "hmm", "reasoning": "hmm"}, *USER]


@pytest.mark.parametrize("status", [400, 422])
def test_a_rejected_reasoning_field_is_dropped_for_the_rest_of_the_run(made, fake_llm, status):
    client = made()
    fake_llm.add(fail(status, "Extra inputs are not permitted: REASONING_CONTENT"), text_reply("a"), text_reply("b"))
    client.stream(REASONING, [], Sink())
    client.stream(REASONING, [], Sink())
    assert ["reasoning_content" in r["messages"][0] for r in fake_llm.requests] == [True, False, False]
    assert ["reasoning" in r["messages"][0] for r in fake_llm.requests] == [True, False, False]


@pytest.mark.parametrize("words", ["reasoning_content MUST BE PASSED back in thinking mode", "Missing reasoning"])
def test_a_provider_asking_for_its_reasoning_back_keeps_it(made, fake_llm, words):
    fake_llm.add(fail(400, words))
    with pytest.raises(LLMError, match="rejected the request"):
        made().stream(REASONING, [], Sink())
    assert len(fake_llm.requests) == 1


def test_a_refusal_names_the_address_it_came_from(made, fake_llm):
    fake_llm.add(fail(404, "no such route"))
    with pytest.raises(LLMError) as failed:
        made().stream(USER, [], Sink())
    assert str(failed.value) == f"Not found (404): check the model 'fake-model' and base_url {fake_llm.base_url}."


TOOLS = [{"type": "function", "function": {"name": "Read", "description": "x" * 400, "parameters": {}}}]


def test_a_reply_without_usage_is_counted_from_what_was_sent_and_what_came(made, fake_llm):
    reply = tool_reply(("Read", {"file_path": "a" * 40}), ("Glob", {"pattern": "*"}), text="t" * 40)
    reply.chunks.insert(0, chunk({"reasoning_content": "r" * 40}))
    reply.chunks.pop()  # no usage
    fake_llm.add(reply)
    messages = [{"role": "user", "content": "q" * 400}]
    got = made().stream(messages, TOOLS, Sink())
    arguments = json.dumps({"file_path": "a" * 40}) + json.dumps({"pattern": "*"})
    assert (got.usage.prompt, got.usage.completion, got.usage.cached, got.usage.estimated) == (
        estimate(messages[0]) + estimate(TOOLS), estimate("t" * 40 + "r" * 40 + arguments), 0, True)  # fmt: skip


def test_counts_that_cannot_be_right_are_estimated_and_said_once(made, fake_llm):
    client = made()
    messages = [{"role": "user", "content": "q" * 4000}]
    for _ in range(2):
        wrong = text_reply("fine")
        wrong.chunks[-1] = usage(prompt=3, completion=1, cached=2)
        fake_llm.add(wrong)
    first, second = (client.stream(messages, TOOLS, Sink()) for _ in range(2))
    assert first.usage.estimated and first.usage.prompt == estimate(messages[0]) + estimate(TOOLS)
    assert first.usage.cached == 0 and second.usage.estimated
    [notice] = client.said
    assert notice.startswith("The provider's token counts cannot be right (3 prompt tokens for a request of at least ")
    assert notice.endswith("); costs, budgets and the context window use Narnat's own estimates instead (marked ~).")


def test_a_local_server_counting_only_what_it_had_not_cached_is_believed(made, fake_llm):
    client = made(server=Server("llama.cpp", None))
    few = text_reply("fine")
    few.chunks[-1] = usage(prompt=5, completion=1)
    fake_llm.add(few)
    got = client.stream([{"role": "user", "content": "q" * 4000}], [], Sink())
    assert not got.usage.estimated and got.usage.prompt == 5
    assert not any("cannot be right" in notice for notice in client.said)


def test_counts_doubted_are_checked_against_the_schemas_too(made, fake_llm):
    schemas = [{"type": "function", "function": {"name": "Read", "description": "x" * 40_000}}]
    counted = text_reply("fine")
    counted.chunks[-1] = usage(prompt=2_000, completion=1)  # the message alone is under that; with the schemas, over
    fake_llm.add(counted)
    got = made().stream(USER, schemas, Sink())
    assert got.usage.estimated and got.usage.prompt == estimate(USER[0]) + estimate(schemas)


def test_a_cancel_stops_reading_where_the_answer_was(made, fake_llm):
    class Cancelling(Sink):
        def feed(self, text):
            super().feed(text)
            self.cancelled = True

    fake_llm.add(SSE([chunk({"content": "one"}), chunk({"content": "two"}), chunk(finish="stop")], delay=0.05))
    sink = Cancelling()
    reply = made().stream(USER, [], sink)
    assert reply.cancelled and reply.content == "one" and sink.pieces == [("text", "one")]


def test_the_interrupt_key_while_reading_cancels_the_reply(made, fake_llm):
    class Interrupted(Sink):
        def feed(self, text):
            super().feed(text)
            raise KeyboardInterrupt

    fake_llm.add(SSE([chunk({"content": "one"}), chunk({"content": "two"}), chunk(finish="stop")]))
    reply = made().stream(USER, [], Interrupted())
    assert reply.cancelled and reply.content == "one"


def test_a_request_streams_with_the_tools_and_the_key_and_without_tools_when_there_are_none(made, fake_llm):
    client = made()
    fake_llm.add(text_reply("a"), text_reply("b"))
    client.stream(USER, TOOLS, Sink())
    client.stream(USER, [], Sink())
    first, second = fake_llm.requests
    assert first["stream"] is True and first["tools"] == TOOLS and "tools" not in second
    assert fake_llm.headers[0]["authorization"] == f"Bearer {KEY}"


def test_text_held_back_as_a_possible_call_that_was_none_reaches_the_screen_at_the_end(made, fake_llm):
    fake_llm.add(SSE([chunk({"content": '{"a": 1}'}), chunk(finish="stop")]))
    sink = Sink()
    reply = made().stream(USER, [], sink)
    assert reply.content == '{"a": 1}' and sink.joined() == [("text", '{"a": 1}')]


def test_a_window_exceeded_finish_is_said_in_one_sentence(made, fake_llm):
    from narnat_agent.provider.errors import ContextTooLong

    fake_llm.add(SSE([chunk({"content": "x"}), chunk(finish="model_context_window_exceeded")]))
    with pytest.raises(ContextTooLong) as full:
        made().stream(USER, [], Sink())
    assert str(full.value) == "The conversation no longer fits the model's context window."


def test_reasoning_that_may_start_the_key_comes_out_at_the_end(made, fake_llm):
    fake_llm.add(
        SSE([chunk({"content": "answer"}), chunk({"reasoning_content": "then " + KEY[:4]}), chunk(finish="stop")])
    )
    sink = Sink()
    made().stream(USER, [], sink)
    assert sink.joined() == [("text", "answer"), ("reasoning", "then " + KEY[:4])]


def test_chunks_that_carry_nothing_of_the_answer_are_no_progress(made, fake_llm):
    client = made(clock=Clock(fake_llm.asked, 10_000.0), stream_idle_timeout_s=100, request_timeout_s=86_400)
    empty = f"data: {json.dumps(chunk({}))}\n\n"
    fake_llm.add(SSE([], trickle=empty, delay=0.05), text_reply("Here it is."))
    reply = client.stream(USER, [], Sink())
    assert reply.content == "Here it is." and len(fake_llm.requests) == 2


def test_the_schemas_count_in_what_a_local_server_is_said_to_be_too_small_for(made, fake_llm):
    schemas = [{"type": "function", "function": {"name": "Read", "description": "x" * 8_000}}]
    client = made(server=Server("Ollama", 1500))
    fake_llm.add(text_reply("a"))
    client.stream(USER, schemas, Sink())
    [notice] = [said for said in client.said if "-token context" in said]
    assert notice.startswith(f"This request is about {estimate(USER[0]) + estimate(schemas):,} tokens, but Ollama runs "
                             "fake-model with a 1,500-token context")  # fmt: skip


@pytest.mark.parametrize("status", [400, 422])
def test_images_refused_with_a_400_or_a_422_are_dropped_too(made, fake_llm, status):
    client = made()
    fake_llm.add(fail(status, "image_url is not supported"), text_reply("a"))
    client.stream([{"role": "user", "content": [IMAGE]}], [], Sink())
    assert isinstance(fake_llm.requests[1]["messages"][0]["content"], str)


def test_images_go_as_they_are_until_the_provider_refuses_one(made, fake_llm):
    fake_llm.add(text_reply("a"))
    made().stream([{"role": "user", "content": [IMAGE]}], [], Sink())
    assert fake_llm.requests[0]["messages"][0]["content"] == [IMAGE]


@pytest.mark.parametrize(
    ("kind", "body"),
    [("text/html", b"<html><body>Sign in to continue</body></html>"),
     ("application/json", b'{"choices": [{"message": {"role": "assistant", "content": "hi"}}]}')],
)  # fmt: skip
def test_an_answer_that_is_no_event_stream_is_named_by_its_type_not_as_a_broken_connection(made, fake_llm, kind, body):
    # a captive portal's page or a server that ignores "stream" was said to be "cut off: the connection ended"
    client = made()
    fake_llm.add(*[Raw(200, body, {"Content-Type": kind})] * 4)
    with pytest.raises(LLMError) as failed:
        client.stream(USER, [], Sink())
    assert str(failed.value) == (f"The provider failed before answering (it answered {kind}, not an event stream: "
                                 f"check base_url); gave up after 4 tries.")  # fmt: skip
