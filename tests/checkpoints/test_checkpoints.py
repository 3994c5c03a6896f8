"""Checkpoints on real files with real git: what a rewind brings back, what it leaves alone, and the user's .git."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narnat_agent import i18n
from narnat_agent.checkpoints import entries
from narnat_agent.checkpoints.entries import Taken
from narnat_agent.checkpoints.git_store import PACK_AT
from narnat_agent.checkpoints.lock import POLL, StoreLock
from narnat_agent.checkpoints.store import AGE_DAYS, CAP, CheckpointError, CopyStore
from narnat_agent.checkpoints.timeline import NO_COMMANDS, open_checkpoints, open_store
from narnat_agent.conversation.context import Conversation


class Agent:
    """Plays the agent's part: a turn, then tool steps that change files between their two snapshots."""

    def __init__(self, project: Path):
        self.project, self.said = project, []
        self.conversation = Conversation("system")
        self.checkpoints = open_checkpoints(project, project / ".narnat", [], self.said.append)

    def turn(self, question: str, *steps) -> None:
        self.checkpoints.start_turn(self.conversation.turns + 1, question, len(self.conversation.messages))
        self.conversation.add_user(question)
        for step in steps:
            self.step(*step)
            self.checkpoints.replied()
        self.conversation.messages.append({"role": "assistant", "content": f"done: {question}"})

    def step(self, tool: str, touched: list[str], change) -> None:
        paths = [self.project / p for p in touched]
        pending = self.checkpoints.before(f"{tool}({', '.join(touched)})", paths, anything=tool == "Bash")
        change(self.project)
        self.checkpoints.after(pending)

    def rewind(self, index: int, code: bool = True, conversation: bool = True, overwrite: bool = False, step=0):
        plan = self.checkpoints.plan(index, step) if code else None
        return self.checkpoints.rewind(index, plan, overwrite, self.cut if conversation else None)

    def cut(self, start: int, turns: int) -> Taken:
        taken = Taken(self.conversation.messages[start:], self.conversation.turns)
        del self.conversation.messages[start:]
        self.conversation.turns = turns
        return taken

    def redo(self) -> None:
        record, _ = self.checkpoints.redo(self.checkpoints.plan_redo(), overwrite=False)
        if record.taken:
            self.conversation.messages.extend(record.taken.messages)
            self.conversation.turns = record.taken.turns


def files(root: Path) -> dict[str, bytes]:
    """Every file under root but .narnat and .git, with its bytes."""
    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.startswith((".narnat/", ".git/")):
            found[rel] = path.read_bytes()
    return found


def git(project: Path, *args: str) -> str:
    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0")  # `git status` must not refresh the index it is compared on
    return subprocess.run(["git", *args], cwd=project, env=env, capture_output=True, text=True, check=True).stdout


def edit(path: str, old: str, new: str):
    return lambda root: (root / path).write_text((root / path).read_text().replace(old, new))


def write(path: str, text: str):
    return lambda root: (root / path).parent.mkdir(parents=True, exist_ok=True) or (root / path).write_text(text)


def bash(command: str):
    return lambda root: subprocess.run(command, shell=True, cwd=root, check=True)


A_TURN = (
    ("Edit", ["src/main.py"], edit("src/main.py", "hello", "bye")),
    ("Write", ["lib/new.py"], write("lib/new.py", "x = 1\n")),
    ("Bash", [], bash("rm -rf src")),
    ("Bash", [], bash("python3 gen.py && printf 'a\\nb\\n' > notes.txt")),
)


def test_a_rewind_gives_back_every_byte_and_removes_what_the_agent_created(tree):
    original = files(tree)
    agent = Agent(tree)
    agent.turn("change everything", *A_TURN)
    assert files(tree) != original and not (tree / "src").exists()
    restored = agent.rewind(0)
    assert files(tree) == original
    assert not (tree / "lib").exists()  # the folder the agent made goes with its file
    assert sorted(restored) == ["lib/new.py", "notes.txt", "out.txt", "src/main.py", "src/util.py"]
    assert agent.conversation.messages == [{"role": "system", "content": "system"}] and agent.conversation.turns == 0


def test_a_turns_diff_holds_the_files_it_created_and_those_it_deleted(tree):
    agent = Agent(tree)
    agent.turn("change everything", *A_TURN)
    assert {d.path: (d.before, d.after) for d in agent.checkpoints.diffs(0)} == {
        "lib/new.py": (None, b"x = 1\n"),
        "notes.txt": (b"line one\r\nline two\r\n", b"a\nb\n"),
        "out.txt": (b"generated 1\n", b"generated 2\n"),
        "src/main.py": (b"print('hello')\n", None),  # edited, then deleted with its folder
        "src/util.py": (b"def f():\n    return 1\n", None),
    }


def test_the_listing_shows_each_turns_files_and_lines(tree):
    agent = Agent(tree)
    agent.turn("first", *A_TURN[:2])
    agent.turn("second\nwith more lines", ("Edit", ["src/util.py"], edit("src/util.py", "1", "2")))
    first, second = agent.checkpoints.turns()
    assert [(f.path, f.added, f.removed) for f in first.files] == [("lib/new.py", 1, 0), ("src/main.py", 1, 1)]
    assert [(f.path, f.added, f.removed) for f in second.files] == [("src/util.py", 1, 1)]
    assert (second.index, second.question, second.code) == (1, "second\nwith more lines", True)


def test_a_rewind_to_the_middle_of_a_turn_keeps_the_steps_before(tree):
    agent = Agent(tree)
    agent.turn("three steps", *A_TURN[:3])
    agent.rewind(0, conversation=False, step=2)
    assert (tree / "src" / "util.py").exists() and (tree / "lib" / "new.py").exists()
    assert (tree / "src" / "main.py").read_text() == "print('bye')\n"
    assert agent.conversation.turns == 1 and agent.checkpoints.entries[-1].rewind == "turn 1, step 3"


def test_conversation_only_keeps_the_code_and_code_only_keeps_the_conversation(tree):
    agent = Agent(tree)
    agent.turn("edit", A_TURN[0])
    changed = files(tree)
    agent.rewind(0, code=False)
    assert files(tree) == changed and agent.conversation.turns == 0 and len(agent.conversation.messages) == 1
    agent.turn("edit again", ("Edit", ["src/util.py"], edit("src/util.py", "1", "3")))
    agent.rewind(len(agent.checkpoints.entries) - 1, conversation=False)
    assert agent.conversation.turns == 1 and "return 1" in (tree / "src/util.py").read_text()
    assert "bye" in (tree / "src/main.py").read_text()  # the first turn's code stayed, as asked


def test_a_file_the_user_changed_after_the_agent_is_asked_about_and_kept_when_declined(tree):
    agent = Agent(tree)
    agent.turn("edit two files", A_TURN[0], ("Edit", ["src/util.py"], edit("src/util.py", "1", "2")))
    (tree / "src/util.py").write_text("my own work\n")
    plan = agent.checkpoints.plan(0)
    assert plan.conflicts == ["src/util.py"]
    agent.checkpoints.rewind(0, plan, False, agent.cut)
    assert (tree / "src/util.py").read_text() == "my own work\n"
    assert (tree / "src/main.py").read_text() == "print('hello')\n"


def test_a_file_the_person_already_put_back_is_neither_restored_nor_asked_about(tree):
    agent = Agent(tree)
    agent.turn("edit two files", A_TURN[0], ("Edit", ["src/util.py"], edit("src/util.py", "1", "2")))
    (tree / "src/util.py").write_text("def f():\n    return 1\n")  # the person undid that edit by hand
    plan = agent.checkpoints.plan(0)
    assert [c.path for c in plan.changes] == ["src/main.py"] and plan.conflicts == []
    assert agent.checkpoints.rewind(0, plan, False, agent.cut) == ["src/main.py"]
    assert (tree / "src/main.py").read_text() == "print('hello')\n"


def test_a_file_only_the_user_changed_is_never_touched(tree):
    agent = Agent(tree)
    agent.turn("edit", A_TURN[0])
    (tree / "mine.txt").write_text("mine\n")
    (tree / "out.txt").write_text("mine too\n")
    agent.rewind(0)
    assert (tree / "mine.txt").read_text() == "mine\n" and (tree / "out.txt").read_text() == "mine too\n"


def test_redo_undoes_a_rewind_of_code_and_conversation(tree):
    agent = Agent(tree)
    agent.turn("first", A_TURN[0])
    agent.turn("second", *A_TURN[1:])
    done, messages = files(tree), list(agent.conversation.messages)
    agent.rewind(1)
    agent.rewind(0)
    assert agent.conversation.turns == 0
    for _ in range(2):
        agent.redo()
    assert files(tree) == done and agent.conversation.messages == messages and agent.conversation.turns == 2
    assert [e.question for e in agent.checkpoints.entries] == ["first", "second"]
    with pytest.raises(CheckpointError, match="nothing to redo"):
        agent.checkpoints.plan_redo()


def test_a_rewind_after_an_undo_and_a_new_turn_knows_what_the_undo_restored(tree):
    agent = Agent(tree)
    original = files(tree)
    agent.turn("first", A_TURN[0])
    agent.turn("second", ("Edit", ["src/main.py"], edit("src/main.py", "bye", "ciao")))
    agent.rewind(1)
    agent.turn("third", ("Edit", ["src/util.py"], edit("src/util.py", "1", "2")))
    plan = agent.checkpoints.plan(0)
    assert plan.conflicts == []  # main.py holds what the undo put there, not someone else's work
    agent.checkpoints.rewind(0, plan, False, agent.cut)
    assert files(tree) == original


def test_a_second_rewind_does_not_bring_back_what_the_first_took_away(tree):
    agent = Agent(tree)
    agent.turn("first", A_TURN[0])
    agent.turn("second", ("Edit", ["src/util.py"], edit("src/util.py", "1", "2")))
    original = files(tree)
    agent.rewind(0, conversation=False)
    agent.rewind(1, conversation=False)
    assert (tree / "src/main.py").read_text() == "print('hello')\n" and files(tree) != original


def test_the_entries_survive_a_json_round_trip(tree):
    agent = Agent(tree)
    agent.turn("edit", *A_TURN)
    agent.rewind(0, conversation=False)
    loaded = entries.load(json.loads(json.dumps(entries.dump(agent.checkpoints.entries))))
    assert loaded == agent.checkpoints.entries
    again = open_checkpoints(tree, tree / ".narnat", loaded, print)
    again.redo(again.plan_redo(), overwrite=False)
    assert not (tree / "src").exists() and (tree / "lib/new.py").exists()


def test_the_users_git_repository_is_untouched(tree, tmp_path):
    git(tree, "init", "-q")
    (tree / ".gitignore").write_text("out.txt\n")
    git(tree, "add", ".")
    git(tree, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "init")
    (tree / "src/util.py").write_text("staged\n")
    git(tree, "add", "src/util.py")
    (tree / "notes.txt").write_text("unstaged\n")
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "post-checkout").write_text(f"#!/bin/sh\ntouch {tmp_path}/hook-ran\n")
    (hooks / "post-checkout").chmod(0o755)
    git(tree, "config", "core.hooksPath", str(hooks))
    (tmp_path / "home" / ".gitconfig").write_text(f"[core]\n\thooksPath = {hooks}\n")
    before = (git(tree, "status", "--porcelain"), git(tree, "stash", "list"), (tree / ".git/index").read_bytes(),
              git(tree, "for-each-ref"), (tree / ".git/config").read_text())  # fmt: skip
    agent = Agent(tree)
    agent.turn("edit", *A_TURN[:3], ("Edit", ["out.txt"], write("out.txt", "ignored, touched\n")))
    agent.rewind(0)
    assert (tree / "out.txt").read_text() == "generated 1\n"  # ignored, but the agent touched it
    after = (git(tree, "status", "--porcelain"), git(tree, "stash", "list"), (tree / ".git/index").read_bytes(),
             git(tree, "for-each-ref"), (tree / ".git/config").read_text())  # fmt: skip
    assert after == before and not (tmp_path / "hook-ran").exists()


def test_ignored_files_a_command_changes_come_back_but_not_those_in_ignored_folders(tree):
    (tree / ".gitignore").write_text(".env\n*.log\nbuild/\n")
    (tree / ".env").write_text("TOKEN=mine\n")
    (tree / "src/old.log").write_text("old\n")
    (tree / "build").mkdir()
    (tree / "build/cache").write_text("cache\n")
    agent = Agent(tree)
    agent.turn("change ignored files", ("Bash", [], bash("echo TOKEN=agent > .env && echo new > src/new.log")),
               ("Bash", [], bash("rm src/old.log build/cache")))  # fmt: skip
    [summary] = agent.checkpoints.turns()
    assert [f.path for f in summary.files] == [".env", "src/new.log", "src/old.log"]
    assert agent.rewind(0) == [".env", "src/new.log", "src/old.log"]
    assert (tree / ".env").read_text() == "TOKEN=mine\n" and (tree / "src/old.log").read_text() == "old\n"
    assert not (tree / "src/new.log").exists()
    assert not (tree / "build/cache").exists()  # a folder .gitignore names is not snapshotted, file by file


def test_a_command_that_makes_an_empty_ignored_folder_loses_nothing_and_is_no_step(tree):
    """An ignored folder is said when its entries go (npm ci), not when one comes with none (a build folder made)."""
    (tree / ".gitignore").write_text("build/\n")
    agent = Agent(tree)
    agent.turn("configure", ("Bash", [], bash("mkdir build")))
    assert agent.said == [] and agent.checkpoints.turns()[0].calls == []


def test_a_file_too_big_to_keep_is_said_when_changed_and_listed_by_the_rewind(tree):
    (tree / ".gitignore").write_text("*.bin\n")
    (tree / "big.bin").write_bytes(b"b" * (CAP + 1))
    (tree / "same.bin").write_bytes(b"s" * (CAP + 1))
    agent = Agent(tree)
    agent.turn("touch big files", ("Write", ["small.bin"], write("small.bin", "s\n")),
               ("Edit", ["big.bin"], write("big.bin", "small now\n")),
               ("Bash", [], bash("truncate -s 20M same.bin")))  # fmt: skip
    assert agent.said == [
        f"Edit(big.bin): /undo cannot restore big.bin (10 MB, over the {CAP >> 20} MB a checkpoint keeps of a file).",
        "Bash(): /undo cannot restore same.bin (20 MB, over the 10 MB a checkpoint keeps of a file).",
    ]
    plan = agent.checkpoints.plan(0)
    assert [c.path for c in plan.changes] == ["small.bin"] and len(plan.unkept) == 2
    agent.checkpoints.rewind(0, plan, False)
    assert not (tree / "small.bin").exists() and (tree / "same.bin").stat().st_size == 20 * 2**20


def test_files_outside_the_project_that_write_and_edit_change_come_back(tree, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere/conf.sh").write_text("#!/bin/sh\nold\n")
    (tmp_path / "elsewhere/conf.sh").chmod(0o755)
    (tree / "link").symlink_to(tmp_path / "elsewhere")
    agent = Agent(tree)
    agent.turn("write outside", ("Write", ["../outside.txt"], write("../outside.txt", "x\n")),
               ("Edit", ["link/conf.sh"], write("link/conf.sh", "new\n")), A_TURN[0])  # fmt: skip
    [summary] = agent.checkpoints.turns()
    assert [f.path for f in summary.files] == [f"{tmp_path}/elsewhere/conf.sh", f"{tmp_path}/outside.txt",
                                               "src/main.py"]  # fmt: skip
    agent.rewind(0)
    assert (tree / "src/main.py").read_text() == "print('hello')\n"
    assert not (tmp_path / "outside.txt").exists() and (tmp_path / "elsewhere").is_dir()
    assert (tmp_path / "elsewhere/conf.sh").read_text() == "#!/bin/sh\nold\n"
    assert os.access(tmp_path / "elsewhere/conf.sh", os.X_OK)
    agent.redo()
    assert (tmp_path / "outside.txt").read_text() == "x\n" and (tmp_path / "elsewhere/conf.sh").read_text() == "new\n"


def test_modes_and_symlinks_come_back(tree):
    (tree / "run.sh").write_text("#!/bin/sh\n")
    (tree / "run.sh").chmod(0o755)
    (tree / "link").symlink_to("src/main.py")
    agent = Agent(tree)
    agent.turn("break them", ("Bash", [], bash("chmod -x run.sh && rm link && ln -s gen.py link")))
    agent.rewind(0)
    assert os.access(tree / "run.sh", os.X_OK) and os.readlink(tree / "link") == "src/main.py"


def test_a_file_a_command_replaced_by_a_link_to_a_folder_comes_back(tree):
    (tree / "docs").mkdir()
    (tree / "docs/a.md").write_text("a\n")
    agent = Agent(tree)
    agent.turn("link it", ("Bash", [], bash("rm src/main.py && ln -s ../docs src/main.py")))
    agent.rewind(0)
    assert (tree / "src/main.py").read_text() == "print('hello')\n" and not (tree / "src/main.py").is_symlink()
    assert (tree / "docs/a.md").read_text() == "a\n"
    agent.redo()
    assert os.readlink(tree / "src/main.py") == "../docs" and (tree / "docs/a.md").read_text() == "a\n"


def test_a_folder_a_command_replaced_by_a_link_comes_back_and_what_it_leads_to_is_kept(tree):
    (tree / "docs").mkdir()
    (tree / "docs/a.md").write_text("a\n")
    agent = Agent(tree)
    agent.turn("link it", ("Bash", [], bash("mv src old && ln -s docs src")))
    agent.rewind(0)
    assert (tree / "src/main.py").read_text() == "print('hello')\n" and not (tree / "src").is_symlink()
    assert not (tree / "old").exists() and sorted(os.listdir(tree / "docs")) == ["a.md"]


def test_a_link_a_command_made_goes_with_the_rewind_whether_it_leads_to_a_folder_or_nowhere(tree):
    agent = Agent(tree)
    agent.turn("link", ("Bash", [], bash("ln -s src gen && ln -s missing.txt dangling")))
    agent.rewind(0)
    assert not os.path.lexists(tree / "gen") and not os.path.lexists(tree / "dangling")
    assert (tree / "src/main.py").read_text() == "print('hello')\n"  # what the folder link led to stays


def test_undo_deletes_nothing_through_a_link_the_person_put_where_the_agents_folder_was(tree):
    (tree / "docs").mkdir()
    (tree / "docs/new.py").write_text("the person's own\n")
    agent = Agent(tree)
    agent.turn("add", ("Write", ["gen/new.py"], write("gen/new.py", "x = 1\n")))
    shutil.rmtree(tree / "gen")
    (tree / "gen").symlink_to("docs")
    agent.rewind(0)
    assert (tree / "docs/new.py").read_text() == "the person's own\n" and (tree / "gen").is_symlink()


@pytest.mark.parametrize("git", [True, False])
@pytest.mark.parametrize("overwrite", [False, True])
def test_undo_deletes_nothing_through_a_link_even_to_a_file_like_the_agents_or_when_told_to_overwrite(
    tree, overwrite, git, monkeypatch, tmp_path
):
    if not git:  # the store of copies: its snapshots follow the link to what the person put there
        (tmp_path / "bin").mkdir()
        monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    (tree / "docs").mkdir()
    (tree / "docs/new.py").write_text("x = 1\n")  # the person's copy of what the agent wrote: no conflict to see
    agent = Agent(tree)
    agent.turn("add", ("Write", ["gen/new.py"], write("gen/new.py", "x = 1\n")))
    shutil.rmtree(tree / "gen")
    (tree / "gen").symlink_to("docs")
    agent.rewind(0, overwrite=overwrite)
    assert (tree / "docs/new.py").read_text() == "x = 1\n" and (tree / "gen").is_symlink()


def test_without_git_write_and_edit_are_covered_and_bash_is_said_once(tree, monkeypatch, tmp_path):
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    original = files(tree)
    agent = Agent(tree)
    assert isinstance(agent.checkpoints.store, CopyStore) and not agent.checkpoints.covers_commands()
    agent.turn("change", A_TURN[0], A_TURN[1], ("Bash", [], lambda root: (root / "out.txt").unlink()),
               ("Bash", [], lambda root: None))  # fmt: skip
    assert agent.said == [NO_COMMANDS]
    [summary] = agent.checkpoints.turns()
    assert [(f.path, f.added, f.removed) for f in summary.files] == [("lib/new.py", 1, 0), ("src/main.py", 1, 1)]
    agent.rewind(0)
    assert files(tree) == {k: v for k, v in original.items() if k != "out.txt"}


def test_a_damaged_index_is_rebuilt_and_nothing_is_lost(tree):
    agent = Agent(tree)
    agent.turn("first", A_TURN[0])
    (tree / ".narnat/checkpoints/git/index").write_bytes(b"garbage")
    agent.turn("second", A_TURN[1], ("Edit", ["src/util.py"], edit("src/util.py", "1", "2")))
    assert agent.said == []
    agent.rewind(0)
    assert (tree / "src/main.py").read_text() == "print('hello')\n" and not (tree / "lib/new.py").exists()


def damage(index: Path, how: str) -> None:
    """The store's index as a crash leaves it: cut short, overwritten, or gone."""
    data = index.read_bytes()
    if how == "truncated":
        index.write_bytes(data[: len(data) // 2])
    elif how == "garbage":
        index.write_bytes(os.urandom(len(data)))
    else:
        index.unlink()


@pytest.mark.parametrize("how", ["truncated", "garbage", "missing"])
def test_after_the_index_is_damaged_mid_turn_undo_takes_back_exactly_that_turn(tree, how):
    agent = Agent(tree)
    agent.turn("first", A_TURN[0])
    before_second = files(tree)
    agent.checkpoints.start_turn(2, "second", len(agent.conversation.messages))  # one reply: three calls
    agent.step("Bash", [], bash("echo made > made.txt"))
    damage(tree / ".narnat/checkpoints/git/index", how)
    agent.step("Edit", ["src/util.py"], edit("src/util.py", "1", "2"))
    agent.step("Bash", [], bash("echo again >> made.txt"))
    assert agent.rewind(1) == ["made.txt", "src/util.py"] and files(tree) == before_second
    assert agent.said == []


@pytest.mark.parametrize("how", ["truncated", "garbage", "missing"])
def test_after_the_index_is_damaged_between_runs_undo_works(tree, how):
    original = files(tree)
    agent = Agent(tree)
    agent.turn("first", *A_TURN)
    damage(tree / ".narnat/checkpoints/git/index", how)
    again = open_checkpoints(tree, tree / ".narnat", agent.checkpoints.entries, agent.said.append)
    plan = again.plan(0)
    again.rewind(0, plan, overwrite=False)
    assert files(tree) == original and plan.conflicts == [] and agent.said == []


@pytest.mark.parametrize("how", ["truncated", "garbage", "missing"])
def test_an_index_damaged_between_two_commands_is_rebuilt_from_the_whole_project(tree, how):
    """The watcher knows what changed since the last command, not what the lost index held: the next snapshot stages
    the whole project again, or every other file would show as deleted by the second command."""
    original = files(tree)
    agent = Agent(tree)

    def damaged_then_two(root: Path) -> None:
        damage(root / ".narnat/checkpoints/git/index", how)
        (root / "two.txt").write_text("two\n")

    agent.turn("make them", ("Bash", [], bash("echo one > one.txt")), ("Bash", [], damaged_then_two))
    [summary] = agent.checkpoints.turns()
    assert [f.path for f in summary.files] == ["one.txt", "two.txt"]
    assert agent.rewind(0) == ["one.txt", "two.txt"] and files(tree) == original and agent.said == []


def test_a_path_the_system_refuses_to_look_at_costs_no_traceback(tree):
    agent = Agent(tree)
    name = "x" * 300  # longer than a file name may be: even a stat of it fails
    agent.turn("write it", ("Write", [name], lambda root: None), A_TURN[0])
    assert agent.said == [] and agent.rewind(0) == ["src/main.py"]


def test_a_full_disk_is_one_sentence_that_says_to_free_space(tree):
    if subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (unshare -rm refused)")
    (tree / "data.bin").write_bytes(os.urandom(400_000))  # more than the store's disk holds, compressed or not
    script = ("from pathlib import Path; from narnat_agent.checkpoints.timeline import open_checkpoints\n"
              "p = Path.cwd(); c = open_checkpoints(p, p / '.narnat', [], print)\n"
              "c.after(c.before('Bash()', [], anything=True))")  # fmt: skip
    (tree / ".narnat").mkdir()
    mount = 'mount -t tmpfs -o size=256k tmpfs "$0/.narnat" && exec "$@"'
    done = subprocess.run(["unshare", "-rm", "sh", "-c", mount, tree, sys.executable, "-c", script], cwd=tree,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert done.stdout == (f"Checkpoints are off for this run: the disk holding {tree}/.narnat/checkpoints/git is full;"
                           " free some space and checkpoints resume with the next run.\n")  # fmt: skip


def test_a_broken_store_says_one_sentence_and_never_stops_a_turn(tree):
    agent = Agent(tree)
    agent.turn("first", A_TURN[0])
    shutil.rmtree(tree / ".narnat/checkpoints")
    (tree / ".narnat/checkpoints").write_text("not a folder")
    agent.turn("second", A_TURN[1], ("Edit", ["src/util.py"], edit("src/util.py", "1", "2")))
    assert agent.said == [f"Checkpoints are off for this run: the checkpoint store {tree}/.narnat/checkpoints cannot"
                          " be written (File exists)."]  # fmt: skip
    assert (tree / "lib/new.py").exists()
    with pytest.raises(CheckpointError, match="only the conversation can be rewound"):
        agent.checkpoints.plan(0)
    agent.rewind(1, code=False)  # the conversation still can
    assert agent.conversation.turns == 1


def test_a_store_file_git_does_not_write_that_cannot_be_replaced_is_one_sentence_and_the_turn_goes_on(tree):
    """Narnat's own file in the store (the ignored folders last listed), found a folder: the failure is said as the
    store's others are, and the turn goes on."""
    agent = Agent(tree)
    agent.turn("first", A_TURN[0])
    (tree / GIT_DIR / "narnat-ignored").unlink(missing_ok=True)
    (tree / GIT_DIR / "narnat-ignored").mkdir()
    (tree / ".gitignore").write_text("build/\n")  # the next listing differs from the last: the file is written
    (tree / "build").mkdir()
    agent.turn("second", ("Bash", [], bash("echo made > made.txt")))
    assert agent.said == [f"Checkpoints are off for this run: the checkpoint store {tree / GIT_DIR} cannot be written "
                          "(Is a directory)."]  # fmt: skip
    assert (tree / "made.txt").read_text() == "made\n"


def test_a_broken_store_is_said_in_chinese_under_a_chinese_interface(tree):
    i18n.use("zh-CN")
    try:
        agent = Agent(tree)
        agent.turn("first", A_TURN[0])
        shutil.rmtree(tree / ".narnat/checkpoints")
        (tree / ".narnat/checkpoints").write_text("not a folder")
        agent.turn("second", ("Edit", ["src/util.py"], edit("src/util.py", "1", "2")))
        assert agent.said == [f"本次运行已关闭检查点：检查点存储 {tree}/.narnat/checkpoints 无法写入（File exists）。"]
        with pytest.raises(CheckpointError, match="^本次运行已关闭检查点，只能回退对话。$"):
            agent.checkpoints.plan(0)
    finally:
        i18n.use("en")


def test_a_damaged_store_is_set_aside_and_what_is_lost_is_said(tree):
    agent = Agent(tree)
    agent.turn("first", A_TURN[0])
    (tree / ".narnat/checkpoints/git/HEAD").write_bytes(b"garbage")
    agent.turn("second", ("Edit", ["src/util.py"], edit("src/util.py", "1", "2")))
    [aside] = (tree / ".narnat/checkpoints").glob("git.damaged-*")
    assert agent.said == [f"The checkpoint store was damaged and is set aside as {aside}; a new one is begun, so the"
                          " files of the turns before this one can no longer be restored."]  # fmt: skip
    with pytest.raises(CheckpointError, match=r"no longer in the store \(the checkpoint store was deleted, or set"):
        agent.checkpoints.plan(0)
    agent.rewind(1)
    assert (tree / "src/util.py").read_text() == "def f():\n    return 1\n"


def test_a_project_too_large_to_copy_is_refused_in_one_sentence_until_gitignore_says_what_to_leave(tree):
    with open(tree / "data.bin", "wb") as f:
        f.truncate(2**30 + 1)  # sparse: large to git, nothing on disk
    agent = Agent(tree)
    agent.turn("edit", A_TURN[0])
    assert len(agent.said) == 1 and "holds 1.0 GB in 7 files that .gitignore does not leave out" in agent.said[0]
    assert not (tree / ".narnat/checkpoints/git").exists()
    (tree / ".gitignore").write_text("data.bin\n")
    agent = Agent(tree)
    agent.turn("edit", ("Edit", ["src/util.py"], edit("src/util.py", "1", "2")))
    assert agent.said == [] and agent.rewind(0) == ["src/util.py"]


def test_a_deleted_store_makes_the_listing_say_the_code_is_gone(tree):
    agent = Agent(tree)
    agent.turn("first", A_TURN[0])
    shutil.rmtree(tree / ".narnat/checkpoints")
    again = open_checkpoints(tree, tree / ".narnat", agent.checkpoints.entries, print)
    [summary] = again.turns()
    assert not summary.code and summary.conversation
    with pytest.raises(CheckpointError, match="no longer in the store"):
        again.plan(0)


def test_a_prune_keeps_the_conversations_snapshots_and_young_ones(tree):
    agent = Agent(tree)
    agent.turn("kept", A_TURN[0])
    other = Agent(tree)
    other.turn("old", ("Edit", ["gen.py"], write("gen.py", "only here\n")), ("Edit", ["gen.py"], write("gen.py", "2")))
    store = other.checkpoints.store
    only_here = other.checkpoints.entries[0].steps[0].after
    blob = store.contents(only_here, ["gen.py"])["gen.py"].split()[1]
    week_ago = time.time() - 8 * 86400
    for path in (tree / ".narnat/checkpoints/git/objects").rglob("*"):
        os.utime(path, (week_ago, week_ago))
    young = Agent(tree)
    young.turn("young", ("Edit", ["gen.py"], write("gen.py", "young\n")))
    agent.checkpoints.prune()
    steps = [s for a in (agent, young) for e in a.checkpoints.entries for s in e.steps]
    named = {s.before for s in steps} | {s.after for s in steps}
    assert store.existing(named | {only_here}) == named
    assert subprocess.run(["git", "cat-file", "-e", blob], env=store.git.env).returncode != 0
    young.rewind(0)
    assert (tree / "gen.py").read_text() == "2"  # the young snapshot's files survived with it


def test_a_snapshot_just_taken_survives_a_prune_even_when_its_tree_is_old(tree):
    hour_ago = time.time() - 3600
    for path in tree.rglob("*"):
        os.utime(path, (hour_ago, hour_ago))  # older than the store's index: git trusts the trees it cached
    store = open_store(tree, tree / ".narnat", print)
    first = store.snapshot([], everything=True).id
    assert store.snapshot([], everything=True).id == first
    week_ago = time.time() - 8 * 86400
    for path in (tree / ".narnat/checkpoints/git/objects").rglob("*"):
        os.utime(path, (week_ago, week_ago))
    assert store.snapshot([], everything=True).id == first  # the same tree, taken again now
    (tree / "out.txt").write_text("changed\n")
    store.snapshot([], everything=True)  # so that only the age of `first` can keep it
    store.prune(set())
    assert store.existing([first]) == {first}


def test_a_prune_goes_on_when_the_conversation_names_snapshots_of_a_store_deleted_since(tree):
    store = open_store(tree, tree / ".narnat", print)
    lost = store.snapshot([], everything=True).id
    shutil.rmtree(tree / ".narnat/checkpoints/git")
    store = open_store(tree, tree / ".narnat", print)
    (tree / "out.txt").write_text("kept\n")
    kept = store.snapshot([], everything=True).id
    (tree / "out.txt").write_text("old\n")
    old = store.snapshot([], everything=True).id
    week_ago = time.time() - 8 * 86400
    for path in (tree / ".narnat/checkpoints/git/objects").rglob("*"):
        os.utime(path, (week_ago, week_ago))
    (tree / "out.txt").write_text("now\n")
    store.snapshot([], everything=True)  # so that only the conversation can keep `kept`
    store.prune({kept, lost})
    assert store.existing([kept, old, lost]) == {kept}


OPERATIONS = st.lists(
    st.tuples(st.sampled_from(["Write", "Edit", "Bash"]), st.sampled_from(["a", "b", "d/c"]),
              st.one_of(st.none(), st.binary(max_size=20))),
    min_size=1, max_size=4,
)  # fmt: skip


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(turns=st.lists(OPERATIONS, min_size=1, max_size=3), back=st.integers(0, 2))
def test_a_rewind_to_any_turn_gives_back_the_files_as_that_turn_found_them(tmp_path_factory, turns, back):
    """Differential: the project after a rewind equals a copy of it taken when the turn began."""
    project = tmp_path_factory.mktemp("project")
    agent, seen = Agent(project), []
    for n, operations in enumerate(turns):
        seen.append(files(project))
        steps = [(tool, [] if tool == "Bash" else [name], _put(name, data)) for tool, name, data in operations]
        agent.turn(f"turn {n}", *steps)
    index = min(back, len(turns) - 1)
    agent.rewind(index)
    assert files(project) == seen[index]


def _put(name: str, data: bytes | None):
    def change(root: Path) -> None:
        path = root / name
        if data is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(data)

    return change


def test_snapshots_taken_at_once_wait_for_each_other(tree):
    """The REPL's background first snapshot may meet the first tool call's: neither may fail on git's lock."""
    store = open_store(tree, tree / ".narnat", print)
    store.warm()
    with ThreadPoolExecutor(4) as pool:
        ids = list(pool.map(lambda n: store.snapshot([], everything=True).id, range(8)))
    assert len(set(ids)) == 1


def test_every_restore_is_logged_with_its_checkpoint_and_files(tree, caplog):
    agent = Agent(tree)
    agent.turn("two files", A_TURN[0], ("Edit", ["out.txt"], write("out.txt", "agent\n")))
    (tree / "out.txt").write_text("mine\n")
    caplog.set_level("INFO", logger="narnat.checkpoints")
    agent.rewind(0)
    before = agent.checkpoints.entries[-1].tail[0].steps[0].before
    assert f"rewind to turn 1: restored from checkpoint {before}: src/main.py" in caplog.text
    assert "rewind to turn 1: kept, as someone else changed them: out.txt" in caplog.text


WAITING = "Waiting for another narnat in this project to finish its checkpoint."
STILL_WAITING = ("Still waiting: the other narnat's checkpoint is taking long (the first one of a large project reads "
                 "every file).")  # fmt: skip
HOLDER = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def holder(tree):
    """Another narnat holding the store's lock, until a line is written to its stdin."""
    (tree / ".narnat/checkpoints").mkdir(parents=True)
    child = subprocess.Popen([sys.executable, "-c", HOLDER, tree / ".narnat/checkpoints/lock"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert child.stdout.readline() == "held\n"
    yield child
    child.communicate("\n", timeout=30)


def test_a_git_lock_left_by_a_killed_git_is_cleared(tree):
    store = open_store(tree, tree / ".narnat", print)
    first = store.snapshot([], everything=True).id
    git = tree / ".narnat/checkpoints/git"
    locks = [git / "index.lock", git / "refs/heads/main.lock", git / "refs/tags/deep/x.lock"]
    for lock in locks:  # as a git killed with its narnat leaves them
        lock.parent.mkdir(parents=True, exist_ok=True)
        lock.write_text("")
    assert store.snapshot([], everything=True).id == first and not any(lock.exists() for lock in locks)


def test_a_live_narnat_holding_the_store_is_waited_for_with_a_notice(tree, holder):
    said = []

    def say(text: str) -> None:  # the other narnat finishes a few of this one's looks at the lock later
        said.append(text)
        if len(said) == 1:  # a notice said again must fail the assertion below, not the holder's end
            holder.stdin.write("\n")
            threading.Timer(6 * POLL, holder.stdin.flush).start()

    store = open_store(tree, tree / ".narnat", say)
    store.snapshot([], everything=True)
    assert said == [WAITING]


def test_a_git_lock_of_the_narnat_holding_the_store_is_left_while_it_is_waited_for(tree, holder):
    """Only the store's holder may take a git lock for a killed git's: while another holds it, its git may run."""
    running = tree / ".narnat/checkpoints/git/index.lock"  # the holder's git, adding files to the index
    running.parent.mkdir(parents=True)
    running.write_text("")
    seen = []

    def say(text: str) -> None:
        seen.append(running.exists())
        running.unlink()  # the holder's git ends, then the holder lets go
        holder.stdin.write("\n")
        holder.stdin.flush()

    open_store(tree, tree / ".narnat", say).snapshot([], everything=True)
    assert seen == [True]


@pytest.mark.slow
def test_a_holder_shows_it_is_alive_often_enough_to_be_waited_for_past_the_wait(tree):
    """The holder's signs of life come every beat, not every wait: a waiter still waits once its wait is over."""
    path, git_dir = tree / ".narnat/checkpoints/lock", tree / ".narnat/checkpoints/git"
    holder = StoreLock(path, git_dir, print)
    holder.wait, holder.beat = 60.0, POLL  # its own wait is long: only its beat can keep the waiter waiting
    said: list[str] = []
    told = threading.Event()
    waiter = StoreLock(path, git_dir, lambda text: said.append(text) or (text == STILL_WAITING and told.set()))
    waiter.wait = 1.0

    def wait_for_it() -> None:
        with waiter.held():
            pass

    with ThreadPoolExecutor(1) as pool:
        with holder.held():
            waited = pool.submit(wait_for_it)
            waited.add_done_callback(lambda _: told.set())  # it gave up
            told.wait(timeout=30)
        waited.result()
    assert said == [WAITING, STILL_WAITING]


def test_a_store_held_past_the_deadline_is_one_sentence(tree, holder):
    store = open_store(tree, tree / ".narnat", print)
    store.lock.wait = 0.2
    silent = r"^another narnat in this project has held the checkpoint store for 0 s without a sign of life\.$"
    with pytest.raises(CheckpointError, match=silent):
        store.snapshot([], everything=True)


def test_runs_started_together_in_a_project_without_a_store_all_keep_checkpoints(tree):
    script = ("import sys; from pathlib import Path; from narnat_agent.checkpoints.timeline import open_store\n"
              "p = Path.cwd(); store = open_store(p, p / '.narnat', sys.stderr.write)\n"
              "print(store.snapshot([], everything=True).id)")  # fmt: skip
    runs = [subprocess.Popen([sys.executable, "-c", script], cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for _ in range(8)]  # fmt: skip
    results = [run.communicate(timeout=60) for run in runs]
    assert [run.returncode for run in runs] == [0] * 8 and len({out for out, _ in results}) == 1
    assert all(err in ("", WAITING) for _, err in results)


SLOW_GIT = """#!/bin/sh
# git, slowed down where a first snapshot is slow: its add hashes every file of the project into an empty index
case " $* " in *" add --all "*) [ -e "$GIT_DIR/index" ] || sleep 1.5;; esac
exec {git} "$@"
"""


@pytest.mark.slow
def test_runs_waiting_for_a_first_snapshot_longer_than_the_wait_keep_their_checkpoints(tree, tmp_path, monkeypatch):
    """Eight runs start together on a fresh large tree: the first snapshot outlasts the wait, but its holder is alive,
    so the others wait for it, saying so, instead of turning their checkpoints off."""
    (tmp_path / "slow").mkdir()
    (tmp_path / "slow/git").write_text(SLOW_GIT.format(git=shutil.which("git")))
    (tmp_path / "slow/git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path / 'slow'}{os.pathsep}{os.environ['PATH']}")
    said: list[str] = []
    stores = [open_store(tree, tree / ".narnat", said.append) for _ in range(8)]
    for store in stores:  # the store's own seams: a wait shorter than the slowed first snapshot, a quicker pulse
        store.lock.wait, store.lock.beat = 0.75, 0.05
    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(lambda store: store.snapshot([], everything=True).id, stores))
    assert len(set(ids)) == 1 and set(said) == {WAITING, STILL_WAITING} and said.count(WAITING) == 7


def test_the_store_is_private_whatever_the_umask(tree):
    (tree / "credentials.yaml").write_text("secret\n")
    (tree / "credentials.yaml").chmod(0o600)
    old = os.umask(0o022)
    try:
        agent = Agent(tree)
        agent.turn("edit", A_TURN[0])
        agent.checkpoints.prune()
    finally:
        os.umask(old)
    root = tree / ".narnat/checkpoints"
    shared = [p for p in [root, *root.rglob("*")] if p.stat().st_mode & 0o077]
    assert shared == [] and (root / "git/objects").is_dir()


def git_data(root: Path) -> dict[str, bytes]:
    """Every file of every git directory under root (the project's, nested ones', submodules')."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" in p.relative_to(root).parts}  # fmt: skip


@pytest.fixture
def nested(tree, tmp_path) -> Path:
    """The project as a git repository with a nested repository, a submodule and a nested one with no commit."""
    commit = ["-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "init"]
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    (upstream / "mod.c").write_text("int mod;\n")
    for repo in (tree, upstream):
        git(repo, "init", "-q")
        git(repo, "add", ".")
        git(repo, *commit)
    git(tree, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(upstream), "sub")
    git(tree, *commit)
    (tree / "vendor/lib").mkdir(parents=True)
    (tree / "vendor/lib/lib.c").write_text("int lib;\n")
    git(tree / "vendor/lib", "init", "-q")
    git(tree / "vendor/lib", "add", ".")
    git(tree / "vendor/lib", *commit)
    (tree / "fresh").mkdir()
    (tree / "fresh/new.c").write_text("int fresh;\n")
    git(tree / "fresh", "init", "-q")
    return tree


def test_files_in_nested_repositories_and_submodules_come_back_and_no_git_directory_changes(nested):
    original, data = files(nested), git_data(nested)
    agent = Agent(nested)
    agent.turn("change nested files", ("Edit", ["vendor/lib/lib.c"], write("vendor/lib/lib.c", "edited\n")),
               ("Bash", [], bash("echo changed > sub/mod.c && echo made > sub/made.c && rm fresh/new.c")),
               ("Edit", ["src/main.py"], edit("src/main.py", "hello", "bye")))  # fmt: skip
    assert agent.said == [] and git_data(nested) == data
    agent.rewind(0)
    assert files(nested) == original and git_data(nested) == data
    agent.redo()
    assert (nested / "sub/made.c").exists() and not (nested / "fresh/new.c").exists()
    assert (nested / "vendor/lib/lib.c").read_text() == "edited\n" and git_data(nested) == data


def test_a_turn_that_edits_a_top_level_file_writes_nothing_in_nested_git_directories(nested):
    agent = Agent(nested)
    agent.turn("warm up", ("Bash", [], bash("true")))
    later = time.time() + 5
    for path in ("vendor/lib/lib.c", "sub/mod.c"):  # same bytes, newer time: a `git status` in there would rewrite
        os.utime(nested / path, (later, later))  # the index it keeps
    data = git_data(nested)
    agent.turn("edit", ("Edit", ["src/main.py"], edit("src/main.py", "hello", "bye")), ("Bash", [], bash("true")))
    agent.rewind(1)
    assert git_data(nested) == data


def test_the_store_is_packed_once_it_holds_many_loose_objects_and_still_restores(tree):
    for n in range(PACK_AT):
        (tree / f"file_{n}.txt").write_text(f"{n}\n")
    agent = Agent(tree)
    agent.turn("edit", ("Bash", [], bash("echo changed > file_7.txt && rm file_8.txt")))
    objects = tree / ".narnat/checkpoints/git/objects"
    assert len([p for p in objects.glob("??/*")]) > PACK_AT
    packer = subprocess.Popen([sys.executable, "-c", HOLDER, tree / ".narnat/checkpoints/pack-lock"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert packer.stdout.readline() == "held\n"
    agent.checkpoints.prune()  # another pack is under way: this one leaves it be
    assert len([p for p in objects.glob("??/*")]) > PACK_AT
    packer.communicate("\n", timeout=30)
    agent.checkpoints.prune()
    assert list(objects.glob("??/*")) == [] and list(objects.glob("pack/*.pack"))
    agent.rewind(0)
    assert (tree / "file_7.txt").read_text() == "7\n" and (tree / "file_8.txt").read_text() == "8\n"


MINE = ("Edit", ["gen.py"], write("gen.py", "agent\n"))


def test_snapshots_pruned_from_a_store_older_than_the_conversation_are_said_to_be_pruned(no_git):
    agent, other = Agent(no_git), Agent(no_git)
    agent.turn("mine", MINE)
    root = no_git / ".narnat/checkpoints/files"
    week_ago = time.time() - (AGE_DAYS + 1) * 86400
    for path in [root, *root.rglob("*")]:
        os.utime(path, (week_ago, week_ago))
    other.checkpoints.prune()
    with pytest.raises(CheckpointError, match=r"\(they were pruned: the store keeps this conversation's and those of"):
        agent.checkpoints.plan(0)


def test_a_redo_after_the_store_was_deleted_says_so_when_no_turn_is_left(tree):
    agent = Agent(tree)
    agent.turn("mine", MINE)
    agent.rewind(0)
    shutil.rmtree(tree / ".narnat/checkpoints")
    with pytest.raises(CheckpointError, match=r"no longer in the store \(the checkpoint store was deleted"):
        agent.checkpoints.plan_redo()


def test_a_new_conversation_has_nothing_to_redo(tree):
    with pytest.raises(CheckpointError, match="there is nothing to redo"):
        Agent(tree).checkpoints.plan_redo()


def test_a_redo_told_to_overwrite_takes_back_a_file_the_user_changed_since(tree):
    agent = Agent(tree)
    agent.turn("mine", MINE)
    agent.rewind(0, conversation=False)
    (tree / "gen.py").write_text("the user's\n")
    plan = agent.checkpoints.plan_redo()
    assert plan is not None and plan.conflicts == ["gen.py"]
    _, restored = agent.checkpoints.redo(plan, overwrite=True)
    assert restored == ["gen.py"] and (tree / "gen.py").read_text() == "agent\n"


def test_after_compression_a_redo_gives_back_the_code_but_not_the_dropped_conversation(tree):
    agent = Agent(tree)
    agent.turn("first", ("Edit", ["out.txt"], write("out.txt", "first\n")))
    agent.turn("second", MINE)
    agent.rewind(1)
    agent.checkpoints.forget_conversation()
    record, restored = agent.checkpoints.redo(agent.checkpoints.plan_redo(), overwrite=False)
    assert record.taken is None and restored == ["gen.py"] and (tree / "gen.py").read_text() == "agent\n"
    assert [(t.question, t.conversation, t.code) for t in agent.checkpoints.turns()] == [
        ("first", False, True), ("second", False, True)]  # fmt: skip


def test_a_step_that_changed_only_a_file_too_big_to_keep_does_not_hide_the_steps_after_it(tree):
    (tree / ".gitignore").write_text("*.bin\n")
    (tree / "big.bin").write_bytes(b"b" * (CAP + 1))
    agent = Agent(tree)
    agent.turn("two calls", ("Write", ["big.bin"], write("big.bin", "c" * (CAP + 1))), MINE)
    assert agent.rewind(0) == ["gen.py"] and (tree / "gen.py").read_text().startswith("open(")


def test_a_broken_store_rewinds_only_the_conversation_in_one_sentence(tree):
    agent = Agent(tree)
    agent.turn("mine", MINE)
    shutil.rmtree(tree / ".narnat/checkpoints")
    (tree / ".narnat/checkpoints").write_text("not a folder")
    agent.turn("again", ("Edit", ["out.txt"], write("out.txt", "x\n")))
    with pytest.raises(CheckpointError) as refused:
        agent.checkpoints.plan(0)
    assert str(refused.value) == "checkpoints are off for this run, so only the conversation can be rewound."


def test_two_commands_in_one_reply_are_both_rewound(tree):
    agent = Agent(tree)
    agent.checkpoints.start_turn(1, "two commands", 1)
    for step in A_TURN[2:]:
        agent.step(*step)  # no reply between them: the second starts from the first one's snapshot
    agent.rewind(0, conversation=False)
    assert (tree / "src/main.py").exists() and (tree / "out.txt").read_text() == "generated 1\n"


def test_a_store_that_breaks_during_a_call_is_one_sentence_and_the_turn_goes_on(tree):
    agent = Agent(tree)

    def break_it(root: Path) -> None:
        shutil.rmtree(root / ".narnat/checkpoints")
        (root / ".narnat/checkpoints").write_text("not a folder")

    agent.turn("break it", ("Bash", [], break_it), MINE)
    assert len(agent.said) == 1 and agent.said[0].startswith("Checkpoints are off for this run:")


def test_a_long_call_is_kept_by_its_first_80_characters(tree):
    agent = Agent(tree)
    agent.turn("long", ("Write", ["gen.py", "x" * 100], write("gen.py", "x\n")))
    assert agent.checkpoints.turns()[0].calls == [f"Write(gen.py, {'x' * 100})"[:80]]


def test_a_rewind_to_the_middle_of_a_turn_cannot_take_the_conversation_with_it(tree):
    agent = Agent(tree)
    agent.turn("two", MINE, ("Edit", ["out.txt"], write("out.txt", "x\n")))
    with pytest.raises(CheckpointError) as refused:
        agent.rewind(0, step=1)
    assert str(refused.value) == "the conversation cannot go back to turn 1, step 2: only its code can."


def test_a_rewind_told_to_overwrite_takes_back_a_file_the_user_changed_since(tree):
    agent = Agent(tree)
    agent.turn("first", MINE)
    agent.turn("second", ("Edit", ["out.txt"], write("out.txt", "x\n")))
    (tree / "gen.py").write_text("the user's\n")
    plan = agent.checkpoints.plan(0)
    assert agent.checkpoints.rewind(0, plan, overwrite=True) == ["gen.py", "out.txt"]
    assert (tree / "gen.py").read_text().startswith("open(") and agent.checkpoints.entries[-1].rewind == "turn 1"


# Nested repositories kept two deep or oddly named, the background first snapshot, and what a pack keeps.

AGE = (AGE_DAYS + 1) * 86400
GIT_DIR = ".narnat/checkpoints/git"


def repository(path: Path, commit: bool = True) -> None:
    git(path, "init", "-q")
    if commit:
        git(path, "add", ".")
        git(path, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "init")


def test_files_of_repositories_nested_two_deep_or_oddly_named_come_back(tree):
    folders = ["-dash", os.fsdecode(b"caf\xe9"), "outer", "outer/inner"]
    for folder in reversed(folders):  # the inner repository before the outer one takes it in
        (tree / folder).mkdir(parents=True, exist_ok=True)
        (tree / folder / "f.c").write_text("mine\n")
        repository(tree / folder)
    (tree / "empty").mkdir()
    repository(tree / "empty", commit=False)
    original = files(tree)
    agent = Agent(tree)
    agent.turn("edit", ("Bash", [], lambda root: [(root / d / "f.c").write_text("agent\n") for d in folders]))
    assert agent.said == [] and [f.path for f in agent.checkpoints.turns()[0].files] == [f"{d}/f.c" for d in folders]
    agent.rewind(0)
    assert files(tree) == original


def test_a_file_made_in_a_nested_repository_that_held_no_files_is_kept(tree):
    (tree / "outer").mkdir()
    (tree / "outer/f.c").write_text("mine\n")
    repository(tree / "outer")
    (tree / "outer/f.c").unlink()  # a commit, and no files to walk into
    agent = Agent(tree)
    agent.turn("make one", ("Bash", [], bash("echo agent > outer/new.c")))
    assert [f.path for f in agent.checkpoints.turns()[0].files] == ["outer/new.c"]
    assert agent.rewind(0) == ["outer/new.c"] and not (tree / "outer/new.c").exists()


def blocked_store(tree: Path) -> "Agent":
    """An agent past its first snapshot whose store has a file where git puts the copy of a file holding "made"."""
    agent = Agent(tree)
    agent.turn("first", ("Bash", [], bash("true")))
    folder = tree / GIT_DIR / "objects" / hashlib.sha1(b"blob 4\0made").hexdigest()[:2]
    assert not folder.exists()
    folder.write_text("")
    return agent


def test_a_file_git_cannot_store_in_a_new_nested_repository_is_one_sentence_with_gits_reason(tree):
    agent = blocked_store(tree)
    (tree / "outer").mkdir()
    (tree / "outer/made.c").write_text("made")
    repository(tree / "outer")
    agent.turn("second", ("Bash", [], bash("true")))
    assert agent.said == [f"Checkpoints are off for this run: the checkpoint store {tree}/{GIT_DIR} failed (error: "
                          "unable to create temporary file: Not a directory)."]  # fmt: skip


def warm_and_wait(warm: Callable[[], None]) -> None:
    """Start the background first snapshot, and wait for it to end."""
    running = set(threading.enumerate())
    warm()
    for thread in set(threading.enumerate()) - running:
        thread._started.wait()  # type: ignore[attr-defined]  # enumerate() lists a thread still starting, unjoinable
        thread.join()


def test_the_background_first_snapshot_packs_a_store_of_exactly_the_loose_objects_that_call_for_it(project):
    for n in range(PACK_AT - 1):  # and the tree that holds them
        (project / f"file_{n}.txt").write_text(f"{n}\n")
    store = open_store(project, project / ".narnat", print)
    warm_and_wait(store.warm)
    objects = project / GIT_DIR / "objects"
    assert list(objects.glob("??/*")) == [] and len(list(objects.glob("pack/*.pack"))) == 1
    first = store.snapshot([], everything=True).id
    assert store.existing([first]) == {first} and len(store.git("ls-tree", first).splitlines()) == PACK_AT - 1


def test_a_pack_keeps_the_young_snapshots_nobody_names_and_drops_the_old_ones(project):
    for n in range(PACK_AT):
        (project / f"file_{n}.txt").write_text(f"{n}\n")
    store = open_store(project, project / ".narnat", print)
    old = store.snapshot([], everything=True).id
    store.pack()
    for n in range(PACK_AT):
        (project / f"more_{n}.txt").write_text(f"more {n}\n")
    young = store.snapshot([], everything=True).id
    (project / "file_0.txt").unlink()
    now = store.snapshot([], everything=True).id  # the store's index holds this one alone
    for path in (project / GIT_DIR / "objects/pack").iterdir():  # git dates a packed object by its pack
        os.utime(path, (time.time() - AGE, time.time() - AGE))  # (and makes it new when it meets one again)
    store.pack()
    assert store.existing([old, young, now]) == {young, now} and list((project / GIT_DIR).glob("objects/??/*")) == []


def test_a_background_first_snapshot_that_fails_leaves_the_error_to_the_next_snapshot(tree, tmp_path, monkeypatch):
    escaped = []
    monkeypatch.setattr(threading, "excepthook", escaped.append)
    (tree / ".narnat").mkdir()
    (tree / ".narnat/checkpoints").write_text("not a folder")
    agent = Agent(tree)
    warm_and_wait(agent.checkpoints.warm)
    unpackable = open_store(tree, tmp_path / "state", print)
    (tmp_path / "state/checkpoints/pack-lock").mkdir(parents=True)  # the snapshot goes well, the pack cannot
    warm_and_wait(unpackable.warm)
    agent.turn("edit", ("Edit", ["gen.py"], write("gen.py", "x\n")))
    assert escaped == [] and agent.said == [f"Checkpoints are off for this run: the checkpoint store {tree}/.narnat/"
                                            "checkpoints cannot be written (File exists)."]  # fmt: skip


def test_a_command_changing_a_file_in_a_folder_of_ignored_files_is_undone(tree):
    """A folder of ignored files only (`logs/`, with `*.log` ignored) is listed by git as untracked, then its files
    one by one: it is no folder .gitignore names whole, so it is watched, a later command's change to one of its
    files is that command's step, and /undo brings it back."""
    (tree / ".gitignore").write_text("*.log\n")
    (tree / "logs").mkdir()
    (tree / "logs/run.log").write_text("one\n")
    agent = Agent(tree)
    agent.turn("first", ("Bash", [], bash("echo x > other.txt")))  # the project is watched from here on
    agent.turn("append", ("Bash", [], bash("echo two >> logs/run.log")))
    agent.rewind(1)
    assert (tree / "logs/run.log").read_text() == "one\n" and (tree / "other.txt").exists()


def test_a_turns_first_command_after_one_the_model_never_answered_sees_the_persons_edits(tree):
    """A turn cut off right after a command (Ctrl-C, a budget) gets no reply: the person's edits before the next
    turn are theirs, not the next command's."""
    agent = Agent(tree)
    agent.checkpoints.start_turn(1, "first", 1)
    agent.step("Bash", [], bash("echo x > other.txt"))  # no reply comes: the turn stops here
    (tree / "src/main.py").write_text("print('mine')\n")
    agent.checkpoints.start_turn(2, "second", 3)
    agent.step("Bash", [], bash("echo y > second.txt"))
    plan = agent.checkpoints.plan(1)
    assert [c.path for c in plan.changes] == ["second.txt"]
    agent.rewind(1)
    assert (tree / "src/main.py").read_text() == "print('mine')\n" and not (tree / "second.txt").exists()


def test_a_command_after_the_models_answer_sees_the_persons_edits_made_while_it_wrote(tree):
    """Two commands of one turn: the person edits a file while the model writes the answer between them; that edit
    is theirs, not the second command's."""
    agent = Agent(tree)
    agent.checkpoints.start_turn(1, "two commands", 1)
    agent.step("Bash", [], bash("echo one > one.txt"))
    agent.checkpoints.replied()
    (tree / "src/main.py").write_text("print('mine')\n")
    agent.step("Bash", [], bash("echo two > two.txt"))
    plan = agent.checkpoints.plan(0)
    assert sorted(c.path for c in plan.changes) == ["one.txt", "two.txt"]
    agent.rewind(0, conversation=False)
    assert (tree / "src/main.py").read_text() == "print('mine')\n" and not (tree / "two.txt").exists()
