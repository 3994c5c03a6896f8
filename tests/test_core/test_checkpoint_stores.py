"""What either store promises, with git and without it (copies of the touched files): a restore byte for byte and
mode for mode, the .narnat folder left alone, the listing's line counts, a private store and its pruning."""

import os
import time
from pathlib import Path

import pytest

from narnat_agent.checkpoints.store import AGE_DAYS, CAP, CheckpointError, CopyStore
from tests.test_core.test_checkpoints import Agent, files, write


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


def test_the_project_folder_among_what_a_call_touches_is_no_file_to_keep(tree, store_kind):
    agent = Agent(tree)
    agent.turn("write", ("Write", [".", "new.txt"], write("new.txt", "x\n")))
    assert agent.said == [] and agent.rewind(0) == ["new.txt"]


def test_a_path_that_cannot_be_read_before_a_call_is_said_with_the_reason(tree, store_kind):
    (tree / "data").write_text("a file, not a folder\n")
    agent = Agent(tree)
    agent.turn("replace it", ("Write", ["data/x.txt"], lambda root: (root / "data").unlink() or
                              write("data/x.txt", "x\n")(root)))  # fmt: skip
    assert agent.said == ["Write(data/x.txt): /undo cannot restore data/x.txt (cannot be read: Not a directory)."]


def test_without_git_a_file_too_big_to_keep_is_said_when_changed(no_git):
    (no_git / "big.bin").write_bytes(b"b" * (CAP + 1))
    agent = Agent(no_git)
    agent.turn("shrink it", ("Edit", ["big.bin"], write("big.bin", "small now\n")))
    assert agent.said == [f"Edit(big.bin): /undo cannot restore big.bin (10 MB, over the {CAP >> 20} MB a checkpoint"
                          " keeps of a file)."]  # fmt: skip


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


def test_without_git_a_file_touched_with_another_then_alone_is_listed(no_git):
    agent = Agent(no_git)
    agent.turn("two calls", ("Write", ["gen.py", "out.txt"], write("gen.py", "1\n")),
               ("Edit", ["gen.py"], write("gen.py", "1\n2\n")))  # fmt: skip
    [summary] = agent.checkpoints.turns()
    assert [(f.path, f.added, f.removed) for f in summary.files] == [("gen.py", 2, 1)]


def test_without_git_the_store_is_private_whatever_the_umask(no_git):
    old = os.umask(0o022)
    try:
        Agent(no_git).turn("edit", ("Edit", ["gen.py"], write("gen.py", "x\n")))
    finally:
        os.umask(old)
    root = no_git / ".narnat/checkpoints/files"  # its folders are inside it, so its mode keeps them private
    kept = [p for p in root.rglob("*") if p.is_file()]
    assert [p for p in [root, *kept] if p.stat().st_mode & 0o077] == [] and len(kept) == 5


def test_without_git_a_store_that_cannot_be_written_is_one_sentence(no_git):
    (no_git / ".narnat/checkpoints").mkdir(parents=True)
    (no_git / ".narnat/checkpoints/files").write_text("not a folder")
    agent = Agent(no_git)
    agent.turn("edit", ("Edit", ["gen.py"], write("gen.py", "x\n")))
    assert agent.said == [f"Checkpoints are off for this run: the checkpoint store {no_git}/.narnat/checkpoints/files"
                          " cannot be written (File exists)."]  # fmt: skip


def test_without_git_a_damaged_snapshot_is_named_in_one_sentence(no_git):
    agent = Agent(no_git)
    agent.turn("edit", ("Edit", ["gen.py"], write("gen.py", "x\n")))
    before = agent.checkpoints.entries[0].steps[0].before
    (no_git / f".narnat/checkpoints/files/snapshots/{before}.json").write_text("{damaged")
    with pytest.raises(CheckpointError) as refused:
        agent.checkpoints.plan(0)
    assert (
        str(refused.value) == f"checkpoint {before[:12]} is missing from {no_git}/.narnat/checkpoints/files/snapshots."
    )


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


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
    assert agent.said == [f"Write(big.bin): /undo cannot restore big.bin (10 MB, over the {CAP >> 20} MB a checkpoint"
                          " keeps of a file)."]  # fmt: skip


def test_a_special_file_a_call_makes_or_changes_is_said(tree, store_kind):
    os.mkfifo(tree / "old.pipe", 0o600)
    agent = Agent(tree)
    agent.turn("pipes", ("Write", ["new.pipe"], lambda root: os.mkfifo(root / "new.pipe")),
               ("Edit", ["old.pipe"], lambda root: (root / "old.pipe").chmod(0o644)))  # fmt: skip
    assert agent.said == ["Write(new.pipe): /undo cannot restore new.pipe (not a regular file).",
                          "Edit(old.pipe): /undo cannot restore old.pipe (not a regular file)."]  # fmt: skip
