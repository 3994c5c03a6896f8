"""Edit's matching chain at its edges: which step takes a slip (the result names it), where the block anchors hold
and where they let go, and what the file keeps of its own text. Each case is the edited file, or a miss."""

import pytest

from narnat_agent.tools.base import ToolError
from narnat_agent.tools.edit.matcher import NotFound, apply_edit

pytestmark = pytest.mark.windows  # these must pass on Windows too (docs/windows.md)


def block(middle: list[str], first: str = "def handler(event):", last: str = "    return total") -> str:
    return "\n".join([first, *middle, last]) + "\n"


MISS = None
A20, A17, A16 = "XXXabcdefghijklmnopq", "abcdefghijklmnopq", "abcdefghijklmnop"  # 3 of 20 apart: 0.85; 4: 0.8
PROSE = "# " + "It’s the user’s file, and it’s what they’d expect; " * 5  # over 200 characters
PROSE_TYPED = PROSE.replace("’", "'")
LONG = "a" * 999 + "b"  # a drifted line of 1000 characters is compared; a longer one is not
CASES = {
    # only spaces and tabs are blanks: any other difference is the typography step's, or no match at all
    "a trailing no-break space is typography": (
        "a = '1'\u00a0\nb = 2\n", "a = '1'\nb = 2\n", "a = '2'\nb = 2\n", "a = '2'\nb = 2\n", "typography match"),
    "a no-break space at the end of a line with inner blanks is typography": (
        "x  = “1”\u00a0\ny = 2\n", "x = “1”\ny = 2\n", "x = “3”\ny = 2\n", "x = “3”\ny = 2\n", "typography match"),
    "inner blanks of a line with curly quotes, indented": (
        "x\n  “a”  b = 1\n  next\n", "“a” b = 1\nnext\n", "“a” b = 2\nnext\n", "x\n  “a” b = 2\n  next\n",
        "inner whitespace match; new_string re-indented by +2 spaces"),
    "a line with a letter more is another line": ("FIX\nnext\n", "FI\nnext\n", "FO\nnext\n", MISS, ""),
    "a line with curly quotes and a letter more is another line": (
        "“a”  = MAX\nnext\n", "“a” = MA\nnext\n", "“a” = MO\nnext\n", MISS, ""),
    # what the file keeps
    "an unchanged line keeps its trailing blanks when old_string's indentation slipped": (
        "def f():\n    x = 1   \n    y = 2\n", "x = 1\ny = 2\n", "    x = 1\n    y = 3\n",
        "def f():\n    x = 1   \n    y = 3\n", "indentation match"),
    "a changed line below the first keeps the file's quotes": (
        "a = 1\nb = ‘x’\nc = 3\n", "a = 1\nb = 'x'\nc = 3\n", "a = 1\nb = 'y'\nc = 3\n", "a = 1\nb = ‘y’\nc = 3\n",
        "typography match"),
    "a changed line that gains text at its start keeps the file's quotes": (
        "a = 1\nb = “x” + 1\nc = 3\n", 'a = 1\nb = "x" + 1\nc = 3\n', 'a = 1\nzb = "x" + 2\nc = 3\n',
        "a = 1\nzb = “x” + 2\nc = 3\n", "typography match"),
    "a changed line whose . becomes an ellipsis keeps the file's quotes": (
        "a = 1\nb = “x.y”\n", 'a = 1\nb = "x.y"\n', 'a = 1\nb = "x…y"\n', "a = 1\nb = “x…y”\n", "typography match"),
    "a changed line whose - becomes an em dash keeps the file's quotes": (
        "a = 1\nb = “x-y”\n", 'a = 1\nb = "x-y"\n', 'a = 1\nb = "x—y"\n', "a = 1\nb = “x—y”\n", "typography match"),
    "a changed line whose ellipsis loses a dot keeps the file's quotes": (
        "a = 1\nb = “x…y”\n", 'a = 1\nb = "x...y"\n', 'a = 1\nb = "x..y"\n', "a = 1\nb = “x..y”\n",
        "typography match"),
    "a changed line whose ... becomes an ellipsis keeps the file's quotes": (
        "a = 1\nb = “x...y”\n", 'a = 1\nb = "x...y"\n', 'a = 1\nb = "x…y"\n', "a = 1\nb = “x…y”\n",
        "typography match"),
    "a changed line keeps the file's ellipsis where new_string spells it ...": (
        "a = 1\nb = “x…y”\n", 'a = 1\nb = "x...y"\n', 'a = 1\nb = "x...z"\n', "a = 1\nb = “x…z”\n",
        "typography match"),
    "a changed line that is only an ellipsis keeps it": (
        "“a”\n…\n", '"a"\n...\n', '"a"\n...x\n', "“a”\n…x\n", "typography match"),
    "a changed line whose first ellipsis loses its first dot": (
        "“a”\n…b\n", '"a"\n...b\n', '"a"\nx..b\n', "“a”\nx..b\n", "typography match"),
    "a changed line whose first . becomes part of an ellipsis": (
        "“a”\nx.y\n", '"a"\nx.y\n', '"a"\n…y\n', "“a”\n…y\n", "typography match"),
    "a long changed line keeps every one of the file's apostrophes": (
        f"a = 1\n{PROSE}\nc = 3\n", f"a = 1\n{PROSE_TYPED}\nc = 3\n",
        f"a = 1\n{PROSE_TYPED.replace('expect;', 'want;', 1)}\nc = 3\n",
        f"a = 1\n{PROSE.replace('expect;', 'want;', 1)}\nc = 3\n", "typography match"),
    "a long block keeps the trailing blanks of the lines new_string leaves": (
        "    }  \n" * 250, "    }\n" * 250, "    }\n" * 125 + "    added()\n" + "    }\n" * 125,
        "    }  \n" * 125 + "    added()\n" + "    }  \n" * 125, "trailing whitespace match"),
    # where an exact match's replacement starts: at old_string, or at its line's start when only blanks precede it
    "the indentation of a line below an empty first line": (
        "\n    x = 1\n", "x = 1", "    x = 2", "\n    x = 2\n", "exact match"),
    "whole lines replaced by lines that begin with an empty one": (
        "def f():\n    x = 1\n    y = 2\n", "x = 1\n", "\n    z = 3\n", "def f():\n\n    z = 3\n    y = 2\n",
        "exact match"),
    "text before old_string on its line stays": ("Xy = 1\nz\n", "y = 1\n", "", "Xz\n", "exact match"),
    "a no-break space before old_string is text, not indentation": (
        "\u00a0y = 1\nz\n", "y = 1\n", "", "\u00a0z\n", "exact match"),
    # the last lines of a file without a final newline are lines like any other for the line steps
    "an indentation slip in the last lines of a file without a final newline": (
        "def f():\n    x = 1\n    y = 2", "x = 1\ny = 2", "x = 1\ny = 3", "def f():\n    x = 1\n    y = 3",
        "indentation match; new_string re-indented by +4 spaces"),
    "a trailing-blank slip in the last lines of a file without a final newline": (
        "a = 1  \nb = 2", "a = 1\nb = 2", "a = 1\nb = 3", "a = 1  \nb = 3", "trailing whitespace match"),
    # only a final newline on both strings is the trailing newline step's to drop: new_string keeps its last character
    "a final newline on old_string alone, at the end of a file without one": (
        "first\nlast", "last\n", "LAST", "first\nLAST", "trailing whitespace match"),
    # block anchors: first and last lines hold, a middle line drifted where new_string rewrites it
    "a middle line 3 characters in 20 longer in the file": (
        block([A20, "same line"]), block([A17, "same line"]), block(["new", "same line"]),
        block(["new", "same line"]), "block anchors match"),
    "a middle line 3 characters in 20 longer in old_string": (
        block([A17, "same line"]), block([A20, "same line"]), block(["new", "same line"]),
        block(["new", "same line"]), "block anchors match"),
    "3 characters in 20 inserted inside the file's line": (
        block(["abcdefXXXghijklmnopq", "same line"]), block([A17, "same line"]), block(["new", "same line"]),
        block(["new", "same line"]), "block anchors match"),
    "3 characters in 20 inserted inside old_string's line": (
        block([A17, "same line"]), block(["abcdefXXXghijklmnopq", "same line"]), block(["new", "same line"]),
        block(["new", "same line"]), "block anchors match"),
    "one character more in old_string's line of ten": (
        block(["count = 10", "same line"]), block(["count = 100", "same line"]), block(["new", "same line"]),
        block(["new", "same line"]), "block anchors match"),
    "4 characters in 20 is too far": (
        block(["XXXXabcdefghijklmnop", "same line"]), block([A16, "same line"]), block(["new", "same line"]), MISS, ""),
    "drifted lines of 1000 characters are compared": (
        block([LONG, "same line"]), block([LONG[:-1] + "c", "same line"]), block(["new", "same line"]),
        block(["new", "same line"]), "block anchors match"),
    "a drifted line of 1001 characters in the file is not": (
        block([LONG + "a", "same line"]), block([LONG[:-1] + "c", "same line"]), block(["new", "same line"]), MISS, ""),
    "a drifted line of 1001 characters in old_string is not": (
        block([LONG, "same line"]), block([LONG[:-1] + "ca", "same line"]), block(["new", "same line"]), MISS, ""),
    "every middle line drifted is too much": (
        block(["value = 1x", "other = 2x"]), block(["value = 1", "other = 2"]), block(["value = 3", "other = 4"]),
        MISS, ""),
    "four lines whose first has four letters and digits": (
        "x\nif ab:\n    value_total = 100\n    q = 2\n}\ny\n", "if ab:\n    value_total = 109\n    q = 2\n}\n",
        "if ab:\n    value_total = 5\n    q = 2\n}\n", "x\nif ab:\n    value_total = 5\n    q = 2\n}\ny\n",
        "block anchors match"),
    "a first line of three letters and a closing brace anchor nothing": (
        "x\nif a:\n    value_total = 100\n    q = 2\n}\ny\n", "if a:\n    value_total = 109\n    q = 2\n}\n",
        "if a:\n    value_total = 5\n    q = 2\n}\n", MISS, ""),
    "the first line again above, with another last line": (
        block(["    value = 1", "    keep = 2"], last="    return other") + block(["    value = 1", "    keep = 2"]),
        block(["    value = 9", "    keep = 2"]), block(["    value = 5", "    keep = 2"]),
        block(["    value = 1", "    keep = 2"], last="    return other") + block(["    value = 5", "    keep = 2"]),
        "block anchors match"),
    "the first line again above, with too much drift": (
        block(["    value = 8", "    keep = 3"]) + block(["    value = 1", "    keep = 2"]),
        block(["    value = 9", "    keep = 2"]), block(["    value = 5", "    keep = 2"]),
        block(["    value = 8", "    keep = 3"]) + block(["    value = 5", "    keep = 2"]), "block anchors match"),
    "the first line again in the file's last lines": (
        block(["    value = 1", "    keep = 2"]) + "z\ndef handler(event):\n", block(["    value = 9", "    keep = 2"]),
        block(["    value = 5", "    keep = 2"]), block(["    value = 5", "    keep = 2"]) + "z\ndef handler(event):\n",
        "block anchors match"),
    "a block the anchors find goes with its line break": (
        "top\n" + block(["    value = 1", "    keep = 2"]) + "bottom\n", block(["    value = 9", "    keep = 2"]), "",
        "top\nbottom\n", "block anchors match"),
    "a block the anchors find keeps the file's quotes": (
        block(["    value = ‘a’", "    keep = ‘b’ + 2"]), block(["    value = 'x'", "    keep = 'b' + 2"]),
        block(["    value = 'y'", "    keep = 'b' + 3"]), block(["    value = ‘y’", "    keep = ‘b’ + 3"]),
        "block anchors match"),
    "a block the anchors find, with old_string's indentation slip in new_string too": (
        "class A:\n" + "".join(f"    {line}\n" for line in block(["    value = 1", "    keep = 2"]).splitlines()),
        block(["    value = 9", "    keep = 2"]), block(["    value = 5", "    keep = 2", "    extra = 3"]),
        "class A:\n    def handler(event):\n        value = 5\n        keep = 2\n        extra = 3\n"
        "        return total\n", "block anchors match; new_string re-indented by +4 spaces"),
}  # fmt: skip


@pytest.mark.parametrize(("text", "old", "new", "edited", "how"), CASES.values(), ids=CASES.keys())
def test_an_edit_lands_where_the_step_that_names_it_found_it(text, old, new, edited, how):
    if edited is MISS:
        with pytest.raises(NotFound):
            apply_edit(text, old, new)
        return
    done = apply_edit(text, old, new)
    assert (done.text, done.how) == (edited, how)


HANDLER = block(["    value = 1", "    keep = 2"])
PLACES = {  # (text, old, new, replace_all): the edited text, each place's first line, and its lines before and after
    "a line becomes two": (("a\nb\nc\n", "b\n", "x\ny\n", False), ("a\nx\ny\nc\n", [2], [(2, 1, 2)])),
    "whole lines go": (("a\nb\nc\nd\n", "b\nc\n", "", False), ("a\nd\n", [2], [(2, 2, 0)])),
    "part of a line goes": (("abc\n", "b", "", False), ("ac\n", [1], [(1, 1, 1)])),
    "at the end of a file without a final newline": (("a\nb", "b", "x\ny\nz", False), ("a\nx\ny\nz", [2], [(2, 1, 3)])),
    "every place, below an empty first line": (
        ("\nk = 1\nj\nk = 1\n", "k = 1", "k = 2", True), ("\nk = 2\nj\nk = 2\n", [2, 4], [(2, 1, 1), (4, 1, 1)])),
    "a first line repeated: the match starts at its second": (
        ("  x\n  x\n  y\n", "x\ny\n", "x\nz\n", False), ("  x\n  x\n  z\n", [2], [(2, 2, 2)])),
    "the first line again in the file's last lines, one after another": (
        (HANDLER + "def handler(event):\n" * 3, block(["    value = 9", "    keep = 2"]),
         block(["    value = 5", "    keep = 2"]), False),
        (block(["    value = 5", "    keep = 2"]) + "def handler(event):\n" * 3, [1], [(1, 4, 4)])),
}  # fmt: skip


@pytest.mark.parametrize(("edit", "done"), PLACES.values(), ids=PLACES.keys())
def test_an_edit_says_where_it_landed_and_how_many_lines_each_place_had_and_has(edit, done):
    edited = apply_edit(*edit)
    assert (edited.text, edited.places, edited.changes) == done


@pytest.mark.parametrize(("text", "said"), [
    ("x = 1\n" * 16_666, "matches 16,666 places (exact match) at lines 1, 2, 3, 4, 5 and 16,661 more."),
    ("x = 1; " * 16_666 + "\n", "matches 16,666 places (exact match) at line 1 (16,666 times)."),
    ("x = 1; x = 1\nx = 1\n" * 3, "matches 9 places (exact match) at lines 1 (2 times), 2, 3 (2 times), 4, 5 (2 times)"
                                  " and 1 more."),
])  # fmt: skip
def test_an_ambiguous_edit_gives_the_count_and_the_first_few_lines(text, said):
    with pytest.raises(ToolError) as refused:
        apply_edit(text, "x = 1", "x = 2")
    assert said in str(refused.value) and len(str(refused.value)) < 300


@pytest.mark.parametrize("indent", ["", "    "], ids=["exact", "indentation"])
def test_matches_of_a_repeated_block_never_overlap_as_str_count_counts_them(indent):
    text = "".join(f"{indent}a\n" for _ in range(4)) + "end\n"
    every = apply_edit(text, "a\na\n", "b\n", replace_all=True)
    assert every.text == f"{indent}b\n{indent}b\nend\n" and every.places == [1, 3]
    with pytest.raises(ToolError, match="matches 2 places"):
        apply_edit(text, "a\na\n", "b\n")
    three = "".join(f"{indent}a\n" for _ in range(3))  # the block fits once, then one line is left
    assert apply_edit(three, "a\na\n", "b\n").text == f"{indent}b\n{indent}a\n"


def test_a_line_new_string_adds_keeps_the_typography_the_file_already_uses():
    """old_string typed "hi" where the file has “hi”: those quotes are folded in new_string too; the apostrophe the
    file itself uses (it’s) is not, in a line new_string adds as in one it changes."""
    text = "say “hi”\nit’s\n"
    edited = apply_edit(text, 'say "hi"\nit’s\n', 'say "hi"\nit’s\nwe’re "here"\n')
    assert edited.text == 'say “hi”\nit’s\nwe’re "here"\n' and edited.how == "typography match"


def test_the_typography_match_folds_runs_of_spaces_too():
    edited = apply_edit("x = “a”\n", 'x  =  "a"\n', 'x = "b"\n')
    assert edited.text == "x = “b”\n" and edited.how == "typography match"
