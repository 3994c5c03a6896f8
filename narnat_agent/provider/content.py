"""A reply's `content` as it streams: thinking sent inside it, the answer, and text held back from the screen.

Several open models and servers put the model's thinking at the start of `content` as <think>…</think>; it is
reasoning, not answer. Where the chat template itself opens <think> (Qwen3, QwQ, R1 distills on a server without a
reasoning parser), the content holds only the closing `</think>`: what came before it was reasoning too. It has
streamed as narration by then, and what had not reached the screen ends that narration on its line; none of it stays
in the answer or the history.
Text that may be a tool call written as text is held back until the reply ends, so the user does not see markup
that turns into a tool line; if it was not a call after all, it is shown then.
Each piece costs time in proportion to itself and the line it ends, not to the answer so far.
"""

from enum import Enum

from narnat_agent.provider.text_calls import may_start

OPEN, CLOSE = "<think>", "</think>"


class _Part(Enum):
    START = "start"  # not yet known whether the content opens with <think>
    THINKING = "thinking"
    ANSWER = "answer"


def _partial_suffix(text: str, tag: str) -> int:
    """How many characters at the end of text could be the start of tag."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-size:]):
            return size
    return 0


class ContentSplitter:
    def __init__(self) -> None:
        self.part = _Part.START
        self.head = ""  # content not yet placed: the opening while undecided, or a possible piece of </think>
        self.thought = False  # the content holds thinking: opened with <think>, or closed alone
        self.looked = False  # the answer was searched for such a </think> until it could no longer be one
        self.reasoning = ""  # all the thinking found in the content
        self.released: list[str] = []  # answer text shown
        self.shown = 0  # its length
        self.pending = ""  # answer text not shown yet
        self.mid_line = False  # pending starts inside a line, so it cannot start a call before its next line
        self.blank = True  # what was shown is only whitespace: bare JSON may still open the answer

    def add(self, piece: str) -> tuple[str, str]:
        """Take a piece of content; returns the (answer text, reasoning) to show now."""
        thought = ""
        if self.part is _Part.START:
            self.head += piece
            start = self.head.lstrip()
            if OPEN.startswith(start):
                return "", ""  # may still become <think>
            self.thought = start.startswith(OPEN)
            self.part = _Part.THINKING if self.thought else _Part.ANSWER
            piece, self.head = start.removeprefix(OPEN) if self.thought else self.head, ""
        if self.part is _Part.THINKING:
            thought, piece = self._think(piece)
            self.reasoning += thought
        elif not self.thought and not self.looked:
            piece, rest = self._closed_alone(piece)
            self.pending += piece
            return rest + self._release(), thought
        self.pending += piece
        return self._release(), thought

    def _think(self, piece: str) -> tuple[str, str]:
        """(reasoning, answer text) in this piece; a possible start of </think> waits for the next one."""
        text = self.head + piece
        end = text.find(CLOSE)
        if end < 0:
            self.head = text[len(text) - _partial_suffix(text, CLOSE) :]
            return text[: len(text) - len(self.head)], ""
        self.part, self.head = _Part.ANSWER, ""
        return text[:end], text[end + len(CLOSE) :]

    def _closed_alone(self, piece: str) -> tuple[str, str]:
        """(answer text, text for the screen alone) in this piece: a </think> the content never opened turns what
        came before it into reasoning, the end of which, not on the screen yet, ends its line there; a possible
        start of one waits."""
        text = self.head + piece
        end = text.find(CLOSE)
        if end < 0:
            self.head = text[len(text) - _partial_suffix(text, CLOSE) :]
            return text[: len(text) - len(self.head)], ""
        unshown = self.pending + text[:end]
        before = "".join(self.released) + unshown
        self.head, self.looked = "", True
        if OPEN in before or before[-1:] in ("`", "'", '"'):  # a tag written about, not a thought closed
            return text, ""
        self.thought = True
        self.reasoning += before
        self.released, self.shown, self.pending, self.mid_line, self.blank = [], 0, "", False, True
        return text[end + len(CLOSE) :], unshown.rstrip("\n") + "\n"

    def _release(self) -> str:
        """The pending text that can no longer turn out to be the start of a call."""
        if self.thought and not self.shown:
            self.pending = self.pending.lstrip()  # the blank lines after </think>
        text, at = self.pending, 0
        if self.mid_line:
            at = text.find("\n") + 1
            if not at:
                return self._show(len(text), mid_line=True)
        while not may_start(text, at, first=self.blank and (not at or text[:at].isspace())):
            newline = text.find("\n", at)
            if newline < 0:
                return self._show(len(text), mid_line=True)
            at = newline + 1
        return self._show(at, mid_line=False)

    def _show(self, until: int, mid_line: bool) -> str:
        shown, self.pending = self.pending[:until], self.pending[until:]
        self.released.append(shown)
        self.shown += len(shown)
        self.mid_line = mid_line
        self.blank = self.blank and (not shown or shown.isspace())
        return shown

    def finish(self) -> tuple[str, str]:
        """The whole answer, and all the reasoning the content held."""
        answer = "".join(self.released) + self.pending
        if self.part is not _Part.THINKING:
            return answer + self.head, self.reasoning
        return answer, self.reasoning + self.head  # a stream that ended inside <think>

    def unshown(self, answer: str) -> str:
        """What is left to show once the reply ended, given the answer that stays (calls removed from it)."""
        return answer[self.shown :]
