"""An output stream for the runs tested in process."""

import io


class Screen(io.StringIO):
    """An output stream that breaks (or is interrupted) when a given text is written to it, as a real one can."""

    def __init__(self, breaks: dict[str, BaseException] | None = None):
        super().__init__()
        self.breaks = breaks or {}

    def write(self, text: str) -> int:
        for word, error in self.breaks.items():
            if word in text:
                raise error
        return super().write(text)
