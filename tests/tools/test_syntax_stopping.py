"""Where the check names the first error of JavaScript and TypeScript: the token node and tsc stop on, in process,
on small texts that each take one of the ways a compiler names it."""

import json

import pytest

from narnat_agent.tools.files.parsers import SyntaxProblem, parsed
from tests.tools.syntax_corpus import CORPUS, narnat_line
from tests.tools.syntax_corpus import case_id as name

GRAMMARS = {"js": "javascript", "ts": "typescript", "tsx": "tsx"}
# the grammar, the text, the first error: line, column, words
FIRST = [
    # the parser's log names the token that did not fit, past the blank lines and spaces before it
    ("js", "x = 1;\ny = ;\n", 2, 5, "unexpected ';'"),
    ("js", "x =\n\n   ;\n", 3, 4, "unexpected ';'"),
    ("js", "\ny = ;\n", 2, 5, "unexpected ';'"),
    ("js", "x = 1;\n\ny = 2;\nz = é ;;\nw = ;\n", 5, 5, "unexpected ';'"),
    ("js", "let x = y z;\n", 1, 11, "unexpected 'z'"),
    ("js", "x = 1; // note\ny = ;\n", 2, 5, "unexpected ';'"),
    ("js", f"let x = y {'a' * 50};\n", 1, 11, f"unexpected '{'a' * 40}'"),  # forty characters of it at most
    # a token recovery put in where the parser stopped: the token after it is named
    ("js", "x = { a: 1, b: [1, 2\nz();\n", 2, 1, "unexpected 'z'"),
    # a block left open to the end of the file
    ("js", "if (a) {\n  b();\n", 3, 1, "unexpected end of file"),
    ("js", "f(x => { return 1;\nz();\n", 3, 1, "unexpected end of file"),
    # a file recovery took whole into one error, stopped inside it: where it stopped, not the end of the file
    ("js", "f(x => {\n  re[turn 1;\n});\n", 2, 11, "unexpected '1'"),
    # node names an argument list left open by its last argument, whatever the callee, past comments
    ("js", "f(a, b\nx = 1;\n", 1, 6, "missing ')' after the argument list"),
    ("js", "obj.m(a, g(b)\nz();\n", 1, 13, "missing ')' after the argument list"),
    ("js", "super(a\nz();\n", 1, 7, "missing ')' after the argument list"),
    ("js", "f()(a\nz();\n", 1, 5, "missing ')' after the argument list"),
    ("js", "a[0](b\nz();\n", 1, 6, "missing ')' after the argument list"),
    ("js", "this.x(a\nz();\n", 1, 8, "missing ')' after the argument list"),
    ("js", "class A { #p() {} m() { this.#p(a\nz(); } }\n", 1, 33, "missing ')' after the argument list"),
    ("js", "f(a, b /* c */\n// d\nz();\n", 1, 6, "missing ')' after the argument list"),
    ("js", "f(a\n/* c */\nz();\n", 1, 3, "missing ')' after the argument list"),
    ("js", "f(((a)), b\nz();\n", 1, 10, "missing ')' after the argument list"),  # past brackets closed inside
    # a parenthesis that is no call's, or a call inside a bracket left open: the token that did not fit
    ("js", "(a, b\nz();\n", 2, 1, "unexpected 'z'"),
    ("js", "#p(a\nz();\n", 1, 3, "unexpected '('"),
    # a bracket left open further back than the tokens read back is not looked for
    ("js", f"x = [{'a, ' * 1100}b\nz();\n", 2, 1, "unexpected 'z'"),
    # tsc names the token that did not fit, even after an argument list
    ("ts", "f(a, b\nz();\n", 2, 1, "unexpected 'z'"),
    ("tsx", "f(a, b\nz();\n", 2, 1, "unexpected 'z'"),
    # a string left open: the line it opens on, where its quote is
    ("js", "s = 'abc\ny = 3;\n", 1, 6, "string not closed on its line"),
    ("js", 'x = "abc\n', 1, 6, "string not closed on its line"),
    ("js", "x = 'abc' + 'def\nz();\n", 1, 14, "string not closed on its line"),
    ("ts", "let s: string = 'abc\nlet t = 1;\n", 1, 18, "string not closed on its line"),
    # a template runs on over lines: not a string left open
    ("js", "s = 'a' + `b\n", 1, 12, "unexpected 'b'"),
    ("js", "let x = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' 'b';\n", 1, 66, 'unexpected "\'"'),
    # JSX: an element closed by its parent's closing tag names its own opening tag
    ("js", "const A = () => <div><span>x</div>;\n", 1, 22, "<span> has no closing tag"),
    ("tsx", "const A = () => <div><span>x</div>;\n", 1, 22, "<span> has no closing tag"),
    ("js", "const A = () => <a.b><c>x</a.b>;\n", 1, 22, "<c> has no closing tag"),
    ("tsx", "const A = () => (\n  <div>\n    <p>\n  </div>\n);\n", 3, 5, "<p> has no closing tag"),
    ("js", "function A() {\n  return <div>{a}<p>x</div>;\n}\n", 2, 18, "<p> has no closing tag"),
    ("tsx", "function A() {\n  if (x) {\n    return <div><p>x</div>;\n  }\n}\n", 3, 17, "<p> has no closing tag"),
    ("js", "const a = <><p>x</>;\n", 1, 13, "<p> has no closing tag"),
    ("js", "const a = <><p>x</p>;\n", 1, 11, "<> has no closing tag"),  # a fragment: a tag without a name
    ("js", "const a = <div><>x</div>;\n", 1, 16, "<> has no closing tag"),
    # a tag left open where the compiler stops too: the compiler's words
    ("js", "{f(</p>\n", 1, 4, "missing ')' after the argument list"),
    # elements closed by their own tag, before or beside it, are passed over
    ("js", "f(<p>x</p>, <div><span>x</div>);\n", 1, 18, "<span> has no closing tag"),
    ("js", "const a = <div><p>x</p><span>y</div>;\n", 1, 24, "<span> has no closing tag"),
    # the parent's opening tag left in the pieces recovery made of it: a name, a member, an element
    ("js", "const a = <div>\n  <p>\n</div>\nconst b = 1;\n", 2, 3, "<p> has no closing tag"),
    ("tsx", "const a = <div>\n  <Foo>\n</div>;\n", 2, 3, "<Foo> has no closing tag"),
    ("js", "const a = <div>\n  <a.b>\n</div>;\n", 2, 3, "<a.b> has no closing tag"),
    ("js", "const a = <div>\n  <p>{x}\n</div>;\n", 2, 3, "<p> has no closing tag"),
    ("js", "const a = <div>{'{'}<p>x</div>;\n", 1, 21, "<p> has no closing tag"),
    ("js", "const a = <div><div></p>;\n", 1, 11, "<div> has no closing tag"),
    ("js", "const a = <div>{<div></p>;\n", 1, 11, "<div> has no closing tag"),  # a brace starts a tree of its own
    # a closing tag that closes nothing open is named itself
    ("js", "const a = <div></span></div>;\n", 1, 16, "expected </div>"),
    # an opening tag no closing tag follows
    ("js", "const A = () => <div>x;\n", 1, 17, "<div> has no closing tag"),
    ("tsx", "const A = () => <div><span>x</p>;\n", 1, 17, "<div> has no closing tag"),
    ("js", "const A = () => <div>x;\nx = ;\n", 1, 17, "<div> has no closing tag"),
    # an error before the tag is the first
    ("js", "x = ;\nconst A = () => <div>x;\n", 1, 5, "unexpected ';'"),
]


@pytest.mark.parametrize("case", FIRST, ids=[f"{c[0]}-{name(c[1])}" for c in FIRST])
def test_the_first_error_is_the_token_the_compiler_stops_on(case):
    kind, text, line, column, words = case
    found = parsed(GRAMMARS[kind], text, f"a.{kind}")[0]
    assert found[0] == SyntaxProblem(line, column, words, text.split("\n")[line - 1])


# Broken edits of the recorded corpus (tests/fixtures/syntax), one of each kind in each JavaScript and TypeScript file,
# and those of the TSX files whose tags are read past an error node, a brace or an expression: the slow test of the
# whole corpus is not run for each change of the code
RECORDED = [
    "useFieldArray.test.tsx:1468:unterminated-template", "useFieldArray.test.tsx:207:unterminated-template",
    "useFieldArray.test.tsx:484:unterminated-template", "useForm.test.tsx:1604:unterminated-template",
    "useFieldArray.test.tsx:4473:missing-closing-tag", "useForm.test.tsx:204:missing-closing-tag",
    "useFieldArray.test.tsx:1251:missing-closing-tag", "useFieldArray.test.tsx:2538:missing-closing-tag",
    "useFieldArray.test.tsx:362:unterminated-template", "yargs-parser.test.mjs:4077:unclosed-brace-line",
    "yargs-parser.test.mjs:114:unclosed-paren", "yargs-parser.test.mjs:2528:unclosed-bracket",
    "yargs-parser.test.mjs:3013:unterminated-string", "yargs-parser.test.mjs:3516:extra-open-paren",
    "yargs-parser.test.mjs:8:stray-brace", "lodash.core.js:1105:unclosed-brace-line",
    "lodash.core.js:1451:unclosed-paren",
    "lodash.core.js:811:unclosed-bracket", "lodash.core.js:3177:stray-brace", "lodash.core.js:3816:unterminated-string",
    "lodash.core.js:1287:extra-open-paren", "yargs-parser.ts:725:unclosed-brace-line",
    "yargs-parser.ts:267:unclosed-paren",
    "yargs-parser.ts:782:unclosed-bracket", "yargs-parser.ts:643:unterminated-string",
    "yargs-parser.ts:1044:extra-open-paren", "yargs-parser.ts:644:unterminated-template",
    "yargs-parser.ts:486:extra-open-brace", "createFormControl.ts:789:unclosed-brace-line",
    "createFormControl.ts:518:unclosed-paren", "createFormControl.ts:784:unclosed-bracket",
    "createFormControl.ts:187:stray-brace", "createFormControl.ts:156:unterminated-string",
    "createFormControl.ts:457:extra-open-paren", "createFormControl.ts:416:unterminated-template",
]  # fmt: skip
CASES = {f"{c['file']}:{c['line']}:{c['kind']}": c for c in json.loads(CORPUS.read_text())}


@pytest.mark.parametrize("case", RECORDED, ids=[name(c) for c in RECORDED])
def test_on_a_large_real_file_the_first_error_is_on_the_line_the_compiler_named(case):
    assert narnat_line(CASES[case]) == CASES[case]["compiler_line"], CASES[case]["message"]
