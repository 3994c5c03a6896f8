"""Files: the entries of one folder stat'ed by name, a file's mode ("the user alone" included), a file replaced by
another whole, a file opened to be read without waiting, and paths and globs as the user writes them.

POSIX: names stat'ed relative to the open folder (no joined paths to build), chmod, rename. Windows: joined paths;
chmod sets only the read-only attribute, so a file for the user alone gets an access list naming only the user,
which inherits nothing from its folder (what `icacls FILE /inheritance:r /grant:r USER:F` does); a read-only file
cannot be replaced, so its attribute is lifted first (the new file carries the mode it was given). A read that
would wait for news (a FIFO, /proc/kmsg) is opened non-blocking on POSIX; Windows opens in binary, not text, mode.
"""

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

PRIVATE = 0o077  # a mode without these bits is for the user alone

if sys.platform == "win32":
    import functools

    from narnat_agent.platform import win32

    READ_NOW = os.O_RDONLY | os.O_BINARY

    @contextlib.contextmanager
    def stat_in(folder: Path) -> Iterator[Callable[[bytes], os.stat_result]]:
        base = os.fsencode(folder)
        yield lambda name: os.stat(os.path.join(base, name))

    def set_mode(path: Path | str, mode: int) -> None:
        """The mode's read-only bit, and, for a mode of the user alone, an access list naming only the user (a
        drive without access lists, FAT or some network shares, keeps its own)."""
        os.chmod(path, mode)
        if not mode & PRIVATE:
            with contextlib.suppress(OSError):
                win32.set_access(str(path), _user_alone())

    @functools.cache
    def _user_alone() -> str:
        return win32.user_alone()

    _MSYS = re.compile(r"^/(?:cygdrive/|mnt/)?([a-zA-Z])(?=/|$)")

    def native(path: str) -> str:
        """A path as Windows reads it: Git Bash's and Cygwin's /c/… (and WSL's /mnt/c/…) are C:/…; backslashes,
        forward slashes and drive letters are Windows' own."""
        return _MSYS.sub(lambda m: m[1].upper() + ":", path)

    def slashed(glob: str) -> str:
        """A glob with '/' between folders: a backslash separates them on Windows, as rg reads globs there (they
        have no escapes)."""
        return glob.replace("\\", "/")

    def replace(source: Path | str, target: Path | str) -> None:
        """target replaced by source, as a rename does on POSIX, whether or not target is read-only."""
        try:
            os.replace(source, target)
        except PermissionError:
            if not os.path.isfile(target) or os.access(target, os.W_OK):
                raise  # not the read-only attribute: a file held open by another program, or a folder's rights
            os.chmod(target, 0o600)
            os.replace(source, target)

else:
    READ_NOW = os.O_RDONLY | os.O_NONBLOCK

    @contextlib.contextmanager
    def stat_in(folder: Path) -> Iterator[Callable[[bytes], os.stat_result]]:
        """stat() of names relative to folder, while the folder stays open."""
        base = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            yield lambda name: os.stat(name, dir_fd=base)
        finally:
            os.close(base)

    def set_mode(path: Path | str, mode: int) -> None:
        os.chmod(path, mode)

    def native(path: str) -> str:
        return path

    def slashed(glob: str) -> str:
        """A backslash in a glob escapes the next character (rg reads globs so here)."""
        return glob

    def replace(source: Path | str, target: Path | str) -> None:
        """target replaced by source, in one rename."""
        os.replace(source, target)


def open_now(path: Path | str) -> int:
    """A descriptor of path opened to be read that never waits: a FIFO or a file whose read waits for news (a
    session's name, a store's file, Read's path) has nothing now rather than holding the run."""
    return os.open(path, READ_NOW)
