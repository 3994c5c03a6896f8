"""The parsers behind the syntax check, in process: each language's errors placed and worded as its own tools place
them, and a parse reused for a changed text giving what a fresh parse gives."""

import pytest

from narnat_agent.tools.files.parsers import Parsed, SyntaxProblem, parsed
from tests.tools.syntax_corpus import case_id as name

YAML = [
    # libyaml names the line and column it stops on, and the line is quoted
    ("a: 1\nb: c: d\n", SyntaxProblem(2, 5, "mapping values are not allowed in this context", "b: c: d")),
    ("a: 1\n- b\n", SyntaxProblem(2, 1, "did not find expected key, while parsing a block mapping", "- b")),
    # it stops past the last line: there is no line to quote
    ("a: [", SyntaxProblem(2, 1, "did not find expected node content, while parsing a flow node", "")),
    # a character YAML does not allow: placed by the reader, in characters, on its own line
    ("a: 1\nb: \x01\n", SyntaxProblem(2, 4, "control characters are not allowed", "b: \x01")),
    ("a: é\x07\n", SyntaxProblem(1, 6, "control characters are not allowed", "a: é\x07")),
    ("\x07", SyntaxProblem(1, 1, "control characters are not allowed", "\x07")),
    ("\na: \x01\n", SyntaxProblem(2, 4, "control characters are not allowed", "a: \x01")),
    ("a: 1\nb: 2\nc: \x01\n", SyntaxProblem(3, 4, "control characters are not allowed", "c: \x01")),
]


@pytest.mark.parametrize(("text", "problem"), YAML, ids=[name(t) for t, _ in YAML])
def test_a_yaml_error_is_placed_where_libyaml_stops_and_quotes_that_line(text, problem):
    assert parsed("yaml", text, "a.yaml") == ([problem], None)


def test_yaml_nested_past_libyamls_limit_is_not_judged_as_broken():
    # libyaml stops at 1,000 levels: its own limit, which valid YAML may pass; the caller says it could not check
    with pytest.raises(RecursionError, match="maximum nesting depth"):
        parsed("yaml", "[" * 1100 + "]" * 1100 + "\n", "deep.yaml")


def test_yaml_and_python_that_parse_have_no_errors_and_no_tree_to_reuse():
    assert parsed("yaml", "a: 1\nb: [c]\n", "a.yaml") == ([], None)
    assert parsed("python", "x = 1\n", "a.py") == ([], None)


def test_a_python_error_is_the_compilers_own_line_column_and_words():
    assert parsed("python", "def f():\nreturn 1\n", "a.py") == (
        [SyntaxProblem(2, 1, "expected an indented block after function definition on line 1", "return 1")],
        None,
    )
    assert parsed("python", "é = $\n", "a.py")[0] == [SyntaxProblem(1, 5, "invalid syntax", "é = $")]
    # the compiler ends a line at \r\n and at a lone \r too: the line quoted is the one it names
    for ending in ("\r\n", "\r"):
        text = ending.join(["x = 1", "y = )", "z = 2", ""])
        assert parsed("python", text, "a.py")[0] == [SyntaxProblem(2, 5, "unmatched ')'", "y = )")]


def shape(tree: Parsed | None) -> list[tuple]:
    """Every node of a parse, where it lies and whether it holds an error."""
    assert tree is not None
    found, pending = [], [tree[1].root_node]
    while pending:
        node = pending.pop()
        found.append((node.type, node.start_byte, node.end_byte, node.start_point, node.end_point, node.has_error))
        pending.extend(node.children)
    return found


OLD = "function f(a) {\n  return a + 1;\n}\nconst é = 2;\nfunction g() {\n  return 3;\n}\n"
CHANGES = [
    ("a + 1", "a +"),  # a character removed inside
    ("return 3;", "return ;;"),  # near the end
    ("function f", "xfunction f"),  # at the very start
    ("}\nconst", "}\nconst y = (\nconst"),  # a line inserted
    ("const é = 2;\n", ""),  # a line removed
    ("é", "éé = ("),  # after a character of two bytes
    ("return 3;\n}\n", "return 3;\n}\nf("),  # at the very end
    ("  return a + 1;\n}\nconst é = 2;\n", "  return [a,\n"),  # lines replaced by fewer
]


@pytest.mark.parametrize(("old", "new"), CHANGES, ids=[name(new) for _, new in CHANGES])
def test_a_parse_reused_for_a_changed_text_gives_what_a_fresh_parse_gives(old, new):
    after = OLD.replace(old, new, 1)
    fresh = parsed("javascript", after, "a.js")
    reused = parsed("javascript", after, "a.js", parsed("javascript", OLD, "a.js")[1])
    assert reused[0] == fresh[0]
    assert shape(reused[1]) == shape(fresh[1])


def test_a_parse_reused_for_a_text_grown_at_both_ends_gives_what_a_fresh_parse_gives():
    old = "x = 1;\ny = 2;\n"
    pairs = [(old, "(" + old + ")"), (old, "z;\n" + old + "w("), (old, old * 2), (old, ""), (old, "x = 1;\n")]
    for before, after in [*pairs, (")}", "1=)1")]:  # the first byte changed too
        fresh = parsed("javascript", after, "a.js")
        reused = parsed("javascript", after, "a.js", parsed("javascript", before, "a.js")[1])
        assert reused[0] == fresh[0]
        assert shape(reused[1]) == shape(fresh[1])


def test_the_errors_after_the_first_one_javascript_names_are_listed_only_past_it():
    # node names the argument list left open; tree-sitter's missing ')' further on is a separate mistake to show
    assert parsed("javascript", "f(a, b\nx = 1;\n", "a.js")[0] == [
        SyntaxProblem(1, 6, "missing ')' after the argument list", "f(a, b"),
        SyntaxProblem(2, 6, "missing ')'", "x = 1;"),
    ]
    # a string left open: the rest of the line is its echo
    assert parsed("javascript", "s = 'abc\ny = 3;\n", "a.js")[0] == [
        SyntaxProblem(1, 6, "string not closed on its line", "s = 'abc")
    ]


def test_a_grammar_that_names_no_first_error_lists_its_error_nodes_in_order_at_most_three():
    text = "package m\nfunc f() {\n\tx := (1\n}\nfunc g() {\n\ty := [2\n}\nfunc h() {\n\tz := {3\n}\n"
    assert parsed("go", text + "func i() {\n\tw := (4\n}\n", "a.go")[0] == [
        SyntaxProblem(3, 9, "missing ')'", "\tx := (1"),
        SyntaxProblem(6, 2, "unexpected 'y := [2'", "\ty := [2"),
        SyntaxProblem(9, 7, "unexpected '{'", "\tz := {3"),
    ]


def test_a_token_the_grammar_missed_is_named_as_missing():
    assert parsed("rust", "fn main() {\n    let x = 1\n}\n", "a.rs")[0] == [
        SyntaxProblem(2, 14, "missing ';'", "    let x = 1")
    ]


def test_bytes_that_are_not_utf8_in_what_was_unexpected_are_shown_as_replacement_characters():
    # what a file not in UTF-8 decodes to with surrogateescape, as Read and Edit decode it
    assert parsed("go", "package m\nvar x = \udcff\udcfe c d\n", "a.go")[0] == [
        SyntaxProblem(2, 9, "unexpected '\ufffd\ufffd c'", "var x = \ufffd\ufffd c d")
    ]


def test_a_parse_reused_for_a_changed_text_takes_its_unchanged_parts_from_the_old_parse():
    old = "".join(f"function f{n}(a) {{\n  return a + {n};\n}}\n" for n in range(50))
    before = parsed("javascript", old, "a.js")[1]
    assert before is not None
    after = parsed("javascript", old.replace("a + 25;", "a + 26;"), "a.js", before)[1]
    assert after is not None
    # the functions far from the change, before it and after it, are the old parse's own, not parsed again
    old_nodes, new_nodes = before[1].root_node.children, after[1].root_node.children
    assert new_nodes[0].id == old_nodes[0].id
    assert any(a.id == b.id for a, b in zip(old_nodes[30:], new_nodes[30:], strict=True))


def test_an_error_node_that_holds_no_text_is_the_end_of_the_file():
    # a line continuation on the last line continues into nothing
    assert parsed("c", "int x;\n\\\n", "a.c")[0] == [SyntaxProblem(3, 1, "unexpected end of file", "")]
