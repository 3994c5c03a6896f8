import os

import pytest

from narnat_agent.atomic import write_atomic
from narnat_agent.tools.registry import execute


def write(workspace, path, content):
    return execute("Write", {"file_path": path, "content": content}, workspace)


def test_creates_a_new_file_with_its_parent_folders(project, workspace):
    result = write(workspace, "src/pkg/mod.py", "x = 1\ny = 2\n")
    assert result.text == "Created src/pkg/mod.py (2 lines)." and not result.is_error
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


def test_file_mode_is_kept(project, workspace):
    script = project / "run.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o750)
    execute("Read", {"file_path": "run.sh"}, workspace)
    write(workspace, "run.sh", "#!/bin/sh\necho hi\n")
    assert script.stat().st_mode & 0o777 == 0o750


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
