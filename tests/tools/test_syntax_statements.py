"""The lines that decide whether a change broke a file's syntax: the statements around it, and inside a large block
the block's opening and closing lines around the members next to the change."""

import pytest

from narnat_agent.tools.files.statements import Fragment, around
from tests.tools.syntax_corpus import case_id as name


def lines(text: str) -> list[str]:
    return text.split("\n")


# a file, the changed lines (first, last: 1-based), the statements around them (start, end: indices)
STATEMENTS = [
    ("import a\n\ndef f():\n    x = 1\n    return x\n\nclass B:\n    pass\n", (4, 4), (2, 6)),
    ("import a\n\ndef f():\n    x = 1\n    return x\n\nclass B:\n    pass\n", (8, 8), (6, 9)),
    ("import a\n\ndef f():\n", (1, 1), (0, 2)),
    ("import a\nimport b\nimport c\n", (2, 3), (1, 4)),
    # a closing bracket and what continues a statement start none
    ("function f() {\n  if (a) {\n    b();\n  } else {\n    c();\n  }\n}\nconst x = 1;\n", (3, 3), (0, 7)),
    ("x = [\n  1,\n]\ny = (\n  2\n)\nz = {\n}\n", (5, 5), (3, 6)),
    ("def f\n  1\nend\ndef g\n  2\nend\n", (5, 5), (3, 7)),
    ("if a; then\n  b\nelif c; then\n  d\nfi\nfor x in y; do\n  z\ndone\n", (4, 4), (0, 5)),
    ("for x in y; do\n  z\ndone\ncase a in\n  b) c;;\nesac\necho\n", (5, 5), (3, 6)),
    ("try:\n    a()\nexcept E:\n    b()\nfinally:\n    c()\nx = 1\n", (6, 6), (0, 6)),
    ("<div>\n<p>a</p>\n</div>\n<span>\n", (2, 2), (1, 3)),
    # a line that only starts with those words does start a statement
    ("x = 1\nending = 2\nfinal = 3\n", (2, 2), (1, 2)),
]


@pytest.mark.parametrize(
    ("text", "changed", "span"), STATEMENTS, ids=[f"{name(t[:12])}-{c[0]}-{c[1]}" for t, c, _ in STATEMENTS]
)
def test_the_statements_around_a_change_run_from_its_first_statement_to_the_next_one(text, changed, span):
    assert around(lines(text), changed) == Fragment((), *span, ())


def members(count: int) -> list[str]:
    return [f"  int m{n};" for n in range(count)]


def test_a_block_of_more_than_two_hundred_lines_is_narrowed_to_the_members_around_the_change():
    block = lines("\n".join(["class A {", *members(197), "}", ""]))  # 200 lines from its opening to the end
    assert around(block, (10, 10)) == Fragment((), 0, 200, ())
    block = lines("\n".join(["class A {", *members(198), "}", ""]))
    fragment = around(block, (10, 10))
    assert fragment == Fragment((0,), 9, 10, (199, 200))
    assert fragment.text(block) == "class A {\n  int m8;\n}\n"


def test_blocks_nested_in_blocks_are_narrowed_as_deep_as_they_go():
    text = ["namespace N {", "  class A {"] + [f"    void m{n}() {{\n      x();\n    }}" for n in range(100)]
    nested = lines("\n".join([*text, "  };", "}", ""]))
    fragment = around(nested, (150, 150))
    assert fragment == Fragment((0, 1), 149, 152, (302, 303, 304))
    assert [nested[n] for n in fragment.indices] == [
        "namespace N {", "  class A {", "    void m49() {", "      x();", "    }", "  };", "}", ""
    ]  # fmt: skip


def test_a_large_block_is_taken_whole_when_the_change_touches_its_opening_or_closing_line():
    block = lines("\n".join(["class A {", *members(300), "}", ""]))
    assert around(block, (1, 1)) == Fragment((), 0, 303, ())
    assert around(block, (302, 302)) == Fragment((), 0, 303, ())
    assert around(block, (2, 302)) == Fragment((), 0, 303, ())


def test_the_members_of_a_block_end_before_its_closing_lines_and_the_blank_lines_before_them():
    block = lines("\n".join(["class A {", "", *members(300), "", "  ", "}", ""]))
    fragment = around(block, (5, 5))
    assert fragment.head == tuple(range(0, 2)) and fragment.tail == tuple(range(302, 306))
    assert (fragment.start, fragment.end) == (4, 5)


def test_without_a_comma_the_statements_last_comma_before_the_closing_lines_is_left_out():
    document = lines("{\n" + "".join(f' "a{n}": {n},\n' for n in range(300)) + ' "end": 0\n}\n')
    fragment = around(document, (101, 101))
    assert fragment.text(document, comma=False) == '{\n "a99": 99\n}\n'
    assert fragment.text(document) == '{\n "a99": 99,\n}\n'
    plain = Fragment((), 1, 3, ())  # no closing lines: the comma stays
    assert plain.text(document, comma=False) == ' "a0": 0,\n "a1": 1,'
    assert Fragment((0,), 1, 1, (302,)).text(document, comma=False) == "{\n}"  # no statements: nothing to take


def test_a_fragment_in_the_text_before_the_change_and_its_lines_in_the_file():
    fragment = Fragment((0, 1), 10, 13, (40, 41))
    assert fragment.before(2) == Fragment((0, 1), 10, 11, (38, 39))
    assert fragment.before(-1) == Fragment((0, 1), 10, 14, (41, 42))
    assert [fragment.line(n) for n in (1, 2, 3, 5, 6, 7)] == [1, 2, 11, 13, 41, 42]
    assert fragment.line(9) == 44  # past its last line: counted on from there


def test_a_long_statement_with_nothing_but_blank_lines_or_its_own_closing_after_it_is_taken_whole():
    blank = lines("x = 1\n" + "\n" * 250)
    assert around(blank, (100, 100)) == Fragment((), 0, 252, ())
    # the line after the opening is no deeper than it: no members to narrow to
    shallow = lines("x = (\n)\n" + "  y,\n" * 250)
    assert around(shallow, (100, 100)) == Fragment((), 0, 253, ())


def test_members_separated_by_blank_lines_end_at_the_last_member():
    spaced = lines("\n".join(["class A {", *[f"  int m{n};\n" for n in range(150)], "}", ""]))
    assert around(spaced, (298, 298)) == Fragment((0,), 297, 299, (300, 301, 302))


def test_a_change_from_the_opening_line_into_the_members_takes_the_block_whole_and_the_last_member_is_one():
    block = lines("\n".join(["class A {", *[f"  int m{n};" for n in range(300)], "}", ""]))
    assert around(block, (1, 10)) == Fragment((), 0, 303, ())
    assert around(block, (301, 301)) == Fragment((0,), 300, 301, (301, 302))


def test_a_block_of_fewer_than_two_hundred_lines_after_many_statements_is_taken_whole():
    late = lines("\n".join([f"x{n} = 1;" for n in range(150)] + ["class A {", *members(100), "}", ""]))
    assert around(late, (200, 200)) == Fragment((), 150, 253, ())


def test_without_a_comma_only_the_last_statements_comma_is_left_out():
    document = lines("{\n" + "".join(f' "a{n}": {n},\n' for n in range(3)) + "}\n")
    assert Fragment((0,), 1, 3, (4,)).text(document, comma=False) == '{\n "a0": 0,\n "a1": 1\n}'
