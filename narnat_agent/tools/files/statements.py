"""The lines that decide whether a change broke a file's syntax: the top-level statements around it and, when those
make one large block (a class, a namespace, a JSON document), the block's opening and closing lines around the
members next to the change, as deep as blocks nest. Parsing them costs what they hold, not what the file holds."""

import re
from dataclasses import dataclass, replace

# A line that starts a statement at its level: not one that closes a bracket, a block or a tag (</div>), or continues
# one (else:)
STARTS = re.compile(r"(?!(?:end|fi|done|esac|else|elif|except|finally)\b|</)[^\s)\]}]")
BLOCK = 200  # lines: statements this long are one block, narrowed to its members around the change


@dataclass(frozen=True)
class Fragment:
    """Lines of a file by index: the opening lines of the blocks that hold the change, the statements around it
    (lines[start:end]) and the blocks' closing lines."""

    head: tuple[int, ...]
    start: int
    end: int
    tail: tuple[int, ...]

    @property
    def indices(self) -> list[int]:
        return [*self.head, *range(self.start, self.end), *self.tail]

    def text(self, lines: list[str], comma: bool = True) -> str:
        """The fragment as source; without `comma`, the statements' last comma before a closing line is left out
        (JSON allows none there)."""
        middle = lines[self.start : self.end]
        if not comma and self.tail and middle:
            middle = [*middle[:-1], middle[-1].rstrip().removesuffix(",")]
        return "\n".join([*(lines[n] for n in self.head), *middle, *(lines[n] for n in self.tail)])

    def before(self, grown: int) -> "Fragment":
        """The same fragment in the text before the change, which had `grown` lines fewer."""
        return replace(self, end=self.end - grown, tail=tuple(n - grown for n in self.tail))

    def line(self, n: int) -> int:
        """The file's line (1-based) of the fragment's line n (1-based)."""
        indices = self.indices
        return indices[min(n, len(indices)) - 1] + 1 + max(0, n - len(indices))


def around(lines: list[str], changed: tuple[int, int]) -> Fragment:
    """The fragment to parse for the changed lines (first and last, 1-based)."""
    start, end = window(lines, changed, "", 0, len(lines))
    head: list[int] = []
    tail: list[int] = []
    while end - start > BLOCK and (inner := _members(lines, start, end, changed)):
        first, last, indent = inner
        head += range(start, first)
        tail[:0] = range(last, end)
        start, end = window(lines, changed, indent, first, last)
    return Fragment(tuple(head), start, end, tuple(tail))


def window(lines: list[str], changed: tuple[int, int], indent: str, low: int, high: int) -> tuple[int, int]:
    """The statements around the changed lines, as a span of lines between low and high: from the line at `indent`
    where the first one starts to the next line at `indent` that starts another (a closing bracket there ends the
    statement, not starts)."""
    start, end = min(changed[0], high) - 1, changed[1]
    while start > low and not (lines[start].startswith(indent) and STARTS.match(lines[start], len(indent))):
        start -= 1
    while end < high and not (lines[end].startswith(indent) and STARTS.match(lines[end], len(indent))):
        end += 1
    return max(start, low), end


def _members(lines: list[str], start: int, end: int, changed: tuple[int, int]) -> tuple[int, int, str] | None:
    """The members of the block lines[start:end] is: their first line, the line after their last and their
    indentation; None when nothing in it is deeper, or the change touches the block's opening or closing lines."""
    first = next((n for n in range(start + 1, end) if lines[n].strip()), end)
    indent = _indentation(lines[first]) if first < end else ""
    if len(indent) <= len(_indentation(lines[start])):
        return None
    last = end
    while last > first and (not lines[last - 1].strip() or len(_indentation(lines[last - 1])) < len(indent)):
        last -= 1
    return (first, last, indent) if first < changed[0] <= changed[1] <= last else None


def _indentation(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]
