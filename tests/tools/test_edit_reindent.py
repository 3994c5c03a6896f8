"""How Edit moves new_string's indentation when old_string matched only with its indentation moved: the shift or
the conversion it applies line by line, how the result says it, and which lines of new_string are read as made from
which lines of old_string."""

import random

import pytest

from narnat_agent.tools.base import ToolError
from narnat_agent.tools.edit.reindent import _pairs, indent_map, new_string_frame


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
    ],
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


@pytest.mark.parametrize(
    ("file", "old", "how", "line", "moved"),
    [
        (
            ["\tx", "\t\ty"],
            ["        x", "                y"],
            "from spaces to tabs (8 spaces a tab)",
            "        z",
            "\tz",
        ),
        (["    x"], ["\tx"], "from tabs to spaces (4 spaces a tab)", "\tXYZ = 1", "    XYZ = 1"),
        (["        a", ""], ["    a", "  "], "by +4 spaces", "  b", "      b"),  # blank lines tell nothing
    ],
    ids=["eight-spaces-a-tab", "tabs-to-spaces-body-kept", "blank-lines"],
)
def test_more_mappings(file, old, how, line, moved):
    mapping = indent_map(file, old)
    assert (mapping.how, mapping.apply(line)) == (how, moved)


def test_indentation_that_maps_no_single_way_is_refused_in_one_sentence():
    with pytest.raises(ToolError) as refused:
        indent_map(["   x", "  y"], ["x", "y"])
    assert str(refused.value) == (
        "old_string matched only when ignoring indentation, and its indentation does not map consistently onto "
        "the file's; copy the lines exactly as Read shows them (tabs stay tabs)."
    )


FILE, OLD = ["        value = compute()", "        total += value"], ["    value = compute()", "    total += value"]


def frame(new: list[str], file: list[str] = FILE, old: list[str] = OLD) -> str:
    """How new_string is re-indented: the mapping's words, "" when it is kept as it is."""
    return new_string_frame(file, old, new, str.strip).how


DOUBT = ("old_string matched only with its indentation moved by +4 spaces, and new_string's indentation leaves doubt: "
         "{}. Copy old_string's lines exactly as Read shows them and indent new_string as the file is.")  # fmt: skip


def test_new_lines_made_from_old_ones_follow_the_frame_they_are_indented_in():
    assert frame(["    value = compute(1)", "    total += value"]) == "by +4 spaces"  # as old_string
    assert frame(["        value = compute(1)", "        total += value"]) == ""  # as the file


def test_new_lines_split_between_the_two_frames_are_refused():
    with pytest.raises(ToolError) as refused:
        frame(["    value = compute(1)", "        total += value"])
    assert str(refused.value) == DOUBT.format(
        "some of its lines are indented like old_string's and others like the file's"
    )


def test_a_line_made_from_an_old_one_indented_like_neither_frame_is_doubt():
    with pytest.raises(ToolError) as refused:
        frame(["  value = compute(1)"])
    assert str(refused.value) == DOUBT.format("it is indented like neither old_string nor the file")


def test_brand_new_lines_follow_the_frame_whose_indentations_they_use():
    assert frame(["    unrelated_call()"]) == "by +4 spaces"
    assert frame(["        unrelated_call()"]) == ""
    with pytest.raises(ToolError, match="it is indented like neither old_string nor the file"):
        frame(
            ["", "  unrelated_call()"], FILE + [""], OLD + [""]
        )  # a blank line pairs with a blank one, and says nothing


def test_lines_both_frames_indent_alike_let_the_mapping_carry_the_rest():
    file, old = ["\tx = 1", "y = 2"], ["    x = 1", "y = 2"]
    assert frame(["y = 2", "      brand_new()"], file, old) == "from spaces to tabs (4 spaces a tab)"


@pytest.mark.parametrize(
    ("old", "new", "pairs"),
    [
        (["x = compute(1)", "y = compute(2)"], ["x = compute(1)", "zz = other(9)"], [(0, 0)]),
        (["x = compute(1)", "y = zzz"], ["x = compute(1)", "x = compute(2)"], [(0, 0)]),
        (["k", "abcde"], ["k", "abcxy"], [(0, 0), (1, 1)]),  # a resemblance of 0.6 is enough
    ],
    ids=["earlier-new-line", "earlier-old-line", "resemblance-at-the-bar"],
)
def test_a_rewritten_line_pairs_only_within_its_own_block(old, new, pairs):
    assert list(_pairs(old, new)) == pairs
