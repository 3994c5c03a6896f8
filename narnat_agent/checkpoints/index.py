"""The store's index: only a cache of what the snapshots staged, so a damaged one is dropped and rebuilt.

git does not check an index's checksum when it reads one: an index a crash or a full disk cut short reads as
entries that are garbage, and a snapshot made on top of them would be wrong without a word. So the index is checked
here whenever it changed since this run last wrote or checked it, and a damaged or missing one makes the next
snapshot stage the whole project again (one made on top of nothing would hold only the touched files, and a rewind
would take the rest for deleted).
"""

import hashlib
import os
from pathlib import Path

from narnat_agent.logger import get_logger

log = get_logger("checkpoints.store")
SIGNATURE = b"DIRC"
TRAILER = 20  # the SHA-1 of everything before it: the store is made by `git init` without settings, so SHA-1


class Index:
    def __init__(self, path: Path):
        self.path = path
        self.known: tuple[int, int, int] | None = None  # size, mtime and inode of the index last found sound

    def sound(self, fresh: bool) -> bool:
        """Whether a snapshot may build on the index: False when it is gone (from a store that had one) or was
        damaged and is now removed, and the snapshot must stage the whole project."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return fresh  # a new store has no index yet: its first snapshot makes one
        if (st.st_size, st.st_mtime_ns, st.st_ino) == self.known or _intact(self.path):
            self.known = (st.st_size, st.st_mtime_ns, st.st_ino)
            return True
        log.warning("the checkpoint store's index was damaged; it is rebuilt")
        self.path.unlink(missing_ok=True)
        return False

    def written(self) -> None:
        """This run has just written the index: it need not be checked again until someone else changes it."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return
        self.known = (st.st_size, st.st_mtime_ns, st.st_ino)


def _intact(path: Path) -> bool:
    data = path.read_bytes()
    if len(data) < 12 + TRAILER or not data.startswith(SIGNATURE):
        return False
    trailer = data[-TRAILER:]
    return trailer == bytes(TRAILER) or hashlib.sha1(data[:-TRAILER]).digest() == trailer  # zeros: git skipped it
