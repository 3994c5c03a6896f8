"""A reply's `content` as it streams: thinking sent inside it, the answer, and text held back from the screen.

Several open models and servers put the model's thinking at the start of `content` as <think>…</think>; it is
reasoning, not answer. Text that may be a tool call written as text is held back until the reply ends, so the
user does not see markup that turns into a tool line; if it was not a call after all, it is shown then.
"""

from narnat_agent.core.text_calls import may_start

OPEN, CLOSE = "<think>", "</think>"


def _partial_suffix(text: str, tag: str) -> int:
    """How many characters at the end of text could be the start of tag."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-size:]):
            return size
    return 0


class ContentSplitter:
    def __init__(self) -> None:
        self.raw = ""  # everything received as content
        self.thinking: bool | None = None  # None until the start of content says whether it opens with <think>
        self.thought_until = 0  # how much of raw has gone to reasoning
        self.answer = ""
        self.shown = 0  # how much of the answer went to the screen
        self.line = 0

    def add(self, piece: str) -> tuple[str, str]:
        """Take a piece of content; returns the (answer text, reasoning) to show now."""
        self.raw += piece
        thought = ""
        if self.thinking is None:
            start = self.raw.lstrip()
            if OPEN.startswith(start):
                return "", ""  # may still become <think>
            self.thinking = start.startswith(OPEN)
            self.thought_until = self.raw.index(OPEN) + len(OPEN) if self.thinking else 0
            if not self.thinking:
                self.answer = self.raw
                return self._release(), ""
        if self.thinking:
            thought = self._think()
        else:
            self.answer += piece.lstrip() if self.thought_until and not self.answer else piece  # after </think>
        return self._release(), thought

    def _think(self) -> str:
        end = self.raw.find(CLOSE, self.thought_until)
        if end < 0:
            safe = len(self.raw) - _partial_suffix(self.raw, CLOSE)
            thought, self.thought_until = self.raw[self.thought_until : safe], max(safe, self.thought_until)
            return thought
        thought = self.raw[self.thought_until : end]
        self.thinking = False
        self.answer = self.raw[end + len(CLOSE) :].lstrip()
        return thought

    def _release(self) -> str:
        """The answer text that can no longer turn out to be the start of a call."""
        text, at = self.answer, self.line
        while not may_start(text, at):
            newline = text.find("\n", at)
            if newline < 0:
                break
            at = newline + 1
        self.line = at  # the start of the line holding the first unshown character
        until = max(at, self.shown) if may_start(text, at) else len(text)
        released, self.shown = text[self.shown : until], until
        return released

    def finish(self) -> tuple[str, str]:
        """The whole answer, and the reasoning still held back (a stream that ended inside <think>)."""
        if self.thinking is None:
            return self.raw, ""
        if self.thinking:
            return "", self.raw[self.thought_until :]
        return self.answer, ""

    def unshown(self, answer: str) -> str:
        """What is left to show once the reply ended, given the answer that stays (calls removed from it)."""
        return answer[self.shown :]
