"""The store's own lock: one narnat at a time changes a project's store, and a lock left by a dead one is cleared.

It is a lock on a file beside the git directory (flock; LockFileEx on Windows), which the system releases when its
holder dies however it dies. So whoever holds it knows that any git `.lock` in the store was left by a git killed
mid-way, and removes it. A holder shows it is alive by touching the lock file while it holds it, so it is waited
for, with a notice, for as long as its snapshot takes (a project's first one reads every file: minutes on a large
tree); one that shows no sign of life for WAIT seconds (a narnat stopped with Ctrl-Z, a git hung on a network disk)
is given up on, and the waiter's checkpoints are off for its run.
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
from narnat_agent.platform.locks import lock, try_lock
from narnat_agent.processes import start_thread

log = get_logger("checkpoints.lock")
WAIT = 30.0  # seconds without a sign of life from the holder before a waiter gives up
BEAT = 5.0  # seconds between a holder's signs of life: well within WAIT
LONGEST = 900.0  # a holder stops showing it is alive after this long, so a hung one is given up on in the end
POLL = 0.05


class StoreLock:
    def __init__(self, path: Path, git_dir: Path, say: Callable[[str], None]):
        self.path, self.git_dir, self.say = path, git_dir, say
        self.wait, self.beat = WAIT, BEAT
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
                with self._alive():
                    yield
            finally:
                os.close(fd)  # releases the lock

    @contextlib.contextmanager
    def _alive(self) -> Iterator[None]:
        """Touch the lock file every `beat` seconds while the store is held: the waiters' sign that it is alive."""
        stop = threading.Event()
        with contextlib.suppress(OSError):
            os.utime(self.path)  # a new holder is alive from the start, however long its first pulse takes to come

        def beat() -> None:
            end = time.monotonic() + LONGEST
            while not stop.wait(self.beat) and time.monotonic() < end:
                with contextlib.suppress(OSError):
                    os.utime(self.path)

        pulse = start_thread(beat)
        try:
            yield
        finally:
            stop.set()
            pulse.join()

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
        began = time.time()  # the lock file's time is the wall clock's
        told = still = False
        while not try_lock(fd):
            now = time.time()
            if now - max(began, self._last_sign()) >= self.wait:
                held = _("another narnat in this project has held the checkpoint store for {seconds:.0f} s without a "
                         "sign of life.")  # fmt: skip
                raise CheckpointError(held.format(seconds=self.wait))
            if not told:
                told = True
                self.say(_("Waiting for another narnat in this project to finish its checkpoint."))
            elif not still and now - began >= self.wait:
                still = True
                self.say(_("Still waiting: the other narnat's checkpoint is taking long (the first one of a large "
                           "project reads every file)."))  # fmt: skip
            time.sleep(POLL)

    def _last_sign(self) -> float:
        """When the holder last showed it is alive."""
        try:
            return os.stat(self.path).st_mtime
        except OSError:
            return 0.0

    def _clear_stale(self) -> None:
        """git's own locks in the store: only a git killed while this lock was free can have left one."""
        if not self.git_dir.is_dir():
            return
        for left in [*self.git_dir.glob("*.lock"), *(self.git_dir / "refs").rglob("*.lock")]:
            log.warning("removed a lock left by a git that was killed: %s", left)
            left.unlink(missing_ok=True)


@contextlib.contextmanager
def exclusive(path: Path, flags: int) -> Iterator[int]:
    """A small file of the store's, opened with `flags` and held under an exclusive lock until the block ends: for
    writes that take no time, so it is waited for without a deadline."""
    fd = os.open(path, flags | os.O_CREAT, 0o600)
    try:
        lock(fd)
        yield fd
    finally:
        os.close(fd)
