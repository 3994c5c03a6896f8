"""What /rewind shows and leaves behind: its table, its questions, how long /redo lasts, what the model may edit."""

from narnat_agent.commands.dispatch import dispatch
from tests.fake_llm import text_reply, tool_reply

THREE_EDITS = [("one", "ONE"), ("two", "TWO"), ("three", "THREE")]


def edit_three_times(fake_llm, h, question: str = "change") -> None:
    fake_llm.add(tool_reply(("Read", {"file_path": "a.py"})),
                 *(tool_reply(("Edit", {"file_path": "a.py", "old_string": old, "new_string": new}))
                   for old, new in THREE_EDITS), text_reply("done"))  # fmt: skip
    h.agent.ask(question)


def test_redo_lasts_until_the_next_question_and_both_say_so(harness, fake_llm, project):
    (project / "a.py").write_text("one\ntwo\nthree\n")
    h = harness()
    edit_three_times(fake_llm, h)
    dispatch(h.agent, "/undo")
    assert "/redo takes it back until your next question." in h.err.getvalue()
    fake_llm.add(text_reply("fine"))
    h.agent.ask("something else")
    dispatch(h.agent, "/redo")
    assert "/redo takes back a rewind only until the next question" in h.err.getvalue()


def test_enter_cancels_at_every_question_and_a_step_asks_too(harness, fake_llm, project):
    (project / "a.py").write_text("one\ntwo\nthree\n")
    h = harness("1\n\n1.2\n\n1.2\ny\n")
    edit_three_times(fake_llm, h)
    dispatch(h.agent, "/rewind")  # turn 1, then Enter at "Restore 1) 2) 3)"
    dispatch(h.agent, "/rewind")  # step 1.2, then Enter at its question
    assert (project / "a.py").read_text() == "ONE\nTWO\nTHREE\n" and h.err.getvalue().count("Nothing rewound.") == 2
    assert "restore the code to before step 1.2; the conversation stays as it is:\n    /rewind 1.2" in h.err.getvalue()
    dispatch(h.agent, "/rewind")
    assert (project / "a.py").read_text() == "ONE\ntwo\nthree\n"


def test_the_table_has_one_line_per_change_and_shows_the_rewinds(harness, fake_llm, project):
    (project / "a.py").write_text("one\ntwo\nthree\n")
    h = harness("n\n1.2\ny\n\n")
    fake_llm.add(tool_reply(("Bash", {"command": "rm a.py"})),  # declined: nothing changed, so no step
                 tool_reply(("Bash", {"command": "touch b.txt\n  touch c.txt"})),
                 tool_reply(("Bash", {"command": "touch d.txt"})), text_reply("done"))  # fmt: skip
    h.agent.ask("go")
    dispatch(h.agent, "/rewind")  # to before step 2
    dispatch(h.agent, "/rewind")  # only looks
    first, second = h.out.getvalue().split("#  time")[1:]
    assert "1.1  Bash(touch b.txt ⏎ touch c.txt)" in first and "rm a.py" not in first
    assert "1.2  Bash(touch d.txt)" in first and "1.3" not in first
    assert "code rewound to before turn 1, step 2" in second.splitlines()[-1]


def test_an_edit_after_a_step_rewind_is_told_the_file_was_restored(harness, fake_llm, project):
    (project / "a.py").write_text("one\ntwo\nthree\n")
    h = harness("1.3\ny\n")
    edit_three_times(fake_llm, h)
    dispatch(h.agent, "/rewind")  # a.py holds ONE TWO three again
    fake_llm.add(tool_reply(("Edit", {"file_path": "a.py", "old_string": "TWO", "new_string": "2"})), text_reply("ok"))
    h.agent.ask("again")
    result = [m["content"] for m in fake_llm.requests[-1]["messages"] if m["role"] == "tool"][-1]
    assert "a.py was restored by /rewind after you last read it; Read it again, then retry." in result


def test_a_turn_that_is_not_there_is_named_with_the_ones_that_are(harness, fake_llm):
    h = harness()
    fake_llm.add(text_reply("hi"))
    h.agent.ask("hello")
    dispatch(h.agent, "/rewind 9")
    assert "There is no turn 9: the turns go from 1 to 1." in h.err.getvalue()


def test_the_table_says_what_an_undo_took_back(harness, fake_llm, project):
    (project / "a.py").write_text("one\ntwo\nthree\n")
    h = harness("\n")
    edit_three_times(fake_llm, h, "first")
    fake_llm.add(tool_reply(("Write", {"file_path": "b.txt", "content": "b\n"})), text_reply("wrote"))
    h.agent.ask("second")
    dispatch(h.agent, "/undo")
    dispatch(h.agent, "/rewind")  # only looks
    [rewound] = [line for line in h.out.getvalue().splitlines() if "↶" in line]
    assert rewound.endswith("  code and conversation rewound to before turn 2")


def test_one_file_goes_back_to_before_a_turn_asked_first_and_the_conversation_stays(harness, fake_llm, project):
    h = harness("n\ny\ny\ny\n")
    fake_llm.add(tool_reply(("Write", {"file_path": "a.py", "content": "ONE\n"}),
                            ("Write", {"file_path": "b.py", "content": "B\n"})), text_reply("done"))  # fmt: skip
    h.agent.ask("write")
    messages = list(h.conversation.messages)
    dispatch(h.agent, "/rewind 1 a.py")  # declined
    assert (project / "a.py").read_text() == "ONE\n"
    (project / "b.py").write_text("mine\n")  # changed since: a question for b.py alone
    dispatch(h.agent, "/rewind 1  a.py ")
    assert not (project / "a.py").exists() and (project / "b.py").read_text() == "mine\n"
    assert "Changed since" not in h.err.getvalue()
    dispatch(h.agent, "/rewind 1 c.py")
    dispatch(h.agent, "/rewind 2 b.py")
    assert h.conversation.messages == messages
    err = h.err.getvalue()
    assert err.count("? restore a.py to before turn 1; the conversation stays as it is:\n    /rewind 1 a.py\n") == 2
    assert "! Nothing rewound.\n" in err
    assert (
        "! Rewound to before turn 1: code. Removed 1 file that did not exist then: a.py. /redo takes it back until "
        "your next question."
    ) in err
    assert (
        "✗ There is nothing to restore in c.py: the agent did not change it from turn 1 on, or it is as it was then."
        in err
    )
    assert "✗ There is no turn 2: the turns go from 1 to 1." in err
    dispatch(h.agent, "/rewind 1 b.py")  # the person agrees to lose their change
    assert not (project / "b.py").exists()
    said = h.err.getvalue()[len(err) :]
    assert "⚠ Changed since the agent's last change (by you or another program): b.py\n" in said
    assert said.endswith("! Rewound to before turn 1: code. Removed 1 file that did not exist then: b.py. /redo takes "
                         "it back until your next question.\n")  # fmt: skip


def test_one_file_rewound_names_no_other_file_the_turn_could_not_keep(harness, fake_llm, project):
    (project / ".gitignore").write_text("cache/\n")
    (project / "cache").mkdir()
    (project / "cache" / "old").write_text("old\n")
    h = harness("y\n")
    made = "python3 -c \"import os; os.mkdir('cache/new'); open('b.txt', 'w').write('b')\""  # cache/ unkept
    fake_llm.add(tool_reply(("Write", {"file_path": "a.py", "content": "A\n"}), ("Bash", {"command": made})),
                 text_reply("done"))  # fmt: skip
    h.agent.ask("write and build")
    dispatch(h.agent, "/rewind 1 a.py")
    assert not (project / "a.py").exists() and (project / "cache" / "new").is_dir() and (project / "b.txt").exists()
    assert "Removed 1 file that did not exist then: a.py. /redo takes it back" in h.err.getvalue()


def test_undo_leaves_the_model_nothing_to_hear_the_conversation_it_gives_back_did_not_show(harness, fake_llm, project):
    h = harness()
    fake_llm.add(tool_reply(("Write", {"file_path": "a.py", "content": "A\n"})), text_reply("done"))
    h.agent.ask("write")
    dispatch(h.agent, "/undo")
    assert not (project / "a.py").exists() and h.agent.session.notes == []
