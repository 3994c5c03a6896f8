"""What Edit says: why old_string was not found (the closest lines, the likely cause), and what an edit changed."""

import json

import pytest

from narnat_agent.tools.registry import execute
from tests.tools.test_editor_files import Buffers


def edit(project, workspace, text, old, new, name="m.py"):
    (project / name).write_text(text, encoding="utf-8")
    execute("Read", {"file_path": name}, workspace)
    return execute("Edit", {"file_path": name, "old_string": old, "new_string": new}, workspace)


FILE = (
    "def load(path):\n\tdata = open(path).read()\n\treturn parse(data)\n\n\ndef parse(text):\n\treturn text.split()\n"
)
MISSES = [  # old_string, new_string, what Edit says
    ("data=open(path).read()", "data = read(path)",
     "old_string was not found. Likely cause: whitespace differs. The closest text (line 2) follows, exactly as in "
     "the file.\n\tdata = open(path).read()"),
    ("data=open(path).read()\nreturn parse(data)", "x",
     "old_string was not found. Likely cause: whitespace differs. The closest text (lines 2-3) follows, exactly as "
     "in the file.\n\tdata = open(path).read()\n\treturn parse(data)"),
    ("    data = open(path).read()\n    return parse(data, strict=True)", "x",
     "old_string was not found. Likely cause: the file indents with tabs and old_string with spaces. The closest "
     "text (lines 2-3) follows, exactly as in the file.\n\tdata = open(path).read()\n\treturn parse(data)"),
    ("    data=open(path).read()\n    return parse(data)", "x",  # the indent is what to fix first, though not all
     "old_string was not found. Likely cause: the file indents with tabs and old_string with spaces. The closest "
     "text (lines 2-3) follows, exactly as in the file.\n\tdata = open(path).read()\n\treturn parse(data)"),
    ("def parse(txt):\n\treturn txt.split()", "x",
     "old_string was not found. Likely cause: the text differs; Read the lines again and copy them exactly. The "
     "closest text (lines 6-7) follows, exactly as in the file.\ndef parse(text):\n\treturn text.split()"),
    ("class Loader:", "x",
     "old_string was not found in the file, and no line resembles its first lines; Read the file again."),
    ("1\tdef load(path):\n2\t\tdata = open(path).read()", "x",
     "old_string was not found. Cause: its lines start with the line numbers that Read puts in front (number, tab); "
     "old_string must be the file's text alone. The closest text (lines 1-2) follows, exactly as in the file.\n"
     "def load(path):\n\tdata = open(path).read()"),
    ("7\tclass Loader:\n8\t    pass", "x",
     "old_string was not found: its lines start with line numbers copied from Read; leave them out."),
    ("1\tdef load(path):\n\tdata = open(path).read()", "x",  # only some lines numbered: the file's own text
     "old_string was not found. Likely cause: the text differs; Read the lines again and copy them exactly. The "
     "closest text (lines 1-2) follows, exactly as in the file.\ndef load(path):\n\tdata = open(path).read()"),
    ("9\tdef load(path):\n7\t\tdata = open(path).read()", "x",  # numbers that do not count up are the file's text
     "old_string was not found. Likely cause: the text differs; Read the lines again and copy them exactly. The "
     "closest text (lines 1-2) follows, exactly as in the file.\ndef load(path):\n\tdata = open(path).read()"),
    ("def parse(text, strict):", "def parse(text):\n\treturn text.split()",
     "old_string was not found, but new_string is already present at line 6; the edit may be done."),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "said"), MISSES)
def test_a_miss_says_the_likely_cause_and_shows_the_closest_lines_as_they_are(project, workspace, old, new, said):
    result = edit(project, workspace, FILE, old, new)
    assert result.is_error and result.text == f"Error: {said}"
    assert (project / "m.py").read_text() == FILE


def test_typography_is_named_as_the_cause_on_either_side(project, workspace):
    in_file = edit(project, workspace, "say(“hello there”)\n", 'say("hello their")', "x")
    in_old = edit(project, workspace, 'say("hello there")\n', "say(“hello their”)", "x")
    for result in (in_file, in_old):
        assert "not found. Likely cause: quotes, dashes or other typography differ. The closest" in result.text


def test_a_slip_of_single_for_double_quotes_is_named_with_its_line(project, workspace):
    text = "check(\n    'x',\n    \"n must be at least 0\",\n    chunked('ABCDE', -1),\n)\n"
    old = "    'n must be at least 0',\n    chunked('ABCDE', -1),\n"  # 'ABCDE' is the file's own: not a slip
    result = edit(project, workspace, text, old, "x")
    assert result.text.startswith(
        "Error: old_string was not found. Likely cause: the quotes differ: line 3 has \" where old_string has ' (in "
        "code they are different characters: copy the file's). The closest text (lines 3-4) follows"
    )
    assert (project / "m.py").read_text() == text  # quotes in code are not folded: nothing changed
    other = edit(project, workspace, "say('hi')\n", 'say("hi")', "x")
    assert "line 1 has ' where old_string has \"" in other.text


def test_an_unchanged_blank_line_between_changed_ones_is_context_in_a_long_file(project, workspace):
    # in a file of 200 lines or more, difflib took the blank line (in more than 1 % of the lines) for junk
    block = (
        "    def test_{n}(self):\n        cache = Cache(maxsize=2)\n\n        cache.update({{1: 1}})\n        ok(2)\n\n"
    )
    text = "class T:\n" + "".join(block.format(n=n) for n in range(50))
    old = "def test_7(self):\n    cache = Cache(maxsize=2)\n\n    cache.update({1: 1})\n    ok(2)"
    new = "def test_7(self):\n    cache = Cache(maxsize=3)\n\n    cache.update({1: 1, 3: 3})\n    ok(3)"
    result = edit(project, workspace, text, old, new)
    assert (
        "\n-        cache = Cache(maxsize=2)\n+        cache = Cache(maxsize=3)\n \n-        cache.update"
        in result.text
    )
    assert result.summary.startswith("3 lines changed")


def test_edits_schema_says_which_quote_slips_are_tolerated():
    from narnat_agent.tools.edit import TOOL

    assert 'typographic quote (“” for ")' in TOOL.description


@pytest.mark.parametrize(
    ("text", "new", "line"),
    [
        ("a = 1\nb = 2", "b = 2", 2),  # the last line, without a final newline
        ("a = 1\r\nb = 2\r\nc = 3\n", "b = 2", 2),  # a file of mixed line endings is matched as it is
        ("    b = 2\n", "b = 2", 1),  # indented as the file indents it
        ("a = 1\nc = 3\nb = 2\n", "b = 2", 3),
        ("b = 2\nc = 3\n", "b = 2", 1),
        ("X_train = 2\n", "X_train = 2", 1),
    ],
)
def test_a_new_string_already_on_its_own_lines_is_said_to_be_there(project, workspace, text, new, line):
    (project / "m.py").write_bytes(text.encode())
    execute("Read", {"file_path": "m.py"}, workspace)
    result = execute("Edit", {"file_path": "m.py", "old_string": "b = 1", "new_string": new}, workspace)
    assert f"new_string is already present at line {line}; the edit may be done." in result.text


@pytest.mark.parametrize("new", ["\n\n", "  \n", "xb = 2", "b = 22", "xb = 22  "])
def test_a_blank_new_string_or_one_inside_a_longer_line_is_not_said_to_be_there(project, workspace, new):
    result = edit(project, workspace, "a = 1\nxb = 22\n\n\n", "b = 1", new)
    assert result.is_error and "already present" not in result.text


def test_a_miss_is_said_to_the_person_in_one_line_naming_the_file(project, workspace):
    result = edit(project, workspace, FILE, "class Loader:", "x")
    assert result.summary == "old_string was not found in m.py"


def test_an_edit_that_cannot_be_made_says_why_and_what_to_do(project, workspace):
    empty = edit(project, workspace, FILE, "", "x")
    assert empty.text == (
        "Error: old_string is empty; to create a file use Write, to add text include a line it goes next to."
    )
    same = edit(project, workspace, FILE, "data", "data")
    assert same.text == "Error: old_string and new_string are identical; there is nothing to change."


@pytest.mark.parametrize(
    ("old", "new", "summary"),
    [
        ("a = 1\nb = 2\n", "a = 10\nb = 20\n", "2 lines changed"),
        ("b = 2\n", "b = 2\nb2 = 4\n", "1 line added"),
        ("a = 1\nb = 2\nc = 3\n", "c = 3\n", "2 lines removed"),
    ],
)
def test_a_summary_counts_lines_in_the_singular_and_the_plural(project, workspace, old, new, summary):
    assert edit(project, workspace, "a = 1\nb = 2\nc = 3\n", old, new).summary == summary


def test_an_edit_in_several_places_says_how_many(project, workspace):
    (project / "m.py").write_text("x = 1\ny = 1\n")
    execute("Read", {"file_path": "m.py"}, workspace)
    args = {"file_path": "m.py", "old_string": "1", "new_string": "2", "replace_all": True}
    result = execute("Edit", args, workspace)
    assert (
        result.text.splitlines()[0] == "Edited m.py at 2 places (exact match)." and result.summary == "2 lines changed"
    )


def test_a_syntax_error_the_edit_introduced_follows_its_diff(project, workspace):
    result = edit(project, workspace, "def f():\n    return 1\n", "return 1", "return (1")
    diff, syntax = result.detail.text, result.detail.syntax
    assert syntax.startswith("Syntax check (python): this change introduced") and "line 2" in syntax
    assert result.text == f"Edited m.py at line 2 (exact match).\n{diff}\n{syntax}"
    clean = edit(project, workspace, "def f():\n    return 1\n", "return 1", "return 2")
    assert clean.text == f"Edited m.py at line 2 (exact match).\n{clean.detail.text}" and clean.detail.syntax == ""


def test_crlf_in_old_and_new_string_matches_a_crlf_file_and_shows_no_carriage_returns(project, workspace):
    (project / "w.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    execute("Read", {"file_path": "w.txt"}, workspace)
    args = {"file_path": "w.txt", "old_string": "one\r\ntwo", "new_string": "1\r\n2"}
    result = execute("Edit", args, workspace)
    assert (project / "w.txt").read_bytes() == b"1\r\n2\r\nthree\r\n" and "\r" not in result.text


def test_a_character_the_files_encoding_lacks_is_refused_naming_the_encoding(project, workspace):
    (project / "w.txt").write_bytes("café = 1\n".encode("cp1252"))
    execute("Read", {"file_path": "w.txt"}, workspace)
    result = execute("Edit", {"file_path": "w.txt", "old_string": "1", "new_string": "'€ ✓'"}, workspace)
    assert result.is_error and result.text.startswith("Error: new_string has characters that w.txt's encoding (")
    assert result.text.endswith(") cannot hold.") and (project / "w.txt").read_bytes() == "café = 1\n".encode("cp1252")


def test_the_encoding_the_model_read_a_file_in_holds_for_its_edit(project, workspace):
    path = project / "w.txt"
    path.write_bytes(b"name = '\xe9'\n")
    execute("Read", {"file_path": "w.txt"}, workspace)
    workspace.remember(path, path.read_bytes(), whole=True, codec="koi8_r")  # as a Read that decoded it as KOI8-R
    result = execute("Edit", {"file_path": "w.txt", "old_string": "'И'", "new_string": "'Й'"}, workspace)
    assert not result.is_error, result.text
    assert path.read_bytes() == "name = 'Й'\n".encode("koi8_r")
    again = execute("Edit", {"file_path": "w.txt", "old_string": "'Й'", "new_string": "'Ж'"}, workspace)
    assert not again.is_error and path.read_bytes() == "name = 'Ж'\n".encode("koi8_r")  # as the model saw it


def test_a_file_outside_the_project_is_edited_only_with_the_users_yes(project, workspace, tmp_path):
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("a = 1\n")
    asked = []
    workspace.confirm = lambda action, reason: asked.append((action, str(reason))) or False
    execute("Read", {"file_path": str(outside)}, workspace)
    result = execute("Edit", {"file_path": str(outside), "old_string": "1", "new_string": "2"}, workspace)
    real = str(outside.resolve())
    assert asked == [(f"Edit {real}", f"it changes {real}, outside the project")]
    assert result.is_error and outside.read_text() == "a = 1\n"


def test_the_pages_of_a_file_read_in_parts_still_add_up_after_an_edit(project, workspace):
    path = project / "m.py"
    path.write_text("".join(f"n{i} = {i}\n" for i in range(1, 11)))
    execute("Read", {"file_path": "m.py", "offset": 1, "limit": 5}, workspace)
    execute(
        "Edit", {"file_path": "m.py", "old_string": "n2 = 2\n", "new_string": "n2 = 2\nm2 = 2\nk2 = 2\n"}, workspace
    )
    execute("Read", {"file_path": "m.py", "offset": 8, "limit": 5}, workspace)  # the old lines 6-10, now 8-12
    written = execute("Write", {"file_path": "m.py", "content": "all = 1\n"}, workspace)
    assert not written.is_error, written.text  # the whole file has been seen, in two pages
    part = project / "p.py"
    part.write_text("".join(f"n{i} = {i}\n" for i in range(1, 11)))
    execute("Read", {"file_path": "p.py", "offset": 1, "limit": 5}, workspace)
    execute("Edit", {"file_path": "p.py", "old_string": "n2 = 2\n", "new_string": "n2 = 2\nm2 = 2\n"}, workspace)
    refused = execute("Write", {"file_path": "p.py", "content": "all = 1\n"}, workspace)
    assert refused.is_error and "only part of p.py has been read" in refused.text


def NOTEBOOK(sources):  # noqa: N802
    return {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{n}", "metadata": {}, "outputs": [],
                       "source": source} for n, source in enumerate(sources)],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}  # fmt: skip


def test_a_notebook_edit_says_the_cell_and_what_changed_and_can_replace_all(project, workspace):
    (project / "n.ipynb").write_text(json.dumps(NOTEBOOK(["x = 1\ny = x + 1\nz = x + 2", "print(x)"]), indent=1))
    execute("Read", {"file_path": "n.ipynb", "offset": 1, "limit": 3}, workspace)
    args = {"file_path": "n.ipynb", "old_string": "x + ", "new_string": "x - ", "replace_all": True}
    result = execute("Edit", args, workspace)
    assert result.summary == "2 lines changed in cell 1" and result.text.startswith("Edited cell 1 of n.ipynb")
    assert result.detail.text in result.text and "-y = x + 1\n-z = x + 2\n+y = x - 1\n+z = x - 2" in result.detail.text
    sources = [c["source"] for c in json.loads((project / "n.ipynb").read_text())["cells"]]
    assert sources == ["x = 1\ny = x - 1\nz = x - 2", "print(x)"]
    refused = execute("Write", {"file_path": "n.ipynb", "content": "{}"}, workspace)
    assert refused.is_error and "only part of n.ipynb has been read" in refused.text  # still a partial read


def test_a_notebook_edit_is_given_back_to_the_editor_holding_it(project, workspace):
    path = project / "n.ipynb"
    path.write_text(json.dumps(NOTEBOOK(["x = 0"]), indent=1))
    workspace.editor = Buffers({path: json.dumps(NOTEBOOK(["x = 1"]), indent=1)})  # not saved yet
    execute("Read", {"file_path": "n.ipynb"}, workspace)
    execute("Edit", {"file_path": "n.ipynb", "old_string": "x = 1", "new_string": "x = 2"}, workspace)
    assert json.loads(workspace.editor.given[path])["cells"][0]["source"] == "x = 2"


def test_a_notebook_that_is_no_notebook_is_to_be_fixed_with_write(project, workspace):
    (project / "n.ipynb").write_text("[1, 2]")
    workspace.remember(project / "n.ipynb", b"[1, 2]", whole=True)  # Read refuses it; the model knows its text
    result = execute("Edit", {"file_path": "n.ipynb", "old_string": "1", "new_string": "3"}, workspace)
    assert result.text == (
        "Error: n.ipynb is not a valid notebook: it is not a JSON object with a list of cells.; fix it with Write."
    )


def test_an_old_string_of_blanks_alone_resembles_no_line(project, workspace):
    result = edit(project, workspace, "a = 1\nb = 2\n", "\t\t", "x")
    assert result.text == (
        "Error: old_string was not found in the file, and no line resembles its first lines; Read the file again."
    )


def test_a_file_read_whole_stays_read_whole_after_an_edit(project, workspace):
    for name, text, old, new in (("m.py", "a = 1\n", "1", "2"), ("n.ipynb", json.dumps(NOTEBOOK(["x = 1"])), "1", "2")):
        (project / name).write_text(text)
        execute("Read", {"file_path": name}, workspace)
        assert not execute("Edit", {"file_path": name, "old_string": old, "new_string": new}, workspace).is_error
        written = execute("Write", {"file_path": name, "content": text}, workspace)
        assert not written.is_error, written.text


def test_a_syntax_error_already_in_the_file_is_not_the_edits(project, workspace):
    result = edit(project, workspace, "def f(:\n    pass\n\nx = 1\n", "x = 1", "x = 2")
    assert not result.is_error and "Syntax check" not in result.text and result.detail.syntax == ""


TWO_CLAUSES = (
    "def load(fp):\n"
    "    try:\n"
    "        s = fp.read().decode()\n"
    "    except AttributeError:\n"
    "        raise TypeError(\n"
    "            \"File must be opened in binary mode, e.g. use `open('foo.toml', 'rb')`\"\n"
    "        ) from None\n"
    "\n"
    "\n"
    "def loads(s):\n"
    "    try:\n"
    "        src = s.replace('\\r\\n', '\\n')\n"
    "    except (AttributeError, TypeError):\n"
    "        raise TypeError(\n"
    "            f\"Expected str object, not '{type(s).__qualname__}'\"\n"
    "        ) from None\n"
)


def test_the_closest_text_is_the_place_most_alike_as_a_whole_not_the_one_its_first_line_finds(project, workspace):
    """Two places share old_string's first line and most of the rest; the one shown is the one whose lines are the
    most alike, here the one that differs only in its `except` clause."""
    old = (
        "    except AttributeError:\n"
        "        raise TypeError(\n"
        "            f\"Expected str object, not '{type(s).__qualname__}'\"\n"
        "        ) from None"
    )
    result = edit(project, workspace, TWO_CLAUSES, old, "x")
    assert result.is_error and "The closest text (lines 13-16) follows" in result.text, result.text
    assert result.text.endswith("\n".join(TWO_CLAUSES.splitlines()[12:16]))
