"""Files: the entries of one folder stat'ed by name, and a file's mode, "the user alone" included.

POSIX: names stat'ed relative to the open folder (no joined paths to build), chmod. Windows: joined paths; chmod
sets only the read-only attribute, so a file for the user alone gets an access list naming only the user, which
inherits nothing from its folder (what `icacls FILE /inheritance:r /grant:r USER:F` does).
"""

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

PRIVATE = 0o077  # a mode without these bits is for the user alone

if sys.platform == "win32":
    import functools

    from narnat_agent.platform import win32

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

else:

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
