"""Stream shapes of real providers, replayed through the real openai SDK from a local SSE server."""

import pytest

from narnat_agent.config.loader import load_config
from narnat_agent.provider.client import Client
from tests.fake_llm import SSE, chunk, usage


class Sink:
    def __init__(self):
        self.text, self.reasoning, self.cancelled = "", "", False

    def feed(self, text):
        self.text += text

    def feed_reasoning(self, text):
        self.reasoning += text


def fragment(index, id=None, name=None, arguments=None, **extra):
    function = {k: v for k, v in (("name", name), ("arguments", arguments)) if v is not None}
    body = {"type": "function", "function": function, **extra}
    if index != "absent":
        body["index"] = index
    if id is not None:
        body["id"] = id
    return body


def calls(*fragments):
    return chunk({"tool_calls": list(fragments)})


@pytest.fixture
def stream(project, fake_llm):
    config = load_config(
        project, project.parent / "home", env={"NARNAT_API_KEY": "k", "NARNAT_BASE_URL": fake_llm.base_url}
    )
    client = Client(config, notify=lambda text: None)

    def run(chunks, done=True, drop=False, then=()):
        fake_llm.add(SSE(chunks, done=done, drop=drop), *then)
        sink = Sink()
        reply = client.stream([{"role": "user", "content": "hi"}], [], sink)
        return reply, sink

    return run


def named(reply):
    return [(c.id, c.name, c.args) for c in reply.tool_calls]


def test_openai_id_only_in_first_fragment_and_usage_chunk_with_empty_choices(stream):
    reply, _ = stream([
        chunk({"role": "assistant", "content": None}),
        calls(fragment(0, "call_abc", "Read", "")),
        calls(fragment(0, arguments='{"file_')),
        calls(fragment(0, arguments='path": "a.py"}')),
        chunk(finish="tool_calls", obfuscation="xyz"),
        usage(100, 20, 64),
    ])  # fmt: skip
    assert named(reply) == [("call_abc", "Read", {"file_path": "a.py"})]
    assert (reply.usage.prompt, reply.usage.completion, reply.usage.cached) == (100, 20, 64)
    assert not reply.cut_off


def test_parallel_calls_interleaved_by_index(stream):
    reply, _ = stream([
        calls(fragment(0, "call_a", "Read", '{"file_path"')),
        calls(fragment(1, "call_b", "Glob", '{"pattern"')),
        calls(fragment(0, arguments=': "a"}')),
        calls(fragment(1, arguments=': "*.py"}')),
        chunk(finish="tool_calls"),
    ])  # fmt: skip
    assert named(reply) == [("call_a", "Read", {"file_path": "a"}), ("call_b", "Glob", {"pattern": "*.py"})]


def test_content_then_tool_call_in_one_response(stream):
    reply, sink = stream([
        chunk({"content": "Let me look."}),
        calls(fragment(0, "call_1", "Read", '{"file_path": "x"}')),
        chunk(finish="tool_calls"),
    ])  # fmt: skip
    assert sink.text == reply.content == "Let me look."
    assert named(reply) == [("call_1", "Read", {"file_path": "x"})]


def test_ollama_whole_call_in_one_chunk_and_every_call_at_index_0(stream):
    reply, _ = stream([
        calls(fragment(0, "call_p1", "Read", '{"file_path": "a.rs"}')),
        calls(fragment(0, "call_p2", "Read", '{"file_path": "b.rs"}')),
        chunk(finish="tool_calls", system_fingerprint="fp_ollama"),
        usage(),
    ])  # fmt: skip
    assert named(reply) == [("call_p1", "Read", {"file_path": "a.rs"}), ("call_p2", "Read", {"file_path": "b.rs"})]


def test_id_repeated_on_every_fragment_is_not_concatenated(stream):
    reply, _ = stream([
        calls(fragment(0, "call_r", "Read", '{"file_')),
        calls(fragment(0, "call_r", None, 'path": "x"}')),
        calls(fragment(0, "call_r", None, "")),
        chunk(finish="tool_calls"),
    ])  # fmt: skip
    assert named(reply) == [("call_r", "Read", {"file_path": "x"})]


def test_dashscope_continuations_with_empty_id_and_empty_name(stream):
    reply, _ = stream([
        calls(fragment(0, "call_q", "Read", "")),
        calls(fragment(0, "", "", '{"file_path":')),
        calls(fragment(0, "", "", ' "q.py"}')),
        chunk(finish="tool_calls"),
    ])  # fmt: skip
    assert named(reply) == [("call_q", "Read", {"file_path": "q.py"})]


def test_gemini_no_index_whole_call_with_finish_stop(stream):
    reply, _ = stream([
        calls(fragment("absent", "call_g", "Read", '{"file_path": "g"}')),
        chunk(finish="stop"),
    ])  # fmt: skip
    assert named(reply) == [("call_g", "Read", {"file_path": "g"})]


def test_no_index_fragmented_single_call_without_ids_on_continuations(stream):
    reply, _ = stream([
        calls(fragment("absent", "call_n", "Read", '{"file')),
        calls(fragment("absent", None, None, '_path": "n"}')),
        chunk(finish="tool_calls"),
    ])  # fmt: skip
    assert named(reply) == [("call_n", "Read", {"file_path": "n"})]


def test_null_index_two_whole_calls_in_one_chunk(stream):
    first = fragment(None, "call_1", "Read", '{"file_path": "1"}')
    second = fragment(None, "call_2", "Read", '{"file_path": "2"}')
    reply, _ = stream([calls(first, second), chunk(finish="tool_calls")])
    assert named(reply) == [("call_1", "Read", {"file_path": "1"}), ("call_2", "Read", {"file_path": "2"})]


def test_arguments_split_mid_escape_and_mid_surrogate_pair(stream):
    reply, _ = stream([
        calls(fragment(0, "call_u", "Read", '{"file_path": "caf\\u00')),
        calls(fragment(0, arguments='e9 \\ud83d')),
        calls(fragment(0, arguments='\\ude00 \\')),
        calls(fragment(0, arguments='"q\\"."}')),
        chunk(finish="tool_calls"),
    ])  # fmt: skip
    assert named(reply) == [("call_u", "Read", {"file_path": 'café 😀 "q".'})]


def test_no_argument_calls_get_an_empty_object(stream):
    reply, _ = stream([
        calls(fragment(0, "call_e1", "TodoWrite", "")),
        calls(fragment(1, "call_e2", "TodoWrite", "{}")),
        chunk(finish="tool_calls"),
    ])  # fmt: skip
    assert [c.args for c in reply.tool_calls] == [{}, {}]
    assert reply.tool_calls[0].stored_arguments == "{}"


def test_deepseek_reasoning_then_tool_call_with_usage_on_the_finish_chunk(stream):
    finish = chunk(finish="tool_calls")
    finish["usage"] = usage(50, 7)["usage"]
    reply, sink = stream([
        chunk({"role": "assistant", "content": None, "reasoning_content": ""}),
        chunk({"reasoning_content": "I should read "}),
        chunk({"reasoning_content": "the file."}),
        calls(fragment(0, "call_d", "Read", '{"file_path": "d"}')),
        finish,
    ])  # fmt: skip
    assert sink.reasoning == reply.reasoning == "I should read the file."
    assert reply.reasoning_field == "reasoning_content"
    assert (reply.usage.prompt, reply.usage.completion) == (50, 7)
    assert named(reply) == [("call_d", "Read", {"file_path": "d"})]


def test_reasoning_before_content(stream):
    reply, sink = stream([chunk({"reasoning_content": "hmm"}), chunk({"content": "Answer."}), chunk(finish="stop")])
    assert (sink.reasoning, sink.text) == ("hmm", "Answer.")
    assert reply.tool_calls == []


def test_finish_length_cuts_off_the_calls(stream):
    reply, _ = stream([calls(fragment(0, "call_l", "Read", '{"file_path": "sr')), chunk(finish="length")])
    assert reply.cut_off and reply.tool_calls == []


def test_role_only_chunk_and_empty_deltas(stream):
    reply, sink = stream([
        chunk({"role": "assistant"}), chunk({}), chunk({"content": ""}), chunk({"content": "ok"}), chunk(finish="stop"),
    ])  # fmt: skip
    assert sink.text == "ok" and reply.finish_reason == "stop"


def test_moonshot_usage_inside_the_choice_and_kimi_ids(stream):
    last = chunk(finish="tool_calls")
    last["choices"][0]["usage"] = {"prompt_tokens": 30, "completion_tokens": 3, "total_tokens": 33}
    reply, _ = stream([calls(fragment(0, "functions.Read:0", "Read", '{"file_path": "k"}')), last])
    assert named(reply) == [("functions.Read:0", "Read", {"file_path": "k"})]
    assert (reply.usage.prompt, reply.usage.completion) == (30, 3)


def test_vllm_reasoning_field_and_last_fragment_repeating_name_and_id(stream):
    last = calls(fragment(0, "chatcmpl-tool-1", "Read", '"v"}'))
    last["choices"][0]["finish_reason"] = "tool_calls"
    reply, sink = stream([
        chunk({"reasoning": "think"}),
        calls(fragment(0, "chatcmpl-tool-1", "Read", '{"file_path": ')),
        last,
    ])  # fmt: skip
    assert reply.reasoning_field == "reasoning" and sink.reasoning == "think"
    assert named(reply) == [("chatcmpl-tool-1", "Read", {"file_path": "v"})]


def test_llamacpp_timings_are_ignored(stream):
    last = chunk(finish="stop", timings={"prompt_n": 5, "predicted_n": 2})
    reply, sink = stream([chunk({"content": "hi"}), last, usage(5, 2)])
    assert sink.text == "hi" and reply.usage.prompt == 5


def test_two_fragments_for_one_index_in_one_chunk(stream):
    reply, _ = stream([
        calls(fragment(0, "call_t", "Read", '{"file_path"'), fragment(0, None, None, ': "t"}')),
        chunk(finish="tool_calls"),
    ])  # fmt: skip
    assert named(reply) == [("call_t", "Read", {"file_path": "t"})]


def test_openrouter_error_event_after_partial_content(stream):
    error = {
        "error": {"code": 502, "message": "upstream died"},
        "choices": [{"index": 0, "delta": {}, "finish_reason": "error"}],
    }
    reply, sink = stream([chunk({"content": "Half an"}), error])
    assert sink.text == "Half an" and reply.error == "upstream died" and reply.cut_off


def test_vllm_bare_error_object_mid_stream(stream):
    reply, _ = stream(
        [chunk({"content": "x"}), {"object": "error", "message": "engine dead", "type": "BadRequestError", "code": 400}]
    )
    assert reply.error == "engine dead" and reply.cut_off


def test_stream_ending_without_finish_reason_runs_nothing(stream):
    reply, _ = stream([calls(fragment(0, "call_h", "Read", '{"path": "sr'))], done=False, drop=True)
    assert reply.finish_reason is None and reply.cut_off and reply.tool_calls == []


def test_usage_on_every_chunk_last_one_wins(stream):
    def with_usage(c, n):
        c["usage"] = {"prompt_tokens": 9, "completion_tokens": n, "total_tokens": 9 + n}
        return c

    reply, _ = stream(
        [
            with_usage(chunk({"content": "a"}), 1),
            with_usage(chunk({"content": "b"}), 2),
            with_usage(chunk(finish="stop"), 3),
        ]
    )
    assert reply.usage.completion == 3


def test_missing_usage_is_estimated(stream):
    reply, _ = stream([chunk({"content": "x" * 40}), chunk(finish="stop")])
    assert reply.usage.estimated and reply.usage.completion == 10


def test_error_event_before_any_output_is_retried(stream, fake_llm):
    fine = SSE([chunk({"content": "fine"}), chunk(finish="stop")])
    reply, sink = stream([{"error": {"message": "overloaded", "code": 503}}], then=[fine])
    assert sink.text == "fine" and len(fake_llm.requests) == 2
