"""Commands' snapshots skipped or narrowed while the project's folders are watched: /undo gives back exactly what the
agent's calls changed, whoever else changed files between them (the person, a background job), and as much with
the watcher off (another system, a network file system) as with it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from narnat_agent.checkpoints.git_store import GitStore
from narnat_agent.checkpoints.store import CAP
from narnat_agent.checkpoints.watching import LIMIT
from tests.checkpoints.test_checkpoints import Agent, bash, files, write

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the project is watched on Linux only")


@pytest.fixture(params=["watched", "unwatched"])
def agent(request, tree) -> Agent:
    made = Agent(tree)
    if request.param == "unwatched":  # as where the file system cannot be watched: every snapshot a whole one
        made.checkpoints.store.watcher.off = True
    return made


def store(agent: Agent) -> GitStore:
    assert isinstance(agent.checkpoints.store, GitStore)
    return agent.checkpoints.store


def undo(agent: Agent) -> list[str]:
    """/undo: the last turn's code and conversation; the files it restored."""
    return sorted(agent.rewind(len(agent.checkpoints.entries) - 1))


def test_what_the_person_changes_between_turns_is_kept_and_the_commands_work_undone(agent, tree):
    agent.turn("first", ("Bash", [], bash("echo one > first.txt")))
    (tree / "src/util.py").write_text("def f():\n    return 'mine'\n")  # the person, between turns
    before = files(tree)
    agent.turn("second", ("Bash", [], bash("python3 gen.py")), ("Bash", [], bash("true")))
    assert (tree / "out.txt").read_text() == "generated 2\n"
    assert undo(agent) == ["out.txt"]
    assert files(tree) == before


def test_what_the_person_changes_while_the_model_answers_is_kept(agent, tree):
    def person(root: Path) -> None:  # runs after a reply, before the next call: not a call of the agent
        (root / "notes.txt").write_text("my notes\n")

    agent.turn("first", ("Bash", [], bash("echo one > first.txt")))
    agent.checkpoints.start_turn(2, "second", len(agent.conversation.messages))
    agent.step("Bash", [], bash("python3 gen.py"))
    agent.checkpoints.replied()
    person(tree)
    agent.step("Bash", [], bash("mkdir -p lib && echo x > lib/new.py"))
    agent.checkpoints.replied()
    assert undo(agent) == ["lib/new.py", "out.txt"]
    assert (tree / "notes.txt").read_text() == "my notes\n" and (tree / "out.txt").read_text() == "generated 1\n"
    assert not (tree / "lib").exists()


def test_what_a_background_job_writes_while_a_command_runs_is_undone_with_it(agent, tree):
    jobs: list[subprocess.Popen] = []

    def start_job(root: Path) -> None:  # a job the first command leaves running, waiting for its cue
        job = "import sys; sys.stdin.read(); open('job.txt', 'w').write('job')"
        jobs.append(subprocess.Popen([sys.executable, "-c", job], cwd=root, stdin=subprocess.PIPE))

    def job_writes(root: Path) -> None:  # the second command runs while the job writes
        jobs[0].communicate(b"go")
        (root / "src/main.py").write_text("print('changed')\n")

    agent.turn("first", ("Bash", [], start_job))
    before = files(tree)
    agent.turn("second", ("Bash", [], job_writes))
    assert (tree / "job.txt").read_text() == "job"
    assert undo(agent) == ["job.txt", "src/main.py"]
    assert files(tree) == before


def test_folders_made_moved_and_removed_by_commands_are_undone(agent, tree):
    (tree / "docs/old").mkdir(parents=True)
    (tree / "docs/old/a.md").write_text("a\n")
    agent.turn("first", ("Bash", [], bash("true")))
    before = files(tree)
    agent.turn("reshape", ("Bash", [], bash("mkdir -p pkg/sub && echo 1 > pkg/sub/m.py")),
               ("Bash", [], bash("mv docs/old docs/new && rm -r src")),
               ("Bash", [], bash("echo 2 > pkg/sub/m.py && echo 3 > docs/new/b.md")))  # fmt: skip
    assert undo(agent) == ["docs/new/a.md", "docs/new/b.md", "docs/old/a.md", "pkg/sub/m.py", "src/main.py",
                           "src/util.py"]  # fmt: skip
    assert files(tree) == before


def test_ignored_files_and_files_changed_removed_and_made_executable_in_known_folders_are_undone(agent, tree):
    (tree / ".gitignore").write_text("*.log\n")
    (tree / "src/run.log").write_text("old log\n")
    agent.turn("first", ("Bash", [], bash("true")))
    before = files(tree)
    modes = {p: os.lstat(tree / p).st_mode for p in before}
    agent.turn("change files", ("Bash", [], bash("echo changed >> src/main.py && rm src/util.py")),
               ("Bash", [], bash("chmod +x gen.py && echo new > src/new.py && echo log > src/new.log")),
               ("Bash", [], bash("echo more >> src/run.log && rm notes.txt")))  # fmt: skip
    assert undo(agent) == ["gen.py", "notes.txt", "src/main.py", "src/new.log", "src/new.py", "src/run.log",
                           "src/util.py"]  # fmt: skip
    assert files(tree) == before and {p: os.lstat(tree / p).st_mode for p in before} == modes


def test_a_file_changed_in_a_folder_an_earlier_command_made_is_undone_to_that_commands_state(agent, tree):
    agent.turn("make", ("Bash", [], bash("mkdir -p new/deep && echo 1 > new/deep/f.txt")))
    agent.turn("change", ("Bash", [], bash("echo 2 > new/deep/f.txt")))
    assert undo(agent) == ["new/deep/f.txt"]
    assert (tree / "new/deep/f.txt").read_text() == "1\n"


def test_a_folder_gitignore_no_longer_names_is_kept_from_then_on(agent, tree):
    (tree / ".gitignore").write_text("build/\n")
    (tree / "build").mkdir()
    (tree / "build/out.js").write_text("old\n")
    agent.turn("first", ("Bash", [], bash("true")))
    agent.turn("unignore", ("Bash", [], bash("echo '*.tmp' > .gitignore")))
    agent.turn("build", ("Bash", [], bash("echo new > build/out.js")))
    assert undo(agent) == ["build/out.js"]
    assert (tree / "build/out.js").read_text() == "old\n"


def test_a_file_in_an_ignored_folder_that_a_write_made_is_kept_when_a_command_changes_it_later(agent, tree):
    (tree / ".gitignore").write_text("build/\n")
    (tree / "build").mkdir()
    (tree / "build/other.js").write_text("other\n")
    agent.turn("first", ("Bash", [], bash("true")))
    agent.turn("write in build", ("Bash", [], bash("true")), ("Write", ["build/out.js"], write("build/out.js", "1\n")),
               ("Bash", [], bash("echo 2 > build/out.js && echo changed > build/other.js")))  # fmt: skip
    agent.rewind(1, conversation=False, step=1)  # the command (a call that changed nothing is no step)
    assert (tree / "build/out.js").read_text() == "1\n" and (tree / "build/other.js").read_text() == "other\n"


def test_a_run_starts_watching_where_the_last_one_left_off_and_sees_what_gitignore_no_longer_names(tree):
    (tree / ".gitignore").write_text("build/\n")
    (tree / "build").mkdir()
    (tree / "build/out.js").write_text("old\n")
    Agent(tree).turn("an earlier run", ("Bash", [], bash("true")))
    (tree / ".gitignore").write_text("*.tmp\n")  # between the runs
    agent = Agent(tree)
    before = files(tree)
    agent.turn("build", ("Bash", [], bash("echo new > build/out.js")), ("Bash", [], bash("echo 2 > src/main.py")),
               ("Bash", [], bash("echo newer > build/out.js")))  # fmt: skip
    assert undo(agent) == ["build/out.js", "src/main.py"]
    assert files(tree) == before


def test_a_write_between_commands_is_undone_with_them(agent, tree):
    agent.turn("first", ("Bash", [], bash("true")))
    before = files(tree)
    agent.turn("mixed", ("Bash", [], bash("echo a > a.txt")), ("Write", ["src/main.py"], write("src/main.py", "w\n")),
               ("Bash", [], bash("echo b >> src/main.py")))  # fmt: skip
    assert undo(agent) == ["a.txt", "src/main.py"]
    assert files(tree) == before


def test_a_file_changed_through_a_hard_link_from_outside_between_turns_is_not_the_next_turns_work(
    agent, tree, tmp_path
):
    os.link(tree / "notes.txt", tmp_path / "outside-link")
    agent.turn("first", ("Bash", [], bash("echo one > first.txt")))
    (tmp_path / "outside-link").write_text("changed from outside\n")  # no folder of the project sees it
    agent.turn("second", ("Bash", [], bash("mkdir made && echo 1 > made/f")))
    assert undo(agent) == ["made/f"]
    assert (tree / "notes.txt").read_text() == "changed from outside\n"


def test_a_file_too_big_to_keep_changed_through_a_hard_link_between_turns_is_blamed_on_no_command(
    agent, tree, tmp_path
):
    (tree / ".gitignore").write_text("*.bin\n")
    (tree / "big.bin").write_bytes(b"b" * (CAP + 1))
    os.link(tree / "big.bin", tmp_path / "outside-link")
    agent.turn("first", ("Bash", [], bash("true")))
    with open(tmp_path / "outside-link", "ab") as big:
        big.write(b"more")
    agent.turn("second", ("Bash", [], bash("true")), ("Bash", [], bash("mkdir made")))
    assert agent.said == []


@linux_only
def test_a_command_that_changes_nothing_leaves_the_last_snapshot_standing_and_no_step(tree):
    agent = Agent(tree)
    agent.turn("first", ("Bash", [], bash("echo one > first.txt")), ("Bash", [], bash("true")))
    standing = store(agent).standing()
    assert standing is not None and standing == agent.checkpoints.whole.id
    agent.turn("nothing", ("Bash", [], bash("true")), ("Bash", [], bash("ls > /dev/null")))
    assert store(agent).standing() == standing and len(agent.checkpoints.entries[-1].steps) == 0
    (tree / ".narnat/scratch").write_text("narnat's own folder is no project file")
    assert store(agent).standing() == standing
    agent.turn("write", ("Bash", [], bash("true")), ("Write", ["src/util.py"], write("src/util.py", "x = 2\n")))
    written = store(agent).standing()  # the Write's snapshot took its file in: nothing else changed
    assert written not in (None, standing) and written == agent.checkpoints.whole.id
    (tree / "src/main.py").write_text("print('the person')\n")
    assert store(agent).standing() is None


@linux_only
def test_after_more_changes_than_the_watcher_keeps_by_name_every_file_is_looked_at(tree):
    agent = Agent(tree)
    agent.turn("first", ("Bash", [], bash("true")))
    before = files(tree)
    many = f"for i in $(seq {LIMIT + 1}); do echo $i > n$i.txt; done"
    agent.turn("many", ("Bash", [], bash(many)), ("Bash", [], bash("echo x > src/main.py")))
    assert len(undo(agent)) == LIMIT + 2
    assert files(tree) == before


@pytest.mark.slow
@linux_only
def test_after_the_kernel_lost_events_the_folders_are_watched_again_and_nothing_is_missed(tree):
    agent = Agent(tree)
    agent.turn("first", ("Bash", [], bash("true")))
    before = files(tree)
    # more events than the kernel queues (16,384 by default), folders made among them
    burst = "for i in $(seq 300); do mkdir d$i && for j in $(seq 30); do echo $j > d$i/f$j; done; done"
    agent.turn("burst", ("Bash", [], bash(burst)), ("Bash", [], bash("echo 2 > d7/f3 && mkdir d7/more")),
               ("Bash", [], bash("echo 3 > d7/more/g")), ("Bash", [], bash("echo 4 > d7/more/g")))  # fmt: skip
    assert store(agent).standing() is not None  # watched again
    agent.rewind(1, conversation=False, step=3)
    assert (tree / "d7/more/g").read_text() == "3\n"
    agent.rewind(1)
    assert files(tree) == before
