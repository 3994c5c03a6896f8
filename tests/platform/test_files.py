"""Files: names stat'ed in their folder; a mode for the user alone, an access list naming only the user on Windows."""

import os
import stat
import sys

import pytest

from narnat_agent.platform.files import open_now, replace, set_mode, slashed, stat_in
from tests.platforms import NO_BYTE_NAMES, NO_FIFOS, NO_SYMLINKS, UNDER_WINE


@pytest.mark.windows
def test_names_are_stated_in_their_folder(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_bytes(b"four")
    with stat_in(tmp_path) as stat_of:
        assert stat_of(os.path.join(b"sub", b"a.txt")).st_size == 4
        with pytest.raises(FileNotFoundError):
            stat_of(b"missing")


@pytest.mark.skipif(sys.platform == "win32", reason="Windows keeps only the read-only bit of a mode")
def test_a_private_mode_is_the_files_mode(tmp_path):
    path = tmp_path / "key.json"
    path.write_text("{}")
    set_mode(path, 0o600)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.skipif(sys.platform == "win32", reason="Windows keeps only the read-only bit of a mode")
def test_a_mode_keeps_its_setuid_bit(tmp_path):
    # a file rewritten by Edit keeps the mode it had, its setuid bit included (atomic.py hands its whole mode here)
    path = tmp_path / "tool"
    path.write_text("#!/bin/sh\n")
    set_mode(path, 0o4755)
    assert stat.S_IMODE(path.stat().st_mode) == 0o4755


@NO_BYTE_NAMES
def test_a_name_that_is_not_utf8_is_stated_as_any_other(tmp_path):
    # a file a Latin-1 system named (café.txt as b"caf\xe9.txt") is listed newest-first like the rest
    (tmp_path / os.fsdecode(b"caf\xe9.txt")).write_bytes(b"four")
    with stat_in(tmp_path) as stat_of:
        assert stat_of(b"caf\xe9.txt").st_size == 4


@pytest.mark.skipif(sys.platform != "win32", reason="access lists are Windows'")
@pytest.mark.skipif(UNDER_WINE, reason="Wine shows a file's Unix mode as its access list: a real Windows checks this")
@pytest.mark.windows
def test_a_private_file_on_windows_is_for_the_user_alone(tmp_path):
    from narnat_agent.platform import win32

    path = tmp_path / "key.json"
    path.write_text("{}")
    set_mode(path, 0o600)
    assert win32.access(str(path)) == win32.user_alone()


@pytest.mark.skipif(sys.platform == "win32", reason="a link on Windows needs a right most users lack")
def test_a_link_is_stated_as_the_file_it_names(tmp_path):
    (tmp_path / "real.txt").write_bytes(b"four")
    (tmp_path / "link.txt").symlink_to("real.txt")
    with stat_in(tmp_path) as stat_of:
        found = stat_of(b"link.txt")
    assert stat.S_ISREG(found.st_mode) and found.st_size == 4


@pytest.mark.skipif(sys.platform == "win32", reason="a link on Windows needs a right most users lack")
def test_a_folder_reached_through_a_link_is_listed(tmp_path):
    # a project opened through a link (a ~/src that points to another disk) is searched as its target
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.txt").write_bytes(b"four")
    (tmp_path / "project").symlink_to("real", target_is_directory=True)
    with stat_in(tmp_path / "project") as stat_of:
        assert stat_of(b"a.txt").st_size == 4


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="open descriptors are counted in /proc")
def test_a_folder_stated_in_is_closed_after(tmp_path):
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(3):
        with stat_in(tmp_path) as stat_of:
            stat_of(b".")
    with pytest.raises(FileNotFoundError), stat_in(tmp_path) as stat_of:  # a listing that fails half-way
        stat_of(b"gone meanwhile")
    assert len(os.listdir("/proc/self/fd")) == before


@NO_FIFOS
@pytest.mark.timeout(10)  # a pipe opened as a folder waits for a writer for ever
def test_a_named_pipe_where_a_folder_was_is_no_folder_and_is_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(NotADirectoryError), stat_in(tmp_path / "pipe"):
        pass


@pytest.mark.windows
def test_a_file_replaced_holds_the_new_content_and_the_new_name_is_gone(tmp_path):
    old, new = tmp_path / "notes.txt", tmp_path / ".notes.txt.tmp"
    old.write_text("old\n")
    new.write_text("new\n")
    replace(new, old)
    assert old.read_text() == "new\n" and not new.exists()


@pytest.mark.skipif(sys.platform == "win32", reason="a backslash separates folders in a glob there")
def test_a_backslash_in_a_glob_stays_the_escape_of_the_next_character():
    # notes/[draft].md named literally: a separator in place of the backslashes would name folders '[draft' and ']'
    assert slashed("notes/\\[draft\\].md") == "notes/\\[draft\\].md"


@NO_FIFOS
@pytest.mark.timeout(10)  # a FIFO opened to be read waits for a writer for ever
def test_a_fifo_opened_to_be_read_now_has_nothing_rather_than_waiting_for_a_writer(tmp_path):
    # a FIFO a command put where a session, a job's log or Read's file was: the run goes on
    os.mkfifo(tmp_path / "pipe")
    fd = open_now(tmp_path / "pipe")
    try:
        assert os.read(fd, 10) == b""  # no writer: nothing now
    finally:
        os.close(fd)


@NO_SYMLINKS
def test_a_link_opened_to_be_read_now_reads_the_file_it_names(tmp_path):
    # Read of a linked file (a README.md -> docs/README.md), a session or a job's log reached through a link
    (tmp_path / "real.txt").write_bytes(b"four")
    (tmp_path / "link.txt").symlink_to("real.txt")
    fd = open_now(tmp_path / "link.txt")
    try:
        assert os.read(fd, 10) == b"four"
    finally:
        os.close(fd)
