"""Where a conversation stopped, as /enter recalls it: the last question and the last answer, one line each."""

from narnat_agent.commands.sessions import recap

SYSTEM = {"role": "system", "content": "the system prompt"}
GOALS = "\n\n<system-reminder>\nAfter each of your turns Narnat runs `make test`.\n</system-reminder>"
NOTES = "\n\n<system-reminder>\nPlan mode is over.\n</system-reminder>"


def test_the_last_question_and_the_last_answer_with_words_are_recalled_not_the_calls_or_results_after_them():
    messages = [
        SYSTEM,
        {"role": "user", "content": "the first question"},
        {"role": "assistant", "content": "the first answer"},
        {"role": "user", "content": f"fix\n  the   bug{GOALS}{NOTES}"},  # a goal's question, with Narnat's notes
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c1"}]},
        {"role": "tool", "tool_call_id": "c1", "content": "the file's text"},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c2"}]},
        {"role": "tool", "tool_call_id": "c2", "content": "more"},
    ]
    assert recap(messages) == [("you", "fix the bug"), ("model", "the first answer")]


def test_a_conversation_without_an_answer_recalls_its_question_alone_and_one_without_turns_nothing():
    assert recap([SYSTEM, {"role": "user", "content": "hello"}]) == [("you", "hello")]
    assert recap([SYSTEM]) == []


def test_a_line_longer_than_the_width_is_cut_with_an_ellipsis_at_the_width():
    exactly, longer = "a" * 160, "b" * 161
    assert recap([SYSTEM, {"role": "user", "content": exactly}, {"role": "assistant", "content": longer}]) == [
        ("you", exactly),
        ("model", "b" * 159 + "…"),
    ]
    assert recap([SYSTEM, {"role": "user", "content": "one two three"}], width=8) == [("you", "one two…")]
