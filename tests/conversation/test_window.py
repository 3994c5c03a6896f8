"""Where the context window goes (/context, the status line's ctx, the budget's next request), measured in process."""

import json

from narnat_agent.conversation.context import Conversation
from narnat_agent.conversation.window import measure
from narnat_agent.i18n import spoken
from narnat_agent.prompts.skills import SKILLS_HEADING, SKILLS_INTRO
from narnat_agent.provider.reply import Reply, ToolCall, Usage
from narnat_agent.provider.tokens import IMAGE_TOKENS, estimate
from narnat_agent.tools.base import Picture

BASE = "b" * 399  # with its newline, 100 tokens: one character fewer is 99
USER = "# User instructions (~/.narnat/NARNAT.md)\n" + "u" * 358  # 400 characters
PROJECT = "# Project instructions (NARNAT.md)\n" + "p" * 766  # 800 characters
SKILLS = f"{SKILLS_HEADING}\n{SKILLS_INTRO}\n" + "s" * 100
TOOLS = [{"type": "function", "function": {"name": "Read", "parameters": {"type": "object"}}}]


def parts(window) -> dict[str, int]:
    return {spoken(part): tokens for part, tokens in window.parts.items()}


def test_a_fresh_conversation_is_estimated_part_by_part():
    prompt = f"{BASE}\n{USER}\n{PROJECT}\n{SKILLS}"
    conversation = Conversation(prompt, summary="what was done before")
    window = measure(conversation, TOOLS, 1_000)
    summary = conversation.messages[0]["content"][conversation.messages[0]["content"].index("# Summary") :]
    assert parts(window) == {
        "system prompt": estimate(BASE + "\n"),
        "instructions: ~/.narnat/NARNAT.md": estimate(USER + "\n"),
        "instructions: NARNAT.md": estimate(PROJECT + "\n"),
        "skills": estimate(SKILLS + "\n\n"),
        "inherited summary": estimate(summary),
        "tool schemas": estimate(TOOLS),
    }
    assert window.estimated and window.since == 0 and window.sent == sum(window.parts.values())
    assert window.next_request == window.sent and window.left == 1_000 - window.sent
    assert window.items == []  # the system prompt and the schemas are parts, not items


def talked() -> Conversation:
    """A question, a call and its result sent in one request the provider counted at twice the estimate; then an
    answer and a second question, not sent yet."""
    conversation = Conversation(BASE)
    conversation.add_user("q" * 200 + "\n\n<system-reminder>\nread it\n</system-reminder>")
    call = ToolCall("c1", "Read", '{"file_path": "notes.txt"}', {"file_path": "notes.txt"})
    conversation.add_reply(Reply(tool_calls=[call], finish_reason="tool_calls", usage=Usage(0)), "")
    conversation.add_tool_result("c1", "r" * 400)
    carried = conversation.messages[:]
    request = estimate(BASE) + estimate(TOOLS) + sum(estimate(m) for m in carried[1:])
    conversation.add_reply(Reply("It says " + "a" * 100, finish_reason="stop", usage=Usage(2 * request)), "")
    conversation.add_user("and then?")
    return conversation


def test_the_parts_add_up_to_the_providers_count_and_what_came_after_it_is_counted_apart():
    conversation = talked()
    window = measure(conversation, TOOLS, 100_000)
    sent = conversation.last_prompt_tokens
    after = 2 * (estimate(conversation.messages[-2]) + estimate(conversation.messages[-1]))
    assert not window.estimated and window.sent == sent and abs(window.since - after) <= 1
    assert window.next_request == sent + window.since and window.left == 100_000 - sent - window.since
    assert abs(sum(window.parts.values()) - window.next_request) <= len(window.parts)
    assert parts(window)["tool schemas"] == 2 * estimate(TOOLS)


def test_each_message_is_an_item_named_as_the_interface_shows_it():
    window = measure(talked(), TOOLS, 100_000)
    labels = [spoken(label) for _, label in window.items]
    assert labels == [
        "question 1: " + "q" * 49 + "…",  # the reminder is not the user's
        "calls Read(notes.txt)",
        "result of Read(notes.txt)",
        "answer: It says " + "a" * 41 + "…",
        "question 2: and then?",
    ]
    assert set(parts(window)) >= {"questions", "answers", "tool results: Read"}


def test_a_window_smaller_than_the_conversation_has_nothing_left():
    window = measure(talked(), TOOLS, 10)
    assert window.left == 0


def test_a_request_the_provider_counted_at_zero_leaves_the_estimates():
    conversation = Conversation(BASE)
    conversation.add_user("hello")
    conversation.add_reply(Reply("Hi.", finish_reason="stop", usage=Usage(0)), "")  # a local server: all of it cached
    window = measure(conversation, TOOLS, 1_000)
    assert window.estimated and parts(window)["system prompt"] == 99 and window.sent == sum(window.parts.values())


def test_labels_keep_what_the_user_typed_whole_up_to_the_width():
    conversation = Conversation(BASE)
    fifty = "w" * 50
    conversation.add_user(
        f"{fifty}\n\n<system-reminder>\none\n</system-reminder>\n\n<system-reminder>\ntwo\n</system-reminder>"
    )
    conversation.add_user("")
    long_path = "src/" + "d" * 70 + ".py"
    calls = [ToolCall("c1", "Read", f'{{"file_path": "{long_path}"}}', {"file_path": long_path}),
             ToolCall("c2", "Glob", '{"pattern": "*.md"}', {"pattern": "*.md"})]  # fmt: skip
    conversation.add_reply(Reply(tool_calls=calls, finish_reason="tool_calls"), "")
    conversation.add_tool_result("c1", "text")
    conversation.add_tool_result("gone", "a result whose call the history no longer holds")
    window = measure(conversation, TOOLS, 100_000)
    assert [spoken(label) for _, label in window.items] == [
        f"question 1: {fifty}",
        "question 2: ",
        "calls " + f"Read({long_path})"[:59] + "…, Glob(*.md)",
        "result of " + f"Read({long_path})"[:59] + "…",
        "result of tool",
    ]
    assert "tool results: tool" in parts(window)


def test_images_the_tools_read_are_a_part_of_their_own():
    conversation = Conversation(BASE)
    conversation.add_user("look")
    conversation.add_pictures([Picture("a.png", "image/png", "AAAA")])
    window = measure(conversation, TOOLS, 100_000)
    assert [spoken(label) for _, label in window.items] == ["question 1: look", "images read by the tools"]
    assert parts(window)["images"] >= IMAGE_TOKENS


def _answer(content: str, calls: dict[str, dict]) -> dict:
    tool_calls = [{"id": f"c{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
                  for n, (name, args) in enumerate(calls.items())]  # fmt: skip
    return {"role": "assistant", "content": content, "tool_calls": tool_calls}


def _labels_of(*messages: dict) -> list[str]:
    conversation = Conversation("system")
    conversation.messages += [{"role": "user", "content": "fix it"}, *messages]
    return [str(label) for __, label in sorted(measure(conversation, [], 128_000).items, reverse=True)]


def test_an_answer_whose_size_is_its_call_is_named_after_the_call():
    edit = {"file_path": "tests/test_time.py", "old_string": "x = 1\n" * 300, "new_string": "x = 2\n" * 300}
    assert _labels_of(_answer("Now the test.", {"Edit": edit}))[0] == "calls Edit(tests/test_time.py)"


def test_an_answer_whose_size_is_its_text_is_named_after_the_text():
    long = "The cause is the timezone: " + "the date is compared naive " * 60
    labels = _labels_of(_answer(long, {"Read": {"file_path": "a.py"}}))
    assert labels[0].startswith("answer: The cause is the timezone")


def test_a_short_answer_without_calls_is_named_after_its_text():
    assert sorted(_labels_of({"role": "assistant", "content": "Done."})) == ["answer: Done.", "question 1: fix it"]
