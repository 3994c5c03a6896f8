import os

import pytest

from narnat_agent.tools.registry import execute
from tests.platforms import NO_MODES, NO_SYMLINKS
from tests.tools.edit_corpus import CASES

pytestmark = pytest.mark.windows  # these must pass on Windows too (docs/windows.md)


def prepare(project, workspace, content):
    path = project / "target.txt"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    execute("Read", {"file_path": "target.txt"}, workspace)
    return path


def edit(workspace, old, new, **extra):
    return execute("Edit", {"file_path": "target.txt", "old_string": old, "new_string": new, **extra}, workspace)


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 50
    assert len({c["id"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_corpus(project, workspace, case):
    path = prepare(project, workspace, case["file"])
    original = path.read_bytes()
    result = edit(workspace, case["old"], case["new"], replace_all=case["replace_all"])
    if case["error"]:
        assert result.is_error, result.text
        assert case["error"] in result.text
        assert path.read_bytes() == original
        return
    assert not result.is_error, result.text
    expected = case["expect"] if isinstance(case["expect"], bytes) else case["expect"].encode()
    assert path.read_bytes() == expected
    if case["strategy"]:
        assert f"({case['strategy']} match" in result.text


def test_edit_needs_a_prior_read(project, workspace):
    (project / "target.txt").write_text("a\n")
    result = edit(workspace, "a", "b")
    assert result.is_error and "has not been read" in result.text
    assert (project / "target.txt").read_text() == "a\n"


def test_a_file_changed_since_the_read_is_refused(project, workspace):
    path = prepare(project, workspace, "a\n")
    path.write_text("a\nchanged\n")
    result = edit(workspace, "a", "b")
    assert result.is_error and "modified since you read it; Read it again" in result.text


def test_a_partial_read_is_enough_for_edit_and_successive_edits_need_no_reread(project, workspace):
    path = project / "target.txt"
    path.write_text("".join(f"line {n}\n" for n in range(1, 3001)))
    execute("Read", {"file_path": "target.txt", "offset": 10, "limit": 5}, workspace)
    assert not edit(workspace, "line 12\n", "twelve\n").is_error
    assert not edit(workspace, "line 13\n", "thirteen\n").is_error
    assert "twelve\nthirteen\n" in path.read_text()


def test_touching_the_file_without_changing_it_is_not_a_modification(project, workspace):
    path = prepare(project, workspace, "a\n")
    path.write_text("a\n")
    assert not edit(workspace, "a", "b").is_error


def test_result_names_the_strategy_and_shows_a_compact_diff(project, workspace):
    prepare(project, workspace, "".join(f"row {n}\n" for n in range(20)))
    result = edit(workspace, "row 10\n", "row ten\n")
    assert result.text.splitlines()[0] == "Edited target.txt at line 11 (exact match)."
    assert "-row 10\n+row ten" in result.text and "row 2\n" not in result.text
    assert result.summary == "1 line changed"


@NO_MODES
def test_file_mode_is_kept(project, workspace):
    path = prepare(project, workspace, "#!/bin/sh\necho hi\n")
    path.chmod(0o755)
    edit(workspace, "hi", "there")
    assert path.stat().st_mode & 0o777 == 0o755


def test_missing_file(project, workspace):
    result = execute("Edit", {"file_path": "nope.py", "old_string": "a", "new_string": "b"}, workspace)
    assert result.is_error and "does not exist" in result.text


def test_a_reindented_new_string_says_by_how_much(project, workspace):
    prepare(project, workspace, "class A:\n    def f(self):\n        return 1\n")
    result = edit(workspace, "def f(self):\n    return 1\n", "def f(self):\n    return 2\n")
    assert "(indentation match; new_string re-indented by +4 spaces)" in result.text


@pytest.mark.parametrize(
    "case",  # file, old_string, new_string, the file afterwards, how new_string was re-indented
    [
        ("def f():\n\tif x:\n\t\treturn 1\n", "if x:\n    return 1\n", "if y:\n    return 2\n",
         "def f():\n\tif y:\n\t\treturn 2\n", "from spaces to tabs (4 spaces a tab, +1 level)"),
        ("if x:\n    return 1\n", "\tif x:\n\t\treturn 1\n", "\tif y:\n\t\treturn 2\n",
         "if y:\n    return 2\n", "from tabs to spaces (4 spaces a tab, -1 level)"),
        ("def f():\n\tif x:\n\t\treturn 1\n", "  if x:\n    return 1\n", "  if y:\n    return 2\n",
         "def f():\n\tif y:\n\t\treturn 2\n", "from spaces to tabs (2 spaces a tab)"),
    ],
)  # fmt: skip
def test_a_new_string_indented_with_the_other_character_is_converted_level_by_level(project, workspace, case):
    file, old, new, after, how = case
    path = prepare(project, workspace, file)
    result = edit(workspace, old, new)
    assert f"(indentation match; new_string re-indented {how})" in result.text
    assert path.read_text() == after


def test_a_new_string_already_in_the_file_frame_is_not_said_reindented(project, workspace):
    prepare(project, workspace, "def f():\n    a = 1\n    b = 2\n")
    result = edit(workspace, "  a = 1\n  b = 2", "    a = 10\n    b = 2")
    assert "(indentation match)" in result.text and "re-indented" not in result.text


def test_line_number_prefixes_copied_from_read_are_named_as_the_cause(project, workspace):
    prepare(project, workspace, "def f():\n    x = 1\n    return x\n")
    result = edit(workspace, "2\t    x = 1\n3\t    return x", "2\t    x = 2\n3\t    return x")
    assert result.is_error and "line numbers" in result.text
    shown = result.text.split("\n", 1)[1]
    assert shown == "    x = 1\n    return x"  # copyable as it is: no numbers in front


def test_the_diff_of_a_huge_single_line_edit_is_bounded_and_says_so(project, workspace):
    prepare(project, workspace, "start " + "x" * 5_000_000 + " end\n")
    result = edit(workspace, "start", "begin")
    assert not result.is_error and len(result.text) < 20_000
    assert "line cut: 5,000,010 characters" in result.text and len(result.detail.text) < 20_000


@NO_SYMLINKS
def test_edit_through_a_symlink_changes_the_target_and_keeps_the_link(project, workspace):
    (project / "real.txt").write_text("a = 1\n")
    (project / "target.txt").symlink_to("real.txt")
    execute("Read", {"file_path": "target.txt"}, workspace)
    assert not edit(workspace, "a = 1", "a = 2").is_error
    assert (project / "target.txt").is_symlink() and (project / "real.txt").read_text() == "a = 2\n"


def test_edit_through_a_hard_link_keeps_the_shared_inode(project, workspace):
    (project / "other.txt").write_text("a = 1\n")
    os.link(project / "other.txt", project / "target.txt")
    execute("Read", {"file_path": "target.txt"}, workspace)
    edit(workspace, "a = 1", "a = 2")
    assert (project / "other.txt").read_text() == "a = 2\n"


def test_utf16_with_bom_is_edited_in_place_keeping_encoding_bom_and_crlf(project, workspace):
    data = b"\xff\xfe" + "a = 1\r\nb = 'é'\r\n".encode("utf-16-le")
    path = prepare(project, workspace, data)
    result = edit(workspace, "b = 'é'", "b = 'è'")
    assert path.read_bytes() == b"\xff\xfe" + "a = 1\r\nb = 'è'\r\n".encode("utf-16-le")
    assert "UTF-16 LE with BOM" in result.text


def test_an_edit_leaves_no_temporary_file(project, workspace):
    prepare(project, workspace, "a\n")
    edit(workspace, "a", "b")
    assert sorted(os.listdir(project)) == ["target.txt"]


def test_a_new_string_found_only_inside_a_line_is_not_taken_for_an_edit_already_made(project, workspace):
    prepare(project, workspace, '    "test_args, expected",\n    value = 2\n')
    inside = edit(workspace, "missing", "x")
    assert inside.is_error and "already present" not in inside.text
    whole = edit(workspace, "value = 1", "value = 2")
    assert whole.is_error and "already present at line 2" in whole.text


@pytest.mark.parametrize(
    ("old", "new", "summary"),
    [
        ("b = 2\n", "b = 3\n", "1 line changed"),
        ("b = 2\n", "b = 2\nb2 = 4\nb3 = 6\n", "2 lines added"),
        ("b = 2\nc = 3\n", "c = 3\n", "1 line removed"),
        ("b = 2\nc = 3\n", "bc = 5\n", "1 added, 2 removed"),
    ],
)
def test_an_edits_summary_says_what_it_added_and_removed(workspace, project, old, new, summary):
    (project / "m.py").write_text("a = 1\nb = 2\nc = 3\n")
    execute("Read", {"file_path": "m.py"}, workspace)
    assert execute("Edit", {"file_path": "m.py", "old_string": old, "new_string": new}, workspace).summary == summary


def test_a_todo_list_of_one_is_one_task_in_its_header():
    from narnat_agent.tools import registry

    one = {"todos": [{"content": "fix it", "activeForm": "fixing it", "status": "pending"}]}
    assert registry.prepare("TodoWrite", one).header == "TodoWrite(1 task)"
    assert registry.prepare("TodoWrite", {"todos": one["todos"] * 2}).header == "TodoWrite(2 tasks)"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")
def test_a_path_that_is_there_but_no_regular_file_is_said_so_not_missing(project, workspace):
    # "fifo does not exist; did you mean fifo?": the path was there, only not a file
    os.mkfifo(project / "fifo")
    result = execute("Edit", {"file_path": "fifo", "old_string": "a", "new_string": "b"}, workspace)
    assert result.is_error
    assert result.text == "Error: fifo is not a regular file (a device, pipe or socket); Edit edits files only."
