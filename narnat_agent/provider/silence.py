"""Provider silence made visible and bounded: while a request is open, every 15 s without progress is said, and a
request that makes no progress for too long, or runs too long in all, is ended."""

import math
import threading
import time
from collections.abc import Callable

from narnat_agent.i18n import _
from narnat_agent.processes import start_thread

EVERY = 15  # seconds of silence between two notices
IDLE, OVERALL = "idle", "overall"  # which limit ended a request


class Silence:
    """A watch over one request: `heard()` on every part of the answer (bytes that carry none, like keep-alive
    comments, do not count); the notices and the limits run on their own thread. `abort`, once there is a stream,
    ends it when a limit passes; `expired` then says which."""

    def __init__(self, notify: Callable[[str], None], every: float = EVERY, idle: float = math.inf,
                 overall: float = math.inf, clock: Callable[[], float] = time.monotonic):  # fmt: skip
        self.notify, self.every, self.idle, self.overall, self.clock = notify, every, idle, overall, clock
        self.started = self.last = clock()
        self.abort: Callable[[], None] | None = None
        self.expired = ""
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> "Silence":
        self._thread = start_thread(self._watch)
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()

    def heard(self) -> None:
        self.last = self.clock()

    def _watch(self) -> None:
        said, stretch = 0, self.last  # how many notices this stretch of silence has had, and when it began
        while not self._done.wait(min(0.25, self.every / 4)):
            now = self.clock()
            if self.last != stretch:  # heard since: a new stretch, counted afresh
                said, stretch = 0, self.last
            periods = int((now - self.last) // self.every)
            if periods > said:
                self.notify(_("waiting for the provider ({seconds:g} s)…").format(seconds=periods * self.every))
            said = periods
            limit = OVERALL if now - self.started > self.overall else IDLE if now - self.last > self.idle else ""
            if limit and self.abort is not None:
                self.expired = limit
                self.abort()
                return
