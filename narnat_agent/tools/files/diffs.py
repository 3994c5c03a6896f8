"""Diffs of a file's change, for the model and the screen."""

import difflib

DIFF_LINES = 60
DIFF_LINE_CHARS = 400  # one edit of a minified or generated line must not flood the context
CONTEXT = 1  # unchanged lines around a change


def _cut(line: str) -> str:
    if len(line) <= DIFF_LINE_CHARS:
        return line
    return f"{line[:DIFF_LINE_CHARS]}… [line cut: {len(line) - 1:,} characters]"


def compact_diff(before: str, after: str, name: str) -> tuple[str, int, int]:
    """A unified diff with one line of context (capped), and the counts of removed and added lines; `name` is the
    file's, which the hunks alone do not show."""
    lines = _hunks(before.splitlines(), after.splitlines(), CONTEXT)
    removed = sum(1 for line in lines if line.startswith("-"))
    added = sum(1 for line in lines if line.startswith("+"))
    if len(lines) > DIFF_LINES:
        left = len(lines) - DIFF_LINES  # said whole: a cut diff must not read as a change made in part
        lines = [*lines[:DIFF_LINES], f"… +{left} lines of this diff not shown; the whole change was made (Read {name} "
                 "to see it)"]  # fmt: skip
    return "\n".join(_cut(line) for line in lines), removed, added


def _hunks(a: list[str], b: list[str], n: int) -> list[str]:
    """unified_diff's hunks, of the lines between the two texts' common beginning and end: difflib takes a line
    found in more than 1 % of a file of 200 lines or more (a blank line) for junk, which matches nothing, so an
    unchanged blank line among changed ones showed as removed and added."""
    head = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    ends = zip(reversed(a[head:]), reversed(b[head:]), strict=False)
    tail = next((i for i, (x, y) in enumerate(ends) if x != y), min(len(a), len(b)) - head)
    lo = max(0, head - n)
    matcher = difflib.SequenceMatcher(None, a[lo : len(a) - tail + n], b[lo : len(b) - tail + n])
    out = []
    for group in matcher.get_grouped_opcodes(n):
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1] + lo, last[2] + lo)} +{_range(first[3] + lo, last[4] + lo)} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [f" {line}" for line in a[lo + i1 : lo + i2]]
                continue
            out += [f"-{line}" for line in a[lo + i1 : lo + i2]]
            out += [f"+{line}" for line in b[lo + j1 : lo + j2]]
    return out


def _range(start: int, stop: int) -> str:
    """A hunk's range as unified_diff writes it: `3` for one line, `2,4`, and `1,0` before an empty range."""
    length = stop - start
    if length == 1:
        return f"{start + 1}"
    return f"{start + 1 if length else start},{length}"
