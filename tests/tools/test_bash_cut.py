"""The Bash tool's cut of a long output: what it keeps of both ends and the lines it names as left out are the
output's own, whatever the lines' lengths (checked against the text itself)."""

import re

from hypothesis import example, given
from hypothesis import strategies as st

from narnat_agent.tools.bash.execute import LIMIT, cut

LINES = re.compile(
    r"(?P<head>.*)\n\[… lines (?P<first>[\d,]+)–(?P<last>[\d,]+) of (?P<total>[\d,]+) omitted; "
    r'Read\(file_path="spill", offset=(?P<offset>\d+)\) pages through them\]\n(?P<tail>.*)',
    re.S,
)
CHARACTERS = re.compile(
    r"(?P<head>.*)\n\[… (?P<left>[\d,]+) characters of lines? (?P<first>[\d,]+)(?:–(?P<last>[\d,]+))? of "
    r'(?P<total>[\d,]+) omitted; Read\(file_path="spill", offset=(?P<offset>\d+)\) shows them\]\n(?P<tail>.*)',
    re.S,
)


def number(text: str | None) -> int:
    return int(text.replace(",", "")) if text else 0


def line_at(text: str, at: int) -> int:
    """The line (from 1) holding the character at `at`; a newline belongs to the line it ends."""
    return text.count("\n", 0, at) + 1


SIZES = st.lists(st.integers(0, 12_000) | st.integers(0, 40), max_size=12)


@given(SIZES, st.integers(0, 300), SIZES, st.booleans())
@example([int(LIMIT * 0.3) - 2], 10, [], False)  # the first line fills the head's share exactly: shown whole
@example([], 10, [int(LIMIT * 0.7) - 6], False)  # the last line fills the tail's share exactly: shown whole
@example([], 10, [int(LIMIT * 0.7) - 7], True)
def test_the_ends_kept_and_the_lines_named_are_the_outputs_own(first_sizes, middle_size, last_sizes, newline_ends):
    middle = [middle_size] * (LIMIT // (middle_size + 3) + 1)  # enough lines between to pass the limit
    lines = [f"{i}:" + "x" * n for i, n in enumerate([*first_sizes, *middle, *last_sizes], 1)]
    text = "\n".join(lines) + ("\n" if newline_ends else "")
    assert len(text) > LIMIT
    shown = cut(text, len(lines), "spill")
    found = LINES.fullmatch(shown) or CHARACTERS.fullmatch(shown)
    assert found is not None, shown[:200]
    head, tail = found["head"], found["tail"]
    assert text.startswith(head) and text.endswith(tail) and len(head) + len(tail) < len(text)
    assert len(head) <= LIMIT * 0.3 and len(tail) <= LIMIT * 0.7
    left = text[len(head) : len(text) - len(tail)]  # what the marker stands for
    start = len(head) + (left[0] == "\n")  # the newline that ends the head's last line is not the head's loss
    end = len(text) - len(tail) - 1 - (left[-1] == "\n" and len(left) > 1 and tail != "")  # nor the tail's start
    first, last = number(found["first"]), number(found["last"]) or number(found["first"])
    assert (first, last, number(found["total"])) == (line_at(text, start), line_at(text, end), len(lines))
    assert number(found["offset"]) == first
    if found.re is LINES:  # whole lines on both sides
        assert left.startswith("\n") and (left.endswith("\n") or tail == "")
    else:
        assert number(found["left"]) == len(left)
