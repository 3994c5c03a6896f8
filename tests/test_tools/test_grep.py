import os

from narnat_agent.tools import grep as grep_tool
from narnat_agent.tools.registry import execute


def files(root, contents):
    for i, (name, text) in enumerate(contents.items()):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        os.utime(path, (1_000_000 + i, 1_000_000 + i))


def grep(ws, pattern, **args):
    return execute("Grep", {"pattern": pattern, **args}, ws)


def test_files_with_matches_newest_first(project, workspace):
    files(project, {"a.py": "def foo():\n", "b.py": "foo = 1\n", "c.py": "bar\n"})
    result = grep(workspace, r"foo\b")
    assert result.text.splitlines() == ["b.py", "a.py"] and result.summary == "Found 2 files"


def test_content_lines_are_path_line_text_sorted_by_path(project, workspace):
    files(project, {"z.py": "x = 1\nfoo()\n", "a.py": "foo(1)\nfoo(2)\n"})
    result = grep(workspace, "foo", output_mode="content")
    assert result.text.splitlines() == ["a.py:1:foo(1)", "a.py:2:foo(2)", "z.py:2:foo()"]
    assert grep(workspace, "foo", output_mode="content", **{"-n": False}).text.splitlines()[0] == "a.py:foo(1)"


def test_context_lines(project, workspace):
    files(project, {"m.py": "one\ntwo\nTARGET\nfour\nfive\nsix\nseven\nTARGET\n"})
    lines = grep(workspace, "TARGET", output_mode="content", **{"-C": 1}).text.splitlines()
    assert lines == ["m.py-2-two", "m.py:3:TARGET", "m.py-4-four", "--", "m.py-7-seven", "m.py:8:TARGET"]
    assert grep(workspace, "TARGET", output_mode="content", **{"-A": "1"}).text.splitlines()[:2] == [
        "m.py:3:TARGET",
        "m.py-4-four",
    ]


def test_count_mode(project, workspace):
    files(project, {"a.txt": "x\nx\n", "b.txt": "x\n"})
    assert grep(workspace, "x", output_mode="count").text.splitlines() == ["a.txt:2", "b.txt:1"]


def test_case_fixed_strings_and_multiline(project, workspace):
    files(project, {"a.txt": "Hello World\nprice is $5.00 (net)\nstart\nend\n"})
    assert grep(workspace, "hello", **{"-i": True}).text == "a.txt"
    assert grep(workspace, "hello").text.startswith("No matches")
    assert grep(workspace, "$5.00 (net)", fixed_strings=True).text == "a.txt"
    assert grep(workspace, r"start\nend", multiline=True, output_mode="content").text.splitlines() == [
        "a.txt:3:start",
        "a.txt:4:end",
    ]


def test_invalid_regex_is_one_clear_sentence(project, workspace):
    files(project, {"a.py": "x\n"})
    result = grep(workspace, "foo(")
    assert result.is_error and "invalid regex: unclosed group" in result.text and "fixed_strings" in result.text


def test_a_pattern_starting_with_a_dash(project, workspace):
    files(project, {"a.md": "use --verbose here\n"})
    assert grep(workspace, "--verbose", output_mode="content").text == "a.md:1:use --verbose here"


def test_glob_type_and_path_filters(project, workspace):
    files(project, {"src/a.py": "key\n", "src/b.js": "key\n", "docs/c.py": "key\n"})
    assert sorted(grep(workspace, "key", glob="*.py").text.splitlines()) == ["docs/c.py", "src/a.py"]
    assert grep(workspace, "key", type="js").text == "src/b.js"
    assert grep(workspace, "key", path="src", glob="*.py").text == "src/a.py"
    assert grep(workspace, "key", path="src/a.py").text == "src/a.py"
    assert "unrecognized file type" in grep(workspace, "key", type="nosuchtype").text


def test_large_result_sets_are_paginated_and_the_cut_is_stated(project, workspace):
    files(project, {"big.txt": "".join(f"hit {n}\n" for n in range(1, 1205))})
    first = grep(workspace, "hit", output_mode="content")
    lines = first.text.splitlines()
    assert len(lines) == 251 and lines[-1] == "(showing lines 1-250 of 1,204; use offset=250 for more)"
    second = grep(workspace, "hit", output_mode="content", offset=250, head_limit=2).text.splitlines()
    assert second == [
        "big.txt:251:hit 251",
        "big.txt:252:hit 252",
        "(showing lines 251-252 of 1,204; use offset=252 for more)",
    ]
    assert len(grep(workspace, "hit", output_mode="content", head_limit=0).text.splitlines()) == 1204


def test_long_lines_are_cut_at_500_columns(project, workspace):
    files(project, {"min.js": "needle" + "x" * 5000 + "\n"})
    line = grep(workspace, "needle", output_mode="content").text
    assert len(line) < 700 and "omitted" in line


def test_ignored_and_hidden_paths(project, workspace):
    files(project, {".gitignore": "dist/\n", "dist/out.js": "secret\n", ".env": "secret\n", "src.py": "x\n"})
    assert grep(workspace, "secret").text == ".env"
    (project / ".env").unlink()
    result = grep(workspace, "secret")
    assert "No matches for 'secret'" in result.text and "1 file ignored by .gitignore rules would match" in result.text


def test_fallback_search_answers_in_the_same_shape(project, workspace):
    files(project, {"a.py": "foo\nbar\nfoo\n", "b.txt": "foo\n", "c.bin": "foo\x00"})
    args = {"pattern": "foo", "output_mode": "content"}
    assert grep_tool._python_search(args, workspace, project) == "a.py\n1:foo\n3:foo\n\nb.txt\n1:foo"
    assert grep_tool._python_search({**args, "output_mode": "count", "glob": "*.py"}, workspace, project) == "a.py:2"
