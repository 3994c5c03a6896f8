"""A file lock that the system drops when its holder dies, however it dies.

POSIX: flock on the whole file. Windows: msvcrt's lock of the file's first byte (LockFileEx), dropped when the
handle closes or the process ends.
"""

import os
import sys
import time

if sys.platform == "win32":
    import msvcrt

    def try_lock(fd: int) -> bool:
        """Whether this descriptor now holds the file's exclusive lock; False at once when another holds it."""
        os.lseek(fd, 0, os.SEEK_SET)  # the lock covers the byte at the current position
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def lock(fd: int) -> None:
        """Hold the file's exclusive lock, waiting for it as long as another holds it."""
        while not try_lock(fd):
            time.sleep(0.01)

else:
    import fcntl

    def try_lock(fd: int) -> bool:
        """Whether this descriptor now holds the file's exclusive lock; False at once when another holds it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def lock(fd: int) -> None:
        """Hold the file's exclusive lock, waiting for it as long as another holds it."""
        fcntl.flock(fd, fcntl.LOCK_EX)
