import os
import stat
import subprocess
import sys
from typing import cast

import pytest

from narnat_agent.atomic import clean_leftovers, write_atomic
from narnat_agent.tools.base import Diff
from narnat_agent.tools.registry import execute
from tests.platforms import NO_FIFOS, NO_MODES, NO_SYMLINKS, shown

pytestmark = pytest.mark.windows  # these must pass on Windows too (docs/windows.md)


def write(workspace, path, content):
    return execute("Write", {"file_path": path, "content": content}, workspace)


def test_creates_a_new_file_with_its_parent_folders(project, workspace):
    result = write(workspace, "src/pkg/mod.py", "x = 1\ny = 2\n")
    assert result.text == f"Created {shown('src/pkg/mod.py')} (2 lines)." and not result.is_error
    assert (project / "src/pkg/mod.py").read_text() == "x = 1\ny = 2\n"


def test_overwrite_after_a_whole_read(project, workspace):
    (project / "a.txt").write_text("old\n")
    execute("Read", {"file_path": "a.txt"}, workspace)
    result = write(workspace, "a.txt", "new\ncontent\n")
    assert result.text == "Updated a.txt (2 lines)." and "-old" in result.detail.text
    assert (project / "a.txt").read_text() == "new\ncontent\n"
    assert not write(workspace, "a.txt", "again\n").is_error  # its own write keeps the record current


def test_overwrite_without_a_read_is_refused(project, workspace):
    (project / "a.txt").write_text("precious\n")
    result = write(workspace, "a.txt", "oops\n")
    assert result.is_error and "Read it first" in result.text
    assert (project / "a.txt").read_text() == "precious\n"


def test_overwrite_after_a_partial_read_is_refused(project, workspace):
    (project / "a.txt").write_text("".join(f"{n}\n" for n in range(3000)))
    execute("Read", {"file_path": "a.txt"}, workspace)
    result = write(workspace, "a.txt", "short\n")
    assert result.is_error and "only part of a.txt has been read" in result.text


def test_overwrite_of_a_file_changed_since_the_read_is_refused(project, workspace):
    (project / "a.txt").write_text("v1\n")
    execute("Read", {"file_path": "a.txt"}, workspace)
    (project / "a.txt").write_text("v2 by someone else\n")
    result = write(workspace, "a.txt", "v3\n")
    assert result.is_error and "modified since you read it" in result.text


def test_empty_content_and_content_without_final_newline(project, workspace):
    assert write(workspace, "empty.txt", "").text == "Created empty.txt (0 lines)."
    assert write(workspace, "one.txt", "no newline").text == "Created one.txt (1 line)."
    assert (project / "one.txt").read_bytes() == b"no newline"


@NO_MODES
def test_file_mode_is_kept(project, workspace):
    script = project / "run.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o750)
    execute("Read", {"file_path": "run.sh"}, workspace)
    write(workspace, "run.sh", "#!/bin/sh\necho hi\n")
    assert script.stat().st_mode & 0o777 == 0o750


@NO_FIFOS
def test_a_directory_or_a_pipe_is_refused(project, workspace):
    (project / "dir").mkdir()
    assert "is a directory" in write(workspace, "dir", "x").text
    os.mkfifo(project / "pipe")
    assert "not a regular file" in write(workspace, "pipe", "x").text


def test_a_failed_write_leaves_neither_a_partial_file_nor_a_temporary_one(tmp_path):
    target = tmp_path / "out"
    target.mkdir()
    (target / "keep").write_text("x")  # os.replace cannot put a file over a non-empty directory
    with pytest.raises(OSError):
        write_atomic(target, b"data")
    assert sorted(os.listdir(tmp_path)) == ["out"]
    assert os.listdir(target) == ["keep"]


def test_overwriting_a_crlf_file_keeps_crlf_and_new_files_get_lf(project, workspace):
    (project / "win.txt").write_bytes(b"one\r\ntwo\r\n")
    execute("Read", {"file_path": "win.txt"}, workspace)
    write(workspace, "win.txt", "one\nthree\n")
    assert (project / "win.txt").read_bytes() == b"one\r\nthree\r\n"
    # what is remembered is what was written, CRLF: the file is not taken for one changed since
    edited = execute("Edit", {"file_path": "win.txt", "old_string": "three", "new_string": "four"}, workspace)
    assert not edited.is_error and (project / "win.txt").read_bytes() == b"one\r\nfour\r\n"
    write(workspace, "new.txt", "a\r\nb\n")
    assert (project / "new.txt").read_bytes() == b"a\nb\n"


def test_overwriting_keeps_utf16_with_its_bom_and_a_legacy_encoding(project, workspace):
    (project / "w16.txt").write_bytes(b"\xff\xfe" + "x = 1\r\n".encode("utf-16-le"))
    (project / "fr.txt").write_bytes(b"caf\xe9\n")
    for name in ("w16.txt", "fr.txt"):
        execute("Read", {"file_path": name}, workspace)
    assert "UTF-16 LE with BOM" in write(workspace, "w16.txt", "x = 2\n").text
    assert (project / "w16.txt").read_bytes() == b"\xff\xfe" + "x = 2\r\n".encode("utf-16-le")
    write(workspace, "fr.txt", "déjà\n")
    assert (project / "fr.txt").read_bytes() == b"d\xe9j\xe0\n"


def test_text_the_old_encoding_cannot_hold_is_written_as_utf8_and_said(project, workspace):
    (project / "fr.txt").write_bytes(b"caf\xe9\n")
    execute("Read", {"file_path": "fr.txt"}, workspace)
    result = write(workspace, "fr.txt", "café ✓\n")
    assert "now UTF-8" in result.text
    assert (project / "fr.txt").read_bytes() == "café ✓\n".encode()
    # from then on the file is UTF-8 to Edit too: its é is not read back as Latin-1's two characters
    edited = execute("Edit", {"file_path": "fr.txt", "old_string": "café ✓", "new_string": "café ✔"}, workspace)
    assert not edited.is_error and "keeps its encoding" not in edited.text
    assert (project / "fr.txt").read_bytes() == "café ✔\n".encode()
    (project / "win.txt").write_bytes(b"caf\xe9\r\n")
    execute("Read", {"file_path": "win.txt"}, workspace)
    said = write(workspace, "win.txt", "café ✓\n").text
    assert said.endswith(" now UTF-8. Line endings written as CRLF, the file's own.")  # both said, neither lost
    assert (project / "win.txt").read_bytes() == "café ✓\r\n".encode()  # its encoding lost, not its line endings


class CtrlCMidWrite:
    """A mode whose reading is cut by a Ctrl-C: the interrupt lands after the temporary file was written."""

    def __index__(self) -> int:
        raise KeyboardInterrupt


def test_a_ctrl_c_mid_write_leaves_the_old_file_and_no_temporary_one(tmp_path):
    target = tmp_path / "notes.txt"
    target.write_text("old\n")
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new\n", mode=cast(int, CtrlCMidWrite()))
    assert os.listdir(tmp_path) == ["notes.txt"] and target.read_text() == "old\n"


@NO_SYMLINKS
def test_write_through_a_symlink_changes_the_target_and_keeps_the_link(project, workspace):
    (project / "real.txt").write_text("old\n")
    (project / "link.txt").symlink_to("real.txt")
    execute("Read", {"file_path": "link.txt"}, workspace)
    assert not write(workspace, "link.txt", "new\n").is_error
    assert (project / "link.txt").is_symlink() and (project / "real.txt").read_text() == "new\n"


def test_write_through_a_hard_link_keeps_the_shared_inode(project, workspace):
    (project / "a.txt").write_text("old, and longer than the new\n")  # written in place: nothing of it may stay
    os.link(project / "a.txt", project / "b.txt")
    execute("Read", {"file_path": "b.txt"}, workspace)
    write(workspace, "b.txt", "new\n")
    assert (project / "a.txt").read_text() == "new\n"
    assert os.path.samefile(project / "a.txt", project / "b.txt")


def test_temporary_files_are_named_as_ours_and_stale_ones_are_removed(tmp_path):
    import subprocess
    import sys

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".narnat-tmp-{dead.pid}-abc"
    stale.write_bytes(b"left by a killed process")
    alive = tmp_path / f".narnat-tmp-{os.getppid()}-def"
    alive.write_bytes(b"another process is still writing this")
    write_atomic(tmp_path / "out.txt", b"data")
    assert sorted(os.listdir(tmp_path)) == [alive.name, "out.txt"]


def test_a_writer_killed_mid_write_leaves_only_a_temporary_file_we_recognise_and_remove(tmp_path):
    import subprocess
    import sys
    import time

    target = tmp_path / "big.bin"
    target.write_bytes(b"old")
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; from narnat_agent.atomic import write_atomic; "
            "write_atomic(Path(sys.argv[1]), b'x' * 200_000_000)",
            str(target),
        ],
    )
    while len(os.listdir(tmp_path)) < 2 and child.poll() is None:
        time.sleep(0.01)
    child.kill()  # SIGKILL; TerminateProcess on Windows
    child.wait()
    left = sorted(set(os.listdir(tmp_path)) - {"big.bin"})
    assert len(left) == 1 and left[0].startswith(f".narnat-tmp-{child.pid}-")
    assert target.read_bytes() == b"old"
    write_atomic(tmp_path / "other.txt", b"next write")
    assert sorted(os.listdir(tmp_path)) == ["big.bin", "other.txt"]


def test_line_endings_other_than_those_sent_are_said(workspace, project):
    created = execute("Write", {"file_path": "new.txt", "content": "a\r\nb\r\n"}, workspace)
    assert (project / "new.txt").read_bytes() == b"a\nb\n" and "Line endings written as LF" in created.text
    plain = execute("Write", {"file_path": "plain.txt", "content": "a\nb\n"}, workspace)
    assert "Line endings" not in plain.text


def test_writing_outside_the_project_asks_first_naming_the_path(project, workspace, tmp_path):
    outside = tmp_path / "elsewhere" / "notes.txt"
    asked: list[tuple[str, str]] = []

    def decline(action: str, reason: str) -> bool:
        asked.append((action, reason))
        return False

    workspace.confirm = decline
    result = write(workspace, str(outside), "hello\n")
    assert result.is_error and "declined" in result.text and not outside.exists()
    assert asked == [(f"Write {outside}", f"it changes {outside}, outside the project")]
    workspace.confirm = lambda action, reason: True
    assert not write(workspace, str(outside), "hello\n").is_error and outside.read_text() == "hello\n"


def test_writing_inside_the_project_never_asks(project, workspace):
    workspace.confirm = None
    assert not write(workspace, str(project / "inside.txt"), "x\n").is_error


def test_edit_outside_the_project_asks_and_headless_refuses(project, workspace, tmp_path):
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("alpha\n")
    execute("Read", {"file_path": str(outside)}, workspace)
    workspace.confirm = None
    result = execute("Edit", {"file_path": str(outside), "old_string": "alpha", "new_string": "beta"}, workspace)
    assert result.is_error and "cannot ask" in result.text and outside.read_text() == "alpha\n"


@pytest.fixture
def umask():
    """Sets the process's umask for one test, as the user's shell would have."""
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


@NO_MODES
@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077])
def test_a_new_file_follows_the_umask_as_an_editor_makes_it(project, workspace, umask, mask):
    umask(mask)
    write(workspace, "src/new.py", "x = 1\n")
    assert (project / "src/new.py").stat().st_mode & 0o777 == 0o666 & ~mask
    assert (project / "src").stat().st_mode & 0o777 == 0o777 & ~mask


@NO_MODES
def test_narnats_own_files_stay_private_whatever_the_umask(tmp_path, umask):
    write_atomic(tmp_path / "session.json", b"{}")
    assert (tmp_path / "session.json").stat().st_mode & 0o777 == 0o600


@NO_MODES
def test_a_file_with_two_names_is_written_in_place_and_takes_the_mode_asked_for(tmp_path):
    (tmp_path / "a.txt").write_text("old\n")
    os.link(tmp_path / "a.txt", tmp_path / "b.txt")
    os.chmod(tmp_path / "a.txt", 0o644)
    write_atomic(tmp_path / "b.txt", b"new\n")
    assert (tmp_path / "a.txt").read_bytes() == b"new\n" and stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o644
    write_atomic(tmp_path / "b.txt", b"newer\n", mode=0o600)
    assert (tmp_path / "a.txt").read_bytes() == b"newer\n" and stat.S_IMODE(
        (tmp_path / "a.txt").stat().st_mode
    ) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "b.txt"]


def test_leftovers_are_cleaned_at_start_and_one_that_cannot_be_removed_is_passed_over(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / f".narnat-tmp-{dead.pid}-abc").write_bytes(b"left by a killed process")
    (tmp_path / f".narnat-tmp-{dead.pid}-dir").mkdir()  # not ours to remove: unlink refuses a folder
    (tmp_path / f".narnat-tmp-{os.getppid()}-def").write_bytes(b"still being written")
    clean_leftovers([tmp_path, tmp_path / "absent"])
    assert set(os.listdir(tmp_path)) == {f".narnat-tmp-{dead.pid}-dir", f".narnat-tmp-{os.getppid()}-def"}
    write_atomic(tmp_path / "out.txt", b"data")
    assert (tmp_path / "out.txt").read_bytes() == b"data"


def test_what_write_says_to_the_model_and_to_the_person(project, workspace):
    def said(name: str, content: str) -> tuple:
        result = execute("Write", {"file_path": name, "content": content}, workspace)
        assert isinstance(result.detail, Diff)
        return result.text, result.summary, result.detail.syntax, result.detail.text

    text, summary, syntax, diff = said("one.txt", "x\n")
    assert (text, summary, syntax) == ("Created one.txt (1 line).", "Created (1 line)", "")
    assert [line for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")] == []
    assert said("two.txt", "a\r\nb\r\n")[:2] == (
        "Created two.txt (2 lines). Line endings written as LF, as for every new file.",
        "Created (2 lines)",
    )
    (project / "crlf.txt").write_bytes(b"a\r\nb\r\n")
    execute("Read", {"file_path": "crlf.txt"}, workspace)
    assert said("crlf.txt", "c\nd\ne\n")[:2] == (
        "Updated crlf.txt (3 lines). Line endings written as CRLF, the file's own.",
        "Updated (3 lines)",
    )
    execute("Read", {"file_path": "crlf.txt"}, workspace)
    assert said("crlf.txt", "c\r\n")[:2] == ("Updated crlf.txt (1 line).", "Updated (1 line)")
    text, summary, syntax, _ = said("bad.py", "x = (\n")
    assert syntax == (
        "Syntax check (python): this change introduced a syntax error:\n  line 1, column 5: '(' was never closed\n"
        "    x = ("
    )
    assert (text, summary) == (f"Created bad.py (1 line).\n{syntax}", "Created (1 line)")


def test_rewriting_a_file_broken_before_says_nothing_of_the_error_it_already_had(project, workspace):
    (project / "old.py").write_text("def f(:\n    pass\n")
    execute("Read", {"file_path": "old.py"}, workspace)
    result = execute("Write", {"file_path": "old.py", "content": "def f(:\n    return 1\n"}, workspace)
    assert result.text == "Updated old.py (2 lines)." and result.detail.syntax == ""
