"""Edit and Write say when a change breaks a file's syntax, through the real parsers, and stay quiet otherwise."""

import io
import re
from pathlib import Path

import pytest

from narnat_agent.tools.base import Diff, Result
from narnat_agent.tools.files.syntax_check import SyntaxProblem, changed_lines, introduced, language, problems
from narnat_agent.tools.registry import execute
from narnat_agent.ui.plain import PlainUI
from tests.tools.syntax_corpus import edit_strings, source

# file name, the file, a valid edit (old, new), an edit that breaks it (old, new), the line the error is on
CASES = [
    ("app.py", "def f(x):\n    return x + 1\n", ("x + 1", "x + 2"), ("def f(x):", "def f(x:"), 1),
    # node --check and tsc name the end of the file for a block left open: the line after the last
    ("app.js", "function f(a) {\n  return a + 1;\n}\n", ("a + 1", "a * 2"), ("return a + 1;\n}", "return a + 1;"), 3),
    ("app.ts", "const n: number = 1;\nexport { n };\n", ("= 1", "= 2"), ("= 1;", "= ;"), 1),
    ("app.tsx", "export const A = () => <div>hi</div>;\n", ("hi", "hello"), ("<div>hi</div>;", "<div>hi</div"), 1),
    ("data.json", '{\n  "a": [1, 2],\n  "b": true\n}\n', ("true", "false"), ("[1, 2]", "[1, 2"), 2),
    # libyaml (PyYAML's parser, as YAML's tools read it) names the line it stops on, where tree-sitter named line 1
    ("conf.yaml", "a: 1\nb:\n  - x\n", ("- x", "- y"), ("- x", "- x\n c: [\n"), 4),
    ("pyproject.toml", '[tool]\nname = "x"\n', ('"x"', '"y"'), ("[tool]", "[tool"), 1),
    ("main.go", "package main\n\nfunc main() {\n}\n", ("main() {", "main()  {"), ("{\n}", "{\n"), 3),
    ("main.rs", "fn main() {\n    let x = 1;\n}\n", ("= 1", "= 2"), ("= 1", "="), 2),
    ("A.java", "class A {\n  void f() {}\n}\n", ("void f", "int g() { return 1; }\n  void f"), ("{}", "{"), 3),
    ("main.c", "int main(void) {\n  return 0;\n}\n", ("return 0;", "return 1;"), ("return 0;", "return 0"), 2),
    ("a.cpp", "class A {\n public:\n  int x;\n};\n", ("int x;", "int y;"), ("};", "}"), 4),
    ("A.cs", "class A {\n  void F() {}\n}\n", ("void F", "public void F"), ("{}", "{"), 1),
    ("a.rb", "def f\n  1\nend\n", ("1", "2"), ("end\n", "\n"), 1),
    ("a.php", "<?php\nfunction f() {\n  return 1;\n}\n", ("1;", "2;"), ("}", ""), 2),
    ("run.sh", "if true; then\n  echo hi\nfi\n", ("hi", "hello"), ("fi\n", "\n"), 4),
    ("page.html", "<html><body><p>hi</p></body></html>\n", ("hi", "hello"), ("<p>hi</p>", "<p>hi</p></"), 1),
    ("style.css", "a {\n  color: red;\n}\n", ("red", "blue"), ("}", ""), 2),
]


def read_and_edit(project, workspace, name, content, old, new):
    (project / name).write_text(content)
    execute("Read", {"file_path": name}, workspace)
    return execute("Edit", {"file_path": name, "old_string": old, "new_string": new}, workspace)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_valid_edit_says_nothing_about_syntax(project, workspace, case):
    name, content, (old, new), _, _ = case
    result = read_and_edit(project, workspace, name, content, old, new)
    assert not result.is_error, result.text
    assert "Syntax" not in result.text and isinstance(result.detail, Diff) and result.detail.syntax == ""


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_an_edit_that_breaks_the_syntax_says_where(project, workspace, case):
    name, content, _, (old, new), line = case
    result = read_and_edit(project, workspace, name, content, old, new)
    assert not result.is_error, result.text  # the edit is made: the model decides what to do about it
    assert "this change introduced a syntax error" in result.text, result.text
    assert f"line {line}, column " in result.text
    assert isinstance(result.detail, Diff) and result.detail.syntax in result.text


def test_a_file_already_broken_elsewhere_does_not_cry_wolf(project, workspace):
    broken = "def ok():\n    return 1\n\ndef broken(:\n    pass\n"
    assert read_and_edit(project, workspace, "old.py", broken, "return 1", "return 2").detail.syntax == ""
    (project / "half.js").write_text("function a() { return 1; }\nfunction b( { }\n")
    execute("Read", {"file_path": "half.js"}, workspace)
    quiet = execute("Edit", {"file_path": "half.js", "old_string": "return 1", "new_string": "return 2"}, workspace)
    assert quiet.detail.syntax == ""
    execute("Read", {"file_path": "half.js"}, workspace)
    loud = execute("Edit", {"file_path": "half.js", "old_string": "return 2;", "new_string": "return [2;"}, workspace)
    assert "line 1, column" in loud.detail.syntax and "return [2;" in loud.detail.syntax


def test_c_with_macros_the_grammar_misreads_is_not_judged(project, workspace):
    macros = "#define local static\nlocal int f(void) { return 0; }\n"
    result = read_and_edit(project, workspace, "m.c", macros, "return 0;", "return 1;")
    assert result.detail.syntax == ""


def test_write_checks_new_files_and_unknown_languages_get_no_check(project, workspace):
    created = execute("Write", {"file_path": "new.py", "content": "x = (\n"}, workspace)
    assert "Syntax check (python): this change introduced a syntax error" in created.text
    assert "    x = (" in created.text
    fine = execute("Write", {"file_path": "ok.json", "content": '{"a": 1}\n'}, workspace)
    assert "Syntax" not in fine.text
    notes = execute("Write", {"file_path": "notes.txt", "content": "def f(:\n{[\n"}, workspace)
    assert "Syntax" not in notes.text and notes.detail.syntax == ""


def test_the_plain_ui_shows_the_finding_under_the_result():
    err = io.StringIO()
    finding = "Syntax check (python): this change introduced a syntax error:\n  line 1, column 5: invalid syntax"
    PlainUI(io.StringIO(), err).tool_end(Result("…", "1 line changed", detail=Diff("@@ -1 +1 @@", finding)))
    assert err.getvalue().splitlines()[1:] == [f"    {line}" for line in finding.splitlines()]


def test_the_finding_reaches_the_model_in_english_and_a_person_in_the_interfaces_language(project, workspace):
    from narnat_agent import i18n

    created = execute("Write", {"file_path": "new.py", "content": "x = 1\ny = (\n"}, workspace)
    i18n.use("zh-CN")
    try:
        err = io.StringIO()
        PlainUI(io.StringIO(), err).tool_end(created)
    finally:
        i18n.use("en")
    assert created.text.count("Syntax check (python): this change introduced a syntax error:\n  line 2, column") == 1
    shown = err.getvalue()
    assert "语法检查（python）" in shown and "第 2 行" in shown and "Syntax check" not in shown, shown
    assert "    y = (" in shown  # the source line as it is


def test_in_a_large_file_the_statements_around_the_edit_decide_and_errors_are_confirmed_on_the_whole(
    project, workspace
):
    functions = "".join(f"def f{n}(x):\n    return x + {n}\n\n\n" for n in range(300))
    source = f'HELP = """\nUsage: tool [options]\n  -v  verbose\n"""\n\n\n{functions}'
    valid = read_and_edit(project, workspace, "big.py", source, "Usage: tool", "Usage: the tool")  # inside a string
    assert valid.detail.syntax == ""
    execute("Read", {"file_path": "big.py"}, workspace)
    broken = execute(
        "Edit", {"file_path": "big.py", "old_string": "return x + 150", "new_string": "return x +"}, workspace
    )
    assert "line 608, column" in broken.detail.syntax and "    return x +" in broken.detail.syntax
    script = "".join(f"function f{n}(x) {{\n  return x + {n};\n}}\n" for n in range(300))
    (project / "big.js").write_text(script)
    execute("Read", {"file_path": "big.js"}, workspace)
    unclosed = execute("Edit", {"file_path": "big.js", "old_string": "+ 150;\n}", "new_string": "+ 150;"}, workspace)
    assert "Syntax check (javascript)" in unclosed.detail.syntax


def test_json_that_its_readers_allow_comments_and_trailing_commas_in_is_not_judged(project, workspace):
    (project / ".vscode").mkdir()
    for name in ("tsconfig.json", ".vscode/settings.json"):
        result = execute("Write", {"file_path": name, "content": '{\n  // strict\n  "a": 1,\n}\n'}, workspace)
        assert "Syntax" not in result.text, name
    assert "Syntax check" in execute("Write", {"file_path": "package.json", "content": '{"a": 1,}\n'}, workspace).text


DEEP = {
    "RecursionError": "x = " + "1+" * 200_000 + "1\n",  # the compiler recurses once per operator
    "MemoryError": "x = " + "-" * 200_000 + "1\n",  # the parser gives up on the nesting with a MemoryError
}


@pytest.mark.parametrize("error", DEEP)
def test_a_check_that_crashes_on_a_deeply_nested_file_leaves_the_write_done_and_says_so(project, workspace, error):
    created = execute("Write", {"file_path": "deep.py", "content": DEEP[error]}, workspace)
    assert not created.is_error and created.text.startswith("Created deep.py (1 line).")
    assert f"Written; syntax not checked ({error}: the file is nested too deeply to parse)." in created.text
    assert (project / "deep.py").read_text() == DEEP[error]


@pytest.mark.parametrize("error", DEEP)
def test_a_check_that_crashes_on_a_deeply_nested_file_leaves_the_edit_done_and_says_so(project, workspace, error):
    result = read_and_edit(project, workspace, "deep.py", DEEP[error], "x = ", "y = ")
    assert not result.is_error and result.text.startswith("Edited deep.py at line 1")
    assert f"Written; syntax not checked ({error}: the file is nested too deeply to parse)." in result.text
    assert result.detail.syntax in result.text and (project / "deep.py").read_text() == "y" + DEEP[error][1:]


@pytest.mark.parametrize(
    "content",
    ["a: " + "[" * 2000 + "]" * 2000 + "\n", "a: " + "{x: " * 1500 + "1" + "}" * 1500 + "\n",
     "".join("  " * depth + f"k{depth}:\n" for depth in range(1100)) + "  " * 1100 + "v\n"],
    ids=["flow-sequences", "flow-mappings", "block-mappings"],
)  # fmt: skip
def test_a_yaml_document_deeper_than_libyaml_goes_is_written_and_not_called_broken(project, workspace, content):
    # libyaml stops at 1,000 levels with "exceeded maximum nesting depth": its limit, not the document's error
    created = execute("Write", {"file_path": "deep.yaml", "content": content}, workspace)
    assert not created.is_error and "syntax error" not in created.text
    assert "Written; syntax not checked (RecursionError: the file is nested too deeply to parse)." in created.text


def test_a_json_document_nested_deeper_than_pythons_reader_goes_is_checked_by_its_grammar():
    deep = "[" * 5000 + "]" * 5000  # Python's JSON reader gives up with a RecursionError; the grammar reads on
    assert introduced(Path("deep.json"), "", deep) == ""
    said = introduced(Path("deep.json"), "", deep[:-1])
    assert said.startswith("Syntax check (json): this change introduced a syntax error:\n  line 1, column 10000: ")


def test_a_large_json_document_is_judged_by_the_members_around_the_edit(project, workspace):
    members = "".join(f'  "key_{n}": [{n}, "label {n}"],\n' for n in range(300))

    def edit(old, new):
        (project / "big.json").write_text("{\n" + members + '  "end": 0\n}\n')
        execute("Read", {"file_path": "big.json"}, workspace)
        return execute("Edit", {"file_path": "big.json", "old_string": old, "new_string": new}, workspace).detail

    assert edit('[150, "label 150"]', '[151, "label 150"]').syntax == ""
    broken = edit('[150, "label 150"]', '[150, "label 150"').syntax
    assert "line 152, column" in broken and '    "key_150": [150, "label 150",' in broken
    assert "Syntax check (json)" in edit('"label 150"],', '"label 150"]').syntax  # the comma before the next member
    assert "Syntax check (json)" in edit('[200, "label 200"]', '[NaN, "label 200"]').syntax  # not standard JSON


def test_a_large_block_is_judged_by_its_members_around_the_edit(project, workspace):
    members = "".join(f"  int value{n} = {n};\n" for n in range(300))
    java = read_and_edit(
        project, workspace, "Big.java", f"class Big {{\n{members}}}\n", "value150 = 150;", "value150 = (150;"
    )
    assert "line 152, column" in java.detail.syntax and "  int value150 = (150;" in java.detail.syntax
    php = "<?php\n" + "".join(f"$value{n} = {n};\n" for n in range(300))
    assert read_and_edit(project, workspace, "big.php", php, "$value150 = 150;", "$value150 = 151;").detail.syntax == ""
    broken = read_and_edit(project, workspace, "big.php", php, "$value150 = 150;", "$value150 = (150;").detail.syntax
    assert "line 152, column" in broken and "$value150 = (150;" in broken


def test_removing_the_lines_that_closed_a_statement_is_seen_in_a_large_file(project, workspace):
    functions = "".join(f"def f{n}(x):\n    return x + {n}\n\n\n" for n in range(300))
    source = f"{functions}TABLE = (1,\n         2)\n{functions.replace('def f', 'def g')}"  # a statement right after
    result = read_and_edit(project, workspace, "big.py", source, "         2)\n", "")
    assert "line 1201, column" in result.detail.syntax and "'(' was never closed" in result.detail.syntax


# A broken edit of a large real file (tests/fixtures/syntax), the line its compiler names and Narnat's words for it
COMPILERS_LINES = [
    # node --check: an argument list left open is named by its last argument's line
    ("yargs-parser.test.mjs", 4087, "      argv.arr.should.eql(['foo']\n", 4087, "missing ')' after the argument list"),
    # node --check: a test's closing line removed leaves the describe block open until the end of the file
    ("yargs-parser.test.mjs", 4077, "", 4177, "unexpected end of file"),
    # tsc names the token that did not fit, on the next line
    ("yargs-parser.ts", 451, "        argv._.push(maybeCoercedNumber\n", 452, "unexpected '}'"),
    # both name the line of a string left open
    ("lodash.core.js", 3816, "  }()), { 'chain: false });\n", 3816, "string not closed on its line"),
    # tsc names the opening tag of an element whose closing tag is gone
    ("useFieldArray.test.tsx", 2417, "          \n", 2406, "<div> has no closing tag"),
]


@pytest.mark.parametrize("case", COMPILERS_LINES, ids=[f"{c[0]}:{c[1]}" for c in COMPILERS_LINES])
def test_in_a_large_file_the_check_names_the_line_the_compiler_names(project, workspace, case):
    name, line, new_line, named, message = case
    text = source(name)
    old, new = edit_strings({"file": name, "line": line, "old": text.splitlines(True)[line - 1], "new": new_line})
    result = read_and_edit(project, workspace, name, text, old, new)
    first = re.search(r"line (\d+), column \d+: (.*)", result.detail.syntax)
    assert first and (int(first[1]), first[2]) == (named, message), result.detail.syntax  # named first


def test_a_second_copy_of_an_error_the_file_had_is_the_changes_own():
    path = Path("app.js")
    before = "x = ;\nconst ok = 2;\n"
    assert introduced(path, before, before + "x = ;\n") == (
        "Syntax check (javascript): this change introduced a syntax error:\n  line 3, column 3: unexpected '='\n"
        "    x = ;"
    )
    assert introduced(path, before, "const first = 0;\n" + before) == ""  # the old error moved down: still the old one


def test_a_second_copy_of_an_error_is_the_changes_own_where_the_grammar_lists_every_error():
    # Go's errors are tree-sitter's error nodes, each listed (JavaScript names only its first, where node stops)
    before = "package m\n\nfunc f() {\n\tx := (1\n}\n"
    assert introduced(Path("a.go"), before, before + "\nfunc g() {\n\tx := (1\n}\n") == (
        "Syntax check (go): this change introduced a syntax error:\n  line 8, column 9: missing ')'\n    \tx := (1"
    )
    assert introduced(Path("a.go"), before, "package m\n\nfunc e() {}\n" + before[10:]) == ""  # the old one moved


def test_a_go_function_left_open_is_named_where_go_build_stops_at_the_next_function(project, workspace):
    # go build: "a.go:7:6: syntax error: unexpected name b, expected (" — the statements around the Edit alone end
    # on the blank line before, where tree-sitter closes the function
    content = "package main\n\nfunc a() {\n\tx := 1\n\t_ = x\n}\n\nfunc b() {\n}\n"
    result = read_and_edit(project, workspace, "a.go", content, "\t_ = x\n}\n", "\t_ = x\n")
    assert "\n  line 7, column 6: unexpected 'b'\n    func b() {" in result.text, result.text


def test_the_lines_an_edit_wrote_include_both_sides_of_lines_it_only_removed():
    assert changed_lines([(5, 2, 0)]) == (4, 5)  # the line before the gap may now end a statement left open
    assert changed_lines([(1, 1, 0)]) == (1, 1)
    assert changed_lines([(5, 1, 3)]) == (5, 7)
    assert changed_lines([(9, 1, 1), (2, 1, 3)]) == (2, 11)  # the second change's lines moved by the first's two


@pytest.mark.parametrize(
    ("name", "checked"),
    [("DATA.JSON", "json"), ("App.TS", "typescript"), ("tool.PY", None), ("tsconfig.json", None),
     (".vscode/settings.json", None), ("notes.txt", None), ("stub.pyi", "python")],
)  # fmt: skip
def test_the_language_checked_follows_the_extension_whatever_its_case(name, checked):
    assert language(Path(name)) == checked


@pytest.mark.parametrize("between", ["\x0c", "\r", "\u2028"])
def test_a_python_error_quotes_its_own_line_whatever_ends_the_lines_above(between):
    text = f's = "a{between}b"\n' if between == "\u2028" else f"x = 1{between}\n"
    assert problems(Path("a.py"), text + "y = (\n") == [SyntaxProblem(2, 5, "'(' was never closed", "y = (")]


def test_a_python_error_past_the_last_line_quotes_the_compilers_text():
    [problem] = problems(Path("a.py"), "x = '''open")
    assert (problem.line, problem.text) == (1, "x = '''open")


def test_errors_are_placed_in_characters_and_at_most_three_are_listed():
    assert problems(Path("a.js"), "const é = ;\n") == [SyntaxProblem(1, 11, "unexpected ';'", "const é = ;")]
    many = problems(Path("a.js"), "x = ;\n" * 5)
    assert [p.line for p in many] == [1, 2, 3]


def test_an_error_says_the_first_line_of_what_was_unexpected_at_most_forty_characters_of_it():
    # in a language whose error is the grammar's node (a JavaScript one is the token the parser stopped at)
    [words] = problems(Path("a.go"), "package m\nvar x = a b c d e f g h i j k l m n o p q r s t u v w x y z aa bb\n")
    assert words.message == "unexpected 'a b c d e f g h i j k l m n o p q r s t '"
    [spread] = problems(Path("a.c"), "int f( {\n  a b\n")
    assert spread.message == "unexpected 'int f( {'" and "\\n" not in spread.message


def test_bytes_that_are_not_utf8_neither_break_the_check_nor_hide_the_error():
    # what a file not in UTF-8 decodes to with surrogateescape, as Read and Edit decode it
    assert problems(Path("a.js"), "x = '\udcff' +;\n") == [SyntaxProblem(1, 10, "unexpected ';'", "x = '\ufffd' +;")]
    [odd] = problems(Path("a.js"), "x = 1;\n\udcff\udcfe y;\n")
    assert odd.line == 2 and "\ufffd" in odd.message and odd.text == "\ufffd\ufffd y;"


def test_several_errors_are_counted_and_listed_one_by_one():
    said = introduced(Path("app.js"), "x = 1;\ny = 2;\n", "x = ;\ny = ;\n")
    assert said == (
        "Syntax check (javascript): this change introduced 2 syntax errors:\n"
        "  line 1, column 5: unexpected ';'\n    x = ;\n"
        "  line 2, column 3: unexpected '='\n    y = ;"
    )
    three = introduced(Path("m.rs"), "", "fn a() { let x = ; }\nfn b() { let y = ; }\nfn c() { let z = ; }\n")
    assert re.findall(r"line (\d+), column", three) == ["1", "2", "3"]  # in the file's order


def test_an_error_around_the_edit_is_found_where_the_grammar_misreads_a_macro_elsewhere():
    before = "#define local static\nlocal int f(void) { return 0; }\n\nint g(void) {\n  return 1;\n}\n"
    after = before.replace("return 1;", "return 1")
    assert introduced(Path("m.c"), before, after, (5, 5)) == (
        "Syntax check (c): this change introduced a syntax error:\n  line 5, column 11: missing ';'\n      return 1"
    )


def test_php_inside_html_is_judged_on_the_whole_file():
    page = "<html>\n<?php echo 1; ?>\n<p>hi</p>\n<?php\nfunction f() {\n  return 1;\n}\n?>\n</html>\n"
    assert introduced(Path("a.php"), page, page.replace("return 1;", "return 2;"), (6, 6)) == ""
    assert "line 6, column 11: missing ';'" in introduced(
        Path("a.php"), page, page.replace("return 1;", "return 2"), (6, 6)
    )


def test_a_broken_member_of_a_large_json_document_is_the_one_error_said():
    document = "{\n" + "".join(f' "a{n}": {n},\n' for n in range(300)) + ' "end": 0\n}\n'
    after = document.replace(' "a150": 150,', ' "a150" 150,')
    assert introduced(Path("d.json"), document, after, (152, 152)) == (
        "Syntax check (json): this change introduced a syntax error:\n"
        '  line 152, column 2: unexpected \'"a150" 150\'\n     "a150" 150,'
    )
    array = "[\n" + "".join(f' {{"n": {n}}},\n' for n in range(300)) + " {}\n]\n"
    after = array.replace(' {"n": 150},', ' {"n": 150,')
    assert introduced(Path("d.json"), array, after, (152, 152)) == (
        "Syntax check (json): this change introduced a syntax error:\n"
        "  line 152, column 11: missing '}'\n     {\"n\": 150,"
    )


def test_an_edit_beside_an_error_already_there_is_not_blamed_for_it():
    document = "{\n" + "".join(f' "a{n}": {n},\n' for n in range(300)) + ' "end": 0\n}\n'
    before = document.replace(' "a150": 150,', ' "a150" 150,')
    assert introduced(Path("d.json"), before, before.replace(' "a151": 151,', ' "a151": 152,'), (153, 153)) == ""


def test_the_lines_of_several_changes_are_counted_in_the_text_after_all_of_them():
    assert changed_lines([(2, 1, 20), (5, 1, 1)]) == (2, 24)  # the second change's line moved down by 19
    assert changed_lines([(2, 1, 3), (5, 1, 2), (9, 2, 1)]) == (2, 12)  # by 2, then by 3


# The statements around an Edit and the whole file answer alike for most edits; these are the edits where only the
# statements tell: the whole file's errors are told from those it had before by their words and line, and a page that
# had one anywhere is not trusted at all (its grammar misreads much valid HTML).
FUNCTIONS = "<?php\n" + "".join(f"function f{n}() {{\n  return {n};\n}}\n" for n in range(10))


def test_an_edit_that_writes_a_line_broken_further_down_too_is_named_where_it_wrote_it():
    before = FUNCTIONS + "$broken = ;\n"  # line 32
    after = before.replace("  return 3;", "  $broken = ;")
    assert introduced(Path("a.php"), before, after, (12, 12)) == (
        "Syntax check (php): this change introduced a syntax error:\n"
        "  line 12, column 11: unexpected '='\n      $broken = ;"
    )


def test_a_php_file_that_held_a_closing_tag_before_the_edit_is_judged_whole():
    # a `?>` may end the PHP code (in a comment) and what follows is HTML: the whole file names the copy further down
    before = FUNCTIONS.replace("  return 3;", '  return "?>";') + "$broken = ;\n"
    after = before.replace('  return "?>";', "  $broken = ;")
    assert "line 32, column 9: unexpected '='" in introduced(Path("a.php"), before, after, (12, 12))


def test_an_edit_deep_in_a_php_class_is_read_after_the_opening_tag():
    members = "".join(f"  function f{n}() {{\n    return {n};\n  }}\n" for n in range(80))
    before = "<?php\nclass A {\n" + members + "}\n"  # the class's line, not the tag's, opens the members' block
    after = before.replace("return 40;", "return (40;")
    assert introduced(Path("a.php"), before, after, (124, 124)) == (
        "Syntax check (php): this change introduced a syntax error:\n"
        "  line 124, column 15: missing ')'\n        return (40;"
    )


def test_an_edit_of_a_yaml_key_after_a_comment_and_a_blank_line_is_read_beside_its_sibling():
    keys = "".join(f"  key{n}: {n}\n" + ("  # the next one\n\n" if n == 150 else "") for n in range(300))
    before = "root:\n" + keys
    for key, column in (("   key151: 151", 4), (" key151: 151", 2)):  # more indented than its sibling, less
        after = before.replace("  key151: 151", key)
        assert introduced(Path("a.yaml"), before, after, (155, 155)) == (
            "Syntax check (yaml): this change introduced a syntax error:\n"
            f"  line 155, column {column}: did not find expected key, while parsing a block mapping\n    {key}"
        )


def test_an_html_edit_is_judged_on_its_elements_though_the_page_was_broken_elsewhere():
    body = "".join(f'<div class="s{n}">\n<p>Para {n}</p>\n</div>\n' for n in range(30))
    before = ("<html>\n<body>\n" + body + "</body>\n</html>\n").replace('<div class="s28">', '<div class="s28"')
    after = before.replace('<div class="s3">', '<div class="s3"')
    assert introduced(Path("a.html"), before, after, (12, 12)) == (
        "Syntax check (html): this change introduced a syntax error:\n"
        "  line 13, column 1: unexpected '<p'\n    <p>Para 3</p>"
    )
    assert introduced(Path("a.html"), before, after) == ""  # the whole page, before and after, cannot tell


@pytest.mark.parametrize(
    ("new", "changed", "line"), [('  class="s3"', (16, 16), 17), ('  class="s3"\n  id="c"', (16, 17), 18)]
)
def test_an_html_edit_of_a_start_tag_written_over_two_lines_is_judged_on_its_elements(new, changed, line):
    body = "".join(f'<div\n  class="s{n}">\n<p>Para {n}</p>\n</div>\n' for n in range(30))
    before = ("<html>\n<body>\n" + body + "</body>\n</html>\n").replace("<p>Para 28</p>", "<p>Para 28</p</p>")
    after = before.replace('  class="s3">', new)
    assert introduced(Path("a.html"), before, after, changed) == (
        "Syntax check (html): this change introduced a syntax error:\n"
        f"  line {line}, column 1: unexpected '<p'\n    <p>Para 3</p>"
    )


def test_an_error_at_the_end_of_the_file_shows_no_source_line():
    before = "".join(f"function f{n}() {{\n  return {n};\n}}\n" for n in range(100))
    after = before.replace("  return 50;\n}\n", "  return 50;\n", 1)  # the block left open: the file's end names it
    assert introduced(Path("a.js"), before, after, (152, 152)) == (
        "Syntax check (javascript): this change introduced a syntax error:\n"
        "  line 300, column 1: unexpected end of file"
    )


@pytest.mark.parametrize(
    ("before", "after", "changed", "error"),
    [
        ("a: 1\nb: 2\n", "a: 1\n b: 2\n", (2, 2), "line 2, column 3: mapping values are not allowed in this context"),
        ("a: 1\n# c\nb: 2\n", "a: 1\n# c\n b: 2\n", (3, 3), "line 3, column 2: did not find expected key"),
        ("a: 1\nb: 2\n", "a: [1\nb: 2\n", (1, 1), "line 2, column 2: did not find expected ',' or ']'"),
        # the first key, or the first after the document's start, has no sibling above: the one below tells
        ("a: 1\nb: 2\n", " a: 1\nb: 2\n", (1, 1), "line 2, column 1: did not find expected <document start>"),
        ("# c\na: 1\nb: 2\n", "# c\n a: 1\nb: 2\n", (2, 2), "line 3, column 1: did not find expected <document"),
        ("---\na: 1\nb: 2\n", "---\n a: 1\nb: 2\n", (2, 2), "line 3, column 1: did not find expected <document"),
        # comments and blank lines between are passed over, above and below
        ("a: 1\n# c\n\nb: 2\n", " a: 1\n# c\n\nb: 2\n", (1, 1), "line 4, column 1: did not find expected <document"),
        # an Edit of several lines: the sibling above its first
        ("a: 1\nb: 2\nc: 3\nd: 4\n", "a: 1\n b: 2\nc: 3\nd: 4\n", (2, 4), "line 2, column 3: mapping values"),
    ],
)
def test_a_yaml_key_indented_apart_from_its_siblings_is_an_error(before, after, changed, error):
    assert error in introduced(Path("a.yaml"), before, after, changed)
    assert error in introduced(Path("a.yaml"), before, after)  # what the whole document says


def test_a_file_of_no_checked_language_has_no_problems():
    assert problems(Path("notes.txt"), "def f(:\n") == [] and problems(Path("Makefile"), "all: (\n") == []


TEMPLATES = "".join(
    f"function f{n}(a) {{\n  const t{n} = `v${{a}}`;\n  log(`t{n}`, t{n});\n  return t{n} + 1;\n}}\n" for n in range(60)
)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("  const t30 = `v${a}`;", "  const t30 = `v${a};"),  # a template left open: it runs on into the next
        ("  log(`t30`, t30);", "  log(`t30, t30);"),
        ("  return t30 + 1;", "  return t30 + `1;"),  # one opened
    ],
)
def test_an_edit_that_opens_or_closes_a_template_literal_is_read_on_as_the_compiler_reads_on(old, new):
    # an odd number of backticks more or fewer moves every line after it in or out of a template: where the compiler
    # stops is named by the lines after the statements around the edit, as in the whole file
    after = TEMPLATES.replace(old, new)
    line = TEMPLATES[: TEMPLATES.index(old)].count("\n") + 1
    said = introduced(Path("a.js"), TEMPLATES, after, (line, line))
    assert said == introduced(Path("a.js"), TEMPLATES, after) and "line 157, column" in said  # in the next function
