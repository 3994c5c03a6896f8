import os

import pytest

from narnat_agent.tools import glob as glob_tool
from narnat_agent.tools.files import ripgrep
from narnat_agent.tools.registry import execute
from tests.platforms import NEEDS_GIT, NO_BYTE_NAMES, NO_FIFOS, needs_a_shell, posix_only, shown

pytestmark = pytest.mark.windows  # these must pass on Windows too (docs/windows.md)


def tree(root, files, ignore=""):
    for i, name in enumerate(files):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
        os.utime(path, (1_000_000 + i, 1_000_000 + i))  # later in the list = newer
    if ignore:
        (root / ".gitignore").write_text(ignore)


def glob(ws, pattern, **args):
    return execute("Glob", {"pattern": pattern, **args}, ws)


def listed(*paths):
    """Glob's lines for these paths (written with '/'), as it shows them here."""
    return [shown(path) for path in paths]


def test_every_depth_newest_first(project, workspace):
    tree(project, ["a.py", "src/b.py", "src/deep/er/c.py", "notes.md"])
    result = glob(workspace, "**/*.py")
    assert result.text.splitlines() == listed("src/deep/er/c.py", "src/b.py", "a.py")
    assert result.summary == "Found 3 files"


def test_path_patterns_and_a_search_folder(project, workspace):
    tree(project, ["src/app/x.ts", "src/y.ts", "lib/z.ts", "src/app/x.test.ts"])
    assert glob(workspace, "src/**/*.ts").text.splitlines() == listed("src/app/x.test.ts", "src/y.ts", "src/app/x.ts")
    assert glob(workspace, "*.{ts,js}", path="lib").text == shown("lib/z.ts")


def test_gitignore_is_respected_hidden_files_included_and_git_skipped(project, workspace):
    tree(project, ["keep.py", "build/gen.py", ".config/tool.py", ".git/hooks/x.py"], ignore="build/\n")
    assert sorted(glob(workspace, "**/*.py").text.splitlines()) == listed(".config/tool.py", "keep.py")


def test_no_match_says_what_was_skipped(project, workspace):
    tree(project, ["build/out.log"], ignore="build/\n")
    result = glob(workspace, "**/*.log")
    assert result.text.startswith("No files match '**/*.log' in the project root.")
    assert "1 file ignored by .gitignore rules would match; they were skipped" in result.text
    assert "Hidden files were included" in glob(workspace, "*.nothing").text


def test_a_glob_into_an_ignored_folder_says_how_to_search_it(project, workspace):
    tree(project, ["node_modules/left-pad/index.js", "node_modules/left-pad/package.json", "node_modules/yargs/x.js"],
         ignore="node_modules/\n")  # fmt: skip
    said = glob(workspace, "node_modules/**/*.js").text
    assert said.endswith('they were skipped. To search them, give their folder as the path: path="node_modules".')
    assert glob(workspace, "**/*.js", path="node_modules").text.count("index.js") == 1  # and that finds them
    said = glob(workspace, "node_modules/left-pad/*.json").text
    assert 'path="node_modules/left-pad"' in said


def test_results_are_capped_at_100_with_the_rest_counted(project, workspace):
    tree(project, [f"f{n:03}.txt" for n in range(130)])
    lines = glob(workspace, "*.txt").text.splitlines()
    assert lines[0] == "f129.txt" and len(lines) == 101
    assert lines[-1] == "(showing the 100 newest of 130 files; 30 more; narrow the pattern)"


def test_a_capped_name_pattern_counts_its_own_folder_apart_from_the_subfolders(project, workspace):
    tree(project, [*(f"sub/s{n}.txt" for n in range(5)), *(f"f{n:03}.txt" for n in range(130))])
    lines = glob(workspace, "*.txt").text.splitlines()
    assert lines[0] == "f129.txt" and len(lines) == 102
    assert lines[-2:] == [
        "(showing the 100 newest of 130 files; 30 more; narrow the pattern)",
        "(5 more files match '**/*.txt' in subfolders)",
    ]


def test_missing_folder(project, workspace):
    result = glob(workspace, "*.py", path="nowhere")
    assert result.is_error and "nowhere does not exist" in result.text


def test_fallback_walk_matches_like_glob(project):
    tree(project, ["a.py", "src/b.py", "src/c.txt", "src/d/e.py", ".narnat/logs/x.py"])
    assert ripgrep.walk_matching("*.py", project, project) == ["a.py"]
    assert sorted(ripgrep.walk_matching("**/*.py", project, project)) == ["a.py", "src/b.py", "src/d/e.py"]
    assert ripgrep.walk_matching("*.py", project / "src", project) == ["src/b.py"]
    assert ripgrep.walk_matching("src/*.py", project, project) == ["src/b.py"]
    assert sorted(ripgrep.walk_matching("src/**/*.py", project, project)) == ["src/b.py", "src/d/e.py"]


def test_rg_comes_from_the_ripgrep_distribution():
    from importlib.metadata import distribution
    from pathlib import Path

    dist = distribution("ripgrep")
    shipped = next(dist.locate_file(f) for f in dist.files if f.name == ("rg.exe" if os.name == "nt" else "rg"))
    assert ripgrep.binary() == str(Path(shipped).resolve()) and os.access(ripgrep.binary(), os.X_OK)


def test_star_and_question_mark_stay_within_one_segment(project, workspace):
    tree(project, ["README.md", "docs/x.md", "café/y.md", "src/a.py", "src/core/b.py", "src/c.py"])
    assert glob(workspace, "*.md").text == "README.md\n(2 more files match '**/*.md' in subfolders)"
    assert glob(workspace, "*.py", path="src").text.splitlines()[:2] == listed("src/c.py", "src/a.py")
    assert sorted(glob(workspace, "**/*.md").text.splitlines()) == listed("README.md", "café/y.md", "docs/x.md")
    assert glob(workspace, "src/?.py").text.splitlines() == listed("src/c.py", "src/a.py")
    assert glob(workspace, "src/**/b.py").text == shown("src/core/b.py")
    assert "'*' and '?' match within one path segment" in glob_tool.TOOL.description


def test_absolute_and_dot_slash_patterns(project, workspace):
    tree(project, ["pkg/a.py", "pkg/sub/b.py", "other.py"])
    for pattern in (f"{project}/pkg/*.py", "./pkg/*.py", "pkg/./*.py"):
        assert glob(workspace, pattern).text.splitlines()[0] == shown("pkg/a.py"), pattern
    assert glob(workspace, "../*.py", path="pkg/sub").text.splitlines()[0] == shown("pkg/a.py")
    assert glob(workspace, "*.py", path=str(project / "pkg")).text.splitlines()[0] == shown("pkg/a.py")


@pytest.mark.skipif(os.name != "nt", reason="a backslash in a glob separates folders on Windows; elsewhere it escapes")
def test_backslashes_in_patterns_separate_folders_on_windows(project, workspace):
    tree(project, ["pkg/a.py", "pkg/sub/b.py", "other.py"])
    assert glob(workspace, "pkg\\*.py").text == "pkg\\a.py"
    assert glob(workspace, f"{project}\\pkg\\*.py").text == "pkg\\a.py"
    assert glob(workspace, "pkg\\**\\*.py").text.splitlines() == ["pkg\\sub\\b.py", "pkg\\a.py"]
    for pattern in ("pkg\\sub\\*.py", f"{project}\\pkg\\sub\\*.py"):
        assert execute("Grep", {"pattern": "pkg", "glob": pattern}, workspace).text == "pkg\\sub\\b.py", pattern


def test_a_glob_never_overrides_gitignore(project, workspace):
    tree(project, ["a.log", "src/keep.log", "src/x.py", "src/y.py", "build/z.py"], ignore="*.log\nbuild/\n")
    (project / "src" / ".gitignore").write_text("!keep.log\nx.py\n")
    assert glob(workspace, "**/*.log").text == shown("src/keep.log")
    assert glob(workspace, "**/*.py").text == shown("src/y.py")
    assert glob(workspace, "build/*.py").text.startswith("No files match")


@NEEDS_GIT
def test_gitignore_is_honoured_with_and_without_git(project, workspace):
    import subprocess

    tree(project, ["gen/out.py", "a.py"], ignore="gen/\n")
    assert glob(workspace, "**/*.py").text == "a.py"
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    assert glob(workspace, "**/*.py").text == "a.py"
    assert "Respects .gitignore, also outside git" in glob_tool.TOOL.description


def test_narnat_state_is_listed_only_when_path_points_into_it(project, workspace):
    tree(project, ["a.log", ".narnat/logs/run.log", ".narnat/sessions/s.json"])
    assert glob(workspace, "**/*.log").text == "a.log"
    assert glob(workspace, "**").text == "a.log"
    assert glob(workspace, "**/*.log", path=".narnat").text == shown(".narnat/logs/run.log")
    assert glob(workspace, f"{project}/.narnat/logs/*.log").text == shown(".narnat/logs/run.log")


def test_binary_files_are_listed_and_the_note_does_not_say_otherwise(project, workspace):
    tree(project, ["a.txt"])
    (project / "img.png").write_bytes(b"\x89PNG\x00\x00")
    assert glob(workspace, "*.png").text == "img.png"
    assert "binary" not in glob(workspace, "*.nothing").text


@NO_BYTE_NAMES
def test_non_utf8_names_are_shown_escaped(project, workspace):
    (project / os.fsdecode(b"caf\xe9.py")).write_bytes(b"x\n")
    result = glob(workspace, "caf*")
    assert result.text == "caf\\xe9.py"
    result.text.encode("utf-8")


@NO_FIFOS
def test_a_path_that_is_not_a_folder(project, workspace):
    from tests.tools.test_grep import in_child

    tree(project, ["a.py"])
    os.mkfifo(project / "pipe")
    assert glob(workspace, "*", path="a.py").text == "Error: a.py is a file, not a folder; Glob searches folders."
    assert "pipe is not a folder" in in_child(project, "Glob", {"pattern": "*", "path": "pipe"}, timeout=20)
    assert glob(workspace, "*").text == "a.py"


def test_a_name_pattern_says_how_many_more_match_in_subfolders(project, workspace):
    tree(project, ["a.py", "src/b.py", "src/c/d.py", "src/c/e.txt"])
    top = glob(workspace, "*.py")
    assert top.text.splitlines() == ["a.py", "(2 more files match '**/*.py' in subfolders)"]
    assert top.summary == "Found 1 file"  # the file listed, not those said apart below
    assert glob(workspace, "**/*.py").text.splitlines() == listed("src/c/d.py", "src/b.py", "a.py")
    (project / "a.py").unlink()
    result = glob(workspace, "*.py")
    assert result.text == "No files match '*.py' in the project root; 2 files match '**/*.py' in subfolders."
    assert glob(workspace, "*.txt", path="src").text.startswith(
        "No files match '*.txt' in src; 1 file matches '**/*.txt' in subfolders."
    )


def test_a_file_being_replaced_by_edit_or_write_is_never_listed(workspace, project):
    (project / "app.py").write_text("x = 1\n")
    (project / ".narnat-tmp-4242-abc").write_text("x = 2\n")  # what an atomic write looks like half-way
    assert execute("Glob", {"pattern": "**/*"}, workspace).text.splitlines() == ["app.py"]
    assert ".narnat-tmp" not in execute("Grep", {"pattern": "x =", "output_mode": "content"}, workspace).text


def test_nothing_found_after_a_cd_says_where_patterns_start(workspace, project):
    needs_a_shell()
    (project / "doc" / "source").mkdir(parents=True)
    (project / "doc" / "source" / "conf.py").write_text("project = 'x'\n")
    execute("Bash", {"command": "cd doc"}, workspace)
    glob = execute("Glob", {"pattern": "source/*.py"}, workspace)
    grep = execute("Grep", {"pattern": "project", "glob": "source/*.py"}, workspace)
    for result in (glob, grep):
        assert "start at the project root" in result.text and f"Bash is in {project / 'doc'}" in result.text


def test_a_file_gone_before_its_time_is_read_sorts_last_and_the_others_stay_newest_first(project):
    for age, name in enumerate(["new.py", "old.py"]):
        (project / name).write_text("x")
        os.utime(project / name, (1_000_000 - age, 1_000_000 - age))
    assert ripgrep.newest_first([b"old.py", b"gone.py", b"new.py"], project) == [b"new.py", b"old.py", b"gone.py"]


def test_a_hundred_files_are_all_listed_and_one_more_is_said(project, workspace):
    tree(project, [f"f{n:03}.txt" for n in range(100)])
    hundred = glob(workspace, "*.txt").text.splitlines()
    assert len(hundred) == 100 and not hundred[-1].startswith("(showing")
    tree(project, ["f100.txt"])
    more = glob(workspace, "*.txt").text.splitlines()
    assert more[-1] == "(showing the 100 newest of 101 files; 1 more; narrow the pattern)" and len(more) == 101


def test_two_stars_alone_find_every_file_at_every_depth(project, workspace):
    tree(project, ["a.txt", "src/b.txt", "src/deep/c.txt"])
    assert glob(workspace, "**").text.splitlines() == listed("src/deep/c.txt", "src/b.txt", "a.txt")


def test_a_pattern_naming_one_file_exactly_finds_it(project, workspace):
    tree(project, ["src/app.py", "src/other.py"])
    result = glob(workspace, "src/app.py")
    assert result.text.splitlines() == listed("src/app.py") and result.summary == "Found 1 file"


def test_a_pattern_below_a_search_folder_matches_from_the_folder_and_nothing_found_is_said(project, workspace):
    tree(project, ["src/b.py", "src/c/bd.py"])
    assert glob(workspace, "b*.py", path="src").text.splitlines() == [
        shown("src/b.py"), "(1 more file matches '**/b*.py' in subfolders)"
    ]  # fmt: skip
    assert glob(workspace, "x*.py", path="src").summary == "No files"
    assert glob(workspace, "*.py").summary == "No files"  # and two in subfolders, said in the text


def test_a_folder_below_any_depth_is_checked_and_not_only_the_name(project, workspace):
    tree(project, ["a/x.py", "b/x.py", "deep/a/y.py"])
    assert glob(workspace, "**/a/*.py").text.splitlines() == listed("deep/a/y.py", "a/x.py")


def test_a_name_holding_the_word_file_is_said_as_it_is(project, workspace):
    tree(project, ["src/my file.txt", "a file.txt"])
    assert glob(workspace, "* file.txt").text.splitlines() == [
        "a file.txt", "(1 more file matches '**/* file.txt' in subfolders)"
    ]  # fmt: skip


@posix_only("a path longer than PATH_MAX")
def test_a_list_short_of_a_folder_that_could_not_be_read_says_so(project, workspace):
    tree(project, ["a.txt"])
    fd = os.open(project, os.O_RDONLY)
    try:
        for _ in range(20):  # 20 folders of 250 characters: past the 4,096 bytes of a path
            os.mkdir("d" * 250, dir_fd=fd)
            inner = os.open("d" * 250, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        os.close(os.open("deep.txt", os.O_WRONLY | os.O_CREAT, dir_fd=fd))
    finally:
        os.close(fd)
    text = glob(workspace, "**/*.txt").text
    assert text.startswith("a.txt\n(Some paths could not be read: ") and text.endswith("(os error 36))")


def test_no_files_quotes_the_pattern_as_sent_its_backslashes_not_doubled(project, workspace):
    result = execute("Glob", {"pattern": r"src\*.nothing"}, workspace)
    assert r"No files match 'src\*.nothing'" in result.text, result.text
