"""Provider silence made visible: while a request is open, every 15 s with nothing from the provider is said."""

import threading
import time
from collections.abc import Callable

EVERY = 15  # seconds of silence between two notices


class Silence:
    """A watch over one request: `heard()` on every chunk; the notices run on their own thread."""

    def __init__(self, notify: Callable[[str], None], every: float = EVERY):
        self.notify, self.every = notify, every
        self.last = time.monotonic()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> "Silence":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def heard(self) -> None:
        self.last = time.monotonic()

    def _watch(self) -> None:
        said = 0  # how many notices this stretch of silence has had
        while not self._done.wait(min(0.25, self.every / 4)):
            periods = int((time.monotonic() - self.last) // self.every)
            if periods > said:
                self.notify(f"waiting for the provider ({periods * self.every:g} s)…")
            said = periods
