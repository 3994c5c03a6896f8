"""The diff an Edit or a Write shows the model and the screen: one line of context, its counts, and its bounds."""

from narnat_agent.tools.files.diffs import DIFF_LINE_CHARS, DIFF_LINES, compact_diff


def test_a_change_shows_one_line_of_context_and_counts_its_lines():
    before = "a\nb\nc\nd\ne\n"
    after = "a\nb\nC\nnew\nd\ne\n"
    assert compact_diff(before, after, "f.py") == ("@@ -2,3 +2,4 @@\n b\n-c\n+C\n+new\n d", 1, 2)


def test_lines_that_begin_with_a_dash_or_a_plus_in_the_context_are_not_counted():
    assert compact_diff("-x\n+y\nz\n", "-x\n+y\nZ\n", "f.py") == ("@@ -2,2 +2,2 @@\n +y\n-z\n+Z", 1, 1)


def test_a_long_diff_is_cut_after_its_limit_and_says_how_many_lines_are_left_out():
    diff, removed, added = compact_diff("", "".join(f"row {n}\n" for n in range(100)), "f.py")
    lines = diff.split("\n")
    left = 101 - DIFF_LINES
    assert len(lines) == DIFF_LINES + 1  # the last says the change is whole, only its diff is cut, and where to look
    assert lines[-1] == f"… +{left} lines of this diff not shown; the whole change was made (Read f.py to see it)"
    assert lines[0] == "@@ -0,0 +1,100 @@" and lines[-2] == f"+row {DIFF_LINES - 2}"
    assert (removed, added) == (0, 100)  # counted over the whole diff, not the lines shown


def test_a_diff_of_exactly_its_limit_is_shown_whole():
    diff, _, added = compact_diff("", "".join(f"row {n}\n" for n in range(DIFF_LINES - 1)), "f.py")
    assert len(diff.split("\n")) == DIFF_LINES and "… +" not in diff and added == DIFF_LINES - 1


def test_a_line_longer_than_its_limit_is_cut_and_says_the_lines_length():
    fits, long = "x" * (DIFF_LINE_CHARS - 1), "y" * 1000
    diff = compact_diff("", f"{fits}\n{long}\n", "f.py")[0]
    assert diff.split("\n")[1:] == [f"+{fits}", "+" + "y" * (DIFF_LINE_CHARS - 1) + "… [line cut: 1,000 characters]"]
