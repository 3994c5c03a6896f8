"""/context's measure: each item named after what makes up its size."""

import json

from narnat_agent.conversation.context import Conversation
from narnat_agent.conversation.window import measure


def _answer(content: str, calls: dict[str, dict]) -> dict:
    tool_calls = [{"id": f"c{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
                  for n, (name, args) in enumerate(calls.items())]  # fmt: skip
    return {"role": "assistant", "content": content, "tool_calls": tool_calls}


def _labels(*messages: dict) -> list[str]:
    conversation = Conversation("system")
    conversation.messages += [{"role": "user", "content": "fix it"}, *messages]
    return [str(label) for __, label in sorted(measure(conversation, [], 128_000).items, reverse=True)]


def test_an_answer_whose_size_is_its_call_is_named_after_the_call():
    edit = {"file_path": "tests/test_time.py", "old_string": "x = 1\n" * 300, "new_string": "x = 2\n" * 300}
    assert _labels(_answer("Now the test.", {"Edit": edit}))[0] == "calls Edit(tests/test_time.py)"


def test_an_answer_whose_size_is_its_text_is_named_after_the_text():
    long = "The cause is the timezone: " + "the date is compared naive " * 60
    labels = _labels(_answer(long, {"Read": {"file_path": "a.py"}}))
    assert labels[0].startswith("answer: The cause is the timezone")
