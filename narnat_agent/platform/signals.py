"""Signals: those that end a run as the user would, helper threads that never take them, and the main thread
interrupted from another thread (what a Ctrl-C does).

POSIX: SIGTERM and SIGHUP end a run; a helper thread blocks the signals, so the kernel gives them to the main thread;
a SIGINT sent to the main thread interrupts its blocking call. Windows: SIGTERM and SIGBREAK (Ctrl-Break, a closed
console) end a run; Python runs every handler on the main thread there, so threads need nothing; the interrupt is
raised as the console's Ctrl-C would be.
"""

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator

if sys.platform == "win32":
    ENDING = (signal.SIGTERM, signal.SIGBREAK)
    HANGUP: signal.Signals | None = None  # a console does not hang up

    @contextlib.contextmanager
    def held_from_threads() -> Iterator[None]:
        yield

    def interrupt_main() -> None:
        """A SIGINT for the main thread, as a Ctrl-C in the console delivers it (it wakes a sleep too)."""
        signal.raise_signal(signal.SIGINT)

else:
    ENDING = (signal.SIGTERM, signal.SIGHUP)
    HANGUP = signal.SIGHUP
    _TAKEN = {signal.SIGINT, *ENDING}

    @contextlib.contextmanager
    def held_from_threads() -> Iterator[None]:
        """Threads started inside take none of the process's signals (a new thread starts with its creator's mask):
        one taken by a helper thread never interrupts the main thread's blocking read."""
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _TAKEN)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)

    def interrupt_main() -> None:
        """A SIGINT to the main thread, which interrupts its blocking call."""
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)  # the main thread has an ident
