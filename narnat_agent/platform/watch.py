"""Folders watched for changes, so that "did anything change here?" costs a read instead of a walk of every file.

Linux: inotify, one watch per folder, only on a local file system (a network share or a virtual machine's shared
folder does not report what another machine changes). Elsewhere there is no watcher: `open_watch` returns None and
the caller looks at the files themselves.
"""

import os
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Event:
    path: str  # what changed: an entry of a watched folder, or the folder itself
    came: bool  # a folder made or moved in: its own folders are not watched yet
    went: bool  # a folder moved away or removed: the watches under it name other places now
    listed: bool = False  # an entry (file or folder) made, removed or renamed: the folder's listing changed


MOUNTS = Path("/proc/self/mountinfo")  # Linux's table of this process's mounts


if sys.platform.startswith("linux"):
    import ctypes
    import errno
    import struct
    import weakref

    _MODIFY, _ATTRIB, _CLOSE_WRITE, _MOVED_FROM, _MOVED_TO, _CREATE, _DELETE = 0x2, 0x4, 0x8, 0x40, 0x80, 0x100, 0x200
    _DELETE_SELF, _MOVE_SELF, _UNMOUNT, _OVERFLOW, _IGNORED, _ISDIR = 0x400, 0x800, 0x2000, 0x4000, 0x8000, 0x40000000
    _ONLYDIR, _DONTFOLLOW = 0x1000000, 0x2000000
    # what changes a file's bytes (mmap's writes too, once closed), mode or name, or a folder's entries; not reads
    _MASK = (_MODIFY | _ATTRIB | _CLOSE_WRITE | _MOVED_FROM | _MOVED_TO | _CREATE | _DELETE | _DELETE_SELF | _MOVE_SELF
             | _ONLYDIR | _DONTFOLLOW)  # fmt: skip
    _HEADER = struct.Struct("iIII")  # wd, mask, cookie, len
    # file systems whose changes all pass through this kernel, which reports them
    LOCAL = {"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "ramfs", "overlay", "zfs", "f2fs", "jfs", "reiserfs",
             "bcachefs", "nilfs2"}  # fmt: skip
    _libc = ctypes.CDLL(None, use_errno=True)
    _libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]

    class Watch:
        """One inotify instance; its descriptor is closed when the watch is (or when it is dropped)."""

        def __init__(self, fd: int):
            self.fd = fd
            self.folders: dict[int, str] = {}  # watch descriptor -> folder
            self.watches: dict[str, int] = {}
            self.closed = weakref.finalize(self, os.close, fd)

        def add(self, folder: str) -> bool:
            """Watch a folder; False when it cannot be (the system's limit reached, no right to read it). A folder
            gone meanwhile is no failure: its parent said so."""
            wd = _libc.inotify_add_watch(self.fd, os.fsencode(folder), _MASK)
            if wd < 0:
                return ctypes.get_errno() in (errno.ENOENT, errno.ENOTDIR)
            self.folders[wd] = folder
            self.watches[folder] = wd
            return True

        def forget(self, folder: str) -> None:
            """Stop watching a folder and every folder under it."""
            below = folder + "/"
            for name in [f for f in self.watches if f == folder or f.startswith(below)]:
                wd = self.watches.pop(name)
                self.folders.pop(wd, None)
                _libc.inotify_rm_watch(self.fd, wd)

        def events(self) -> list[Event] | None:
            """What changed since the last call; None when the kernel lost some (its queue overflowed)."""
            found: list[Event] = []
            lost = False
            while True:
                try:
                    data = os.read(self.fd, 65536)
                except BlockingIOError:
                    return None if lost else found
                offset = 0
                while offset < len(data):
                    wd, mask, _, size = _HEADER.unpack_from(data, offset)
                    name = data[offset + _HEADER.size : offset + _HEADER.size + size].split(b"\0", 1)[0]
                    offset += _HEADER.size + size
                    lost = lost or bool(mask & (_OVERFLOW | _UNMOUNT))
                    if mask & _IGNORED:  # the watch is gone: its folder was removed, or forgotten
                        if (gone := self.folders.pop(wd, None)) is not None and self.watches.get(gone) == wd:
                            del self.watches[gone]
                        continue
                    if (folder := self.folders.get(wd)) is None:
                        continue
                    folder_event = bool(mask & _ISDIR)
                    found.append(Event(os.path.join(folder, os.fsdecode(name)) if name else folder,
                                       folder_event and bool(mask & (_CREATE | _MOVED_TO)),
                                       folder_event and bool(mask & (_DELETE | _MOVED_FROM)),
                                       bool(mask & (_CREATE | _MOVED_TO | _DELETE | _MOVED_FROM))))  # fmt: skip

        def close(self) -> None:
            self.closed()

    def open_watch(root: Path, mounts: Path = MOUNTS) -> Watch | None:
        """A watcher for folders under root; None when root's file system may change unseen, or there is none left
        (the system's limit of watchers per user). `mounts`: the system's mount table."""
        if _file_system(os.path.realpath(root), mounts) not in LOCAL:
            return None
        fd = _libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        return Watch(fd) if fd >= 0 else None

    def _file_system(path: str, mounts: Path) -> str:
        """The type of the file system path lies on, from the mount table (the deepest mount point above it)."""
        best, kind = "", ""
        try:
            lines = os.fsdecode(mounts.read_bytes()).splitlines()  # paths as the system's
        except OSError:
            return ""
        for line in lines:
            fields, _, rest = line.partition(" - ")
            point = _unescape(fields.split(" ")[4]) if len(fields.split(" ")) > 4 else ""
            inside = path == point or path.startswith(point.rstrip("/") + "/")
            if inside and len(point) >= len(best):
                best, kind = point, rest.split(" ", 1)[0]
        return kind

    def _unescape(field: str) -> str:
        """A mount point as the table writes it: space, tab, newline and backslash as octal escapes."""
        for code in ("\\040", "\\011", "\\012", "\\134"):
            field = field.replace(code, chr(int(code[1:], 8)))
        return field

else:

    class Watch:  # type: ignore[no-redef]
        """No watcher here: `open_watch` never makes one."""

        def add(self, folder: str) -> bool:
            return False

        def forget(self, folder: str) -> None:
            """Nothing is watched."""

        def events(self) -> list[Event] | None:
            return None

        def close(self) -> None:
            """Nothing to close."""

    def open_watch(root: Path, mounts: Path = MOUNTS) -> Watch | None:
        """No watcher on this system: the caller looks at the files."""
        return None
