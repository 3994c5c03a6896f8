"""The moment a child process starts: nothing, not even a Ctrl-C, may come between its start and its owner."""

import signal
import subprocess
import threading
from collections.abc import Callable

Spawn = Callable[..., subprocess.Popen]  # subprocess.Popen, or a test's wrapper of it


class HeldInterrupt:
    """Holds back a Ctrl-C while a child starts, so it cannot land between the start and the code that stops the
    child: release() raises it where that code is in place. Only the main thread receives signals."""

    def __init__(self) -> None:
        self.caught = False
        self.previous: object = None

    def __enter__(self) -> "HeldInterrupt":
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, lambda signum, frame: setattr(self, "caught", True))
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)  # type: ignore[arg-type]

    def release(self) -> None:
        """The held Ctrl-C, handled now as it would have been (KeyboardInterrupt, or the handler Narnat set)."""
        if self.caught and callable(self.previous):
            self.caught = False
            self.previous(signal.SIGINT, None)
