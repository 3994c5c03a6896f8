"""git as the checkpoint store runs it: in the project, in a session of its own, with private files, the file
descriptors it is asked to hold, and one sentence for each way it fails."""

import errno
import os
import subprocess
from pathlib import Path

import pytest

from narnat_agent.checkpoints.git import USERS, Git, os_failure
from narnat_agent.checkpoints.store import CheckpointError

HELLO = b"b6fc4c620b67d95f953a5c1c1230aaab5db5a1b0\n"  # git hash-object of "hello"


@pytest.fixture
def git(tmp_path: Path) -> Git:
    (tmp_path / "project").mkdir()
    store = Git(tmp_path / "project", tmp_path / "store")
    store("init", "--quiet")
    return store


def test_git_runs_in_the_project_with_the_input_it_is_given(git, monkeypatch):
    (git.project / "sub").mkdir()
    (git.project / "a.txt").write_text("a\n")
    monkeypatch.chdir(git.project / "sub")  # Narnat started in a folder of the project
    assert git("rev-parse", "--show-prefix") == b"\n"  # paths are the project's, from its top
    git("add", "a.txt")
    assert git("hash-object", "--stdin", stdin=b"hello") == HELLO
    assert git.run("hash-object", "--stdin", stdin=b"hello") == (0, HELLO, b"")


def test_the_stores_files_are_private_whatever_the_umask(tmp_path):
    (tmp_path / "project").mkdir()
    old = os.umask(0o022)
    try:
        Git(tmp_path / "project", tmp_path / "store")("init", "--quiet")
    finally:
        os.umask(old)
    assert (tmp_path / "store" / "HEAD").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "store" / "objects").stat().st_mode & 0o777 == 0o700


def test_files_written_with_the_users_umask_are_made_as_the_user_would(git):
    (git.project / "a.txt").write_text("a\n")
    git("add", "a.txt")
    (git.project / "a.txt").unlink()
    old = os.umask(0o022)
    try:
        git.finish(git.start("checkout-index", "--all", umask=USERS))
    finally:
        os.umask(old)
    assert (git.project / "a.txt").stat().st_mode & 0o777 == 0o644


def test_git_holds_the_file_descriptors_it_is_given(git, tmp_path):
    with open(tmp_path / "lock", "w") as held:
        fd = held.fileno()
        fds = git("-c", "alias.fds=!ls /proc/$PPID/fd", "fds", hold=(fd,))
    assert str(fd) in fds.decode().split()


def test_git_runs_in_a_session_of_its_own_so_the_terminals_ctrl_c_misses_it(git):
    process = git.start("cat-file", "--batch")
    try:
        assert os.getsid(process.pid) == process.pid != os.getsid(0)
    finally:
        git.finish(process, b"")


def test_a_git_that_cannot_start_says_so_in_one_sentence(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no git there
    with pytest.raises(CheckpointError) as failed:
        Git(tmp_path, tmp_path / "store")("status")
    assert str(failed.value) == "git could not be started (No such file or directory)."


def test_a_failing_git_says_its_fatal_line_or_its_exit_status(git, tmp_path):
    (tmp_path / "a").write_text("a")
    (tmp_path / "b").write_text("b")
    with pytest.raises(CheckpointError) as silent:
        git("diff", "--quiet", "--no-index", str(tmp_path / "a"), str(tmp_path / "b"))  # exits 1, says nothing
    assert str(silent.value) == f"the checkpoint store {git.git_dir} failed (exit status 1)."
    with pytest.raises(CheckpointError) as unknown:
        git("rev-parse", "--verify", "--quiet", "no-such-\udcff")  # a name that is no UTF-8
    assert str(unknown.value) == f"the checkpoint store {git.git_dir} failed (exit status 1)."
    with pytest.raises(CheckpointError) as bad:
        git("cat-file", "-p", "no-such-\udcff")
    said = f"the checkpoint store {git.git_dir} failed (fatal: Not a valid object name no-such-\ufffd)."
    assert str(bad.value) == said


@pytest.mark.parametrize(
    ("err", "code", "reason"),
    [
        ("hint: try this\nerror: pathspec 'a' did not match\nfatal: then this", 1, "error: pathspec 'a' did not match"),
        ("warning: first\nfatal: the cause\nhint: try again\n", 128, "fatal: the cause"),
        ("error: the cause\nhint: try again", 1, "error: the cause"),
        ("warning: first\nsomething went wrong\n", 2, "something went wrong"),
        ("", 128, "exit status 128"),
        ("  \n", 1, "exit status 1"),
    ],
)
def test_a_failure_comes_to_its_first_fatal_or_error_line_else_its_last(git, err, code, reason):
    assert git.failure(err, code) == f"the checkpoint store {git.git_dir} failed ({reason})."


FULL = "the disk holding {} is full; free some space and checkpoints resume with the next run."


@pytest.mark.parametrize(
    "err", ["error: unable to write: No space left on device\nfatal: cannot store", "fatal: Disk quota exceeded"]
)
def test_a_full_disk_is_said_as_such(git, err):
    assert git.failure(err, 128) == FULL.format(git.git_dir)


@pytest.mark.parametrize("number", [errno.ENOSPC, errno.EDQUOT])
def test_a_full_disk_under_the_store_is_said_as_such(tmp_path, number):
    assert os_failure(OSError(number, os.strerror(number)), tmp_path) == FULL.format(tmp_path)


def test_another_file_system_failure_names_the_store_and_the_error(tmp_path):
    failure = OSError(errno.EACCES, "Permission denied")
    assert os_failure(failure, tmp_path) == f"the checkpoint store {tmp_path} cannot be written (Permission denied)."


def test_git_is_found_on_the_path_narnat_was_given(tmp_path, monkeypatch):
    real = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True).stdout.strip()
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "git").symlink_to(real)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    (tmp_path / "project").mkdir()
    assert Git(tmp_path / "project", tmp_path / "store")("--version").startswith(b"git version")


def test_git_is_found_on_the_systems_default_path_when_narnat_was_given_none(tmp_path, monkeypatch):
    monkeypatch.delenv("PATH")
    (tmp_path / "project").mkdir()
    assert Git(tmp_path / "project", tmp_path / "store")("--version").startswith(b"git version")
