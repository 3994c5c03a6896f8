"""The folder watcher: what it reports of files and folders changed, and nothing once a folder is forgotten."""

import os
import struct
import sys
from pathlib import Path

import pytest

from narnat_agent.platform.watch import Event, Watch, open_watch

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="folders are watched on Linux only")


def watching(*folders: Path):
    watch = open_watch(folders[0])
    assert watch is not None, "a temporary folder is on a local file system"
    for folder in folders:
        assert watch.add(str(folder))
    return watch


def test_files_made_changed_moved_and_removed_are_reported_by_path(tmp_path):
    (tmp_path / "old.txt").write_text("old\n")
    (tmp_path / "gone.txt").write_text("gone\n")
    watch = watching(tmp_path)
    assert watch.events() == []
    (tmp_path / "new.txt").write_text("new\n")
    (tmp_path / "old.txt").chmod(0o755)
    os.rename(tmp_path / "old.txt", tmp_path / "renamed.txt")
    (tmp_path / "gone.txt").unlink()
    events = watch.events()
    assert {e.path for e in events} == {str(tmp_path / n) for n in ("new.txt", "old.txt", "renamed.txt", "gone.txt")}
    assert not any(e.came or e.went for e in events)
    listed = {os.path.basename(e.path) for e in events if e.listed}  # the folder's listing changed: not by a write
    assert listed == {"new.txt", "old.txt", "renamed.txt", "gone.txt"}
    (tmp_path / "renamed.txt").write_text("written again\n")
    written = watch.events()
    assert written and not any(e.listed for e in written)
    assert watch.events() == []  # each change is told once


def test_folders_that_come_and_go_are_said_so_and_what_changes_inside_is_reported_once_watched(tmp_path):
    watch = watching(tmp_path)
    (tmp_path / "made").mkdir()
    (tmp_path / "made" / "f.txt").write_text("unseen: the new folder is not watched yet\n")
    assert watch.events() == [Event(str(tmp_path / "made"), came=True, went=False, listed=True)]
    assert watch.add(str(tmp_path / "made"))
    (tmp_path / "made" / "f.txt").write_text("seen\n")
    assert {e.path for e in watch.events()} == {str(tmp_path / "made" / "f.txt")}
    os.rename(tmp_path / "made", tmp_path.parent / f"{tmp_path.name}-away")
    assert Event(str(tmp_path / "made"), came=False, went=True, listed=True) in watch.events()


def test_a_forgotten_folder_and_those_under_it_report_nothing(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "c").mkdir()
    watch = watching(tmp_path / "a", tmp_path / "a" / "b", tmp_path / "c")
    watch.forget(str(tmp_path / "a"))
    (tmp_path / "a" / "x").write_text("x")
    (tmp_path / "a" / "b" / "y").write_text("y")
    (tmp_path / "c" / "z").write_text("z")
    assert {e.path for e in watch.events()} == {str(tmp_path / "c" / "z")}


def test_a_removed_folder_is_no_longer_watched(tmp_path):
    (tmp_path / "sub").mkdir()
    watch = watching(tmp_path, tmp_path / "sub")
    (tmp_path / "sub").rmdir()
    assert Event(str(tmp_path / "sub"), came=False, went=True, listed=True) in watch.events()
    assert str(tmp_path / "sub") not in watch.watches


def test_a_forgotten_folder_leaves_its_namesakes_watched(tmp_path):
    for name in ("src", "src2", "src/sub"):
        (tmp_path / name).mkdir()
    watch = watching(tmp_path / "src", tmp_path / "src2", tmp_path / "src/sub")
    watch.forget(str(tmp_path / "src"))
    (tmp_path / "src/sub/x").write_text("x")
    (tmp_path / "src2/y").write_text("y")
    assert {e.path for e in watch.events()} == {str(tmp_path / "src2/y")}


def test_a_folder_gone_or_made_a_file_before_it_is_watched_is_no_failure(tmp_path):
    (tmp_path / "now a file").write_text("x")
    watch = watching(tmp_path)
    assert watch.add(str(tmp_path / "now a file")) and watch.add(str(tmp_path / "gone"))
    assert list(watch.watches) == [str(tmp_path)]


def test_a_folder_moved_in_is_said_to_have_come(tmp_path):
    (tmp_path / "outside/sub").mkdir(parents=True)
    (tmp_path / "watched").mkdir()
    watch = watching(tmp_path / "watched")
    os.rename(tmp_path / "outside", tmp_path / "watched/moved")
    assert watch.events() == [Event(str(tmp_path / "watched/moved"), came=True, went=False, listed=True)]


def test_a_folder_removed_and_made_again_keeps_its_new_watch(tmp_path):
    (tmp_path / "sub").mkdir()
    watch = watching(tmp_path, tmp_path / "sub")
    (tmp_path / "sub").rmdir()
    (tmp_path / "sub").mkdir()
    assert watch.add(str(tmp_path / "sub"))  # before the old watch's end is read
    watch.events()
    assert str(tmp_path / "sub") in watch.watches
    (tmp_path / "sub" / "f.txt").write_text("seen\n")
    assert str(tmp_path / "sub" / "f.txt") in {e.path for e in watch.events()}
    watch.forget(str(tmp_path / "sub"))
    (tmp_path / "sub" / "g.txt").write_text("forgotten\n")
    assert watch.events() == []


OVERFLOW, MODIFY = 0x4000, 0x2


def test_events_lost_are_said_though_others_follow_them_in_the_same_read():
    # the kernel's side faked: what inotify's descriptor gives once its queue overflowed and was read from meanwhile
    reader, writer = os.pipe()
    os.set_blocking(reader, False)
    try:  # open while read: inotify's descriptor never ends, it only has nothing more for now
        os.write(writer, struct.pack("iIII", -1, OVERFLOW, 0, 0) + struct.pack("iIII", 7, MODIFY, 0, 0))
        assert Watch(reader).events() is None
    finally:
        os.close(writer)


def mount_table(path: Path, *mounts: tuple[str, str]) -> Path:
    """The system's table of mounts as Linux writes it, with these mount points and file system types."""
    escaped = [(point.replace("\\", "\\134").replace(" ", "\\040"), kind) for point, kind in mounts]
    lines = [f"{n} 1 0:{n} / {point} rw,relatime shared:{n} - {kind} /dev/x{n} rw" for n, (point, kind) in
             enumerate(escaped, 20)]  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    ("mounts", "watched"),
    [
        ([("/", "ext4")], True),
        ([("/", "ext4"), ("/narnat-w", "nfs")], False),
        ([("/", "nfs"), ("/narnat-w", "xfs")], True),
        ([("/", "ext4"), ("/narnat", "nfs"), ("/narnat-w/m", "cifs"), ("/narnat-w/my", "fuse.sshfs")], True),
        ([("/", "ext4"), ("/narnat-w", "nfs"), ("/narnat-w", "tmpfs")], True),  # mounted over: the last one counts
        ([("/", "ext4"), ("/narnat-w/my project", "9p")], False),
        ([("/", "ext4"), ("/narnat-w/my", "9p")], True),
        ([("/", "ext4"), ("/narnat-w/my\\040project", "nfs")], True),  # a backslash in the name, not a space
    ],
)
def test_only_a_project_on_a_local_file_system_is_watched(tmp_path, mounts, watched):
    table = mount_table(tmp_path / "mountinfo", *mounts)
    found = open_watch(Path("/narnat-w/my project/src"), table)  # a path that is no link: as its real path
    assert (found is not None) is watched
    if found is not None:
        found.close()
    assert open_watch(tmp_path, tmp_path / "no table") is None, "a file system unknown may change unseen"


def test_a_project_reached_through_a_link_is_judged_by_the_file_system_it_lies_on(tmp_path):
    # ~/work -> a network share: what another machine changes there is never reported, so it is not watched
    table = mount_table(tmp_path / "mountinfo", ("/", "ext4"), ("/narnat-w/share", "nfs"))
    (tmp_path / "work").symlink_to("/narnat-w/share/project", target_is_directory=True)
    assert open_watch(tmp_path / "work", table) is None
