"""An output stream for the runs tested in process."""

import io
from collections.abc import Callable


class Screen(io.StringIO):
    """An output stream that breaks, is interrupted, or does something else when a given text is written to it, as a
    real one can (a hung-up terminal, a Ctrl-C, a signal that arrives just then)."""

    def __init__(self, breaks: dict[str, BaseException | Callable[[], object]] | None = None):
        super().__init__()
        self.breaks = breaks or {}

    def write(self, text: str) -> int:
        for word, happens in self.breaks.items():
            if word in text:
                if isinstance(happens, BaseException):
                    raise happens
                happens()
        return super().write(text)
