"""How Edit moves new_string's indentation when old_string matched only with its indentation moved: the shift or
the conversion it applies line by line, how the result says it, and which lines of new_string are read as made from
which lines of old_string."""

import random

import pytest

from narnat_agent.tools.edit.reindent import _pairs, indent_map


@pytest.mark.parametrize(
    ("file", "old", "how", "line", "moved"),
    [
        (["\t\tx"], ["\tx"], "by +1 tab", "\ty", "\t\ty"),
        (["\tx"], ["\t\t\tx"], "by -2 tabs", "\t\t\ty", "\ty"),
        (["\tx"], ["\t\t\tx"], "by -2 tabs", "\ty", "y"),  # a line with fewer tabs than the shift loses them all
        (["     x"], ["    x"], "by +1 space", "  y", "   y"),
        (["  x"], ["      x"], "by -4 spaces", "      y", "  y"),
        (["\tx"], ["    x"], "from spaces to tabs (4 spaces a tab)", "    \ty", "\t\ty"),
        (["\t\t\tx"], ["    x"], "from spaces to tabs (4 spaces a tab, +2 levels)", "    y", "\t\t\ty"),
        (["    x"], ["\t\t\t\tx"], "from tabs to spaces (4 spaces a tab, -3 levels)", "\t\t\t\t\ty", "        y"),
        (["  x"], ["\tx"], "from tabs to spaces (2 spaces a tab)", "\t\ty", "    y"),
    ],
    ids=[
        "tab-up",
        "tabs-down",
        "tabs-down-short",
        "space-up",
        "spaces-down",
        "to-tabs",
        "to-tabs-2",
        "to-spaces-3",
        "to-spaces-unit-2",
    ],  # fmt: skip
)
def test_each_mapping_says_what_it_does_and_moves_a_line_so(file, old, how, line, moved):
    mapping = indent_map(file, old)
    assert (mapping.how, mapping.apply(line), mapping.apply("   \n")) == (how, moved, "   \n")


def numbered(n: int, start: int = 0) -> list[str]:
    return [f"value_{i} = compute({i})" for i in range(start, start + n)]


def rewritten(n: int, start: int = 0) -> list[str]:
    return [f"print('{i}', end='')" for i in range(start, start + n)]  # nothing like the lines it replaces


def test_a_large_rewrite_pairs_its_lines_side_by_side():
    old, new = ["keep"] + numbered(25), ["keep"] + rewritten(25)
    assert list(_pairs(old, new)) == [(i, i) for i in range(26)]


def test_a_large_rewrite_of_another_length_pairs_nothing_in_it():
    assert list(_pairs(["keep"] + numbered(25), ["keep"] + rewritten(30))) == [(0, 0)]


def test_a_smaller_rewrite_pairs_only_the_lines_that_still_resemble_the_old_ones():
    old, new = ["keep"] + numbered(20), ["keep"] + rewritten(20)  # 20 × 20: not large
    new[5] = old[5].replace("compute", "computed")
    assert list(_pairs(old, new)) == [(0, 0), (5, 5)]


def test_every_unchanged_line_of_a_long_new_string_is_paired_even_among_many_alike():
    lines = random.Random(7)
    old = ["}" if lines.random() < 0.3 else f"line {lines.randint(0, 50)}" for _ in range(300)]
    new = list(old)
    for k in range(5):
        new.insert(lines.randint(0, len(new)), f"added {k}")
        del new[lines.randint(0, len(new) - 1)]
    pairs = list(_pairs(old, new))
    assert len(pairs) == 295 and all(old[i] == new[j] for i, j in pairs)  # a heuristic that skips "}" pairs 294
