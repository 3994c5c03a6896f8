"""Whole-file writes that never leave a half-written file behind, nor hidden litter after a crash."""

import contextlib
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

from narnat_agent.platform.files import replace, set_mode
from narnat_agent.platform.processes import alive

# Our temporary files carry the writer's process id, so a later write can tell a crashed writer's leftover
# from one still in progress. They sit beside the target: a rename is atomic only within one file system.
TMP_PREFIX = ".narnat-tmp-"


def _clean_stale(directory: Path) -> None:
    """Remove temporary files that a killed writer left in directory."""
    try:
        entries = [e.name for e in os.scandir(directory) if e.name.startswith(TMP_PREFIX)]
    except OSError:
        return
    for name in entries:
        pid = name[len(TMP_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not alive(int(pid)):
            with contextlib.suppress(OSError):
                os.unlink(directory / name)


def clean_leftovers(folders: Iterable[Path]) -> None:
    """Remove the temporary files that writers killed mid-write left in these folders (at start: a crash's
    leftover would otherwise wait for the next write to its folder, which may never come)."""
    for folder in folders:
        _clean_stale(folder)


def _overwrite(path: Path, data: bytes) -> None:
    """In place, for a file with other hard links: a rename would give this name a new inode and leave the
    other names on the old content. The price is that a crash mid-write can leave this one file torn."""
    with open(path, "r+b") as f:
        f.write(data)
        f.truncate()
        f.flush()
        os.fsync(f.fileno())


def write_atomic(path: Path, data: bytes, mode: int | None = None, follow_umask: bool = False) -> None:
    """Write data to a temporary file beside the real file (through symlinks), then rename it over the file.

    A new file is the user's alone (0600), or with `follow_umask` made as an editor makes one (0666 less the umask:
    the files the tools create for the project); an existing file keeps its mode unless `mode` is given."""
    path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        old = path.stat()
    except FileNotFoundError:
        old = None
    if old is not None and stat.S_ISREG(old.st_mode) and old.st_nlink > 1:
        _overwrite(path, data)
        if mode is not None:
            set_mode(path, mode)
        return
    if mode is None and old is not None:
        mode = old.st_mode & 0o7777
    _clean_stale(path.parent)
    tmp = str(path.parent / f"{TMP_PREFIX}{os.getpid()}-{secrets.token_hex(6)}")
    # the kernel applies the umask to the mode asked for here, as it does for any program that creates a file
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                 0o666 if follow_umask else 0o600)  # fmt: skip
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            set_mode(tmp, mode)  # 0o600 is for the user alone on Windows too (an access list)
        replace(tmp, path)  # a read-only file is replaced too, as on POSIX
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
