"""The journal of the runs that share a project's store: each step's window written whole beside other runs', read
back defensively, pruned in place; and which of a command's files another run's step changed while it ran."""

import json
from pathlib import Path

import pytest

from narnat_agent.checkpoints.runs import Journal, Window, others_work
from narnat_agent.checkpoints.store import CopyStore


@pytest.fixture
def journal(tmp_path) -> Journal:
    return Journal(tmp_path / "state/checkpoints/steps")


def test_a_note_makes_the_private_folder_and_appends_one_line_of_json(journal):
    first, second = Window(1.0, 2.5, "a", "b", True), Window(3, 4, "b", "c", False)
    journal.note(first)
    journal.note(second)
    assert journal.path.parent.stat().st_mode & 0o777 == 0o700
    lines = journal.path.read_bytes().split(b"\n")
    assert lines[2] == b"" and len(lines) == 3
    assert json.loads(lines[0]) == {"start": 1.0, "end": 2.5, "before": "a", "after": "b", "command": True}
    assert journal.windows() == [first, second]


def test_a_note_after_a_line_cut_short_starts_a_line_of_its_own(journal):
    journal.path.parent.mkdir(parents=True)
    journal.path.write_bytes(b'{"start": 1.0, "end": 2.0, "before": "a", "after": "b", "command": true}')
    window = Window(5.0, 6.0, "c", "d", True)
    journal.note(window)
    assert journal.windows() == [Window(1.0, 2.0, "a", "b", True), window]
    assert journal.path.read_bytes().endswith(b'"command": true}\n')


def test_lines_not_written_by_a_note_are_skipped(journal):
    journal.path.parent.mkdir(parents=True)
    kept = Window(1.0, 2.0, "a", "b", False)
    good = json.dumps({"start": 1.0, "end": 2.0, "before": "a", "after": "b", "command": False})
    journal.path.write_text(
        "\n".join([
            "not json",
            '{"start": 1.0, "end": 2.0, "before": "a", "after": "b"}',  # a field missing
            '{"start": 1.0, "end": 2.0, "before": "a", "after": "b", "command": false, "more": 1}',
            '{"start": null, "end": 2.0, "before": "a", "after": "b", "command": false}',
            '{"start": 1.0, "end": 2.0, "before": ["a"], "after": "b", "command": false}',
            "[1, 2]",
            good,
            "",
        ])
    )  # fmt: skip
    assert journal.windows() == [kept]


def test_a_journal_never_written_has_no_windows_and_prunes_to_nothing(journal):
    assert journal.windows() == []
    journal.path.parent.mkdir(parents=True)
    journal.prune(10.0)
    assert journal.windows() == []


def test_a_prune_keeps_what_ended_at_the_limit_or_later_and_drops_damaged_lines(journal):
    windows = [Window(1.0, 2.0, "a", "b", True), Window(2.0, 3.0, "b", "c", True), Window(3.0, 4.0, "c", "d", False)]
    for window in windows:
        journal.note(window)
    with open(journal.path, "ab") as f:
        f.write(b'{"start": 5')
    inode = journal.path.stat().st_ino
    journal.prune(3.0)
    assert journal.windows() == windows[1:]
    assert journal.path.read_bytes().count(b"\n") == 2 and journal.path.read_bytes().endswith(b"}\n")
    assert journal.path.stat().st_ino == inode, "pruned in place: a run appending meanwhile waits on the same file"


def test_a_journal_that_cannot_be_written_leaves_the_turn_going(tmp_path):
    (tmp_path / "state").write_text("a file where the folder should be\n")
    journal = Journal(tmp_path / "state/steps")
    journal.note(Window(1.0, 2.0, "a", "b", True))  # the store beside it fails too, and says so
    journal.prune(1.0)
    assert (tmp_path / "state").read_text() == "a file where the folder should be\n"


class Project:
    """A project and the store without git: each step is two snapshots of the files it names."""

    def __init__(self, root: Path):
        self.root, self.store = root, CopyStore(root, root / ".store")
        self.names = ["a.txt", "b.txt", "c.txt"]
        for name in self.names:
            (root / name).write_text("0\n")

    def snapshot(self) -> str:
        return self.store.snapshot([self.root / n for n in self.names], True).id

    def step(self, start: float, end: float, *changed: str, command: bool = True) -> Window:
        before = self.snapshot()
        for name in changed:
            (self.root / name).write_text((self.root / name).read_text() + "1\n")
        return Window(start, end, before, self.snapshot(), command)


@pytest.fixture
def project(tmp_path) -> Project:
    (tmp_path / "project").mkdir()
    return Project(tmp_path / "project")


def pairs(*windows: Window) -> set[tuple[str, str]]:
    return {(w.before, w.after) for w in windows}


def test_the_files_another_run_changed_while_a_command_ran_are_named(project):
    mine = project.step(10.0, 20.0, "a.txt", "b.txt")
    theirs = project.step(15.0, 16.0, "b.txt", "c.txt")
    windows = [mine, theirs]
    assert others_work(project.store, windows, pairs(mine), pairs(mine)) == {"b.txt"}
    assert others_work(project.store, windows, pairs(mine, theirs), pairs(mine)) == set(), "both steps are ours"
    assert others_work(project.store, windows, pairs(mine), set()) == set(), "no command of the span"
    written = Window(mine.start, mine.end, mine.before, mine.after, False)  # a Write names its file: no doubt
    assert others_work(project.store, [written, theirs], pairs(written), pairs(written)) == set()


@pytest.mark.parametrize(("start", "end"), [(20.0, 30.0), (1.0, 10.0), (20.5, 21.0), (1.0, 9.5)])
def test_a_step_of_another_run_before_or_after_a_command_is_not_its_business(project, start, end):
    mine = project.step(10.0, 20.0, "a.txt", "b.txt")
    theirs = project.step(start, end, "b.txt")
    assert others_work(project.store, [mine, theirs], pairs(mine), pairs(mine)) == set()


@pytest.mark.parametrize(("start", "end"), [(19.9, 30.0), (1.0, 10.1), (5.0, 25.0), (12.0, 13.0)])
def test_a_step_of_another_run_overlapping_a_command_at_either_end_is_named(project, start, end):
    mine = project.step(10.0, 20.0, "a.txt", "b.txt")
    theirs = project.step(start, end, "b.txt")
    assert others_work(project.store, [mine, theirs], pairs(mine), pairs(mine)) == {"b.txt"}


def test_when_the_other_runs_snapshots_are_gone_every_file_of_the_command_may_be_its(project):
    mine = project.step(10.0, 20.0, "a.txt", "b.txt")
    gone = Window(12.0, 13.0, "0" * 40, "1" * 40, True)
    other = project.step(14.0, 15.0, "c.txt")
    windows = [mine, gone, other]
    assert others_work(project.store, windows, pairs(mine), pairs(mine)) == {"a.txt", "b.txt"}


def test_a_journal_that_cannot_be_read_is_no_journal_and_every_file_of_the_span_may_be_another_runs(project):
    journal = Journal(project.root / "steps")
    journal.path.mkdir()  # a folder where the file should be: it cannot be read (nor written)
    assert journal.windows() is None
    mine = project.step(10.0, 20.0, "a.txt", "b.txt")
    written = project.step(30.0, 40.0, "c.txt", command=False)
    assert others_work(project.store, None, pairs(mine), pairs(mine, written)) == {"a.txt", "b.txt", "c.txt"}
    assert others_work(project.store, None, pairs(mine), set()) == set()


def test_each_command_of_the_span_is_judged_by_its_own_window(project):
    first = project.step(10.0, 20.0, "a.txt")
    second = project.step(30.0, 40.0, "b.txt", "c.txt")
    theirs = project.step(35.0, 36.0, "a.txt", "c.txt")
    windows = [first, second, theirs]
    ours = pairs(first, second)
    assert others_work(project.store, windows, ours, pairs(first, second)) == {"c.txt"}
    assert others_work(project.store, windows, ours, pairs(first)) == set()


def test_a_note_after_a_single_byte_a_crash_left_starts_a_line_of_its_own(journal):
    journal.path.parent.mkdir(parents=True)
    journal.path.write_bytes(b"{")
    window = Window(5.0, 6.0, "c", "d", True)
    journal.note(window)
    assert journal.windows() == [window]


def test_a_prune_of_every_step_leaves_the_journal_empty(journal):
    journal.note(Window(1.0, 2.0, "a", "b", True))
    journal.prune(10.0)
    assert journal.path.read_bytes() == b""


def test_a_command_whose_other_run_is_gone_keeps_what_an_earlier_command_of_the_span_found(project):
    first = project.step(10.0, 20.0, "a.txt")
    theirs = project.step(12.0, 13.0, "a.txt")
    second = project.step(30.0, 40.0, "b.txt")
    gone = Window(35.0, 36.0, "0" * 40, "1" * 40, True)
    windows = [first, theirs, second, gone]
    assert others_work(project.store, windows, pairs(first, second), pairs(first, second)) == {"a.txt", "b.txt"}
