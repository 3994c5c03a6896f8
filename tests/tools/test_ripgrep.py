"""The rg runner Glob, Grep and the start share: its globs, walks, listings, notes and errors, on real files."""

import os
import subprocess

import pytest

from narnat_agent.platform.files import stat_in
from narnat_agent.tools.files import ripgrep
from tests.platforms import NO_BYTE_NAMES, NO_FIFOS, posix_only

pytestmark = pytest.mark.windows  # these must pass on Windows too (docs/windows.md)


def tree(root, names):
    for i, name in enumerate(names):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("needle\n")
        os.utime(path, (1_000_000 + i, 1_000_000 + i))  # later in the list = newer


def matches(pattern, path):
    return bool(ripgrep.glob_regex(pattern).fullmatch(path))


@pytest.mark.parametrize(
    ("pattern", "yes", "no"),
    [
        ("*.py", ["a.py", ".py"], ["src/a.py", "a.pyc", "apy"]),
        ("a*b", ["ab", "axb"], ["abc"]),
        ("**a", ["xa", "a"], ["x/a"]),
        ("**/", ["a/", "a/b/"], ["abc"]),
        ("src/**", ["src/a\nb"], []),
        ("a?c", ["abc"], ["a/c", "ac", "abbc"]),
        ("a**b", ["ab", "axxb"], ["a/b"]),
        ("**", ["a", "a/b/c"], []),
        ("**/*.py", ["a.py", "src/a.py", "src/d/a.py"], ["a.txt"]),
        ("src/**", ["src/a", "src/d/a"], ["lib/a"]),
        ("src/**/x", ["src/x", "src/a/b/x"], ["srcx", "src/ax"]),
        ("x**/y", ["x/y", "xa/y"], ["x/a/y"]),
        ("[ab].py", ["a.py", "b.py"], ["c.py", "/.py", "X.py"]),
        ("[X]", ["X"], ["x"]),
        ("[a{]", ["a", "{"], ["[a{]"]),
        ("aX}", ["aX}"], []),
        ("[!a].py", ["b.py"], ["a.py", "/.py"]),
        ("[^a].py", ["b.py"], ["a.py"]),
        ("[a-c]", ["b"], ["d", "-"]),
        ("[]a]", ["]", "a"], ["b"]),
        ("[\\]", ["\\"], ["a", "]"]),
        ("[&~|]", ["&", "~", "|"], ["a"]),
        ("a[", ["a["], ["a"]),
        ("*.{py,md}", ["a.py", "a.md"], ["a.txt", "a.{py,md}"]),
        ("{a,b{c,d}}", ["a", "bc", "bd"], ["b", "bcd"]),
        ("{a,{b,c}}x", ["ax", "bx", "cx"], ["x"]),
        ("{{a,b},c}", ["a", "b", "c"], ["a,c"]),
        ("{a", ["{a"], ["a"]),
        ("\\*", ["*"], ["a"]),
        ("ab\\*", ["ab*"], ["abc"]),
        ("a\\", ["a\\"], ["a"]),
        ("a.b", ["a.b"], ["axb"]),
    ],
)
def test_glob_patterns_match_as_rg_reads_them(pattern, yes, no):
    assert [path for path in yes if not matches(pattern, path)] == []
    assert [path for path in no if matches(pattern, path)] == []


def test_the_walk_skips_git_narnat_and_files_being_written(project):
    tree(project, ["b.py", "a.py", ".git/config", ".narnat/logs/x.log", "src/.narnat-tmp-1-ab", "src/c.py", "z/d"])
    walked = [path.relative_to(project).as_posix() for path in ripgrep.walk(project, project)]
    assert walked == ["a.py", "b.py", "src/c.py", "z/d"]
    inside = [path.relative_to(project).as_posix() for path in ripgrep.walk(project / ".narnat", project)]
    assert inside == [".narnat/logs/x.log"]
    assert list(ripgrep.walk(project / "a.py", project)) == [project / "a.py"]
    assert ripgrep.walk_matching("*.py", project / "a.py", project) == ["a.py"]
    assert ripgrep.walk_matching("*.txt", project / "a.py", project) == []


@NO_FIFOS
def test_the_walk_lists_files_only(project):
    tree(project, ["a.py"])
    os.mkfifo(project / "pipe")
    assert list(ripgrep.walk(project, project)) == [project / "a.py"]


def test_newest_first_then_by_name_and_a_vanished_file_last(project):
    tree(project, ["old", "new"])
    for name in ("b", "a"):
        (project / name).write_text("x")
        os.utime(project / name, (1_000_000, 1_000_000))
    assert ripgrep.newest_first([b"gone", b"b", b"old", b"a", b"new"], project) == [b"new", b"a", b"b", b"old", b"gone"]


def test_newest_files_are_those_kept_newest_first(project):
    tree(project, ["a.py", "b.txt", "c.py"])
    assert ripgrep.newest_files(["--files"], project, lambda name: name.endswith(b".py")) == [b"c.py", b"a.py"]


@posix_only("the stand-in for rg is a shell script")
def test_a_name_rgs_output_cuts_between_two_reads_is_listed_whole(project, tmp_path):
    tree(project, ["d/first.txt", "d/second.txt"])
    fake = tmp_path / "rg"  # an rg whose output stops inside a name for a while, as a pipe's may
    fake.write_text("#!/bin/sh\nprintf 'd/first.txt\\0d/sec'\nsleep 0.3\nprintf 'ond.txt\\0'\n")
    fake.chmod(0o755)
    with stat_in(project) as stat:
        stamped = ripgrep._stamped(str(fake), ["--files"], project, stat, lambda name: name.startswith(b"d/"))
    assert [name for _, name in sorted(stamped)] == [b"d/second.txt", b"d/first.txt"]


def test_a_listing_rg_refuses_says_why(project):
    tree(project, ["a.py"])
    with pytest.raises(ripgrep.RgFailed) as refused:
        ripgrep.newest_files(["--files", "--type", "nosuchtype"], project, lambda name: True)
    assert str(refused.value) == "unrecognized file type: nosuchtype"
    with pytest.raises(ripgrep.RgFailed) as refused:
        ripgrep.files(project, project, kind="nosuchtype")
    assert refused.value.stderr.startswith("rg: unrecognized file type: nosuchtype")


def test_files_lists_what_rg_searches(project):
    tree(project, ["a.py", "b.js", "dist/c.py", ".hidden/d.py", ".narnat/e.py", "src/f.py"])
    (project / ".gitignore").write_text("dist/\n")
    assert sorted(ripgrep.files(project, project)) == [b".gitignore", b".hidden/d.py", b"a.py", b"b.js", b"src/f.py"]
    assert sorted(ripgrep.files(project, project, kind="py")) == [b".hidden/d.py", b"a.py", b"src/f.py"]
    assert b"dist/c.py" in ripgrep.files(project, project, ignore=False)
    assert ripgrep.files(project / "src", project) == [b"src/f.py"]
    assert ripgrep.files(project / ".narnat", project) == [b".narnat/e.py"]


def test_folders_with_writes_include_ignored_and_hidden_ones(project):
    tree(project, ["a/.narnat-tmp-1-ab", "dist/.narnat-tmp-2-cd", ".hidden/.narnat-tmp-3-ef", "b/c.py"])
    (project / ".gitignore").write_text("dist/\n")
    assert ripgrep.folders_with_writes(project) == {project / "a", project / "dist", project / ".hidden"}
    assert ripgrep.folders_with_writes(project / "b") == set()


def test_rg_answers_as_text(project):
    tree(project, ["a.py"])
    done = ripgrep.rg(["--files"], project)
    assert isinstance(done, subprocess.CompletedProcess)
    assert (done.returncode, done.stdout, done.stderr) == (0, "a.py\n", "")
    done = ripgrep.run(["-e", "needle", "--", "nothere.py"], project)
    assert done is not None and done.code == 2 and done.out == b"" and "nothere.py" in done.err


def test_the_error_line_is_rgs_last_error_else_its_last_line():
    assert ripgrep.error_line("rg: regex parse error:\nerror: first\n  \nerror: second\nhelp\n") == "second"
    assert ripgrep.error_line("rg: x: No such file\n\n") == "x: No such file"
    assert ripgrep.error_line("  \n") == "ripgrep failed"


def test_of_several_lines_without_an_error_the_last_is_said():
    # rg's own words for two paths it could not search: the line said is the last, as for rg's other failures
    said = "rg: gone: No such file or directory (os error 2)\nrg: moved: No such file or directory (os error 2)\n"
    assert ripgrep.error_line(said) == "moved: No such file or directory (os error 2)"


def test_the_note_on_ignored_files_names_their_folder(project):
    (project / "src").mkdir()
    note = ripgrep.skipped_note([b"dist/a/x.js"], project, project)
    assert note == (
        " 1 file ignored by .gitignore rules would match; they were skipped. To search them, give their folder as the "
        'path: path="dist/a".'
    )
    note = ripgrep.skipped_note([b"dist/a/x.js", b"dist/b/y.js"], project, project)
    assert note.startswith(" 2 files ignored") and note.endswith('path="dist".')
    assert ripgrep.skipped_note([b"x.js"], project, project).endswith("they were skipped.")
    assert ripgrep.skipped_note([b"src/x.js"], project / "src", project).endswith("they were skipped.")
    assert ripgrep.skipped_note([b"src/d/x.js"], project / "src", project).endswith('path="src/d".')
    assert ripgrep.skipped_note([b"d/x.js"], project.parent, project).endswith("they were skipped.")
    assert ripgrep.skipped_note([], project, project) == ""
    assert ripgrep.skipped_note([b'a "b"/x.js'], project, project).endswith('path="a \\"b\\"".')


def test_rg_is_pointed_at_a_path_relative_to_the_root(project):
    assert ripgrep.target(project, project) == []
    assert ripgrep.target(project / "src", project) == ["--", "src"]
    assert ripgrep.target(project.parent / "other", project) == ["--", str(project.parent / "other")]
    assert ripgrep.scope(project / ".narnat" / "logs", project) == ["--no-ignore"]
    assert ripgrep.scope(project, project) == ["--glob", "!.narnat", "--glob", "!.narnat-tmp-*"]
    assert ripgrep.in_state(project.parent / ".narnat" / "x", project)
    assert not ripgrep.in_state(project.parent / "x", project)


def test_the_name_filter_takes_plain_names_only():
    assert ripgrep.name_filter("*.{py,md}") == ["--type-add", "narnatglob:*.{py,md}", "--type", "narnatglob"]
    for name in ("", "**", "src/*.py", "[ab].py", "a\\b", "{a,{b}}"):
        assert ripgrep.name_filter(name) == [], name


@posix_only("a name that is not UTF-8")
def test_names_that_are_not_utf8_are_shown_escaped():
    assert ripgrep.shown(b"caf\xe9/x.py") == "caf\\xe9/x.py"
    assert ripgrep.shown_name(b"a/caf\xe9.py") == "a/caf\\xe9.py"


def test_a_root_other_than_the_current_folder_is_listed_from_that_root(project, tmp_path):
    other = tmp_path / "other"
    tree(other, ["a.py", "src/b.py"])
    assert ripgrep.newest_files(["--files"], other, lambda name: True) == [b"src/b.py", b"a.py"]
    assert ripgrep.newest_first([b"a.py", b"src/b.py"], other) == [b"src/b.py", b"a.py"]
    assert sorted(ripgrep.files(other, other)) == [b"a.py", b"src/b.py"]
    assert sorted(ripgrep.walk_matching("**/*.py", other, other)) == ["a.py", "src/b.py"]
    done = ripgrep.rg(["--files", "src"], other)
    assert done is not None and done.stdout == "src/b.py\n"
    assert not ripgrep.in_state(other / "src", other)


def test_a_project_inside_a_folder_named_like_narnats_own_is_not_narnats_own(tmp_path):
    root = tmp_path / ".narnat" / "project"
    assert not ripgrep.in_state(root / "src", root) and ripgrep.in_state(root / ".narnat" / "logs", root)
    assert ripgrep.scope(root / "src", root) == ["--glob", "!.narnat", "--glob", "!.narnat-tmp-*"]


def test_an_empty_folder_lists_no_files(project):
    (project / "empty").mkdir()
    assert ripgrep.files(project / "empty", project) == []


def test_a_listing_that_found_files_is_kept_when_rg_also_complains(project):
    tree(project, ["a.py"])
    assert ripgrep.newest_files(["--files", "nothere", "a.py"], project, lambda name: True) == [b"a.py"]


@NO_BYTE_NAMES
def test_rgs_complaints_about_names_that_are_not_utf8_are_read_all_the_same(project):
    missing = os.fsdecode(b"caf\xe9")
    done = ripgrep.run(["--files", missing], project)
    said = "caf\ufffd: IO error for operation on caf\ufffd: No such file or directory (os error 2)"
    assert done is not None and done.err == f"rg: {said}\n"
    with pytest.raises(ripgrep.RgFailed) as refused:
        ripgrep.newest_files(["--files", missing], project, lambda name: True)
    assert str(refused.value) == said


@posix_only("a pipe on the standard input's descriptor")
def test_a_search_never_reads_narnats_own_input(project):
    tree(project, ["a.txt"])
    read_end, write_end = os.pipe()
    os.write(write_end, b"needle from the input\n")
    os.close(write_end)
    saved = os.dup(0)
    try:
        os.dup2(read_end, 0)
        done = ripgrep.run(["-l", "-e", "needle"], project)
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(read_end)
    assert done is not None and done.out == b"a.txt\n"


def test_the_walk_inside_narnat_skips_git_folders_there(project):
    tree(project, [".narnat/a.log", ".narnat/x/.git/config"])
    assert list(ripgrep.walk(project / ".narnat", project)) == [project / ".narnat" / "a.log"]
