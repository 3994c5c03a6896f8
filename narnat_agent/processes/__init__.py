"""The process's children and threads: nothing, not even a Ctrl-C, may come between a child's start and its owner,
and a signal always reaches the main thread."""

import signal
import threading
from collections.abc import Callable

from narnat_agent.platform.processes import Spawn
from narnat_agent.platform.signals import held_from_threads

__all__ = ["HeldInterrupt", "Spawn", "start_thread"]


def start_thread(target: Callable[..., object], *args: object) -> threading.Thread:
    """A daemon thread that never takes the process's signals. The kernel gives a signal to any thread that does
    not block it; one taken by a helper thread never interrupts the main thread's blocking read (a stream waiting
    on the provider), so the Ctrl-C, SIGTERM or SIGHUP would go unanswered until data came."""
    with held_from_threads():
        thread = threading.Thread(target=target, args=args, daemon=True)
        thread.start()
    return thread


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
