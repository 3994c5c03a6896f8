"""What either store promises, with git and without it (copies of the touched files): a restore byte for byte and
mode for mode, the .narnat folder left alone, the listing's line counts, a private store and its pruning."""

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from narnat_agent.checkpoints.git_store import FIRST_LIMIT, GitStore
from narnat_agent.checkpoints.store import AGE_DAYS, CAP, CheckpointError, CopyStore
from narnat_agent.checkpoints.timeline import open_store
from tests.checkpoints.test_checkpoints import GIT_DIR, Agent, bash, blocked_store, files, write
from tests.platforms import UNDER_WINE


@pytest.fixture(params=["git", "copies"])
def store_kind(request, tree, tmp_path, monkeypatch) -> str:
    """Each test runs with the shadow git store, and with copies, as when git is not installed."""
    if request.param == "copies":
        (tmp_path / "bin").mkdir()
        monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    return request.param


def put(path: str, data: bytes, mode: int | None = None):
    def change(root: Path) -> None:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
        if mode is not None:
            (root / path).chmod(mode)

    return change


def modes(root: Path) -> dict[str, int]:
    return {rel: (root / rel).stat().st_mode & 0o777 for rel in files(root)}


def test_a_rewind_gives_back_each_files_bytes_and_mode_and_removes_the_folders_it_made(tree, store_kind):
    (tree / "run.sh").write_bytes(b"#!/bin/sh\r\necho caf\xe9\n")
    (tree / "run.sh").chmod(0o755)
    original, original_modes = files(tree), modes(tree)
    old = os.umask(0o022)
    try:
        agent = Agent(tree)
        agent.turn("change them", ("Write", ["run.sh"], put("run.sh", b"new\n", 0o600)),
                   ("Write", ["gen.py"], put("gen.py", b"theirs\n", 0o700)),
                   ("Write", ["a/b/new.txt"], put("a/b/new.txt", b"new\n")))  # fmt: skip
        agent.rewind(0)
    finally:
        os.umask(old)
    assert files(tree) == original and not (tree / "a").exists()
    assert modes(tree) == original_modes and original_modes["run.sh"] == 0o755 and original_modes["gen.py"] == 0o644


def test_a_folder_outside_the_project_that_a_new_file_leaves_empty_stays(tree, tmp_path, store_kind):
    (tmp_path / "empty").mkdir()
    agent = Agent(tree)
    agent.turn("write outside", ("Write", ["../empty/new.txt"], write("../empty/new.txt", "x\n")))
    agent.rewind(0)
    assert not (tmp_path / "empty/new.txt").exists() and (tmp_path / "empty").is_dir()


def test_what_the_agent_writes_in_the_narnat_folder_is_neither_listed_nor_rewound(tree, store_kind):
    touched = [".narnat/notes/plan.md", "gen.py"]
    agent = Agent(tree)
    agent.turn("plan", ("Write", touched, lambda root: [write(p, "agent\n")(root) for p in touched]))
    [summary] = agent.checkpoints.turns()
    assert [f.path for f in summary.files] == ["gen.py"]
    assert agent.rewind(0) == ["gen.py"]
    assert (tree / ".narnat/notes/plan.md").read_text() == "agent\n"


def test_a_project_file_whose_name_only_begins_like_the_narnat_folder_is_kept_and_rewound(tree, store_kind):
    """Narnat's own is the .narnat folder alone: `.narnatrc` and `.narnat.d/` beside it are the project's."""
    touched = [".narnat.d/x.md", ".narnatrc"]
    (tree / ".narnatrc").write_text("mine\n")
    agent = Agent(tree)
    agent.turn("write", ("Write", touched, lambda root: [write(p, "agent\n")(root) for p in touched]))
    [summary] = agent.checkpoints.turns()
    assert [f.path for f in summary.files] == touched
    assert agent.rewind(0) == touched
    assert (tree / ".narnatrc").read_text() == "mine\n" and not (tree / ".narnat.d").exists()


def test_the_project_folder_among_what_a_call_touches_is_no_file_to_keep(tree, store_kind):
    agent = Agent(tree)
    agent.turn("write", ("Write", [".", "new.txt"], write("new.txt", "x\n")))
    assert agent.said == [] and agent.rewind(0) == ["new.txt"]


def test_a_project_reached_through_a_link_names_its_files_as_its_own(tree, tmp_path, store_kind):
    """A tool's path has its links followed; the project may be opened through one (a home on another disk)."""
    (tmp_path / "link").symlink_to(tree, target_is_directory=True)
    agent = Agent(tmp_path / "link")
    agent.turn("edit", ("Write", ["src/main.py"], write("src/main.py", "agent\n")))
    [summary] = agent.checkpoints.turns()
    assert [f.path for f in summary.files] == ["src/main.py"]
    assert agent.rewind(0) == ["src/main.py"] and (tree / "src/main.py").read_text() == "print('hello')\n"


def test_a_path_that_cannot_be_read_before_a_call_is_said_with_the_reason(tree, store_kind):
    (tree / "data").write_text("a file, not a folder\n")
    agent = Agent(tree)
    agent.turn("replace it", ("Write", ["data/x.txt"], lambda root: (root / "data").unlink() or
                              write("data/x.txt", "x\n")(root)))  # fmt: skip
    assert agent.said == ["Write(data/x.txt): /undo cannot restore data/x.txt (cannot be read: Not a directory)."]


def test_a_path_through_a_name_too_long_for_the_disk_leaves_the_checkpoints_on(tree, store_kind):
    long = "L" * 300
    agent = Agent(tree)
    agent.turn("write there", ("Write", [f"a/{long}/b.txt"], lambda root: (root / "a").mkdir()),
               ("Write", ["new.txt"], write("new.txt", "new\n")))  # fmt: skip
    [said] = agent.said  # one sentence about that path, not "Checkpoints are off for this run"
    assert said.endswith(f": /undo cannot restore a/{long}/b.txt (cannot be read: File name too long).")
    assert agent.rewind(0) == ["new.txt"] and not (tree / "new.txt").exists()


@pytest.mark.windows
def test_without_git_a_file_too_big_to_keep_is_said_when_changed(no_git):
    (no_git / "big.bin").write_bytes(b"b" * (CAP + 1))
    agent = Agent(no_git)
    agent.turn("shrink it", ("Edit", ["big.bin"], write("big.bin", "small now\n")))
    assert agent.said == [
        f"Edit(big.bin): /undo cannot restore big.bin (10 MB, over the {CAP >> 20} MB a checkpoint keeps of a file)."
    ]


@pytest.mark.windows
def test_without_git_the_listing_counts_lines_of_text_in_any_encoding_and_none_for_binary(no_git):
    (no_git / "five.txt").write_text("one\ntwo\nthree\nfour\nfive\n")
    (no_git / "latin.txt").write_bytes(b"caf\xe9\n")
    (no_git / "braces.txt").write_text("}\n" * 250)  # one line so common that a quick diff would skip it
    agent = Agent(no_git)
    agent.turn("edit", ("Edit", ["five.txt"], write("five.txt", "one\ntwo\nTHREE\nnew\nfour\nfive\n")),
               ("Edit", ["latin.txt"], put("latin.txt", b"caf\xe9 au lait\n")),
               ("Edit", ["braces.txt"], write("braces.txt", "}\n" * 125 + "x\n" + "}\n" * 125)),
               ("Write", ["data.bin"], put("data.bin", b"\0\1")))  # fmt: skip
    [summary] = agent.checkpoints.turns()
    assert [(f.path, f.added, f.removed) for f in summary.files] == [
        ("braces.txt", 1, 0), ("data.bin", None, None), ("five.txt", 2, 1), ("latin.txt", 1, 1)]  # fmt: skip


@pytest.mark.windows
def test_without_git_a_file_touched_with_another_then_alone_is_listed(no_git):
    agent = Agent(no_git)
    agent.turn("two calls", ("Write", ["gen.py", "out.txt"], write("gen.py", "1\n")),
               ("Edit", ["gen.py"], write("gen.py", "1\n2\n")))  # fmt: skip
    [summary] = agent.checkpoints.turns()
    assert [(f.path, f.added, f.removed) for f in summary.files] == [("gen.py", 2, 1)]


@pytest.mark.skipif(os.name == "nt", reason="Windows keeps no POSIX modes; private files get an access list")
def test_without_git_the_store_is_private_whatever_the_umask(no_git):
    old = os.umask(0o022)
    try:
        Agent(no_git).turn("edit", ("Edit", ["gen.py"], write("gen.py", "x\n")))
    finally:
        os.umask(old)
    root = no_git / ".narnat/checkpoints/files"  # its folders are inside it, so its mode keeps them private
    kept = [p for p in root.rglob("*") if p.is_file()]
    assert [p for p in [root, *kept] if p.stat().st_mode & 0o077] == [] and len(kept) == 5


@pytest.mark.windows
def test_without_git_a_store_that_cannot_be_written_is_one_sentence(no_git):
    (no_git / ".narnat/checkpoints").mkdir(parents=True)
    (no_git / ".narnat/checkpoints/files").write_text("not a folder")
    agent = Agent(no_git)
    agent.turn("edit", ("Edit", ["gen.py"], write("gen.py", "x\n")))
    windows = "File already exists" if UNDER_WINE else "Cannot create a file when that file already exists"  # Wine's
    exists = windows if os.name == "nt" else "File exists"
    store = no_git / ".narnat/checkpoints/files"
    off = f"Checkpoints are off for this run: the checkpoint store {store} cannot be written ({exists})."
    assert agent.said == [off]


@pytest.mark.windows
def test_without_git_a_damaged_snapshot_is_named_in_one_sentence(no_git):
    agent = Agent(no_git)
    agent.turn("edit", ("Edit", ["gen.py"], write("gen.py", "x\n")))
    before = agent.checkpoints.entries[0].steps[0].before
    (no_git / f".narnat/checkpoints/files/snapshots/{before}.json").write_text("{damaged")
    with pytest.raises(CheckpointError) as refused:
        agent.checkpoints.plan(0)
    assert (
        str(refused.value)
        == f"checkpoint {before[:12]} is missing from {no_git / '.narnat/checkpoints/files/snapshots'}."
    )


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


@pytest.mark.windows
def test_without_git_a_prune_keeps_the_conversations_snapshots_and_young_ones(no_git):
    agent, other, young = Agent(no_git), Agent(no_git), Agent(no_git)
    agent.turn("kept", ("Edit", ["gen.py"], write("gen.py", "kept\n")))
    other.turn("old", ("Edit", ["out.txt"], write("out.txt", "only here\n")))
    young.turn("young", ("Edit", ["notes.txt"], write("notes.txt", "young\n")))
    store = agent.checkpoints.store
    assert isinstance(store, CopyStore)
    root = no_git / ".narnat/checkpoints/files"
    named = {i for a in (agent, other, young) for s in a.checkpoints.entries[0].steps for i in (s.before, s.after)}
    blobs = {p.name: p.read_bytes() for p in (root / "blobs").iterdir()}
    for path in [*root.rglob("*.json"), *(root / "blobs").iterdir()]:
        age(path, AGE_DAYS * 86400 + 5)  # just past the age kept: a day more would not tell a second from a day
    for step in young.checkpoints.entries[0].steps:
        for snapshot in (step.before, step.after):
            age(root / f"snapshots/{snapshot}.json", 3600)
    agent.checkpoints.prune()
    mine = {i for s in [*agent.checkpoints.entries[0].steps, *young.checkpoints.entries[0].steps]
            for i in (s.before, s.after)}  # fmt: skip
    assert store.existing(named) == mine
    left = {p.name: p.read_bytes() for p in (root / "blobs").iterdir()}
    assert b"only here\n" not in left.values() and set(left) < set(blobs)
    young.rewind(0)
    agent.rewind(0)
    assert (no_git / "notes.txt").read_bytes() == b"line one\r\nline two\r\n"
    assert (no_git / "gen.py").read_text() == "open('out.txt', 'w').write('generated 2\\n')\n"


def test_a_file_of_exactly_the_size_kept_comes_back(tree, store_kind):
    (tree / "edge.bin").write_bytes(b"e" * CAP)
    agent = Agent(tree)
    agent.turn("shrink it", ("Edit", ["edge.bin"], write("edge.bin", "small now\n")))
    assert agent.said == [] and agent.rewind(0) == ["edge.bin"] and (tree / "edge.bin").read_bytes() == b"e" * CAP


def test_a_file_too_big_to_keep_changed_at_the_same_size_is_said(tree, store_kind):
    (tree / "big.bin").write_bytes(b"a" * (CAP + 1))
    agent = Agent(tree)
    agent.turn("rewrite it", ("Write", ["big.bin"], put("big.bin", b"b" * (CAP + 1))))
    assert agent.said == [
        f"Write(big.bin): /undo cannot restore big.bin (10 MB, over the {CAP >> 20} MB a checkpoint keeps of a file)."
    ]


def test_a_special_file_a_call_makes_or_changes_is_said(tree, store_kind):
    os.mkfifo(tree / "old.pipe", 0o600)
    agent = Agent(tree)
    agent.turn("pipes", ("Write", ["new.pipe"], lambda root: os.mkfifo(root / "new.pipe")),
               ("Edit", ["old.pipe"], lambda root: (root / "old.pipe").chmod(0o644)))  # fmt: skip
    assert agent.said == ["Write(new.pipe): /undo cannot restore new.pipe (not a regular file).",
                          "Edit(old.pipe): /undo cannot restore old.pipe (not a regular file)."]  # fmt: skip


def test_the_store_lists_exactly_the_files_that_differ_between_two_snapshots(tree, store_kind):
    store = open_store(tree, tree / ".narnat", print)
    touched = [tree / "gen.py", tree / "new.txt", tree / "out.txt", tree / "notes.txt"]
    first = store.snapshot(touched, everything=False).id
    (tree / "gen.py").write_text("changed\n")
    (tree / "new.txt").write_text("new\n")
    (tree / "out.txt").unlink()
    assert store.changed(first, store.snapshot(touched, everything=False).id) == ["gen.py", "new.txt", "out.txt"]


# The git store alone: the store's own folder, names git would read otherwise, nested repositories, packing.


def test_a_new_store_adds_nothing_to_the_project_and_no_sample_hooks_to_itself(tree):
    before = sorted(p.name for p in tree.iterdir())
    open_store(tree, tree / ".narnat", print).snapshot([], everything=True)
    assert sorted(p.name for p in tree.iterdir()) == sorted([*before, ".narnat"])
    assert not (tree / GIT_DIR / "hooks").exists()


def test_a_snapshot_of_touched_files_leaves_the_others_as_the_last_snapshot_had_them(tree):
    store = open_store(tree, tree / ".narnat", print)
    first = store.snapshot([], everything=True).id
    (tree / "gen.py").write_text("agent\n")
    (tree / "out.txt").write_text("the user's\n")
    assert store.changed(first, store.snapshot([tree / "gen.py"], everything=False).id) == ["gen.py"]


def test_a_project_too_large_to_copy_is_refused_in_one_sentence_that_says_how_much(project):
    with open(project / "data.bin", "wb") as f:
        f.truncate(FIRST_LIMIT + 1)  # sparse: large to git, nothing on disk
    (project / os.fsdecode(b"caf\xe9.txt")).write_text("x\n")
    with pytest.raises(CheckpointError) as refused:
        open_store(project, project / ".narnat", print).snapshot([], everything=True)
    assert str(refused.value) == (
        "the project holds 1.0 GB in 2 files that .gitignore does not leave out, more than "
        "the 1 GB a first checkpoint would copy; list what need not be kept in a .gitignore."
    )


def test_a_project_of_just_the_size_a_first_checkpoint_copies_is_kept_links_not_counted(project):
    with open(project / "data.bin", "wb") as f:
        f.truncate(FIRST_LIMIT)
    (project / "data.link").symlink_to("data.bin")
    agent = Agent(project)
    agent.turn("write", ("Write", ["new.txt"], write("new.txt", "x\n")))  # a first snapshot of new.txt alone
    assert agent.said == [] and agent.rewind(0) == ["new.txt"] and not (project / "new.txt").exists()


def test_a_store_that_lost_its_head_is_begun_again_in_place_private_and_with_its_snapshots(tree):
    agent = Agent(tree)
    agent.turn("first", ("Edit", ["gen.py"], write("gen.py", "agent\n")))
    info = tree / GIT_DIR / "info"
    (tree / GIT_DIR / "HEAD").unlink()  # as a git killed while it made the store leaves it
    for name in ("exclude", "attributes"):
        (info / name).chmod(0o644)  # readable by all: the new start must make them private again
    agent.turn("second", ("Edit", ["out.txt"], write("out.txt", "agent\n")))
    assert agent.said == [] and [(info / n).stat().st_mode & 0o777 for n in ("exclude", "attributes")] == [0o600] * 2
    assert agent.rewind(0) == ["gen.py", "out.txt"] and (tree / "gen.py").read_text().startswith("open(")


def test_snapshots_pruned_from_the_git_store_are_said_to_be_pruned(tree):
    agent, other = Agent(tree), Agent(tree)
    agent.turn("mine", ("Edit", ["gen.py"], write("gen.py", "agent\n")))
    root = tree / GIT_DIR
    for path in [root / "info/exclude", *(root / "objects").rglob("*")]:  # a store begun before the conversation
        age(path, (AGE_DAYS + 1) * 86400)
    other.checkpoints.prune()  # the snapshot after stays: it is the store's index
    with pytest.raises(CheckpointError) as refused:
        agent.checkpoints.plan(0)
    assert str(refused.value) == (
        "1 of the checkpoints needed is no longer in the store (they were pruned: the store keeps this "
        "conversation's and those of the last 7 days), so only the conversation can be rewound."
    )


def test_a_damaged_store_is_set_aside_under_the_date_and_time_and_begun_again_with_the_whole_project(tree, caplog):
    store = open_store(tree, tree / ".narnat", print)
    first = store.snapshot([], everything=True).id
    (tree / GIT_DIR / "HEAD").write_bytes(b"garbage")
    assert store.snapshot([], everything=True).id == first
    [aside] = (tree / ".narnat/checkpoints").glob("git.*")
    assert re.fullmatch(r"git\.damaged-\d{8}-\d{6}", aside.name)
    assert caplog.messages == [f"damaged checkpoint store set aside as {aside}: the checkpoint store {tree}/{GIT_DIR} "
                               f"failed (fatal: not a git repository: '{tree}/{GIT_DIR}')."]  # fmt: skip


def test_a_damaged_store_that_cannot_be_set_aside_is_one_sentence(tree, tmp_path):
    git_dir = tmp_path / "state" / ("g" * 240)  # no room in the name for the date and time of a store set aside
    store = GitStore(tree, git_dir, print)
    store.snapshot([], everything=True)
    (git_dir / "HEAD").write_bytes(b"garbage")
    with pytest.raises(CheckpointError) as refused:
        store.snapshot([], everything=True)
    assert str(refused.value) == f"the checkpoint store {git_dir} cannot be written (File name too long)."


def test_a_file_git_cannot_store_is_one_sentence_with_gits_reason(tree):
    agent = blocked_store(tree)
    agent.turn("second", ("Bash", [], bash("printf made > made.txt")))
    assert agent.said == [f"Checkpoints are off for this run: the checkpoint store {tree}/{GIT_DIR} failed (error: "
                          "unable to create temporary file: Not a directory)."]  # fmt: skip


def test_a_command_keeps_neither_the_narnat_folder_nor_a_half_written_file_nor_an_ignored_folder(tree):
    (tree / ".gitignore").write_text("build/\n")
    (tree / "build").mkdir()
    (tree / "build/cache").write_text("cache\n")
    made = ".narnat/notes/plan.md", "a/b/.narnat-tmp-1-x", "build/out.o"  # a plan, an atomic write caught mid-way
    agent = Agent(tree)
    agent.turn("build", ("Bash", [], lambda root: [write(p, "made\n")(root) for p in (*made, "gen.py")]))
    [summary] = agent.checkpoints.turns()
    assert agent.said == [] and [f.path for f in summary.files] == ["gen.py"]
    assert agent.rewind(0) == ["gen.py"] and [(tree / p).read_text() for p in made] == ["made\n"] * 3


def test_files_named_in_another_encoding_are_listed_and_come_back(tree):
    (tree / ".gitignore").write_text("*.log\n")
    text, log = os.fsdecode(b"caf\xe9.txt"), os.fsdecode(b"caf\xe9.log")  # Latin-1, not UTF-8
    for name in (text, log):
        (tree / name).write_text("old\n")
    agent = Agent(tree)
    agent.turn("rewrite", ("Bash", [], lambda root: [(root / n).write_text("new\n") for n in (text, log)]))
    [summary] = agent.checkpoints.turns()
    assert [(f.path, f.added, f.removed) for f in summary.files] == [(log, 1, 1), (text, 1, 1)]
    assert agent.rewind(0) == [log, text] and [(tree / n).read_text() for n in (text, log)] == ["old\n"] * 2


def test_files_named_with_a_tab_or_a_leading_space_are_listed_and_come_back(tree):
    names = ["\tindented.txt", " spaced.txt", "with\ttab.txt"]
    for name in names:
        (tree / name).write_text("one\n")
    agent = Agent(tree)
    agent.turn("append", ("Bash", [], lambda root: [(root / n).write_text("one\ntwo\n") for n in names]))
    [summary] = agent.checkpoints.turns()
    assert [(f.path, f.added, f.removed) for f in summary.files] == [(n, 1, 0) for n in names]
    assert agent.rewind(0) == names and [(tree / n).read_text() for n in names] == ["one\n"] * 3


def test_files_named_like_git_patterns_come_back_and_restore_no_other_file(tree):
    names = [":memo.txt", "note*.txt"]  # to git, a pattern with magic and a wildcard that matches notes.txt
    for name in names:
        (tree / name).write_text("mine\n")
    agent = Agent(tree)
    agent.turn("edit", ("Bash", [], lambda root: [(root / n).write_text("agent\n") for n in names]))
    (tree / "notes.txt").write_text("the user's\n")
    assert agent.rewind(0) == names and [(tree / n).read_text() for n in names] == ["mine\n"] * 2
    assert (tree / "notes.txt").read_text() == "the user's\n"


def test_outside_files_come_back_after_commands_in_the_same_reply_as_plain_files(tree, tmp_path):
    gone, shared = tmp_path / os.fsdecode(b"gon\xe9.txt"), tmp_path / "shared.txt"  # Latin-1, not UTF-8
    gone.write_text("gone\n")
    gone.chmod(0o644)
    shared.write_bytes(b"shared\r\n")
    shared.chmod(0o666)  # writable by all, but no program
    agent = Agent(tree)
    agent.checkpoints.start_turn(1, "outside", 1)
    for step in (
        ("Bash", [], bash("echo agent > gen.py")),
        ("Edit", [f"../{gone.name}"], lambda root: gone.unlink()),
        ("Edit", ["../shared.txt"], lambda root: shared.write_text("changed\n")),
        ("Bash", [], bash("true")),
    ):
        agent.step(*step)  # no reply between them: each command starts from the snapshot before it
    assert agent.rewind(0, conversation=False) == [str(gone), str(shared), "gen.py"]
    kept = [(p.read_bytes(), p.stat().st_mode & 0o777) for p in (gone, shared)]
    assert kept == [(b"gone\n", 0o644), (b"shared\r\n", 0o644)]


def test_a_file_the_user_put_where_a_folder_was_is_kept_and_comes_back(tree):
    agent = Agent(tree)
    agent.turn("look", ("Bash", [], bash("true")))  # the store's last snapshot has src/ as a folder
    shutil.rmtree(tree / "src")
    (tree / "src").write_text("a file now\n")
    agent.turn("edit", ("Edit", ["src"], write("src", "agent\n")))
    assert agent.said == [] and agent.rewind(1) == ["src"] and (tree / "src").read_text() == "a file now\n"


def test_a_store_folder_git_cannot_begin_in_is_one_sentence(tree):
    (tree / GIT_DIR).mkdir(parents=True)
    (tree / GIT_DIR / "info").write_text("a file, not a folder\n")
    agent = Agent(tree)
    agent.turn("edit", ("Edit", ["gen.py"], write("gen.py", "x\n")))
    assert agent.said == [
        f"Checkpoints are off for this run: the checkpoint store {tree}/{GIT_DIR} cannot be written (File exists)."
    ]
