"""Diffs of a file's change, for the model and the screen."""

import difflib

DIFF_LINES = 60
DIFF_LINE_CHARS = 400  # one edit of a minified or generated line must not flood the context


def _cut(line: str) -> str:
    if len(line) <= DIFF_LINE_CHARS:
        return line
    return f"{line[:DIFF_LINE_CHARS]}… [line cut: {len(line) - 1:,} characters]"


def compact_diff(before: str, after: str, name: str) -> tuple[str, int, int]:
    """A unified diff with one line of context (capped), and the counts of removed and added lines."""
    lines = list(difflib.unified_diff(before.splitlines(), after.splitlines(), name, name, n=1, lineterm=""))[2:]
    removed = sum(1 for line in lines if line.startswith("-"))
    added = sum(1 for line in lines if line.startswith("+"))
    if len(lines) > DIFF_LINES:
        lines = lines[:DIFF_LINES] + [f"… +{len(lines) - DIFF_LINES} lines"]
    return "\n".join(_cut(line) for line in lines), removed, added
