"""Files as Windows has them: paths with drive letters and either slash, names in any case, read-only files."""

import os
import stat
import sys

import pytest

from narnat_agent.tools.registry import execute

only_windows = pytest.mark.skipif(sys.platform != "win32", reason="Windows paths and names are Windows'")


@pytest.mark.windows
def test_a_read_only_file_is_edited_and_stays_read_only(workspace, project):
    path = project / "locked.txt"
    path.write_bytes(b"old\n")
    path.chmod(0o444)
    execute("Read", {"file_path": "locked.txt"}, workspace)
    edited = execute("Edit", {"file_path": "locked.txt", "old_string": "old", "new_string": "new"}, workspace)
    assert not edited.is_error, edited.text
    assert path.read_bytes() == b"new\n" and not stat.S_IMODE(path.stat().st_mode) & 0o222
    path.chmod(0o644)


@only_windows
@pytest.mark.windows
def test_backslashes_and_a_drive_letter_name_the_file_and_it_is_shown_as_windows_writes_it(workspace, project):
    (project / "src").mkdir()
    (project / "src" / "app.py").write_bytes(b"x = 1\n")
    written = str(project / "src" / "app.py")  # C:\...\src\app.py
    assert written[1:3] == ":\\"
    seen = execute("Read", {"file_path": written}, workspace)
    assert "x = 1" in seen.text
    edited = execute("Edit", {"file_path": "src\\app.py", "old_string": "1", "new_string": "2"}, workspace)
    assert not edited.is_error and "src\\app.py" in edited.text
    assert (project / "src" / "app.py").read_bytes() == b"x = 2\n"


@only_windows
@pytest.mark.windows
def test_git_bashs_drive_paths_and_another_case_name_the_same_file(workspace, project):
    (project / "App.py").write_bytes(b"x = 1\n")
    drive, rest = os.path.splitdrive(str(project / "App.py"))
    msys = "/" + drive[0].lower() + rest.replace("\\", "/")
    assert "x = 1" in execute("Read", {"file_path": msys}, workspace).text
    edited = execute("Edit", {"file_path": "APP.PY", "old_string": "1", "new_string": "2"}, workspace)
    assert not edited.is_error, edited.text  # read as App.py: the same file, already read
    assert (project / "App.py").read_bytes() == b"x = 2\n"
