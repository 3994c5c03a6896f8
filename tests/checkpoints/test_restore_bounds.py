"""What a restore may touch: only what this conversation's own calls created or changed, through the real store, with
git and without. A file the person turned into a folder is left alone; in a project several runs share, another
run's files and lines are never taken for this one's, and each file that may be another's is named before asking."""

import time
from pathlib import Path

import pytest

from narnat_agent.checkpoints.runs import Journal, Window
from narnat_agent.checkpoints.store import AGE_DAYS
from tests.checkpoints.test_checkpoints import Agent, bash, edit, files, write

STORES = ["tree", "no_git"]  # the git store, and the copies kept when git is not installed


@pytest.fixture(params=STORES)
def root(request) -> Path:
    return request.getfixturevalue(request.param)


def into_a_folder(path: str):
    """The person replaces a file with a folder of their own work."""

    def change(root: Path) -> None:
        (root / path).unlink()
        (root / path).mkdir()
        (root / path / "mine.txt").write_text("my work\n")

    return change


@pytest.mark.parametrize("existed", [False, True], ids=["created", "changed"])
def test_a_file_the_person_turned_into_a_folder_is_left_alone_and_named(root, existed):
    if existed:
        (root / "notes").write_text("notes before\n")
    agent = Agent(root)
    agent.turn("write notes", ("Write", ["notes"], write("notes", "the agent's notes\n")), A_EDIT)
    into_a_folder("notes")(root)
    plan = agent.checkpoints.plan(0)
    assert plan.left == ["notes"] and [c.path for c in plan.changes] == ["src/main.py"] and plan.conflicts == []
    assert agent.checkpoints.rewind(0, plan, overwrite=True, cut=agent.cut) == ["src/main.py"]
    assert (root / "notes/mine.txt").read_text() == "my work\n"
    agent.redo()
    assert (root / "notes/mine.txt").read_text() == "my work\n" and "bye" in (root / "src/main.py").read_text()


A_EDIT = ("Edit", ["src/main.py"], edit("src/main.py", "hello", "bye"))


def test_a_folder_the_agent_made_that_the_person_turned_into_a_file_is_left_alone(root):
    agent = Agent(root)
    agent.turn("write lib", ("Write", ["lib/new.py"], write("lib/new.py", "x = 1\n")), A_EDIT)
    (root / "lib/new.py").unlink()
    (root / "lib").rmdir()
    (root / "lib").write_text("my own lib file\n")
    plan = agent.checkpoints.plan(0)
    assert plan.left == ["lib/new.py"]
    agent.checkpoints.rewind(0, plan, overwrite=True, cut=agent.cut)
    assert (root / "lib").read_text() == "my own lib file\n"


def test_a_file_the_person_made_too_large_to_keep_is_left_alone(root):
    agent = Agent(root)
    agent.turn("edit", A_EDIT, ("Write", ["data.txt"], write("data.txt", "small\n")))
    (root / "data.txt").write_bytes(b"x" * (10 * 2**20 + 1))  # no snapshot can keep it, so no /redo could bring it back
    plan = agent.checkpoints.plan(0)
    assert plan.left == ["data.txt"]
    agent.checkpoints.rewind(0, plan, overwrite=True, cut=agent.cut)
    assert (root / "data.txt").stat().st_size == 10 * 2**20 + 1


def test_another_runs_writes_between_this_ones_are_never_taken_back(root):
    (root / "shared.py").write_text("a = 1\n" + "\n" * 8 + "z = 1\n")
    one, two = Agent(root), Agent(root)
    one.turn("mine", ("Edit", ["shared.py"], edit("shared.py", "a = 1", "a = 2")))
    two.turn("theirs", ("Write", ["theirs.txt"], write("theirs.txt", "theirs\n")),
             ("Edit", ["shared.py"], edit("shared.py", "z = 1", "z = 2")))  # fmt: skip
    one.turn("mine again", ("Write", ["mine.txt"], write("mine.txt", "mine\n")))
    plan = one.checkpoints.plan(0)
    assert plan.conflicts == ["shared.py"] and plan.shared == []
    one.checkpoints.rewind(0, plan, overwrite=False, cut=one.cut)
    assert not (root / "mine.txt").exists() and (root / "theirs.txt").read_text() == "theirs\n"
    assert (root / "shared.py").read_text() == "a = 2\n" + "\n" * 8 + "z = 2\n"


def test_another_runs_work_during_a_command_is_asked_about_by_name_and_kept(tree):
    (tree / "shared.py").write_text("a = 1\n" + "\n" * 8 + "z = 1\n")
    original = files(tree)
    one, two = Agent(tree), Agent(tree)

    def command(root: Path) -> None:  # while it runs, another narnat in the same project writes and edits
        edit("shared.py", "a = 1", "a = 2")(root)
        two.turn("theirs", ("Write", ["theirs.txt"], write("theirs.txt", "theirs\n")),
                 ("Edit", ["shared.py"], edit("shared.py", "z = 1", "z = 2")))  # fmt: skip
        (root / "mine.txt").write_text("mine\n")

    one.turn("mine", ("Bash", [], command))
    plan = one.checkpoints.plan(0)
    assert plan.shared == ["shared.py", "theirs.txt"] and plan.conflicts == []
    assert one.checkpoints.rewind(0, plan, overwrite=False, cut=one.cut) == ["mine.txt"]
    assert (tree / "theirs.txt").read_text() == "theirs\n"
    assert (tree / "shared.py").read_text() == "a = 2\n" + "\n" * 8 + "z = 2\n"
    two_plan = two.checkpoints.plan(0)  # its Write and Edit changed exactly their files: the other's undo is sure
    assert two_plan.shared == [] and two_plan.conflicts == []
    two.checkpoints.rewind(0, two_plan, overwrite=False, cut=two.cut)
    assert files(tree) == original | {"shared.py": b"a = 2\n" + b"\n" * 8 + b"z = 1\n"}


def test_a_file_another_run_changed_during_a_command_and_someone_changed_since_is_named_once_as_changed(tree):
    """A file both changed since (a conflict) and shared with another run is asked about once, as changed since."""
    (tree / "shared.py").write_text("a = 1\n" + "\n" * 8 + "z = 1\n")
    one, two = Agent(tree), Agent(tree)

    def command(root: Path) -> None:
        edit("shared.py", "a = 1", "a = 2")(root)
        two.turn("theirs", ("Edit", ["shared.py"], edit("shared.py", "z = 1", "z = 2")))

    one.turn("mine", ("Bash", [], command))
    (tree / "shared.py").write_text("a = 2\n" + "\n" * 8 + "z = 3\n")  # the person's, since
    plan = one.checkpoints.plan(0)
    assert plan.conflicts == ["shared.py"] and plan.shared == []
    assert one.checkpoints.rewind(0, plan, overwrite=False, cut=one.cut) == []
    assert (tree / "shared.py").read_text() == "a = 2\n" + "\n" * 8 + "z = 3\n"


def test_a_command_after_another_runs_write_is_its_own_again(tree):
    one, two = Agent(tree), Agent(tree)
    two.turn("theirs", ("Write", ["theirs.txt"], write("theirs.txt", "theirs\n")))
    one.turn("mine", ("Bash", [], bash("echo mine > mine.txt")))
    plan = one.checkpoints.plan(0)
    assert plan.shared == [] and [c.path for c in plan.changes] == ["mine.txt"]


def test_another_runs_write_between_two_commands_of_one_answer_is_asked_about(tree):
    """The second command's snapshot before is the first one's after (nothing of this run ran between): what another
    run wrote meanwhile shows in the second command's step, and counts as the other run's."""
    one, two = Agent(tree), Agent(tree)
    one.checkpoints.start_turn(1, "mine", 1)
    one.step("Bash", [], bash("echo one > one.txt"))
    two.turn("theirs", ("Write", ["theirs.txt"], write("theirs.txt", "theirs\n")))
    one.step("Bash", [], bash("echo two > two.txt"))
    plan = one.checkpoints.plan(0)
    assert plan.shared == ["theirs.txt"] and sorted(c.path for c in plan.changes) == [
        "one.txt",
        "theirs.txt",
        "two.txt",
    ]


def test_the_journal_skips_a_line_a_crash_cut_short_and_forgets_what_no_rewind_reaches(tree):
    journal = Journal(tree / ".narnat/checkpoints/steps")
    old, young = Window(1.0, 2.0, "a", "b", True), Window(time.time() - 10, time.time(), "c", "d", False)
    journal.note(old)
    with open(journal.path, "ab") as f:
        f.write(b'{"start": 3.0, "end"')  # a run killed mid-write
    journal.note(young)
    assert journal.windows() == [old, young]
    journal.prune(time.time() - AGE_DAYS * 86400)
    assert journal.windows() == [young]


def test_a_prune_of_the_checkpoints_prunes_the_journal_too(tree):
    agent = Agent(tree)
    agent.turn("edit", ("Edit", ["src/main.py"], edit("src/main.py", "hello", "bye")))
    agent.checkpoints.journal.note(Window(1.0, 2.0, "a", "b", True))
    agent.checkpoints.prune()
    [window] = agent.checkpoints.journal.windows()
    assert (window.before, window.after) == (agent.checkpoints.entries[0].steps[0].before,
                                             agent.checkpoints.entries[0].steps[0].after)  # fmt: skip
