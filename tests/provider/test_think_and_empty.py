"""Thinking sent inside `content` (<think>…</think>), and replies that carry nothing."""

import json

import pytest

from narnat_agent.core.turn import Stop
from narnat_agent.provider.reply import ReplyBuilder
from tests.fake_llm import SSE, chunk, raw_reply, text_reply, tool_reply, usage
from tests.provider.test_text_calls import CALL, build

THOUGHT = "<think>\nThe user greets me. I answer briefly.\n</think>\n\nHello!"


def test_think_at_the_start_of_content_is_reasoning_whatever_the_split():
    for cut in range(len(THOUGHT) + 1):
        reply, screen, thought = build(THOUGHT[:cut], THOUGHT[cut:])
        assert screen == "Hello!" and reply.content == "Hello!", cut
        assert thought.strip() == "The user greets me. I answer briefly." == reply.reasoning.strip(), cut


def test_think_after_blank_lines_sent_alone_is_reasoning_too():
    reply, screen, thought = build("\n\n", THOUGHT)  # some servers send the template's line ends first
    assert screen == "Hello!" and reply.content == "Hello!" and "The user greets me." in thought


def test_think_later_in_the_answer_stays_text():
    text = "Use <think> tags like this: <think>x</think>"
    reply, screen, thought = build(text)
    assert screen == text == reply.content and thought == ""


def test_thinking_then_a_call_written_as_text_runs_the_call():
    text = '<think>I need the file.</think>\n<tool_call>\n{"name": "Glob", "arguments": {"pattern": "*"}}\n</tool_call>'
    for cut in range(len(text) + 1):
        reply, screen, thought = build(text[:cut], text[cut:])
        assert [c.name for c in reply.tool_calls] == ["Glob"] and screen == "" and thought == "I need the file.", cut


def test_thinking_in_content_is_shown_as_reasoning_and_kept_out_of_the_answer(harness, fake_llm, project):
    (project / "a.txt").write_text("alpha\n")
    h = harness()
    call = '<think>Read it first.</think>\n<tool_call>\n{"name": "Read", "arguments": {"file_path": "a.txt"}}\n'
    call += "</tool_call>"
    fake_llm.add(raw_reply(call, (4, 20)), raw_reply(THOUGHT, (3, 30, 50)))
    outcome = h.agent.turn("hi")
    assert outcome.answer == "Hello!" and h.out.getvalue().strip() == "Hello!"
    assert "Read it first." in h.err.getvalue() and "The user greets me." in h.err.getvalue()
    assistant = fake_llm.requests[1]["messages"][-2]
    assert set(assistant) == {"role", "content", "tool_calls"}  # the thinking is not echoed in a field it never used
    assert h.conversation.messages[-1] == {"role": "assistant", "content": "Hello!"}


def test_an_empty_reply_is_asked_for_once_more(harness, fake_llm):
    h = harness()
    fake_llm.add(SSE([chunk({"role": "assistant", "content": ""}), chunk(finish="stop"), usage()]), text_reply("Hi!"))
    outcome = h.agent.turn("hi")
    assert outcome.completed and outcome.answer == "Hi!" and len(fake_llm.requests) == 2
    assert fake_llm.requests[1]["messages"] == fake_llm.requests[0]["messages"]  # nothing empty entered the history


def test_two_empty_replies_end_the_turn_with_one_sentence(harness, fake_llm):
    h = harness()
    empty = SSE([chunk({"content": "<think>hmm</think>\n"}), chunk(finish="stop"), usage()])
    fake_llm.add(empty, empty, text_reply("never asked"))
    outcome = h.agent.turn("hi")
    assert outcome.stop is Stop.PROVIDER_ERROR and "returned nothing" in outcome.message
    assert len(fake_llm.requests) == 2 and outcome.answer == ""
    assert "returned nothing" in h.err.getvalue()


def test_a_reply_with_only_a_call_is_not_empty(harness, fake_llm):
    h = harness()
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), text_reply("done"))
    assert h.agent.turn("list").completed and len(fake_llm.requests) == 2
    assert json.loads(fake_llm.requests[1]["messages"][-2]["tool_calls"][0]["function"]["arguments"]) == {
        "pattern": "*"
    }


ORPHAN = "The user greets me; the template opened the thinking.\n</think>\n\nHello!"


def test_a_closing_think_without_its_opening_ends_reasoning_whatever_the_split():
    for cut in range(len(ORPHAN) + 1):
        reply, screen, thought = build(ORPHAN[:cut], ORPHAN[cut:])
        assert reply.content == "Hello!" and "</think>" not in screen, cut
        assert reply.reasoning.strip() == "The user greets me; the template opened the thinking.", cut
        assert screen.endswith("Hello!"), cut


def test_a_closing_think_quoted_in_an_answer_stays_text():
    for text in ("Close it with `</think>` as usual.", "Write <think>x</think> to mark it."):
        reply, screen, thought = build(text)
        assert reply.content == text == screen and reply.reasoning == ""


def test_replies_whose_thinking_the_template_opened_keep_it_out_of_the_answer_and_lose_none_of_it(harness, fake_llm):
    h = harness()
    fake_llm.add(raw_reply(ORPHAN, (3, 30, 50)), raw_reply("Checking the file.\n</think>\n\nAll good.", (3, 30, 50)))
    first, second = h.agent.turn("hi"), h.agent.turn("again")
    assert first.answer == "Hello!" and second.answer == "All good."
    assert h.conversation.messages[-1] == {"role": "assistant", "content": "All good."}
    assert fake_llm.requests[1]["messages"][2] == {"role": "assistant", "content": "Hello!"}
    shown = h.out.getvalue() + h.err.getvalue()
    assert "</think>" not in shown and "Checking the file." in shown and "the template opened the thinking." in shown


def test_a_reply_without_thinking_after_one_with_it_is_all_answer_shown_once(harness, fake_llm):
    h = harness()
    fake_llm.add(raw_reply(ORPHAN, (3, 30, 50)), raw_reply("Plain answer.", (3, 30, 50)))
    h.agent.turn("hi")
    assert h.agent.turn("again").answer == "Plain answer."
    shown = h.out.getvalue() + h.err.getvalue()
    assert shown.count("Plain answer.") == 1 and "│ Plain answer." not in shown  # neither doubled nor as reasoning


def test_reasoning_on_stderr_is_set_apart_from_narration_by_the_repls_gutter(harness, fake_llm, project):
    (project / "a.txt").write_text("alpha\n")
    h = harness()
    call = "<think>Read it first.\nThen answer.</think>\nLet me look.\n<tool_call>\n"
    call += '{"name": "Read", "arguments": {"file_path": "a.txt"}}\n</tool_call>'
    fake_llm.add(raw_reply(call, (4, 20)), raw_reply(THOUGHT, (3, 30, 50)))
    h.agent.turn("hi")
    err = h.err.getvalue().splitlines()
    assert "│ Read it first." in err and "│ Then answer." in err and "│ The user greets me. I answer briefly." in err
    assert "Let me look." in h.out.getvalue() and not any("Let me look." in line for line in err)


SPLITS = {  # what the content held, as it came -> (the answer, what reached the screen, the reasoning)
    "an answer opening with blank lines": (("\n\nHello",), "\n\nHello", "\n\nHello", ""),
    "a second closing tag in the answer": (("<think>a</think>b</think>c",), "b</think>c", "b</think>c", "a"),
    "a thought the template opened, closed twice": (("r1</think>ans</think>x",), "ans</think>x", "r1\nans</think>x",
                                                     "r1"),
    "a closing tag quoted in backticks, then one bare": (("Use `</think>` and </think> again",),
                                                         "Use `</think>` and </think> again",
                                                         "Use `</think>` and </think> again", ""),
    "a closing tag in single quotes": (("Use '</think>' here",), "Use '</think>' here", "Use '</think>' here", ""),
    "a closing tag in double quotes": (('Use "</think>" here',), 'Use "</think>" here', 'Use "</think>" here', ""),
    "narration ended by a closing tag": (("step one", " step two\n", "three</think>Answer"), "Answer",
                                         "step one step two\nthree\nAnswer", "step one step two\nthree"),
    "a stream that ends inside thinking": (("<think>abc</",), "", "", "abc</"),
    "a quoted closing tag, then a bare one in the next piece": (("Use `</think>` and ", "</think> again"),
                                                                 "Use `</think>` and </think> again",
                                                                 "Use `</think>` and </think> again", ""),
    "narration not shown yet, ended by a closing tag": (("step one\n", "\n  see fig X \n\n</think>Answer"), "Answer",
                                                        "step one\n\n  see fig X \nAnswer",
                                                        "step one\n\n  see fig X \n\n"),
    "narration ending in a capital, ended by a closing tag": (("step one\n", "\nfig X\n\n</think>Answer"),
                                                              "Answer", "step one\n\nfig X\nAnswer",
                                                              "step one\n\nfig X\n\n"),
}  # fmt: skip


@pytest.mark.parametrize("case", SPLITS)
def test_each_shape_of_thinking_in_the_content_splits_as_it_should(case):
    pieces, answer, screen, reasoning = SPLITS[case]
    reply, shown, _ = build(*pieces)
    assert (reply.content, shown, reply.reasoning) == (answer, screen, reasoning)
    assert reply.reasoning_field == ("" if reasoning else "reasoning_content")


def test_a_bare_json_call_after_thinking_the_template_opened_runs_and_is_never_shown():
    reply, shown, _ = build("thinking</think>\n", '{"name": "Read", "parameters": {"file_path": "a"}}')
    assert [c.name for c in reply.tool_calls] == ["Read"] and shown == "thinking\n" and reply.reasoning == "thinking"


def test_text_inside_a_line_reaches_the_screen_as_it_comes():
    builder = ReplyBuilder()
    pieces = ("Say ", "more ", "<tool_call> is a tag", "\nend")
    assert [builder.add(chunk({"content": piece}))[0] for piece in pieces] == list(pieces)  # no call starts mid-line


def test_a_call_after_a_blank_line_is_held_back_from_the_screen():
    reply, shown, _ = build("Hi.\n", "\n" + CALL)
    assert [c.name for c in reply.tool_calls] == ["Read"] and shown == "Hi.\n\n" and reply.content == "Hi."


def test_a_reply_of_blank_lines_only_is_empty():
    reply, _, _ = build("\n\n", " \n")
    assert reply.empty and reply.content.strip() == ""
