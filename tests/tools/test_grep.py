import os

import pytest

from narnat_agent.tools import grep as grep_tool
from narnat_agent.tools.base import ToolError
from narnat_agent.tools.registry import execute
from tests.platforms import NEEDS_GIT, NO_BYTE_NAMES, NO_FIFOS, posix_only, shown

pytestmark = pytest.mark.windows  # these must pass on Windows too (docs/windows.md)


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
    assert sorted(grep(workspace, "key", glob="*.py").text.splitlines()) == [shown("docs/c.py"), shown("src/a.py")]
    assert grep(workspace, "key", type="js").text == shown("src/b.js")
    assert grep(workspace, "key", path="src", glob="*.py").text == shown("src/a.py")
    assert grep(workspace, "key", path="src/a.py").text == shown("src/a.py")
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


def test_a_match_past_the_shown_part_of_a_long_line_is_shown_in_a_window_around_it(project, workspace):
    files(project, {"min.js": "short line\n" + "x" * 3000 + "findMe(1)" + "y" * 4000 + "\nnext\n"})
    [line] = grep(workspace, r"findMe\(\d\)", output_mode="content").text.splitlines()
    window = "[… 2,850 characters] " + "x" * 150 + "findMe(1)" + "y" * 150 + " [… 3,850 more]"
    assert line == shown("min.js") + ":2:" + window


def test_ignored_and_hidden_paths(project, workspace):
    files(project, {".gitignore": "dist/\n", "dist/out.js": "secret\n", ".env": "secret\n", "src.py": "x\n"})
    assert grep(workspace, "secret").text == ".env"
    (project / ".env").unlink()
    result = grep(workspace, "secret")
    assert "No matches for 'secret'" in result.text and "1 file ignored by .gitignore rules would match" in result.text
    assert 'To search them, give their folder as the path: path="dist".' in result.text
    assert grep(workspace, "secret", path="dist").text == shown("dist/out.js")


def test_fallback_search_answers_in_the_same_shape(project, workspace):
    files(project, {"a.py": "foo\nbar\nfoo\n", "b.txt": "foo\n", "c.bin": "foo\x00"})
    args = {"pattern": "foo"}
    found = grep_tool._python_search(args, workspace, project, "content")
    assert found == {b"a.py": [(1, ":", "foo"), (3, ":", "foo")], b"b.txt": [(1, ":", "foo")]}
    assert grep_tool._python_search({**args, "glob": "*.py"}, workspace, project, "count") == {b"a.py": 2}
    assert grep_tool._python_search({**args, "glob": "!*.py"}, workspace, project, "count") == {b"b.txt": 1}


def test_fallback_search_reads_globs_flags_and_encodings_as_rg_does(project, workspace):
    files(project, {"a.py": "Foo\n", "src/b.py": "a.b\naxb\n", "x/src/c.py": "foo\n"})
    (project / "d.txt").write_bytes(b"caf\xe9 foo\n")
    search = grep_tool._python_search
    assert search({"pattern": "foo", "glob": "*.py"}, workspace, project, "count") == {b"x/src/c.py": 1}
    assert search({"pattern": "o", "glob": "src/*.py"}, workspace, project, "count") == {}
    assert search({"pattern": "b", "glob": "src/*.py"}, workspace, project, "count") == {b"src/b.py": 2}
    assert search({"pattern": "fo+", "-i": True}, workspace, project, "count") == {
        b"a.py": 1,
        b"d.txt": 1,
        b"x/src/c.py": 1,
    }
    assert search({"pattern": "a.b", "fixed_strings": True}, workspace, project, "content") == {
        b"src/b.py": [(1, ":", "a.b")]
    }
    assert search({"pattern": "caf"}, workspace, project, "content") == {b"d.txt": [(1, ":", "caf\ufffd foo")]}
    with pytest.raises(ToolError) as refused:
        search({"pattern": "foo("}, workspace, project, "content")
    assert str(refused.value) == "invalid regex: missing ), unterminated subpattern at position 3."


def test_narnat_state_is_searched_only_when_path_points_into_it(project, workspace):
    files(project, {"a.py": "needle\n", ".narnat/logs/run.log": "needle\n", ".narnat/sessions/s.json": "needle\n"})
    for mode in ("files_with_matches", "content", "count"):
        assert ".narnat" not in grep(workspace, "needle", output_mode=mode).text
    assert grep(workspace, "needle", glob="*.log").text.startswith("No matches")
    assert grep(workspace, "needle", path=".narnat").text.splitlines() == [
        shown(".narnat/sessions/s.json"),
        shown(".narnat/logs/run.log"),
    ]
    counted = grep(workspace, "needle", path=".narnat/logs/run.log", output_mode="count").text
    assert counted == shown(".narnat/logs/run.log:1")


def test_a_glob_never_overrides_gitignore_nested_negation_included(project, workspace):
    files(project, {".gitignore": "*.log\n", "a.log": "needle\n", "src/.gitignore": "!keep.log\nx.py\n",
                    "src/keep.log": "needle\n", "src/x.py": "needle\n", "src/y.py": "needle\n"})  # fmt: skip
    assert grep(workspace, "needle", glob="*.log").text == shown("src/keep.log")
    assert grep(workspace, "needle", glob="**/*.py").text == shown("src/y.py")
    assert grep(workspace, "needle", glob="src/*.py", output_mode="count").text == shown("src/y.py:1")
    assert grep(workspace, "needle", glob="!*.log").text.splitlines() == [shown("src/y.py")]


@NEEDS_GIT
def test_gitignore_is_honoured_with_and_without_git(project, workspace):
    import subprocess

    files(project, {".gitignore": "gen/\n", "gen/out.py": "needle\n", "a.py": "needle\n"})
    assert grep(workspace, "needle").text == "a.py"
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    assert grep(workspace, "needle").text == "a.py"
    assert "Respects .gitignore, also outside git" in grep_tool.TOOL.description


def test_a_single_file_path_is_not_garbled_in_content_and_count(project, workspace):
    files(project, {"doc.txt": ">>> x\nmid\n>>> y\n"})
    assert grep(workspace, ">>>", path="doc.txt", output_mode="content").text.splitlines() == [
        "doc.txt:1:>>> x",
        "doc.txt:3:>>> y",
    ]
    assert grep(workspace, "y", path="doc.txt", output_mode="content", **{"-B": 1}).text.splitlines() == [
        "doc.txt-2-mid",
        "doc.txt:3:>>> y",
    ]
    assert grep(workspace, ">>>", path=str(project / "doc.txt"), output_mode="count").text == "doc.txt:2"


@pytest.mark.slow
def test_a_match_deep_in_a_sparse_binary_file_is_reported(project, workspace):
    with open(project / "disk.img", "wb") as f:
        f.seek(1 << 30)
        f.write(b"needle here\n")
        f.truncate(2 << 30)
    result = grep(workspace, "needle", path="disk.img", output_mode="content")
    assert result.text == 'disk.img: binary file matches (found "\\0" byte around offset 0)'
    assert result.summary == "Found 0 lines in 1 file; 1 binary file matched (lines not shown)"
    assert grep(workspace, "needle", path="disk.img").text == "disk.img"


@NO_BYTE_NAMES
def test_non_utf8_names_are_shown_escaped(project, workspace):
    (project / os.fsdecode(b"caf\xe9.py")).write_bytes(b"needle\n")
    for mode, said in (("files_with_matches", "caf\\xe9.py"), ("content", "caf\\xe9.py:1:needle"),
                       ("count", "caf\\xe9.py:1")):  # fmt: skip
        result = grep(workspace, "needle", output_mode=mode)
        assert result.text == said
        result.text.encode("utf-8")


def test_a_file_glob_as_pattern_points_to_glob(project, workspace):
    files(project, {"a.py": "x\n"})
    for pattern in ("*.py", "src/**/*.ts"):
        result = grep(workspace, pattern)
        assert "looks like a file name pattern" in result.text and "Glob" in result.text, result.text
        assert "glob=" in result.text


def test_pages_join_up_to_the_whole_result(project, workspace):
    files(project, {f"f{n}.txt": "hit\nmiss\nhit\n" for n in range(12)})
    for name in project.iterdir():
        os.utime(name, (1_000_000, 1_000_000))  # equal times: the order must still be stable
    for mode in ("files_with_matches", "content", "count"):
        whole = grep(workspace, "hit", output_mode=mode, head_limit=0).text.splitlines()
        pages = []
        for offset in range(0, len(whole), 5):
            page = grep(workspace, "hit", output_mode=mode, head_limit=5, offset=offset).text.splitlines()
            pages += [line for line in page if not line.startswith("(showing")]
        assert pages == whole
    past = grep(workspace, "hit", offset=50)
    assert "offset 50 is past the end: there are 12 files" in past.text
    assert grep(workspace, "hit", offset=-1).is_error


@NO_FIFOS
def test_a_fifo_is_skipped_not_read(project, workspace):
    os.mkfifo(project / "pipe")
    files(project, {"a.txt": "needle\n"})
    assert grep(workspace, "needle").text == "a.txt"
    out = in_child(project, "Grep", {"pattern": "needle", "path": "pipe"}, timeout=20)
    assert "pipe is not a regular file or folder" in out


def in_child(project, tool, args, timeout):
    """A tool call in a separate Python process (its own session), killed with its group after `timeout`."""
    import json
    import signal
    import subprocess
    import sys

    code = (
        "import json, sys; from pathlib import Path; from narnat_agent.tools.registry import execute;"
        "from narnat_agent.tools.workspace import Workspace;"
        "print(execute(sys.argv[1], json.loads(sys.argv[2]), Workspace(Path.cwd(), Path.cwd() / '.narnat', None)).text)"
    )
    child = subprocess.Popen([sys.executable, "-c", code, tool, json.dumps(args)], cwd=project, text=True,
                             stdout=subprocess.PIPE, start_new_session=True)  # fmt: skip
    try:
        return child.communicate(timeout=timeout)[0]
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        raise AssertionError(f"{tool} did not finish in {timeout} s") from None


def rg_children(pid):
    """The rg processes whose parent is pid."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and os.readlink(f"/proc/{entry}/exe").endswith("/rg"):
                found.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return found


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds rg's process through /proc")
@posix_only("a POSIX session and SIGINT to one process (Wine's Z: drive shows Linux's /proc)")
def test_a_cancelled_search_leaves_no_rg_behind(project):
    import signal
    import subprocess
    import sys
    import time

    with open(project / "huge.img", "wb") as f:
        f.truncate(1 << 38)  # sparse: rg reads zeros for a minute or more
    for mode in ("files_with_matches", "content", "count"):
        code = (
            "import sys; from pathlib import Path; from narnat_agent.tools.registry import execute;"
            "from narnat_agent.tools.workspace import Workspace;"
            "execute('Grep', {'pattern': 'x', 'path': 'huge.img', 'output_mode': sys.argv[1]},"
            " Workspace(Path.cwd(), Path.cwd() / '.narnat', None))"
        )
        child = subprocess.Popen(
            [sys.executable, "-c", code, mode], cwd=project, stderr=subprocess.DEVNULL, start_new_session=True
        )
        searches = []
        try:
            deadline = time.monotonic() + 30
            while not (searches := rg_children(child.pid)) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert searches, "rg never started"
            os.kill(child.pid, signal.SIGINT)  # as the key watcher does: to Python only, not to its children
            child.wait(timeout=30)
            deadline = time.monotonic() + 10
            while any(alive(pid) for pid in searches) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not any(alive(pid) for pid in searches), f"rg left running after a cancel in {mode} mode"
        finally:  # whatever happened, nothing of this test keeps running
            for pid in [child.pid, *searches]:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
            child.wait()


def test_dot_slash_and_absolute_globs(project, workspace):
    files(project, {"src/a.py": "needle\n", "a.py": "needle\n", "src/deep/b.py": "needle\n"})
    for glob in ("./src/*.py", f"{project}/src/*.py"):
        assert grep(workspace, "needle", glob=glob).text == shown("src/a.py"), glob
    assert grep(workspace, "needle", glob="./*.py").text == "a.py"
    assert grep(workspace, "needle", glob=f"{project}/a.py").text == "a.py"  # the top one, not src/a.py
    assert sorted(grep(workspace, "needle", glob="!./src/**").text.splitlines()) == ["a.py"]


def test_context_around_a_match_past_a_nul_byte_is_grouped_as_rg_groups_it(project, workspace):
    (project / "late.log").write_bytes(b"needle\nnext\n" + b"x\n" * 40_000 + b"\0needle\n")
    said = 'late.log: binary file matches (found "\\0" byte around offset 80012)'
    lines = grep(workspace, "needle", path="late.log", output_mode="content", **{"-C": 1}).text.splitlines()
    assert lines == ["late.log:1:needle", "late.log-2-next", "--", "late.log-40002-x", said]
    lines = grep(workspace, "needle", path="late.log", output_mode="content", **{"-A": 1}).text.splitlines()
    assert lines == ["late.log:1:needle", "late.log-2-next", "--", said]


def test_the_header_names_the_filters():
    from narnat_agent.tools import registry

    call = registry.prepare("Grep", {"pattern": "project", "path": "doc", "glob": "source/*.py"})
    assert call.header == 'Grep("project" in doc, glob source/*.py)'


def test_a_pattern_with_quotes_is_quoted_so_it_reads_as_one_pattern_in_the_header():
    from narnat_agent.tools import registry

    call = registry.prepare("Grep", {"pattern": 'name="x"', "path": "src"})
    assert call.header == r'Grep("name=\"x\"" in src)'


def test_context_groups_of_two_files_are_parted_by_a_gap(project, workspace):
    files(project, {"a.txt": "one\nneedle\n", "b.txt": "needle\ntwo\n"})
    for key, expected in (
        ("-A", ["a.txt:2:needle", "--", "b.txt:1:needle", "b.txt-2-two"]),
        ("-B", ["a.txt-1-one", "a.txt:2:needle", "--", "b.txt:1:needle"]),
        ("-C", ["a.txt-1-one", "a.txt:2:needle", "--", "b.txt:1:needle", "b.txt-2-two"]),
    ):
        assert grep(workspace, "needle", output_mode="content", **{key: 1}).text.splitlines() == expected, key
    assert grep(workspace, "needle", output_mode="content", **{"-A": 0}).text.splitlines() == [
        "a.txt:2:needle",
        "b.txt:1:needle",
    ]


@NO_BYTE_NAMES
def test_content_is_sorted_by_the_names_as_shown(project, workspace):
    (project / os.fsdecode(b"a\xe9.txt")).write_bytes(b"needle\n")
    (project / "az.txt").write_text("needle\n")
    assert grep(workspace, "needle", output_mode="content").text.splitlines() == [
        "a\\xe9.txt:1:needle",
        "az.txt:1:needle",
    ]
    assert grep(workspace, "needle", output_mode="count").text.splitlines() == ["a\\xe9.txt:1", "az.txt:1"]


def test_summaries_count_files_lines_and_binary_files(project, workspace):
    files(project, {"a.txt": "needle\nneedle\nother\n"})
    assert grep(workspace, "needle").summary == "Found 1 file"
    assert grep(workspace, "needle", output_mode="count").summary == "Counted 2 matching lines in 1 file"
    assert grep(workspace, "needle", output_mode="content", **{"-C": 1}).summary == "Found 2 lines in 1 file"
    assert grep(workspace, "other", output_mode="content").summary == "Found 1 line in 1 file"
    assert grep(workspace, "other", output_mode="count").summary == "Counted 1 matching line in 1 file"
    for name in ("b.log", "c.log"):
        (project / name).write_bytes(b"needle\n" + b"x\n" * 40_000 + b"\0\n")
    summary = grep(workspace, "needle", output_mode="content").summary
    assert summary == "Found 4 lines in 3 files; 2 binary files matched (lines not shown)"
    (project / "c.log").unlink()
    summary = grep(workspace, "needle", output_mode="content").summary
    assert summary == "Found 3 lines in 2 files; 1 binary file matched (lines not shown)"


def test_an_invalid_regex_says_how_to_search_literally(project, workspace):
    files(project, {"a.py": "x\n"})
    assert grep(workspace, "foo(").text == (
        "Error: invalid regex: unclosed group. Escape special characters, or set fixed_strings=true."
    )


def test_the_header_names_the_type():
    from narnat_agent.tools import registry

    assert registry.prepare("Grep", {"pattern": "x", "type": "py"}).header == 'Grep("x", type py)'


def test_a_name_glob_and_a_type_must_both_hold(project, workspace):
    files(project, {"a.js": "needle\n", "a.py": "needle\n", "b.py": "needle\n"})
    assert grep(workspace, "needle", glob="a*", type="py").text == "a.py"
    assert grep(workspace, "needle", glob="a*").text.splitlines() == ["a.py", "a.js"]


def test_no_matches_names_where_and_what_was_searched(project, workspace):
    files(project, {"src/a.txt": "x\n"})
    assert grep(workspace, "needle").text == (
        "No matches for 'needle' in the project root. Hidden files were searched; binary files were skipped."
    )
    result = grep(workspace, "needle", path="src")
    assert result.text == (
        f"No matches for 'needle' in {shown('src')}. Hidden files were searched; binary files were skipped."
    )
    assert result.summary == "No matches"
    assert grep(workspace, "needle", path="src/a.txt").text == f"No matches for 'needle' in {shown('src/a.txt')}."


def test_files_ignored_by_gitignore_are_counted_and_their_folder_named(project, workspace):
    files(project, {".gitignore": "dist/\n", "dist/a.js": "secret\n", "dist/b.js": "secret\n"})
    result = grep(workspace, "secret")
    assert "2 files ignored by .gitignore rules would match" in result.text
    assert 'give their folder as the path: path="dist"' in result.text


def test_a_project_other_than_the_current_folder_is_searched(project, tmp_path):
    from narnat_agent.tools.workspace import Workspace

    other = tmp_path / "other"
    files(other, {".gitignore": "dist/\n", "dist/a.js": "secret\n", "src/b.js": "needle\n"})
    ws = Workspace(other, other / ".narnat", confirm=lambda command, reason: False)
    assert grep(ws, "needle").text == shown("src/b.js")
    assert "1 file ignored by .gitignore rules would match" in grep(ws, "secret").text


def test_a_page_that_reaches_the_end_offers_no_more(project, workspace):
    files(project, {"a.txt": "hit\nhit\nhit\nhit\n"})
    assert grep(workspace, "hit", output_mode="content", offset=2).text.splitlines() == [
        "a.txt:3:hit",
        "a.txt:4:hit",
        "(showing lines 3-4 of 4)",
    ]
    assert grep(workspace, "hit", output_mode="content", head_limit=1).text.splitlines() == [
        "a.txt:1:hit",
        "(showing lines 1-1 of 4; use offset=1 for more)",
    ]
    assert grep(workspace, "hit", output_mode="content", offset=4).text == (
        "(offset 4 is past the end: there are 4 lines)"
    )
    assert grep(workspace, "hit", output_mode="count", offset=1).text == "(offset 1 is past the end: there are 1 files)"


def test_all_results_asked_for_are_cut_at_a_size_the_context_can_take_and_say_how_to_go_on(project, workspace):
    files(project, {"big.txt": "".join(f"hit {n:05} " + "x" * 90 + "\n" for n in range(2000))})
    result = grep(workspace, "hit", output_mode="content", head_limit=0)
    *shown, note = result.text.splitlines()
    assert len(result.text) <= grep_tool.RESULT_CHARS + 200 and shown[-1].startswith(f"big.txt:{len(shown)}:hit")
    cut = len(shown)
    assert note == f"(showing lines 1-{cut} of 2,000, cut at 30,000 characters; use offset={cut} for more)"
    rest = grep(workspace, "hit", output_mode="content", head_limit=0, offset=len(shown)).text.splitlines()
    assert rest[0].startswith(f"big.txt:{len(shown) + 1}:hit")  # the next page starts where this one stopped


def test_no_matches_quotes_the_pattern_as_sent_its_backslashes_not_doubled(project, workspace):
    files(project, {"a.py": "parse_gitignore_string()\n"})
    result = grep(workspace, r"parse_gitignore_str\b")
    assert result.text.startswith(r"No matches for 'parse_gitignore_str\b' in the project root."), result.text


def test_negative_offsets_and_limits_are_refused(project, workspace):
    files(project, {"a.txt": "hit\n"})
    assert grep(workspace, "hit", head_limit=-1).text == "Error: head_limit must be 0 or more, not -1."
    assert grep(workspace, "hit", offset=-2).text == "Error: offset must be 0 or more, not -2."


def test_a_missing_path_is_named(project, workspace):
    result = grep(workspace, "hit", path="nowhere/x.py")
    assert result.is_error and result.text.startswith(f"Error: {shown('nowhere/x.py')} does not exist")


@NO_FIFOS
def test_a_fifo_path_is_refused_before_it_is_opened(project, workspace):
    os.mkfifo(project / "pipe")
    assert grep(workspace, "needle", path="pipe").text == (
        "Error: pipe is not a regular file or folder (a FIFO, socket or device); Grep searches files only."
    )


@posix_only("a path longer than PATH_MAX")
def test_paths_rg_could_not_read_are_noted_beside_what_it_found(project, workspace):
    files(project, {"a.txt": "needle\n"})
    fd = os.open(project, os.O_RDONLY)
    try:
        for _ in range(20):  # 20 folders of 250 characters: past the 4,096 bytes of a path
            os.mkdir("d" * 250, dir_fd=fd)
            inner = os.open("d" * 250, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        written = os.open("deep.txt", os.O_WRONLY | os.O_CREAT, dir_fd=fd)
        os.write(written, b"needle\n")
        os.close(written)
    finally:
        os.close(fd)
    text = grep(workspace, "needle").text
    assert text.startswith("a.txt\n(Some paths could not be read: ") and text.endswith("(os error 36))")


def test_a_match_just_past_the_shown_columns_is_windowed_and_one_within_them_is_not(project, workspace):
    files(
        project, {"in.js": "x" * 491 + "findMe(1)" + "y" * 1000 + "\n", "past.js": "x" * 496 + "findMe(1)" + "y" * 1000}
    )
    inside = grep(workspace, r"findMe\(\d\)", path="in.js", output_mode="content").text
    assert inside.startswith("in.js:1:" + "x" * 491 + "findMe(1)") and inside.endswith("[... omitted end of long line]")
    past = grep(workspace, r"findMe\(\d\)", path="past.js", output_mode="content").text
    assert past == "past.js:1:[… 346 characters] " + "x" * 150 + "findMe(1)" + "y" * 150 + " [… 850 more]"


def test_a_window_at_either_end_of_a_long_line_says_nothing_is_cut_there(project, workspace):
    files(project, {"a.js": "a" * 100 + "b" * 420 + "c" * 2000 + "\n", "z.js": "x" * 3000 + "findMe(1)" + "y" * 100})
    assert grep(workspace, "b+", path="a.js", output_mode="content").text == (
        "a.js:1:" + "a" * 100 + "b" * 420 + "c" * 150 + " [… 1,850 more]"
    )
    assert grep(workspace, r"findMe\(\d\)", path="z.js", output_mode="content").text == (
        "z.js:1:[… 2,850 characters] " + "x" * 150 + "findMe(1)" + "y" * 100 + " [… 0 more]"
    )


def test_a_long_line_that_is_not_utf8_is_windowed_with_replacement_characters(project, workspace):
    (project / "min.js").write_bytes(b"\xe9" + b"x" * 3000 + b"findMe(1)" + b"y" * 10 + b"\n")
    text = grep(workspace, r"findMe\(\d\)", output_mode="content").text
    assert text == "min.js:1:[… 2,851 characters] " + "x" * 150 + "findMe(1)" + "y" * 10 + " [… 0 more]"


def test_multiline_matches_keep_the_columns_rg_shows(project, workspace):
    files(project, {"min.js": "x" * 3000 + "findMe(1)" + "y" * 100 + "\n"})
    text = grep(workspace, r"findMe\(\d\)", output_mode="content", multiline=True).text
    assert text.startswith("min.js:1:xxx") and text.endswith("[... omitted end of long line]")


def sparse(path, size):
    """A minified line, text past rg's first 64 KB, then NUL bytes up to size (rg does not read past the first)."""
    with open(path, "wb") as f:
        f.write(b"x" * 3000 + b"findMe(1)" + b"y" * 10 + b"\n" + b"z\n" * 40_000)
        f.truncate(size)


@pytest.mark.slow
def test_a_long_line_is_windowed_in_a_file_of_64_mb(project, workspace):
    sparse(project / "limit.js", grep_tool.LONG_FILE)
    at = grep(workspace, r"findMe\(\d\)", output_mode="content").text.splitlines()[0]
    assert at == "limit.js:1:[… 2,850 characters] " + "x" * 150 + "findMe(1)" + "y" * 10 + " [… 0 more]"


def test_a_long_line_of_a_file_over_64_mb_stays_as_rg_cut_it(project, workspace):
    sparse(project / "over.js", grep_tool.LONG_FILE + 1)
    over = grep(workspace, r"findMe\(\d\)", output_mode="content").text.splitlines()[0]
    assert over.startswith("over.js:1:xxx") and over.endswith("[... omitted end of long line]")


def test_a_long_line_is_windowed_for_a_pattern_read_without_case_or_literally(project, workspace):
    files(project, {"min.js": "x" * 3000 + "findMe(12)" + "y" * 10 + "\n"})
    window = "min.js:1:[… 2,850 characters] " + "x" * 150 + "findMe(12)" + "y" * 10 + " [… 0 more]"
    assert grep(workspace, r"findMe\(\d+\)", output_mode="content").text == window
    assert grep(workspace, r"FINDME\(\d+\)", output_mode="content", **{"-i": True}).text == window
    assert grep(workspace, "findMe(12)", output_mode="content", fixed_strings=True).text == window


def test_the_settings_files_are_never_searched_so_a_match_cannot_tell_the_key(project):
    # a count of 1 for "KEY-a" and none for "KEY-b" gave the key away a character at a time
    from narnat_agent.tools.workspace import Workspace

    home = project.parent / "home" / ".narnat" / "narnat.json"
    home.parent.mkdir(parents=True, exist_ok=True)
    home.write_text('{"api_key": "sk-HOMEKEY-abcdef0123"}')
    own = project / ".narnat" / "narnat.json"
    own.parent.mkdir(exist_ok=True)
    own.write_text('{"api_key": "sk-PROJKEY-abcdef0123"}')
    (project / "notes.txt").write_text("KEY-a is a word here\n")
    ws = Workspace(project, project / ".narnat", confirm=None, hidden=(home, own))
    for path in (str(home), ".narnat/narnat.json"):
        refused = grep(ws, "KEY-a", path=path, output_mode="count")
        assert (
            refused.is_error and "is a settings file and may hold the API key: Grep does not search it" in refused.text
        )
    for path in (str(home.parent), ".narnat", "."):
        found = grep(ws, "KEY-a", path=path, output_mode="files_with_matches")
        assert "narnat.json" not in found.text, path
    assert "notes.txt" in grep(ws, "KEY-a", output_mode="files_with_matches").text
