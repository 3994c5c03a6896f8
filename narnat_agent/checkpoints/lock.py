"""The store's own lock: one narnat at a time changes a project's store, and a lock left by a dead one is cleared.

It is a lock on a file beside the git directory (flock; LockFileEx on Windows), which the system releases when its
holder dies however it dies. So whoever holds it knows that any git `.lock` in the store was left by a git killed
mid-way, and removes it; a live holder is waited for, with a notice, up to a deadline.
"""

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from narnat_agent.checkpoints.git import os_failure
from narnat_agent.checkpoints.store import CheckpointError
from narnat_agent.i18n import _
from narnat_agent.logger import get_logger
from narnat_agent.platform.locks import try_lock

log = get_logger("checkpoints.lock")
WAIT = 30.0  # seconds: a first snapshot of a large tree in another narnat takes this long at most
POLL = 0.05


class StoreLock:
    def __init__(self, path: Path, git_dir: Path, say: Callable[[str], None]):
        self.path, self.git_dir, self.say = path, git_dir, say
        self.wait = WAIT
        self.threads = threading.Lock()  # this process's own threads (the background first snapshot) queue here

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        with self.threads:
            try:
                self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as e:
                raise CheckpointError(os_failure(e, self.path.parent)) from None
            try:
                self._take(fd)
                self._clear_stale()
                yield
            finally:
                os.close(fd)  # releases the lock

    @contextlib.contextmanager
    def packing(self) -> Iterator[int | None]:
        """The packing lock's descriptor when no other pack of the store is under way, else None. Packing keeps
        to a lock of its own, as it takes long and a snapshot may go on beside it."""
        fd = os.open(self.path.with_name("pack-lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            yield fd if try_lock(fd) else None
        finally:
            os.close(fd)

    def _take(self, fd: int) -> None:
        deadline = time.monotonic() + self.wait
        told = False
        while not try_lock(fd):
            if time.monotonic() >= deadline:
                held = _("another narnat in this project held the checkpoint store for more than {seconds:.0f} s.")
                raise CheckpointError(held.format(seconds=self.wait))
            if not told:
                told = True
                waiting = _(
                    "Waiting for another narnat in this project to finish its checkpoint (up to {seconds:.0f} s)."
                )
                self.say(waiting.format(seconds=self.wait))
            time.sleep(POLL)

    def _clear_stale(self) -> None:
        """git's own locks in the store: only a git killed while this lock was free can have left one."""
        if not self.git_dir.is_dir():
            return
        for lock in [*self.git_dir.glob("*.lock"), *(self.git_dir / "refs").rglob("*.lock")]:
            log.warning("removed a lock left by a git that was killed: %s", lock)
            lock.unlink(missing_ok=True)
