import os

from narnat_agent import ripgrep
from narnat_agent.tools.registry import execute


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


def test_a_name_pattern_matches_at_any_depth_newest_first(project, workspace):
    tree(project, ["a.py", "src/b.py", "src/deep/er/c.py", "notes.md"])
    result = glob(workspace, "*.py")
    assert result.text.splitlines() == ["src/deep/er/c.py", "src/b.py", "a.py"]
    assert result.summary == "Found 3 files"


def test_path_patterns_and_a_search_folder(project, workspace):
    tree(project, ["src/app/x.ts", "src/y.ts", "lib/z.ts", "src/app/x.test.ts"])
    assert glob(workspace, "src/**/*.ts").text.splitlines() == ["src/app/x.test.ts", "src/y.ts", "src/app/x.ts"]
    assert glob(workspace, "*.{ts,js}", path="lib").text == "lib/z.ts"


def test_gitignore_is_respected_hidden_files_included_and_git_skipped(project, workspace):
    tree(project, ["keep.py", "build/gen.py", ".config/tool.py", ".git/hooks/x.py"], ignore="build/\n")
    assert sorted(glob(workspace, "*.py").text.splitlines()) == [".config/tool.py", "keep.py"]


def test_no_match_says_what_was_skipped(project, workspace):
    tree(project, ["build/out.log"], ignore="build/\n")
    result = glob(workspace, "*.log")
    assert result.text.startswith("No files match '*.log' in the working directory.")
    assert "1 file ignored by .gitignore rules would match; they were skipped" in result.text
    assert "Hidden files were included" in glob(workspace, "*.nothing").text


def test_results_are_capped_at_100_with_the_rest_counted(project, workspace):
    tree(project, [f"f{n:03}.txt" for n in range(130)])
    lines = glob(workspace, "*.txt").text.splitlines()
    assert lines[0] == "f129.txt" and len(lines) == 101
    assert lines[-1] == "(showing the 100 newest of 130 files; 30 more; narrow the pattern)"


def test_missing_folder(project, workspace):
    result = glob(workspace, "*.py", path="nowhere")
    assert result.is_error and "nowhere does not exist" in result.text


def test_fallback_walk_matches_like_ripgrep(project):
    tree(project, ["a.py", "src/b.py", "src/c.txt", "src/d/e.py"])
    assert sorted(ripgrep.walk_matching("*.py", project, project)) == ["a.py", "src/b.py", "src/d/e.py"]
    assert ripgrep.walk_matching("src/*.py", project, project) == ["src/b.py"]
    assert sorted(ripgrep.walk_matching("src/**/*.py", project, project)) == ["src/b.py", "src/d/e.py"]


def test_rg_comes_from_the_ripgrep_distribution():
    from importlib.metadata import distribution
    from pathlib import Path

    dist = distribution("ripgrep")
    shipped = next(dist.locate_file(f) for f in dist.files if f.name == "rg")
    assert ripgrep.binary() == str(Path(shipped).resolve()) and os.access(ripgrep.binary(), os.X_OK)
