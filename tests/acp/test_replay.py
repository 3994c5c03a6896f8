"""A saved conversation told again (session/load), in process: what each message becomes, in order."""

from narnat_agent.acp.replay import replayed
from narnat_agent.conversation.context import with_reminder


def _told(messages: list[dict]) -> list[dict]:
    return [u.model_dump(by_alias=True, exclude_none=True) for u in replayed(messages)]


def _text(kind: str, text: str) -> dict:
    return {"content": {"text": text, "type": "text"}, "sessionUpdate": kind}


def _call(name: str, arguments: str, call_id: str = "c1") -> dict:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _result(call_id: str, text: str) -> dict:
    return {"toolCallId": call_id, "status": "completed", "sessionUpdate": "tool_call_update",
            "content": [{"content": {"text": text, "type": "text"}, "type": "content"}]}  # fmt: skip


SYSTEM = {"role": "system", "content": "You are Narnat."}


def test_a_turn_is_told_again_in_order_without_the_system_prompt_or_what_narnat_added():
    messages = [
        SYSTEM,
        {"role": "user", "content": "fix it\n\n<system-reminder>\nthe todo list is empty\n</system-reminder>"},
        {"role": "assistant", "content": "Looking.", "reasoning_content": "where is it?",
         "tool_calls": [_call("Bash", '{"command": "ls\\nwc"}'), _call("Read", '{"file_path": "a.py"}', "c2")]},
        {"role": "tool", "tool_call_id": "c1", "content": "a.py"},
        {"role": "tool", "tool_call_id": "c2", "content": "x = 1"},
        {"role": "assistant", "content": "Done."},
    ]  # fmt: skip
    assert _told(messages) == [
        _text("user_message_chunk", "fix it"),
        _text("agent_thought_chunk", "where is it?"),
        _text("agent_message_chunk", "Looking."),
        {"toolCallId": "c1", "title": "Bash(ls … +1 line)", "kind": "execute", "status": "pending",
         "rawInput": {"command": "ls\nwc"}, "sessionUpdate": "tool_call"},
        {"toolCallId": "c2", "title": "Read(a.py)", "kind": "read", "status": "pending",
         "rawInput": {"file_path": "a.py"}, "sessionUpdate": "tool_call"},
        _result("c1", "a.py"),
        _result("c2", "x = 1"),
        _text("agent_message_chunk", "Done."),
    ]  # fmt: skip


def test_a_reminder_of_several_notes_is_not_shown_as_typed():
    question = with_reminder("go on", ["The user rewound files to how they were before turn 2: a.py.", "Plan mode."])
    assert _told([SYSTEM, {"role": "user", "content": question}]) == [_text("user_message_chunk", "go on")]


def test_a_reminder_inside_the_question_is_what_the_person_typed():
    typed = "keep <system-reminder>\nthis\n</system-reminder> here"
    assert _told([SYSTEM, {"role": "user", "content": typed}]) == [_text("user_message_chunk", typed)]


def test_the_reasoning_under_either_name_and_an_empty_answer():
    messages = [SYSTEM, {"role": "assistant", "content": "", "reasoning": "thinking"},
                {"role": "assistant", "content": None, "reasoning_content": "", "reasoning": "second"},
                {"role": "assistant", "content": "A", "reasoning_content": ["not", "text"]}]  # fmt: skip
    assert _told(messages) == [
        _text("agent_thought_chunk", "thinking"),
        _text("agent_thought_chunk", "second"),
        _text("agent_message_chunk", "A"),
    ]


def test_pictures_a_tool_read_are_not_a_question():
    picture = [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]
    assert _told([SYSTEM, {"role": "user", "content": picture}, {"role": "user", "content": "and?"}]) == [
        _text("user_message_chunk", "and?")
    ]


def test_arguments_that_are_not_an_object_are_shown_as_none():
    messages = [SYSTEM, {"role": "assistant", "content": "", "tool_calls": [
        _call("Bash", "{not json", "c1"), _call("Glob", "[1, 2]", "c2"), _call("Grep", "", "c3"),
        _call("Unknown", '{"a": 1}', "c4")]}]  # fmt: skip
    told = _told(messages)
    assert [(u["toolCallId"], u["rawInput"], u["kind"]) for u in told] == [
        ("c1", {}, "execute"),
        ("c2", {}, "search"),
        ("c3", {}, "search"),
        ("c4", {"a": 1}, "other"),
    ]
    assert told[0]["title"] == "Bash(…)" and told[3]["title"] == "Unknown"


def test_a_tool_result_that_is_not_text_is_shown_as_text():
    messages = [SYSTEM, {"role": "tool", "tool_call_id": "c9", "content": None}]
    assert _told(messages)[0]["content"] == [{"content": {"text": "None", "type": "text"}, "type": "content"}]
