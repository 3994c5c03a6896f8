"""The syntax check names the line the compiler names, on broken edits of large real files: the recorded corpus
(CI holds it without a compiler), and the compilers themselves where they are installed (node, TypeScript)."""

import json
import shutil
from collections import Counter

import pytest

from tests.tools.syntax_corpus import CORPUS, SOURCES, compiler, compilers_lines, draw, narnat_line, typescript_loads

CASES = json.loads(CORPUS.read_text())
# Where Narnat names another line than the compiler, and why; strict, so a change that makes one agree says so here
DIFFERENT = {
    "yargs-parser.ts:992:unterminated-template": "tsc names the end of the file; tree-sitter closes the template at "
    "the next backtick and stops in the code after it",
    "useFieldArray.test.tsx:4916:unclosed-brace-line": "tsc stops on a type annotation tree-sitter reads on",
    "useFieldArray.test.tsx:2307:unterminated-template": "a template run on into JSX",
    "useFieldArray.test.tsx:1901:unterminated-template": "a template run on into JSX",
    "useFieldArray.test.tsx:2171:unterminated-template": "a template run on into JSX",
    "useFieldArray.test.tsx:4150:missing-closing-tag": "tsc gives the closing tag back two levels up",
    "useForm.test.tsx:2526:unclosed-brace-line": "tsc stops on a type annotation tree-sitter reads on",
    "useForm.test.tsx:1534:unterminated-string": "a quote closed lines below by another string's quote",
    "useForm.test.tsx:1857:unterminated-string": "a quote closed lines below by another string's quote",
    "useForm.test.tsx:3216:unterminated-string": "tsc's own JSX rule (one parent element) names the line before",
    "useForm.test.tsx:1691:unterminated-template": "a template run on into JSX",
    "useForm.test.tsx:1689:unterminated-template": "a template run on into JSX",
    "useForm.test.tsx:1603:unterminated-template": "a template run on into JSX",
    "useForm.test.tsx:256:unterminated-template": "a template run on into a JSX fragment",
    "useForm.test.tsx:1608:unterminated-template": "a template run on into JSX",
    "useForm.test.tsx:429:missing-closing-tag": "a JSX fragment (<>) tsc names by its opening; tree-sitter reads on",
}
AGREEMENT = 0.9  # of fresh broken edits, Narnat names the compiler's line for at least this share


def name(case: dict) -> str:
    return f"{case['file']}:{case['line']}:{case['kind']}"


def recorded(case: dict):
    reason = DIFFERENT.get(name(case))
    return pytest.param(case, id=name(case), marks=[pytest.mark.xfail(reason=reason, strict=True)] if reason else [])


def test_the_corpus_covers_each_kind_of_file_and_every_difference_is_a_case_of_it():
    assert Counter(compiler(c["file"]) for c in CASES).keys() == {"node", "typescript", "python"}
    assert {c["file"].rsplit(".", 1)[1] for c in CASES} == {"mjs", "js", "ts", "tsx", "py"}
    assert set(DIFFERENT) <= {name(c) for c in CASES}
    assert len({name(c) for c in CASES}) == len(CASES)


@pytest.mark.slow  # 539 cases, about 20 ms each
@pytest.mark.parametrize("case", [recorded(c) for c in CASES])
def test_the_check_names_the_line_the_compiler_named(case):
    assert narnat_line(case) == case["compiler_line"], case["message"]


def _needs(case: dict) -> str | None:
    """Why the case's compiler cannot be asked here, or None."""
    kind = compiler(case["file"])
    if kind != "python" and shutil.which("node") is None:
        return "node is not installed"
    if kind == "typescript" and not typescript_loads():
        return "node cannot load typescript (npm install --prefix DIR typescript; NODE_PATH=DIR/node_modules)"
    return None


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["node", "typescript", "python"])
def test_the_recorded_lines_are_the_compilers_own(kind):
    cases = [c for c in CASES if compiler(c["file"]) == kind]
    if reason := _needs(cases[0]):
        pytest.skip(reason)
    assert [line for line, _ in compilers_lines(cases)] == [c["compiler_line"] for c in cases]


@pytest.mark.slow
@pytest.mark.parametrize("file", list(SOURCES))
def test_on_fresh_broken_edits_the_check_names_the_compilers_line(file):
    cases = draw(file, 1000 + sum(map(ord, file)), 3)  # other lines than the recorded ones
    if reason := _needs(cases[0]):
        pytest.skip(reason)
    answers = [(c, line) for c, (line, _) in zip(cases, compilers_lines(cases), strict=True) if line is not None]
    missed = [f"{name(c)}: compiler {line}, Narnat {narnat_line(c)}" for c, line in answers if narnat_line(c) != line]
    assert len(missed) <= (1 - AGREEMENT) * len(answers), "\n".join(missed)
