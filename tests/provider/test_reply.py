"""A streamed reply assembled chunk by chunk, in process: error events, malformed fields, usage, calls' fragments."""

import json
import re
from types import SimpleNamespace

import pytest

from narnat_agent.provider.reply import Ending, ReplyBuilder, StreamError, Usage
from tests.fake_llm import chunk


def built(*chunks: object):
    builder = ReplyBuilder()
    for piece in chunks:
        builder.add(piece)
    return builder, builder.finish()


def fragment(index: int | None = None, call_id: str = "", name: str = "", arguments: object = "") -> dict:
    return chunk({"tool_calls": [{"index": index, "id": call_id, "function": {"name": name, "arguments": arguments}}]})


@pytest.mark.parametrize(
    ("event", "said"),
    [
        ({"error": {"message": "overloaded", "code": 529}}, "overloaded"),
        ({"object": "error", "message": "bad request"}, "bad request"),
        ({"error": {"code": 500}}, '{"code": 500}'),
        ({"error": "plain words"}, '"plain words"'),
        ({"error": 7}, '"7"'),
    ],
)
def test_an_error_event_in_the_stream_is_said_as_the_provider_wrote_it(event, said):
    with pytest.raises(StreamError) as raised:
        ReplyBuilder().add(event)
    assert str(raised.value) == said


@pytest.mark.parametrize(
    ("piece", "said"),
    [
        ({"choices": "none"}, "malformed stream: 'choices' is a str, not a list"),
        (chunk({"content": 5}), "malformed stream: 'content' is a number, not text"),
        (chunk({"content": ["a"]}), "malformed stream: 'content' is a list, not text"),
        (chunk({"content": {"a": 1}}), "malformed stream: 'content' is an object, not text"),
        (chunk({"reasoning_content": True}), "malformed stream: 'reasoning_content' is a boolean, not text"),
        (chunk({"content": 1.5}), "malformed stream: 'content' is a number, not text"),
    ],
)
def test_a_field_of_the_wrong_kind_is_a_malformed_stream_naming_it(piece, said):
    with pytest.raises(StreamError) as raised:
        ReplyBuilder().add(piece)
    assert str(raised.value) == said


def test_the_sdks_objects_are_read_like_dicts():
    delta = SimpleNamespace(content="Hi", tool_calls=None)
    piece = SimpleNamespace(choices=[SimpleNamespace(delta=delta, finish_reason="stop")], usage=None)
    builder, reply = built(piece)
    assert (reply.content, reply.finish_reason, builder.parts) == ("Hi", "stop", 1)


def test_only_chunks_that_carry_part_of_the_answer_count_as_progress():
    builder, _ = built({"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 1}}, chunk({}))
    assert builder.parts == 0
    builder.add(chunk({"content": "x"}))
    assert builder.parts == 1


@pytest.mark.parametrize(
    ("counts", "usage"),
    [
        ({"prompt_tokens": 10, "completion_tokens": 2, "prompt_cache_hit_tokens": 4}, Usage(10, 2, 4)),  # DeepSeek
        ({"prompt_tokens": 10, "completion_tokens": 2, "prompt_tokens_details": {"cached_tokens": 6}}, Usage(10, 2, 6)),
        ({"completion_tokens": 2}, Usage(0, 2, 0)),
        ({"prompt_tokens": "10", "completion_tokens": 2}, None),
        ({"prompt_tokens": 10, "completion_tokens": "x"}, None),
        ({"prompt_tokens": 10, "completion_tokens": True}, None),
        ({"prompt_tokens": 10, "completion_tokens": 2, "prompt_cache_hit_tokens": 2.5}, None),
    ],
)
def test_usage_is_read_from_each_providers_fields_and_counts_that_are_not_numbers_are_not_believed(counts, usage):
    _, reply = built({"choices": [], "usage": counts})
    assert reply.usage == usage


def test_arguments_that_are_not_a_json_object_are_an_error_quoting_the_first_200_characters():
    long = "{" + "x" * 300
    _, reply = built(fragment(0, "c1", "Read", long), fragment(1, "c2", "Read", "[1]"), chunk(finish="tool_calls"))
    broken, listed = reply.tool_calls
    assert broken.error is not None and broken.error.startswith("the arguments were not valid JSON (Expecting ")
    assert broken.error.endswith("): " + long[:200]) and broken.args is None
    assert listed.error == "the arguments must be a JSON object, not [1]"


def test_arguments_sent_as_an_object_are_taken_as_they_are():
    _, reply = built(fragment(0, "c1", "Read", {"file_path": "a.txt"}), chunk(finish="tool_calls"))
    assert reply.tool_calls[0].args == {"file_path": "a.txt"} and reply.tool_calls[0].error is None


def test_fragments_without_an_index_are_joined_by_their_id_or_as_the_current_call():
    _, by_id = built(fragment(None, "c1", "Read", '{"file_path": '), fragment(None, "c1", "", '"a.txt"}'),
                     fragment(None, "c2", "Glob", '{"pattern": "*"}'), chunk(finish="tool_calls"))  # fmt: skip
    assert [(c.id, c.name, c.args) for c in by_id.tool_calls] == [
        ("c1", "Read", {"file_path": "a.txt"}), ("c2", "Glob", {"pattern": "*"})
    ]  # fmt: skip
    _, bare = built(fragment(None, "", "Read", '{"file_path": '), fragment(None, "", "", '"a.txt"}'),
                    fragment(None, "", "Glob", '{"pattern": "*"}'), chunk(finish="tool_calls"))  # fmt: skip
    assert [(c.name, c.args) for c in bare.tool_calls] == [("Read", {"file_path": "a.txt"}), ("Glob", {"pattern": "*"})]
    assert all(re.fullmatch(r"[A-Za-z0-9]{9}", c.id) for c in bare.tool_calls)  # made up where the provider gave none


def test_a_server_repeating_the_calls_id_and_name_on_every_fragment_makes_one_call_of_them():
    # a call complete so far (no arguments yet) is no sign of a new one while its id stays the same
    _, reply = built(fragment(0, "c1", "Read", ""), fragment(0, "c1", "Read", '{"file_path": '),
                     fragment(0, "c1", "Read", '"a.txt"}'), chunk(finish="tool_calls"))  # fmt: skip
    assert [(c.id, c.name, c.args) for c in reply.tool_calls] == [("c1", "Read", {"file_path": "a.txt"})]


def test_a_call_written_as_text_gets_an_id_and_its_arguments_as_written():
    text = '<tool_call>{"name": "Read", "arguments": {"file_path": "café.txt"}}</tool_call>'
    _, reply = built(chunk({"content": text}), chunk(finish="stop"))
    [call] = reply.tool_calls
    assert re.fullmatch(r"[A-Za-z0-9]{9}", call.id) and call.arguments == '{"file_path": "café.txt"}'
    assert json.loads(call.arguments) == call.args == {"file_path": "café.txt"}


def test_each_chunk_carrying_text_reasoning_a_call_or_the_end_is_one_part_of_the_answer():
    builder, _ = built(
        chunk({"content": "<tool_"}),  # held back from the screen, still progress
        chunk({"reasoning_content": "hm"}),
        fragment(0, "c1", "Read", '{"file_path": "a"}'),
        chunk(finish="tool_calls"),
        {"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 1}},
    )
    assert builder.parts == 4


def test_what_one_chunk_holds_in_several_places_is_joined():
    two = {"choices": [{"index": 0, "delta": {"content": "a", "reasoning_content": "r", "reasoning": "s"}},
                       {"index": 1, "delta": {"content": "b"}}]}  # fmt: skip
    builder = ReplyBuilder()
    assert builder.add(two) == ("ab", "rs") and builder.finish().reasoning == "rs"


def test_a_single_call_object_instead_of_a_list_is_one_call():
    one = chunk({"tool_calls": {"index": 0, "id": "c1", "function": {"name": "Read", "arguments": "{}"}}})  # TGI
    _, reply = built(one, chunk(finish="tool_calls"))
    assert [(c.id, c.name) for c in reply.tool_calls] == [("c1", "Read")]


def test_a_long_list_for_arguments_is_quoted_to_200_characters_and_missing_counts_are_zero():
    listed = "[" + "1, " * 100 + "1]"
    _, reply = built(fragment(0, "c1", "Read", listed), chunk(finish="tool_calls"))
    assert reply.tool_calls[0].error == f"the arguments must be a JSON object, not {listed[:200]}"
    assert built({"choices": [], "usage": {"prompt_tokens": 10}})[1].usage == Usage(10, 0, 0)


@pytest.mark.parametrize("blank", [" ", "\n", " \n\t"])
def test_a_call_whose_arguments_stream_as_whitespace_alone_has_no_arguments_not_an_error(blank):
    _, reply = built(fragment(0, "c1", "TodoWrite", blank), chunk(finish="tool_calls"))
    [call] = reply.tool_calls
    assert (call.args, call.error, call.stored_arguments) == ({}, None, "{}")


@pytest.mark.parametrize(
    "finish", ["content_filter", "insufficient_system_resource", "error", "model_context_window_exceeded"]
)
def test_an_answer_the_provider_stopped_is_filtered_and_its_calls_do_not_run(finish):
    _, reply = built(fragment(0, "c1", "Read", '{"file_path": "a.txt"}'), chunk(finish=finish))
    assert (reply.ending, reply.cut_off, reply.tool_calls) == (Ending.FILTERED, True, [])
