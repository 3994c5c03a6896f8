"""Turn counting, warnings and @file reminders."""

import json
from datetime import datetime

from narnat_agent.conversation.context import (
    CANCELLED,
    INTERRUPTED,
    PICTURES,
    Conversation,
    with_mentions,
    with_reminder,
)
from narnat_agent.conversation.store import stamp
from narnat_agent.prompts.texts import SUMMARY_HEADING
from narnat_agent.provider.reply import Reply, ToolCall, Usage
from narnat_agent.tools.base import Picture
from tests.fake_llm import text_reply, tool_reply


def test_turns_count_questions_only_and_warn_once_at_each_threshold(harness, fake_llm):
    h = harness(warn_turns=[2, 3], compress_turns=10)
    fake_llm.add(*[text_reply(f"a{n}") for n in range(4)])
    for n in range(4):
        h.agent.ask(f"q{n}")
    warnings = [line for line in h.err.getvalue().splitlines() if line.startswith("⚠")]
    assert warnings == [
        "⚠ This conversation has reached 2 turns. At 10 it will be compressed.",
        "⚠ This conversation has reached 3 turns. At 10 it will be compressed. Consider /clear to start a new "
        "conversation.",
    ]
    assert h.agent.conversation.turns == 4


def test_mentions_remind_the_model_to_read_existing_files(project):
    (project / "src").mkdir()
    for name in ("a.py", "b.py", "c.py", "d.py", "e.py", "f.py"):
        (project / "src" / name).write_text("")
    text = "compare @src/a.py with @src/b.py, @src/a.py again, @missing.py and mail me@example.com"
    reminded = with_mentions(text, project, lambda path: False)
    assert reminded.startswith(text)
    assert "The user mentioned @src/a.py, @src/b.py.\nYou MUST read these files with the Read tool" in reminded
    assert "missing.py" not in reminded.split("<system-reminder>")[1] and "example.com" not in reminded[len(text) :]
    many = " ".join(f"@src/{n}.py" for n in "abcdef")
    assert "@src/e.py (and 1 more)." in with_mentions(many, project, lambda path: False)
    assert with_mentions("no mentions here", project, lambda path: False) == "no mentions here"


def test_a_mention_reaches_the_model_with_the_question(harness, fake_llm, project):
    (project / "app.py").write_text("x = 1\n")
    h = harness()
    fake_llm.add(text_reply("ok"))
    h.agent.ask("what does @app.py do?")
    sent = fake_llm.requests[0]["messages"][-1]["content"]
    assert sent.startswith("what does @app.py do?") and "The user mentioned @app.py." in sent


def test_a_mention_of_a_file_the_model_has_read_as_it_is_adds_no_reminder(harness, fake_llm, project):
    (project / "app.py").write_text("x = 1\n")
    h = harness()
    fake_llm.add(
        tool_reply(("Read", {"file_path": "app.py"})), text_reply("read"), text_reply("same"), text_reply("changed")
    )
    h.agent.ask("what does @app.py do?")
    h.agent.ask("and what does @app.py return?")
    assert fake_llm.requests[-1]["messages"][-1]["content"] == "and what does @app.py return?"  # already in context
    (project / "app.py").write_text("x = 2\n")
    h.agent.ask("look at @app.py now")
    assert "The user mentioned @app.py." in fake_llm.requests[-1]["messages"][-1]["content"]  # changed since


def _call(call_id: str, name: str = "Read", args: dict | None = None) -> ToolCall:
    args = {"file_path": "a.py"} if args is None else args
    return ToolCall(call_id, name, json.dumps(args), args)


def test_a_summary_goes_on_the_system_prompt_under_its_heading_and_makes_the_conversation_worth_saving():
    fresh = Conversation("base")
    assert fresh.messages == [{"role": "system", "content": "base"}]
    assert not fresh.worth_saving
    inherited = Conversation("base", summary="\n  what was done  \n")
    assert inherited.messages == [{"role": "system", "content": f"base\n\n{SUMMARY_HEADING}\nwhat was done\n"}]
    assert inherited.worth_saving and inherited.turns == 0


def test_a_conversation_is_named_by_its_creation_unless_named():
    assert Conversation("base", name="mine").name == "mine"
    before = datetime.now()
    unnamed = Conversation("base")
    assert before <= unnamed.created <= datetime.now()
    assert unnamed.name == stamp(unnamed.created)
    assert unnamed.last_prompt_tokens == 0 and unnamed.prompt_messages == 0 and unnamed.prompt_estimated is False


def test_a_question_is_a_turn_and_a_steering_message_is_not():
    conversation = Conversation("base")
    conversation.add_user("first")
    assert conversation.turns == 1 and conversation.worth_saving
    conversation.add_user("also this", question=False)
    assert conversation.turns == 1
    assert conversation.messages[1:] == [
        {"role": "user", "content": "first"},
        {"role": "user", "content": "also this"},
    ]


def test_the_last_exchange_is_the_last_text_question_and_the_last_answer_after_it():
    conversation = Conversation("base")
    assert conversation.last_exchange() == ("", "")
    conversation.add_user("old question")
    conversation.add_reply(Reply(content="old answer", finish_reason="stop"), "")
    conversation.add_user("new question")
    assert conversation.last_exchange() == ("new question", "")  # the old answer was not to this one
    conversation.add_reply(Reply(content="looking", tool_calls=[_call("c1")], finish_reason="tool_calls"), "")
    conversation.add_tool_result("c1", "x = 1")
    conversation.add_pictures([Picture("a.png", "image/png", "AAAA")])  # a user message, but not a question
    conversation.add_reply(Reply(tool_calls=[_call("c2")], finish_reason="tool_calls"), "")  # no text: not an answer
    conversation.add_tool_result("c2", "x = 1")
    assert conversation.last_exchange() == ("new question", "looking")
    conversation.add_reply(Reply(content="done", finish_reason="stop"), "")
    assert conversation.last_exchange() == ("new question", "done")
    conversation.add_user("third question")
    assert conversation.last_exchange() == ("third question", "")
    conversation.add_reply(Reply(content="third answer", finish_reason="stop"), "")
    assert conversation.last_exchange() == ("third question", "third answer")


def test_a_reply_records_the_usage_of_its_request_and_how_many_messages_it_carried():
    conversation = Conversation("base")
    conversation.add_user("q")
    conversation.add_reply(Reply(content="a", finish_reason="stop", usage=Usage(prompt=1234, estimated=True)), "")
    assert (conversation.last_prompt_tokens, conversation.prompt_estimated, conversation.prompt_messages) == (
        1234,
        True,
        2,
    )
    conversation.add_user("q2")
    conversation.add_reply(Reply(content="b", finish_reason="stop"), "")  # no usage: the last one stays
    assert (conversation.last_prompt_tokens, conversation.prompt_messages) == (1234, 2)
    conversation.add_reply(Reply(content="c", finish_reason="stop", usage=Usage(prompt=99)), "")
    assert (conversation.last_prompt_tokens, conversation.prompt_estimated, conversation.prompt_messages) == (
        99,
        False,
        5,
    )


def test_a_reply_with_calls_keeps_them_and_its_reasoning_in_the_providers_field():
    conversation = Conversation("base")
    reply = Reply(
        content="",
        reasoning="think",
        reasoning_field="reasoning_content",
        tool_calls=[_call("c1", args={"file_path": "é.py"}), ToolCall("c2", "Bash", "{bad", None, "not JSON")],
        finish_reason="tool_calls",
    )
    conversation.add_reply(reply, "")
    assert conversation.messages[-1] == {
        "role": "assistant",
        "content": None,
        "reasoning_content": "think",
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "Read", "arguments": '{"file_path": "é.py"}'}},
            {"id": "c2", "type": "function", "function": {"name": "Bash", "arguments": "{}"}},
        ],
    }


def test_reasoning_goes_back_only_on_a_call_turn_and_only_when_the_provider_sent_it_apart():
    conversation = Conversation("base")
    conversation.add_reply(Reply(content="answer", reasoning="think", finish_reason="stop"), "")
    assert conversation.messages[-1] == {"role": "assistant", "content": "answer"}
    calls = [_call("c1")]
    conversation.add_reply(
        Reply(reasoning="think", reasoning_field="", tool_calls=calls, finish_reason="tool_calls"), ""
    )
    assert "reasoning_content" not in conversation.messages[-1] and "" not in conversation.messages[-1]
    conversation.add_reply(Reply(reasoning="", tool_calls=[_call("c2")], finish_reason="tool_calls"), "")
    assert set(conversation.messages[-1]) == {"role", "content", "tool_calls"}


def test_a_reply_cut_off_keeps_its_text_and_drops_its_calls():
    conversation = Conversation("base")
    conversation.add_reply(Reply(content="partial", tool_calls=[_call("c1")], finish_reason="length"), "")
    assert conversation.messages[-1] == {"role": "assistant", "content": "partial"}
    conversation.add_reply(Reply(tool_calls=[_call("c2")], finish_reason=None), "")  # nothing left to keep
    assert len(conversation.messages) == 2
    conversation.add_reply(Reply(content="", finish_reason="stop"), "")  # an empty answer adds nothing
    assert len(conversation.messages) == 2


def test_a_cancelled_reply_is_marked_interrupted_even_without_text():
    conversation = Conversation("base")
    conversation.add_reply(Reply(content="Looking", tool_calls=[_call("c1")], cancelled=True), "")
    assert conversation.messages[-1] == {"role": "assistant", "content": f"Looking\n\n{INTERRUPTED}"}
    conversation.add_reply(Reply(cancelled=True), "")
    assert conversation.messages[-1] == {"role": "assistant", "content": INTERRUPTED}


def test_pictures_follow_the_tool_results_as_one_user_message_that_is_no_turn():
    conversation = Conversation("base")
    conversation.add_pictures([])
    assert len(conversation.messages) == 1
    conversation.add_pictures([Picture("a.png", "image/png", "AAAA"), Picture("b.jpg", "image/jpeg", "BBBB")])
    assert conversation.turns == 0
    assert conversation.messages[-1] == {
        "role": "user",
        "content": [
            {"type": "text", "text": PICTURES},
            {"type": "text", "text": "a.png:"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
            {"type": "text", "text": "b.jpg:"},
            {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,BBBB"}},
        ],
    }


def test_open_calls_of_the_last_assistant_message_get_a_result_each_and_answered_ones_keep_theirs():
    conversation = Conversation("base")
    conversation.answer_open_calls()  # no assistant message: nothing to answer
    assert len(conversation.messages) == 1
    conversation.add_user("q")
    conversation.add_reply(Reply(tool_calls=[_call("old")], finish_reason="tool_calls"), "")
    conversation.add_tool_result("old", "done")
    conversation.add_reply(Reply(tool_calls=[_call("c1"), _call("c2"), _call("c3")], finish_reason="tool_calls"), "")
    conversation.add_tool_result("c2", "ran")
    conversation.answer_open_calls()
    assert conversation.messages[-3:] == [
        {"role": "tool", "tool_call_id": "c2", "content": "ran"},
        {"role": "tool", "tool_call_id": "c1", "content": CANCELLED},
        {"role": "tool", "tool_call_id": "c3", "content": CANCELLED},
    ]
    conversation.add_reply(Reply(content="text only", finish_reason="stop"), "")
    conversation.answer_open_calls("stopped")
    assert conversation.messages[-1] == {"role": "assistant", "content": "text only"}
    conversation.add_reply(Reply(tool_calls=[_call("c4")], finish_reason="tool_calls"), "")
    conversation.answer_open_calls("stopped")
    assert conversation.messages[-1] == {"role": "tool", "tool_call_id": "c4", "content": "stopped"}


def test_a_call_id_a_provider_gives_again_is_answered_anew_and_a_first_reply_is_answered_too():
    conversation = Conversation("base")
    conversation.add_reply(Reply(tool_calls=[_call("call_0")], finish_reason="tool_calls"), "")  # just after the system
    conversation.answer_open_calls()
    assert conversation.messages[-1] == {"role": "tool", "tool_call_id": "call_0", "content": CANCELLED}
    conversation.add_reply(Reply(tool_calls=[_call("call_0")], finish_reason="tool_calls"), "")  # numbered from 0 again
    conversation.answer_open_calls()
    assert conversation.messages[-1] == {"role": "tool", "tool_call_id": "call_0", "content": CANCELLED}
    assert len(conversation.messages) == 5


def test_the_last_answer_is_the_models_last_text_with_no_call_after_it():
    conversation = Conversation("base")
    assert conversation.last_answer() == ""
    conversation.add_user("q")
    assert conversation.last_answer() == ""
    conversation.add_reply(Reply(content="let me look", tool_calls=[_call("c1")], finish_reason="tool_calls"), "")
    assert conversation.last_answer() == ""
    conversation.add_tool_result("c1", "x")
    assert conversation.last_answer() == ""
    conversation.add_reply(Reply(content="it is x", finish_reason="stop"), "")
    assert conversation.last_answer() == "it is x"
    conversation.messages.append({"role": "assistant", "content": None})  # as a provider may store it
    assert conversation.last_answer() == ""


def test_a_reminder_is_set_apart_after_the_text_and_none_leaves_the_text_as_it_is():
    assert with_reminder("q", []) == "q"
    assert with_reminder("q", ["one", "two"]) == "q\n\n<system-reminder>\none\ntwo\n</system-reminder>"


def test_mentions_need_a_path_that_exists_not_read_as_it_is_and_not_inside_a_word(project):
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("")
    (project / "b.py").write_text("")
    (project / "~x").write_text("")
    known = {project / "b.py"}
    text = "see @src/a.py. and @b.py, x@src/a.py, @@src/a.py, @src/ and @~x"
    reminded = with_mentions(text, project, lambda path: path in known)
    assert reminded == (
        f"{text}\n\n<system-reminder>\nThe user mentioned @src/a.py, @src/, @~x.\n"
        "You MUST read these files with the Read tool before answering.\n</system-reminder>"
    )
    assert with_mentions("@b.py", project, lambda path: path in known) == "@b.py"
    assert with_mentions("x@src/a.py and @@src/a.py", project, lambda path: False) == "x@src/a.py and @@src/a.py"


def test_mentions_name_five_and_count_the_rest(project):
    names = [f"f{n}.py" for n in range(7)]
    for name in names:
        (project / name).write_text("")
    reminded = with_mentions(" ".join(f"@{name}" for name in names), project, lambda path: False)
    assert "The user mentioned @f0.py, @f1.py, @f2.py, @f3.py, @f4.py (and 2 more).\n" in reminded
    five = with_mentions(" ".join(f"@{name}" for name in names[:5]), project, lambda path: False)
    assert "@f4.py.\n" in five and "more" not in five


def test_the_key_the_model_wrote_is_kept_masked_in_the_history_the_session_saves(harness, fake_llm, project):
    # the provider never cached the answer (it comes after the prompt): masked, the next request costs nothing more
    h = harness(api_key="sk-test-key-0123")
    (project / "notes.txt").write_text("x\n")
    fake_llm.add(
        tool_reply(("Grep", {"pattern": "sk-test-key-0123", "path": "notes.txt"}), text="looking for sk-test-key-0123"),
        text_reply("the key is sk-test-key-0123, done"),
    )
    h.agent.ask("go")
    kept = json.dumps(h.conversation.messages)
    assert "sk-test-key-0123" not in kept and "sk-test-key-0123" not in json.dumps(fake_llm.requests[1]["messages"])
    call = h.conversation.messages[2]
    assert call["content"] == "looking for [API key]"
    assert json.loads(call["tool_calls"][0]["function"]["arguments"]) == {"pattern": "[API key]", "path": "notes.txt"}
    assert h.conversation.messages[-1]["content"] == "the key is [API key], done"
