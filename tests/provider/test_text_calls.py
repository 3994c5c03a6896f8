"""Tool calls open models write as text, in the exact shapes of their chat templates and of vLLM's parsers."""

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from narnat_agent.provider.reply import ReplyBuilder
from narnat_agent.provider.text_calls import recover
from tests.fake_llm import chunk, raw_reply, text_reply, tool_reply

ARGS = {"file_path": "notes.txt"}
DS = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>"
FORMATS = {  # the format -> what the model writes (its chat template's shape), with a line of prose where usual
    "hermes": 'Let me look.\n<tool_call>\n{"name": "Read", "arguments": {"file_path": "notes.txt"}}\n</tool_call>',
    "qwen3_coder": "<tool_call>\n<function=Read>\n<parameter=file_path>\nnotes.txt\n</parameter>\n</function>\n"
    "</tool_call>",
    "qwen3_coder_bare": "<function=Read>\n<parameter=file_path>\nnotes.txt\n</parameter>\n</function>",
    "glm45": "<tool_call>Read\n<arg_key>file_path</arg_key>\n<arg_value>notes.txt</arg_value>\n</tool_call>",
    "glm47": "<tool_call>Read<arg_key>file_path</arg_key><arg_value>notes.txt</arg_value></tool_call>",
    "deepseek_v3": f'{DS}function<｜tool▁sep｜>Read\n```json\n{{"file_path": "notes.txt"}}\n```<｜tool▁call▁end｜>'
    "<｜tool▁calls▁end｜>",
    "deepseek_v31": f'{DS}Read<｜tool▁sep｜>{{"file_path": "notes.txt"}}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    "kimi_k2": "<|tool_calls_section_begin|><|tool_call_begin|>functions.Read:0<|tool_call_argument_begin|>"
    '{"file_path": "notes.txt"}<|tool_call_end|><|tool_calls_section_end|>',
    "mistral_v3": '[TOOL_CALLS] [{"name": "Read", "arguments": {"file_path": "notes.txt"}}]',
    "mistral_v11": '[TOOL_CALLS]Read{"file_path": "notes.txt"}',
    "mistral_args": '[TOOL_CALLS]Read[ARGS]{"file_path": "notes.txt"}',
    "llama_python_tag": '<|python_tag|>{"name": "Read", "parameters": {"file_path": "notes.txt"}}',
    "llama_json": '{"name": "Read", "parameters": {"file_path": "notes.txt"}}',
    "fenced_json": 'I will read it.\n```json\n{"name": "Read", "arguments": {"file_path": "notes.txt"}}\n```',
}


def build(*pieces: str, finish: str = "stop", calls: tuple = ()) -> tuple:
    """The reply of a stream whose content arrives in these pieces, and what reached the screen."""
    builder = ReplyBuilder()
    screen, thought = "", ""
    for piece in pieces:
        text, reasoning = builder.add(chunk({"content": piece}))
        screen, thought = screen + text, thought + reasoning
    for i, (name, args) in enumerate(calls):
        fragment = {"index": i, "id": f"c{i}", "function": {"name": name, "arguments": json.dumps(args)}}
        builder.add(chunk({"tool_calls": [fragment]}))
    builder.add(chunk(finish=finish))
    reply = builder.finish()
    return reply, screen + builder.unshown, thought


@pytest.mark.parametrize("form", FORMATS)
def test_each_format_is_recovered_whatever_the_split(form):
    text = FORMATS[form]
    prose = text.split("\n")[0] if form in ("hermes", "fenced_json") else ""
    for cut in range(len(text) + 1):
        reply, screen, _ = build(text[:cut], text[cut:])
        assert [(c.name, c.args) for c in reply.tool_calls] == [("Read", ARGS)], (form, cut)
        assert reply.tool_calls[0].recovered and reply.content == prose, (form, cut)
        assert screen.strip() == prose, (form, cut)  # the markup never reached the screen


@pytest.mark.parametrize("form", ["hermes", "deepseek_v31", "llama_json"])
def test_a_format_streamed_one_character_at_a_time_is_recovered(form):
    reply, screen, _ = build(*FORMATS[form])
    assert [(c.name, c.args) for c in reply.tool_calls] == [("Read", ARGS)]
    assert "Read" not in screen


def test_several_calls_in_one_reply_are_all_recovered():
    one = '<tool_call>\n{"name": "Read", "arguments": {"file_path": "notes.txt"}}\n</tool_call>'
    two = '<tool_call>\n{"name": "Glob", "arguments": {"pattern": "*.py"}}\n</tool_call>'
    reply, _, _ = build(f"{one}\n{two}")
    assert [(c.name, c.args) for c in reply.tool_calls] == [("Read", ARGS), ("Glob", {"pattern": "*.py"})]


TWO_CALLS = {  # a Read then a Glob, as each format writes several calls in one reply
    "deepseek_v31": f'{DS}Read<｜tool▁sep｜>{{"file_path": "notes.txt"}}<｜tool▁call▁end｜><｜tool▁call▁begin｜>Glob'
    '<｜tool▁sep｜>{"pattern": "*.py"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    "kimi_k2": "<|tool_calls_section_begin|><|tool_call_begin|>functions.Read:0<|tool_call_argument_begin|>"
    '{"file_path": "notes.txt"}<|tool_call_end|><|tool_call_begin|>functions.Glob:1<|tool_call_argument_begin|>'
    '{"pattern": "*.py"}<|tool_call_end|><|tool_calls_section_end|>',
    "mistral_v11": '[TOOL_CALLS]Read{"file_path": "notes.txt"}[TOOL_CALLS]Glob{"pattern": "*.py"}',
    "llama": '<|python_tag|>{"name": "Read", "parameters": {"file_path": "notes.txt"}}; '
    '{"name": "Glob", "parameters": {"pattern": "*.py"}}',
    "qwen3_coder": "<function=Read>\n<parameter=file_path>\nnotes.txt\n</parameter>\n</function>\n"
    "<function=Glob>\n<parameter=pattern>\n*.py\n</parameter>\n</function>",
}


@pytest.mark.parametrize("form", TWO_CALLS)
def test_formats_with_several_calls_recover_them_all_in_order(form):
    text = TWO_CALLS[form]
    for cut in range(0, len(text) + 1, 7):
        reply, screen, _ = build(text[:cut], text[cut:])
        assert [(c.name, c.args) for c in reply.tool_calls] == [("Read", ARGS), ("Glob", {"pattern": "*.py"})], cut
        assert screen == ""


def test_one_invalid_call_among_several_leaves_all_as_text():
    text = TWO_CALLS["mistral_v11"].replace("Glob", "Open")
    reply, screen, _ = build(text)
    assert reply.tool_calls == [] and screen == text


def test_xml_parameters_arrive_as_text_and_take_the_schemas_types():
    text = "<function=Read>\n<parameter=file_path>\nnotes.txt\n</parameter>\n<parameter=limit>\n5\n</parameter>\n"
    text += "</function>"
    reply, _, _ = build(text)
    assert reply.tool_calls[0].args == {"file_path": "notes.txt", "limit": 5}  # as vLLM's own parser gives it
    glm = "<tool_call>Grep<arg_key>pattern</arg_key><arg_value>42</arg_value><arg_key>-i</arg_key><arg_value>true"
    reply, _, _ = build(glm + "</arg_value></tool_call>")
    assert reply.tool_calls[0].args == {"pattern": "42", "-i": True}  # a string stays one, though it reads as a number


CALL = '<tool_call>\n{"name": "Read", "arguments": {"file_path": "notes.txt"}}\n</tool_call>'
STAYS_TEXT = {  # the rule's edges: each of these is shown as written and runs nothing
    "quoted mid-sentence": f"You would write {CALL} to read it.",
    "followed by more prose": f"{CALL}\nThat is how a call looks.",
    "inside a code sample": f"An example:\n```xml\n{CALL}\n```",
    "indented as code": f"An example:\n    {CALL}",
    "an unknown tool": '<tool_call>\n{"name": "Open", "arguments": {"file_path": "notes.txt"}}\n</tool_call>',
    "arguments the schema refuses": '<tool_call>\n{"name": "Read", "arguments": {"path": "notes.txt"}}\n</tool_call>',
    "JSON after prose": 'The call is:\n{"name": "Read", "parameters": {"file_path": "notes.txt"}}',
    "JSON that is not a call": '{"name": "Read", "version": 2}',
    "a second fence": 'Two blocks:\n```sh\nls\n```\n```json\n{"name": "Read", "arguments": {"file_path": "x"}}\n```',
    "a fence of two calls": '```json\n[{"name": "Read", "arguments": {"file_path": "x"}}, '
    '{"name": "Read", "arguments": {"file_path": "y"}}]\n```',
}


@pytest.mark.parametrize("case", STAYS_TEXT)
def test_a_call_only_quoted_or_invalid_stays_text(case):
    text = STAYS_TEXT[case]
    reply, screen, _ = build(text[: len(text) // 2], text[len(text) // 2 :])
    assert reply.tool_calls == [] and reply.content == text and screen == text


def test_a_reply_with_real_tool_calls_does_not_recover_its_text():
    reply, _, _ = build(CALL, calls=(("Glob", {"pattern": "*"}),))
    assert [c.name for c in reply.tool_calls] == ["Glob"] and not reply.tool_calls[0].recovered


def test_a_cut_off_reply_runs_nothing_written_as_text():
    reply, screen, _ = build(CALL, finish="length")
    assert reply.tool_calls == [] and screen == CALL


@pytest.mark.parametrize("form", ["hermes", "qwen3_coder", "glm45", "deepseek_v31", "kimi_k2", "mistral_v11",
                                  "llama_python_tag", "fenced_json"])  # fmt: skip
def test_a_recovered_call_runs_and_enters_the_history_as_a_call(harness, fake_llm, project, form):
    (project / "notes.txt").write_text("remember the milk\n")
    text = FORMATS[form]
    inside_marker, inside_json = 3, text.index("notes") + 2
    h = harness()
    fake_llm.add(raw_reply(text, (inside_marker, inside_json)), text_reply("It says to remember the milk."))
    outcome = h.agent.turn("what do my notes say?")
    assert outcome.completed
    assistant, result = fake_llm.requests[1]["messages"][-2:]
    assert [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in assistant["tool_calls"]] == [
        ("Read", ARGS)
    ]
    assert result["tool_call_id"] == assistant["tool_calls"][0]["id"] and "remember the milk" in result["content"]
    assert "<" not in (assistant["content"] or "") and "{" not in (assistant["content"] or "")
    assert "recovered from" in h.err.getvalue()


def test_structured_calls_still_run_as_before(harness, fake_llm, project):
    (project / "notes.txt").write_text("x\n")
    h = harness()
    fake_llm.add(tool_reply(("Read", ARGS)), text_reply("done"))
    h.agent.turn("read")
    assert "recovered" not in h.err.getvalue()


@example("  <thi", None)
@example("<thinking>is a tag</thinking>", None)
@example('\n{"name": "Read"}\n', None)
@given(st.text(alphabet=st.sampled_from(list('ab {}\n`<>|[]_:=/"')) | st.characters(), max_size=80), st.data())
def test_any_text_that_is_no_call_reaches_the_screen_whole_and_in_order(text, data):
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=6))) if data else [3]
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    reply, screen, _ = build(*pieces)
    if not reply.tool_calls and not text.lstrip().startswith("<think>"):
        assert screen == text == reply.content


READ = '{"name": "Read", "arguments": {"file_path": "notes.txt"}}'
GLOB = '{"name": "Glob", "arguments": {"pattern": "*.py"}}'
SEP = "<｜tool▁sep｜>"
NOT_CALLS = {  # malformed or partial shapes of each format: none runs anything, none breaks the reply
    "XML with a body that is no parameter": "<function=Read>\nnotes.txt\n</function>",
    "XML followed by prose": "<function=Read>\n<parameter=file_path>\nnotes.txt\n</parameter>\n</function>\nDone.",
    "GLM pairs followed by stray text": "<tool_call>Read<arg_key>file_path</arg_key>junk</tool_call>",
    "a tag holding no call": "<tool_call>not a call</tool_call>",
    "a list holding a name, not a call": '[TOOL_CALLS] ["Read", {"file_path": "notes.txt"}]',
    "a list holding a call and an object that is none": f'[TOOL_CALLS] [{READ}, {{"file": 1}}]',
    "Mistral arguments that are no JSON": "[TOOL_CALLS]Read{file_path: notes.txt}",
    "two calls joined by a separator no format has": f"<tool_call>{READ}XXXX{GLOB}</tool_call>",
    "a fence never closed": '```json\n{"name": "Read", "arguments": {"file_path": "notes.txt"}}',
    "a call inside a fence never closed": f"For example:\n```\nls\n<tool_call>{READ}</tool_call>",
    "DeepSeek calls followed by prose": f'{DS}Read{SEP}{{"file_path": "notes.txt"}}<｜tool▁call▁end｜>And then?',
    "DeepSeek, one of two calls with broken arguments": f'{DS}Read{SEP}{{"file_path": "notes.txt"}}'
    f"<｜tool▁call▁end｜><｜tool▁call▁begin｜>Glob{SEP}{{pattern}}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    "DeepSeek, a call without its opening tag": f'<｜tool▁calls▁begin｜>Read{SEP}{{"file_path": "notes.txt"}}'
    "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
}


@pytest.mark.parametrize("case", NOT_CALLS)
def test_a_malformed_call_of_any_format_stays_text(case):
    assert recover(NOT_CALLS[case]) is None


CALLS = {  # shapes the templates and servers really write, beyond the plain ones above
    "an id and a type beside the name": '<tool_call>{"id": "call_1", "type": "function", "name": "Read", '
    '"arguments": {"file_path": "notes.txt"}}</tool_call>',
    "arguments as JSON text": '<tool_call>{"name": "Read", "arguments": "{\\"file_path\\": \\"notes.txt\\"}"}'
    "</tool_call>",
    "DeepSeek ending the sentence": FORMATS["deepseek_v31"] + "<｜end▁of▁sentence｜>",
    "DeepSeek V3 without the fence": f'{DS}function{SEP}Read\n{{"file_path": "notes.txt"}}<｜tool▁call▁end｜>'
    "<｜tool▁calls▁end｜>",
    "an indented call in a fence": '```json\n  {"name": "Read", "arguments": {"file_path": "notes.txt"}}\n```',
    "Llama's tag then a space": '<|python_tag|> {"name": "Read", "parameters": {"file_path": "notes.txt"}}',
    "a call after a closed code fence": f"Run this:\n```sh\nls\n```\n<tool_call>{READ}</tool_call>",
    "Kimi's section named in the singular": FORMATS["kimi_k2"].replace("calls_section", "call_section"),
    "bare JSON after blank lines": '\n \n{"name": "Read", "parameters": {"file_path": "notes.txt"}}',
    "GLM values on lines of their own": "<tool_call>Read\n<arg_key>file_path</arg_key>\n<arg_value>\nnotes.txt\n"
    "</arg_value>\n</tool_call>",
}


@pytest.mark.parametrize("case", CALLS)
def test_each_real_shape_of_a_call_is_recovered(case):
    recovered = recover(CALLS[case])
    assert recovered is not None and recovered.calls == [("Read", ARGS)]


def test_braces_and_separators_inside_the_arguments_are_the_arguments():
    mistral = recover('[TOOL_CALLS]Grep{"pattern": "a{2}"}')
    assert mistral is not None and mistral.calls == [("Grep", {"pattern": "a{2}"})]
    deepseek = recover(f'{DS}Read{SEP}{{"file_path": "a{SEP}b"}}<｜tool▁call▁end｜><｜tool▁calls▁end｜>')
    assert deepseek is not None and deepseek.calls == [("Read", {"file_path": f"a{SEP}b"})]


def test_a_closing_tag_written_twice_between_two_calls_loses_neither():
    recovered = recover(f"<tool_call>{READ}</tool_call></tool_call><tool_call>{GLOB}</tool_call>")
    assert recovered is not None and recovered.calls == [("Read", ARGS), ("Glob", {"pattern": "*.py"})]


def test_prose_reaches_the_screen_as_it_streams_and_a_brace_mid_reply_is_not_held_back():
    builder = ReplyBuilder()
    shown = [builder.add(chunk({"content": piece}))[0] for piece in ("Hello there.\n", "{ is a brace", "\nend")]
    assert shown[:2] == ["Hello there.\n", "{ is a brace"]
