"""The project's folders watched, in process: which changes the next whole snapshot is told of by name, when the
last one still stands, and when nothing is vouched for (events lost, a folder that cannot be watched)."""

import os
import shutil
import sys
from pathlib import Path

import pytest

from narnat_agent.checkpoints.watching import LIMIT, Watcher
from narnat_agent.platform.watch import open_watch

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the project is watched on Linux only")


class Failing:
    """The system's watcher, but losing its events when told to, and refusing to watch the folders named."""

    def __init__(self, root: Path, refused: set[str]):
        watch = open_watch(root)
        assert watch is not None, "a temporary folder is on a local file system"
        self.watch, self.refused, self.losing, self.closed = watch, refused, False, False
        self.added: list[str] = []
        self.vanishing = ""  # the next folder watched below this one is removed once its watch is added

    def add(self, folder: str) -> bool:
        self.added.append(folder)
        added = os.path.basename(folder) not in self.refused and self.watch.add(folder)
        if self.vanishing and os.path.dirname(folder) == self.vanishing:
            shutil.rmtree(folder)
            self.vanishing = ""
        return added

    def forget(self, folder: str) -> None:
        self.watch.forget(folder)

    def events(self):
        found = self.watch.events()
        return None if self.losing else found

    def close(self) -> None:
        self.closed = True
        self.watch.close()


def failing(refused: set[str] | None = None):
    """An opener of a Failing watch, which it keeps where the test can reach it."""
    made: list[Failing] = []

    def opener(root: Path) -> Failing:
        made.append(Failing(root, refused or set()))
        return made[-1]

    return opener, made


def watched(root: Path, ignored: set[str] | None = None, opener=open_watch) -> Watcher:
    """A watcher past its first whole snapshot: from here on, what changes is known by name."""
    watcher = Watcher(root, opener)
    assert not watcher.still()
    watcher.begin(set(ignored or ()))
    assert not watcher.still(), "nothing is vouched for before the first mark"
    assert watcher.mark() is None, "the first whole snapshot looks at every file"
    assert watcher.still()
    return watcher


@pytest.fixture
def root(tmp_path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/main.py").write_text("print('hello')\n")
    (tmp_path / "old.txt").write_text("old\n")
    return tmp_path


def test_files_made_changed_and_chmoded_are_named_at_the_next_mark_and_then_the_snapshot_stands(root):
    watcher = watched(root)
    (root / "new.txt").write_text("new\n")
    (root / "src/main.py").write_text("print('bye')\n")
    (root / "old.txt").chmod(0o755)
    assert not watcher.still()
    assert not watcher.still(), "what changed stays unvouched for until the next mark"
    assert watcher.mark() == {"new.txt", "src/main.py", "old.txt"}
    assert watcher.still()
    assert watcher.mark() == set()
    (root / "old.txt").unlink()
    assert watcher.mark() == {"old.txt"}


def test_git_narnat_and_temporary_files_change_nothing_a_snapshot_keeps(root):
    (root / ".git").mkdir()
    (root / ".narnat").mkdir()
    (root / "src/.git").mkdir()
    watcher = watched(root)
    (root / ".git/HEAD").write_text("ref: refs/heads/main\n")
    (root / ".narnat/session.json").write_text("{}\n")
    (root / ".narnat-tmp-1-ab").write_text("half\n")
    (root / "src/.narnat-tmp-2-cd").write_text("half\n")
    (root / "src/.git/config").write_text("[core]\n")
    (root / ".narnat-tmp-1-ab").unlink()
    (root / "src/sub").mkdir()
    assert watcher.mark() == {"src/sub"}
    (root / "src/sub/.narnat-tmp-3-ef").write_text("half\n")
    (root / ".narnat").chmod(0o700)
    (root / ".git").chmod(0o700)
    assert watcher.still()
    assert watcher.mark() == set()
    (root / ".narnat-tmp-4-ab").write_text("half\n")
    (root / "old.txt").write_text("after a temporary file\n")
    assert watcher.mark() == {"old.txt"}
    (root / "src/.narnat").mkdir()  # only the project's own .narnat is Narnat's
    assert not watcher.still()
    (root / "src/.narnat/x").write_text("a file of the project\n")
    assert watcher.mark() == {"src/.narnat", "src/.narnat/x"}


def test_a_folder_made_is_watched_at_once_and_one_removed_makes_the_next_snapshot_look_at_everything(root):
    watcher = watched(root)
    (root / "made").mkdir()
    assert not watcher.still()
    (root / "made/inside.txt").write_text("inside\n")
    (root / "src/deep").mkdir()
    (root / "src/deep/deeper").mkdir()  # before deep is watched: the folder that came stands for it
    assert watcher.mark() == {"made", "made/inside.txt", "src/deep"}
    (root / "src/deep/deeper/f.txt").write_text("f\n")
    assert watcher.mark() == {"src/deep/deeper/f.txt"}
    (root / "src/deep/deeper/f.txt").unlink()
    (root / "src/deep/deeper").rmdir()
    assert watcher.mark() is None, "the names of a folder gone cannot tell which files went with it"
    assert watcher.mark() == set()
    (root / "src/deep/again").mkdir()
    assert not watcher.still()
    (root / "src/deep/again/g.txt").write_text("g\n")
    assert watcher.mark() == {"src/deep/again", "src/deep/again/g.txt"}


def test_a_folder_moved_away_is_forgotten_and_a_new_one_of_its_name_watched(root):
    watcher = watched(root)
    os.rename(root / "src", root / "moved")
    assert watcher.mark() is None
    (root / "src").mkdir()
    assert watcher.mark() == {"src"}
    (root / "src/new.py").write_text("x = 1\n")
    (root / "moved/main.py").write_text("print('moved')\n")
    assert watcher.mark() == {"src/new.py", "moved/main.py"}


@pytest.mark.parametrize("where", [".gitignore", "src/.gitignore", "src/deep/.gitignore"])
def test_a_gitignore_changed_makes_the_next_snapshot_look_at_everything(root, where):
    (root / "src/deep").mkdir()
    watcher = watched(root)
    (root / where).write_text("*.log\n")
    assert not watcher.still()
    assert watcher.mark() is None
    assert watcher.still()


def test_the_project_folder_itself_changed_makes_the_next_snapshot_look_at_everything(root):
    watcher = watched(root)
    root.chmod(0o700)
    assert watcher.mark() is None


def test_past_the_limit_of_names_the_next_snapshot_looks_at_everything(root):
    (root / "n0").write_bytes(b"")
    watcher = watched(root)
    for n in range(1, LIMIT):  # a rename names two files, and costs a tenth of a file made
        os.rename(root / f"n{n - 1}", root / f"n{n}")
    assert len(watcher.mark() or ()) == LIMIT
    for n in range(LIMIT, 2 * LIMIT):
        os.rename(root / f"n{n - 1}", root / f"n{n}")
    assert watcher.mark() is None


def test_changes_a_snapshot_of_touched_files_took_in_leave_the_whole_one_standing(root):
    watcher = watched(root)
    (root / "old.txt").write_text("written by Write\n")
    watcher.cover(["old.txt", "other.txt"])
    assert watcher.still()
    assert watcher.mark() == {"old.txt"}
    (root / "old.txt").write_text("written again\n")
    watcher.cover(["old.txt"])
    assert watcher.still()
    (root / "src/main.py").write_text("by a command\n")
    (root / "old.txt").write_text("again\n")
    watcher.cover(["old.txt"])
    assert not watcher.still(), "a change the touched files' snapshot did not take in"
    assert watcher.mark() == {"old.txt", "src/main.py"}
    watcher.cover(["old.txt"])
    (root / "old.txt").write_text("after the snapshot began\n")
    assert not watcher.still()


def test_in_a_folder_gitignore_names_whole_only_what_comes_and_goes_counts(root):
    (root / "build").mkdir()
    (root / "build/old.o").write_bytes(b"\0")
    (root / "build/sub").mkdir()
    watcher = watched(root, {"build", "later"})
    (root / "build/old.o").write_bytes(b"\1")
    (root / "build/sub/x.o").write_bytes(b"\1")
    assert watcher.still()
    (root / "build/old.o").write_bytes(b"\2")
    (root / "old.txt").write_text("after a build\n")
    assert watcher.mark() == {"old.txt"}
    (root / "build/new.o").write_bytes(b"\0")
    assert not watcher.still()
    assert watcher.mark() == {"build/"}
    (root / "later").mkdir()  # made after the snapshot: only its own entries are watched, as build's
    assert watcher.mark() == {"later"}
    (root / "later/sub").mkdir()
    assert watcher.mark() == {"later/"}
    (root / "later/sub/y.o").write_bytes(b"\0")
    (root / "later/z.o").write_bytes(b"\0")
    (root / "later/z.o").write_bytes(b"\1")
    assert watcher.mark() == {"later/"}


def test_a_touched_file_in_an_ignored_folder_makes_the_folder_watched_whole_from_then_on(root):
    (root / "build").mkdir()
    (root / "build/sub").mkdir()
    (root / "build/out.o").write_bytes(b"\0")
    watcher = watched(root, {"build"})
    watcher.cover(["src/main.py"])
    assert watcher.still(), "a touched file elsewhere leaves the ignored folder ignored"
    watcher.cover(["build/out.o"])
    assert not watcher.still()
    assert watcher.mark() is None, "the folder's other files were never in a snapshot"
    (root / "build/out.o").write_bytes(b"\1")
    (root / "build/sub/deep.o").write_bytes(b"\1")
    assert watcher.mark() == {"build/out.o", "build/sub/deep.o"}


def test_a_snapshot_that_ignores_other_folders_watches_them_as_it_keeps_them(root):
    (root / "dist").mkdir()
    (root / "dist/a.js").write_text("a\n")
    (root / "dist/sub").mkdir()
    watcher = watched(root)
    watcher.follow({"dist"})
    assert watcher.still(), "a folder no longer kept changes nothing the last snapshot holds"
    (root / "dist/a.js").write_text("b\n")
    (root / "dist/sub/b.js").write_text("b\n")
    assert watcher.mark() == set()
    (root / "dist/c.js").write_text("c\n")
    (root / "src/main.py").write_text("still watched\n")
    assert watcher.mark() == {"dist/", "src/main.py"}
    watcher.follow(set())  # .gitignore no longer names it
    assert not watcher.still()
    assert watcher.mark() is None
    (root / "dist/sub/b.js").write_text("c\n")
    assert watcher.mark() == {"dist/sub/b.js"}
    watcher.follow(set())
    assert watcher.still(), "the same folders kept: what is known stays known"


def test_a_later_run_start_keeps_the_watch_it_has(root):
    watcher = watched(root)
    watcher.begin({"src"})
    (root / "src/main.py").write_text("changed\n")
    assert watcher.mark() == {"src/main.py"}


def test_after_events_are_lost_the_folders_are_listed_again_and_watched(root):
    opener, made = failing()
    watcher = watched(root, opener=opener)
    made[0].losing = True
    (root / "made").mkdir()
    assert not watcher.still()
    made[0].losing = False
    assert watcher.still() is False, "lost events leave nothing vouched for until the next mark"
    assert watcher.mark() is None
    assert watcher.still()
    (root / "made/inside.txt").write_text("seen, as made was listed again\n")
    assert watcher.mark() == {"made/inside.txt"}
    assert made[0].added.count(str(root)) == 2
    assert len(made) == 1


def test_a_project_with_no_watcher_has_every_snapshot_whole(root):
    calls = []

    def none(path: Path) -> None:
        calls.append(path)

    watcher = Watcher(root, none)
    watcher.begin(set())
    watcher.follow(set())
    assert watcher.mark() is None and not watcher.still()
    watcher.cover(["old.txt"])
    assert watcher.mark() is None and not watcher.still()
    assert calls == [Path(os.path.realpath(root))], "a system without a watcher is asked once"
    watcher.close()


@pytest.mark.parametrize("refused", ["src", "deep", "later", "dist"])
def test_a_folder_that_cannot_be_watched_turns_the_watcher_off(root, refused):
    opener, made = failing({refused} - {"dist"})
    (root / "dist").mkdir()
    watcher = Watcher(root, opener)
    watcher.begin({"later"})
    if refused == "src":  # at the first walk
        assert watcher.off and made[0].closed
    else:
        assert watcher.mark() is None and watcher.still()
        if refused == "deep":  # a folder that comes
            (root / "src/deep").mkdir()
        elif refused == "later":  # an ignored folder that comes
            (root / "later").mkdir()
        else:  # a folder the snapshot no longer keeps
            made[0].refused.add("dist")
            watcher.follow({"later", "dist"})
        assert not watcher.still() and made[0].closed
    assert watcher.mark() is None and not watcher.still()
    (root / "new.txt").write_text("unseen\n")
    assert watcher.mark() is None and not watcher.still()
    watcher.follow({"later"})
    assert len(made) == 1, "once off, the watcher stays off"


def test_a_closed_watcher_vouches_for_nothing(root):
    opener, made = failing()
    watcher = watched(root, opener=opener)
    watcher.close()
    assert made[0].closed
    assert not watcher.still() and watcher.mark() is None
    watcher.close()


def test_each_folder_is_watched_once_and_a_change_adds_only_the_watches_of_what_came(root):
    (root / "build").mkdir()
    (root / "build/sub").mkdir()
    (root / "dist").mkdir()
    (root / "dist/sub").mkdir()
    opener, made = failing()
    watcher = watched(root, {"build", "dist"}, opener)
    top = os.path.realpath(root)
    assert sorted(made[0].added) == sorted(top + p for p in ("", "/src", "/build", "/dist"))
    made[0].added.clear()
    (root / "old.txt").write_text("a file\n")
    (root / "src/made").mkdir()
    assert not watcher.still()
    assert made[0].added == [top + "/src/made"], "a file adds no watch; a folder made adds its own"
    made[0].added.clear()
    watcher.cover(["build/sub/x.o"])
    assert sorted(made[0].added) == [top + "/build", top + "/build/sub"], "the ignored folder alone is walked"
    made[0].added.clear()
    watcher.follow({"build"})
    assert sorted(made[0].added) == [top + "/build", top + "/dist", top + "/dist/sub"], (
        "build ignored again (its own entries), and dist no longer ignored: nothing more"
    )


def test_a_folder_gone_while_it_is_listed_leaves_the_others_watched(root):
    for name in ("a", "b", "c"):
        (root / name).mkdir()
    opener, made = failing()
    watcher = Watcher(root, opener)
    made_watch = watcher.opener

    def vanishing(path: Path) -> Failing:
        watch = made_watch(path)
        watch.vanishing = os.path.realpath(root)  # the first folder listed under the project is removed
        return watch

    watcher.opener = vanishing
    watcher.begin(set())
    assert watcher.mark() is None
    there = sorted(p.name for p in root.iterdir() if p.is_dir())
    assert len(there) == 3
    for name in there:
        (root / name / "f").write_text("f\n")
    assert watcher.mark() == {f"{name}/f" for name in there}


def folders_after(root: Path, name: str) -> list[str]:
    listed = os.listdir(root)
    return [f for f in listed[listed.index(name) + 1 :] if (root / f).is_dir()]


@pytest.mark.parametrize("skipped", [".git", "build"])
def test_a_folder_listed_after_git_or_an_ignored_one_is_watched(root, skipped):
    (root / skipped).mkdir()
    n = 0
    while not (after := folders_after(root, skipped)):  # a folder listed after it, whatever the order
        (root / f"f{n}").mkdir()
        n += 1
    watcher = watched(root, {"build"})
    for name in after:
        (root / name / "x").write_text("x\n")
    assert watcher.mark() == {f"{name}/x" for name in after}


def test_a_link_to_a_folder_is_not_followed(root):
    (root / "to-root").symlink_to("/")  # its folders are on other file systems (/proc): followed, it would stop all
    watcher = watched(root)
    (root / "old.txt").write_text("changed\n")
    assert watcher.mark() == {"old.txt"}
