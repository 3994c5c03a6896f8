"""The pieces /diff, /rewind, /undo and /redo are said with, on checkpoints made here as data: a file's diff and its
title, the table of turns, which turn a number names, what to restore, the sentences after a restore. The rewinds
on real snapshots are in test_rewind.py, test_rewind_after.py and test_diff.py."""

import io
import re
from dataclasses import replace

import pytest

from narnat_agent.checkpoints import CheckpointError, FileChange, FileDiff, Plan, Rewind, Taken, Turn, TurnSummary
from narnat_agent.commands import rewind
from narnat_agent.commands.dispatch import dispatch
from narnat_agent.ui.plain import PlainUI
from tests.fake_llm import text_reply


def summary(index: int, question: str = "q", files=(), calls=(), code=True, conversation=True) -> TurnSummary:
    return TurnSummary(index, f"2026-11-28T09:{index:02}:00", question, list(files), list(calls), conversation, code)


def turn(n: int) -> Turn:
    return Turn(n, f"2026-11-28T09:{n:02}:00", "q", 1)


def rewound(label: str, before: str | None = "a", taken: Taken | None = None, time="2026-11-28T10:07:30") -> Rewind:
    return Rewind(label, time, before, "b" if before else None, (), taken)


def plan(conflicts=(), shared=(), unkept=(), left=()) -> Plan:
    return Plan(0, "now", [], list(conflicts), list(unkept), list(left), list(shared))


# a file's diff and its title


def test_a_changed_files_diff_has_its_hunks_without_the_file_lines_and_counts_them():
    title, lines = rewind._unified(FileDiff("src/a.py", b"one\ntwo\nthree\n", b"one\nTWO\nthree\nfour\n"))
    assert title == "src/a.py (+2 -1)"
    assert lines == "@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n three\n+four"


def test_a_created_and_a_deleted_file_are_titled_so():
    assert rewind._unified(FileDiff("new.txt", None, b"a\nb\n")) == ("new.txt (created, +2)", "@@ -0,0 +1,2 @@\n+a\n+b")
    assert rewind._unified(FileDiff("old.txt", b"a\n", None)) == ("old.txt (deleted, -1)", "@@ -1 +0,0 @@\n-a")


def test_a_binary_file_is_named_with_its_size_after_and_no_lines():
    assert rewind._unified(FileDiff("x.bin", b"text", b"\0" * 2048)) == ("x.bin (binary, 2,048 bytes)", "")
    assert rewind._unified(FileDiff("x.bin", b"a\0b", b"plain text")) == ("x.bin (binary, 10 bytes)", "")
    assert rewind._unified(FileDiff("x.bin", b"a\0b", None)) == ("x.bin (binary, 0 bytes)", "")


def test_a_file_past_a_megabyte_is_named_with_its_size_and_no_lines():
    # a 150 MB line diffed and drawn took 2 GB and minutes, the REPL frozen meanwhile
    huge = b"a" * (1 << 20)
    assert rewind._unified(FileDiff("huge.txt", huge, huge + b"TAIL")) == (
        "huge.txt (too large to show: 1,048,580 bytes)", "")  # fmt: skip
    assert rewind._unified(FileDiff("huge.txt", huge + b"!", None)) == (
        "huge.txt (too large to show: 1,048,577 bytes)", "")  # fmt: skip
    assert rewind._unified(FileDiff("fits.txt", None, huge))[0] == "fits.txt (created, +1)"


def test_a_long_line_is_cut_with_the_rest_counted():
    title, lines = rewind._unified(FileDiff("app.min.js", b"x\n", b"y" * 5000 + b"\n"))
    assert title == "app.min.js (+1 -1)"
    assert lines == "@@ -1 +1 @@\n-x\n+" + "y" * 999 + " … 4,001 more characters"
    assert rewind._unified(FileDiff("a.txt", None, b"y" * 999))[1].endswith("+" + "y" * 999)  # 1,000 with the +


def test_bytes_that_are_not_utf8_are_shown_replaced_not_refused():
    title, lines = rewind._unified(FileDiff("latin.txt", b"caf\xe9\n", b"na\xefve\n"))
    assert title == "latin.txt (+1 -1)" and lines.splitlines()[1:] == ["-caf\ufffd", "+na\ufffdve"]


# the table of turns


def test_the_table_has_a_line_per_turn_with_its_time_files_lines_and_first_question_line():
    first = summary(
        0, "fix   the\tbug\nand more\nand more", [FileChange("a.py", 3, 1), FileChange("b.bin", None, None)]
    )
    turns = [replace(first, time="2026-11-28T09:05:59"), summary(1, "x" * 80)]
    lines = rewind._listing(turns, [turn(1), turn(2)]).splitlines()
    assert lines == [
        "   #  time   files  lines        question",
        "   1  09:05      2  +3 -1        fix the bug",
        "   2  09:01                      " + "x" * 50,
    ]


def test_a_turn_of_several_steps_lists_each_and_one_of_a_single_step_lists_none():
    turns = [
        summary(0, "two steps", calls=["Edit(a.py)", "Bash(make\n  make install\n\n  --jobs 2)"]),
        summary(1, calls=["x"]),
    ]
    lines = rewind._listing(turns, [turn(1), turn(2)]).splitlines()
    assert lines[2:4] == ["             1.1  Edit(a.py)", "             1.2  Bash(make ⏎ make install ⏎ --jobs 2)"]
    assert lines[4].startswith("   2  ") and len(lines) == 5


def test_turns_that_can_no_longer_be_restored_or_were_compressed_say_so():
    turns = [
        summary(0, "lost", code=False),
        summary(1, "squeezed", conversation=False),
        summary(2, "both", code=False, conversation=False),
    ]
    lines = rewind._listing(turns, [turn(1), turn(2), turn(3)]).splitlines()
    assert lines[1].endswith("  lost  (its files can no longer be restored)")
    assert lines[2].endswith("  squeezed  (compressed: code only)")
    assert lines[3].endswith("  both  (its files can no longer be restored)  (compressed: code only)")


def test_the_code_rewinds_made_after_a_turn_are_listed_under_it_and_those_of_the_conversation_alone_are_not():
    entries = [
        turn(1),
        rewound("turn 1, step 2"),
        rewound("turn 1", before=None),  # the conversation alone: nothing on disk changed
        turn(2),
        rewound("turn 2", taken=Taken([], 1), time="2026-11-28T11:42:00"),
    ]
    lines = rewind._listing([summary(0), summary(3)], entries).splitlines()
    assert lines[2] == "   ↶  10:07  code rewound to before turn 1, step 2"
    assert lines[3].startswith("   2  ")
    assert lines[4:] == ["   ↶  11:42  code and conversation rewound to before turn 2"]


# which turn a number names


def test_a_rewinds_label_names_its_turn_and_step():
    assert rewind._target("turn 12") == (12, 0) and rewind._target("turn 2, step 3") == (2, 3)
    assert rewind._rewound(rewound("turn 2, step 3", taken=Taken([], 1))) == "code rewound to before turn 2, step 3"
    assert rewind._rewound(rewound("turn 2", taken=Taken([], 1))) == "code and conversation rewound to before turn 2"
    assert rewind._rewound(rewound("turn 2")) == "code rewound to before turn 2"


@pytest.mark.parametrize(
    ("arg", "index", "step"), [("1", 0, 0), ("3", 2, 0), ("2.1", 1, 0), ("2.3", 1, 2), ("2.", 1, 0)]
)
def test_a_number_names_a_turn_and_n_dot_s_a_step_inside_it(arg, index, step):
    turns = [summary(i) for i in range(3)]
    chosen, at = rewind._choose(turns, arg)
    assert (chosen, at) == (turns[index], step)


@pytest.mark.parametrize("arg", ["-1", "x", "2.x", "", "2.1.1", " 2"])
def test_anything_else_is_refused_naming_the_turns_there_are(arg):
    with pytest.raises(CheckpointError) as refused:
        rewind._choose([summary(i) for i in range(3)], arg)
    assert str(refused.value) == f"'{arg}' is not a turn: give a number from 1 to 3, or N.S for a step."


@pytest.mark.parametrize(("arg", "n"), [("0", "0"), ("4", "4"), ("5.2", "5"), ("4.", "4")])
def test_a_turn_or_step_of_the_right_form_past_the_turns_is_said_to_be_no_turn(arg, n):
    """`5.2` is of the N.S form: what is wrong is that there is no turn 5, not its form."""
    with pytest.raises(CheckpointError) as refused:
        rewind._choose([summary(i) for i in range(3)], arg)
    assert str(refused.value) == f"There is no turn {n}: the turns go from 1 to 3."


# the sentences after a restore


def test_a_rewind_says_what_it_went_back_to():
    assert rewind._rewind_done("turn 2, step 3", True, False) == "Rewound to before turn 2, step 3: code."
    assert rewind._rewind_done("turn 2", True, True) == "Rewound to before turn 2: code and conversation."
    assert rewind._rewind_done("turn 2", True, False) == "Rewound to before turn 2: code."
    assert rewind._rewind_done("turn 2", False, True) == "Rewound to before turn 2: conversation."


def test_a_newline_in_a_restored_name_stays_on_its_line():
    # "Removed 4 files …: a" then "b.txt, …" on a line of its own: a name could forge the report's next line
    assert rewind._names(["a\nb.txt", "x\n  Restored 1 file: ok.txt"]) == "a\\nb.txt, x\\n  Restored 1 file: ok.txt"


def test_six_names_are_listed_and_the_rest_counted():
    assert rewind._names([]) == ""
    assert rewind._names(list("abcdef")) == "a, b, c, d, e, f"
    assert rewind._names(list("abcdefgh")) == "a, b, c, d, e, f and 2 more"


def test_files_brought_back_and_removed_are_told_apart_by_what_is_on_disk(harness, project):
    (project / "back.txt").write_text("x")
    (project / "link").symlink_to("nowhere")  # a dangling link brought back is there
    h = harness()
    said = rewind._files(h.agent, ["back.txt", "link", "gone.txt"], plan(), overwrite=False)
    assert said == ["Restored 2 files: back.txt, link.", "Removed 1 file that did not exist then: gone.txt."]
    assert rewind._files(h.agent, ["back.txt"], plan(), False) == ["Restored 1 file: back.txt."]
    assert rewind._files(h.agent, ["a", "b"], plan(), False) == ["Removed 2 files that did not exist then: a, b."]
    assert rewind._files(h.agent, [], plan(), False) == ["No file needed restoring."]
    assert rewind._files(h.agent, ["back.txt"], None, False) == []  # the conversation alone


def test_files_kept_left_and_never_kept_are_each_named_unless_overwritten(harness):
    h = harness()
    full = plan(conflicts=["mine.txt"], shared=["theirs.txt"], left=["now_a_folder"], unkept=["huge.iso"])
    assert rewind._files(h.agent, [], full, overwrite=False) == [
        "No file needed restoring.",
        "Kept as changed since: mine.txt.",
        "Kept, as another narnat run changed them too: theirs.txt.",
        "Left as they are, being no longer files a checkpoint keeps (a folder now, or too large): now_a_folder.",
        "Could not restore (never kept in a checkpoint): huge.iso.",
    ]
    assert rewind._files(h.agent, [], full, overwrite=True) == [
        "No file needed restoring.",
        "Left as they are, being no longer files a checkpoint keeps (a folder now, or too large): now_a_folder.",
        "Could not restore (never kept in a checkpoint): huge.iso.",
    ]


# what to restore, asked


def test_nothing_changed_by_others_is_overwritten_without_a_question(harness):
    h = harness("y\n")
    assert rewind._overwrite(h.agent, plan(unkept=["x"], left=["y"])) is False
    assert h.err.getvalue() == ""


@pytest.mark.parametrize(("answers", "overwrite"), [("y\n", True), ("n\n", False), ("", False)])
def test_files_changed_by_the_person_or_another_run_are_named_and_overwritten_only_on_yes(harness, answers, overwrite):
    h = harness(answers)
    assert rewind._overwrite(h.agent, plan(conflicts=["a.py", "b.py"], shared=["c.py", "d.py"])) is overwrite
    assert h.err.getvalue().startswith(
        "⚠ Changed since the agent's last change (by you or another program): a.py, b.py\n"
        "⚠ Changed by another narnat run in this project while the agent's commands ran, so maybe that run's work: "
        "c.py, d.py\n? overwrite them with the checkpoint:\n    a.py, b.py, c.py, d.py\n"
    )


def test_only_the_kind_of_change_there_is_is_warned_about(harness):
    h = harness("y\n\n")
    assert rewind._overwrite(h.agent, plan(shared=["c.py"])) is True
    assert rewind._overwrite(h.agent, plan(conflicts=["a.py"])) is False
    warned = re.findall("⚠ .*", h.err.getvalue())  # the second after the first question's "[y/N] "
    assert warned == [
        "⚠ Changed by another narnat run in this project while the agent's commands ran, so maybe that run's work: "
        "c.py",
        "⚠ Changed since the agent's last change (by you or another program): a.py",
    ]


@pytest.mark.parametrize(("answer", "mode"), [("1", (True, True)), (" 2 ", (False, True)), ("3", (True, False))])
def test_a_whole_turn_asks_what_to_restore(harness, answer, mode):
    h = harness(answer + "\n")
    assert rewind._mode(h.agent, summary(0), 0, "1") == mode
    assert h.err.getvalue() == "Restore 1) code and conversation  2) conversation only  3) code only (empty cancels): "


@pytest.mark.parametrize("answer", ["", "4", "0", "yes"])
def test_any_other_answer_rewinds_nothing(harness, answer):
    h = harness(answer + "\n")
    assert rewind._mode(h.agent, summary(0), 0, "1") == (False, False)
    assert h.err.getvalue().endswith("(empty cancels): ! Nothing rewound.\n")


class Interrupted(io.StringIO):
    """A terminal where the person pressed Ctrl-C (or Ctrl-D) at the question."""

    def __init__(self, key: type[BaseException]):
        super().__init__()
        self.key = key

    def readline(self, size: int | None = -1) -> str:
        raise self.key


@pytest.mark.parametrize("key", [KeyboardInterrupt, EOFError])
def test_ctrl_c_or_ctrl_d_at_the_question_is_no_answer(harness, key):
    out, err = io.StringIO(), io.StringIO()
    h = harness(ui=PlainUI(out, err, Interrupted(key)))
    assert rewind._mode(h.agent, summary(0), 0, "1") == (False, False)
    assert err.getvalue().endswith("! Nothing rewound.\n")


@pytest.mark.parametrize("key", [KeyboardInterrupt, EOFError])
def test_ctrl_c_or_ctrl_d_at_the_turn_to_rewind_to_rewinds_nothing(harness, fake_llm, key):
    out, err = io.StringIO(), io.StringIO()
    h = harness(ui=PlainUI(out, err, Interrupted(key)))
    fake_llm.add(text_reply("hello"))
    h.agent.ask("hi")
    dispatch(h.agent, "/rewind")
    assert err.getvalue().endswith("(N, or N.S for a step inside it; empty to cancel): ! Nothing rewound.\n")
    assert out.getvalue().splitlines()[-1].startswith("   1  ")  # the table was shown first


@pytest.mark.parametrize(("answer", "mode"), [("y\n", (True, False)), ("n\n", (False, False))])
def test_a_step_restores_only_code_and_asks_first(harness, answer, mode):
    h = harness(answer)
    assert rewind._mode(h.agent, summary(0), 1, "1.2") == mode
    assert h.err.getvalue().startswith(
        "? restore the code to before step 1.2; the conversation stays as it is:\n    /rewind 1.2\n"
    )


def test_a_compressed_turn_restores_its_code_without_a_question(harness):
    h = harness()
    assert rewind._mode(h.agent, summary(0, conversation=False), 0, "1") == (True, False)
    assert h.err.getvalue() == ""


def test_a_turn_whose_files_are_gone_restores_only_its_conversation_and_says_why(harness):
    h = harness()
    assert rewind._mode(h.agent, summary(0, code=False), 0, "1") == (False, True)
    assert h.err.getvalue() == (
        f"! The files of that turn cannot be restored ({h.agent.checkpoints.why_lost()}); only the conversation can.\n"
    )


@pytest.mark.parametrize(("step", "conversation"), [(1, True), (0, False), (2, False)])
def test_a_step_or_a_compressed_turn_without_its_files_has_nothing_to_restore(harness, step, conversation):
    h = harness()
    with pytest.raises(CheckpointError) as refused:
        rewind._mode(h.agent, summary(0, code=False, conversation=conversation), step, "1.2")
    assert str(refused.value) == f"the files of that turn cannot be restored ({h.agent.checkpoints.why_lost()})."


# what a rewind changes in the conversation


def test_the_cut_takes_the_messages_from_a_turns_start_and_hands_them_over(harness):
    h = harness()
    messages = h.conversation.messages
    messages += [
        {"role": "user", "content": "one"},
        {"role": "assistant", "content": "1"},
        {"role": "user", "content": "two"},
    ]
    h.conversation.turns = 2
    taken = rewind._cutter(h.agent)(2, 1)
    assert taken == Taken([{"role": "assistant", "content": "1"}, {"role": "user", "content": "two"}], 2)
    assert [m["content"] for m in h.conversation.messages[1:]] == ["one"] and h.conversation.turns == 1


def test_the_model_is_told_which_files_changed_under_it(harness):
    h = harness()
    rewind._tell_model(h.agent, "Something happened", ["a.py", "b.py"])
    assert h.agent.session.notes[-1] == (
        "Something happened: a.py, b.py. Their content on disk may differ from what this conversation shows; Read a "
        "file again before relying on it."
    )


def test_after_a_rewind_the_status_line_estimates_until_the_next_request_counts(harness):
    h = harness()
    h.conversation.last_prompt_tokens = 5000
    rewind._measure_again(h.agent)
    assert h.conversation.last_prompt_tokens == 0
