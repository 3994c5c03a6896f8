"""Grep and Glob called as the model calls them, on generated trees, against rg itself run on the same tree.

Each tree is built once and queried many times. Grep's reference is rg with the equivalent flags (a `glob` keeps only
the files `rg --files` lists: a glob never overrides .gitignore); Glob's is `rg --files` filtered by the matcher
below, which spells out the stated semantics independently of the tool's own.
"""

import fnmatch
import os
import re
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from narnat_agent.tools.files import ripgrep
from narnat_agent.tools.registry import execute
from narnat_agent.tools.workspace import Workspace

WORDS = ["needle", "Needle", "foo", "bar", "a.b", "x(y)", "fooBar", "café", "", "   indented needle"]
DIRS = ["", "", "src", "src/core", "docs", ".hidden", "café", "my dir", "build", "sub/deep"]
NAMES = ["a.py", "b.py", "main.py", "notes.md", "Read me.md", "naïve.txt", "x-1.txt", "run.log", "keep.log", "noext"]
KINDS = ["lf", "lf", "crlf", "wide", "binary", "late binary", "latin-1"]
ROOT_IGNORES = ["*.log", "build/", "*.md", "!keep.log", "/a.py", "docs/", "my dir/", ".hidden/x-1.txt"]
NESTED_IGNORES = ["!*.log", "b.py", "!notes.md", "core/", "*.txt", "!naïve.txt"]
STATE_IGNORE = "narnat.json\nsessions/\nlogs/\n"  # what Narnat writes into .narnat/.gitignore
PATTERNS = ["needle", "foo|bar", r"a\.b", "^foo", "bar$", r"x\(y\)", "[Nn]eedle", "café", "e", "x{3}", "^$", "nothing"]
LITERALS = ["a.b", "x(y)", "(", "needle", "é"]
GREP_GLOBS = [
    "*.py",
    "core",
    "Read me.md",
    "[ab].py",
    "*.{md,txt}",
    "**/*.log",
    "src/*.py",
    "src/**",
    "!*.py",
    "*",
    "*.nothing",
    "**/core/*",
    "?.py",
]
GLOB_PARTS = ["*", "**", "*.py", "*.{py,md}", "?.py", "[ab]*", "src", "core", "café", "my dir", ".hidden", "*.log",
              "a*", "*e*", "*.t?t", "[!a]*.py", "sub", "deep"]  # fmt: skip
PHASES = [Phase.explicit, Phase.reuse, Phase.generate]  # no shrinking: a failure names its tree and query already
REF = ["--no-config", "--hidden", "--no-require-git", "--glob", "!.git", "--color", "never"]


@dataclass
class Tree:
    root: Path
    ws: Workspace
    dirs: list[str]
    files: list[str]
    listings: dict
    names: dict[str, str]  # each file's name as the tools show it -> its name on disk

    def rg(self, args: list[str], path: str | None) -> list[str]:
        """rg run directly from the root: its output lines, names shown as the tools show them."""
        inside = path is not None and ".narnat" in Path(path).parts
        scope = ["--no-ignore"] if inside else ["--glob", "!.narnat"]
        where = ["--", path] if path is not None else []
        done = subprocess.run([ripgrep.binary(), *REF, *scope, *args, *where], cwd=self.root, capture_output=True)
        return [line for line in done.stdout.decode("utf-8", "backslashreplace").split("\n") if line]

    def listing(self, path: str | None, kind: str | None = None) -> set[str]:
        """The files rg lists below path (of the file type kind, when given)."""
        if (path, kind) not in self.listings:
            self.listings[path, kind] = set(self.rg(["--files", *(["--type", kind] if kind else [])], path))
        return self.listings[path, kind]


def content(kind: str, words: list[str]) -> bytes:
    text = "\n".join(words) + "\n"
    if kind == "crlf":
        return text.replace("\n", "\r\n").encode()
    if kind == "wide":
        return (text + "needle " + "é" * 300 + "x" * 300 + "\n").encode()  # 900 columns, cut at byte 500
    if kind == "binary":
        return b"\0" + text.encode()
    if kind == "late binary":  # past rg's first buffer: lines before the NUL are still reported
        return text.encode() + b"x\n" * 40_000 + b"\0" + text.encode()
    return text.encode("latin-1" if kind == "latin-1" else "utf-8", "replace")


@st.composite
def trees(draw) -> dict:
    entry = st.tuples(st.sampled_from(DIRS), st.sampled_from(NAMES), st.sampled_from(KINDS),
                      st.lists(st.sampled_from(WORDS), max_size=6))  # fmt: skip
    return {
        "files": draw(st.lists(entry, min_size=3, max_size=16, unique_by=lambda e: (e[0], e[1]))),
        "ignore": draw(st.lists(st.sampled_from(ROOT_IGNORES), unique=True, max_size=3)),
        "nested": draw(st.lists(st.sampled_from(NESTED_IGNORES), unique=True, max_size=2)),
        "git": draw(st.booleans()),
        "latin-1 name": draw(st.booleans()),
        "times": draw(st.lists(st.integers(0, 2), min_size=20, max_size=20)),
    }


def build(spec: dict, base: Path) -> Tree:
    root = base / "project"
    written = []
    for (folder, name, kind, words), when in zip(spec["files"], spec["times"], strict=False):
        path = root / folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content(kind, words))
        os.utime(path, (1_000_000_000 + when, 1_000_000_000 + when))
        written.append(str(path.relative_to(root)))
    for name, text in ((".narnat/logs/run.log", " ".join(WORDS)), (".narnat/sessions/s.json", " ".join(WORDS)),
                       (".narnat/.gitignore", STATE_IGNORE), (".gitignore", "\n".join(spec["ignore"])),
                       ("src/.gitignore", "\n".join(spec["nested"]))):  # fmt: skip
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text + "\n")
    if spec["latin-1 name"]:
        (root / os.fsdecode(b"caf\xe9.txt")).write_bytes(b"needle\n")
    if spec["git"]:
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        (root / ".git" / "needle.txt").write_text("needle\n")
    dirs = sorted({str(Path(f).parent) for f in written} - {"."})
    names = {}
    for folder, _, found in os.walk(root):
        for name in found:
            disk = os.path.relpath(os.path.join(folder, name), root)
            names[os.fsencode(disk).decode("utf-8", "backslashreplace")] = disk
    return Tree(root, Workspace(root, root / ".narnat", confirm=None), dirs, written, {}, names)


def body(text: str) -> list[str]:
    """A tool result's lines without its closing notes ('(showing ...)', '(2 more files ...)')."""
    lines = text.split("\n")
    while lines and lines[-1].startswith("("):
        lines.pop()
    return lines


# ---- Grep ----


def grep_reference(tree: Tree, args: dict) -> list[str]:
    mode, path = args.get("output_mode", "files_with_matches"), args.get("path")
    flags = {"files_with_matches": ["-l"], "count": ["-c", "-H"]}.get(mode, [])
    if mode == "content":
        flags = ["-H", "--no-heading", "-n" if args.get("-n", True) else "-N", "--max-columns", "500",
                 "--max-columns-preview"]  # fmt: skip
        flags += [item for key in ("-A", "-B", "-C") if key in args for item in (key, str(args[key]))]
    flags += ["-i"] * bool(args.get("-i")) + ["-F"] * bool(args.get("fixed_strings"))
    flags += ["--type", args["type"]] if "type" in args else []
    flags += ["--glob", args["glob"]] if "glob" in args else []
    lines = tree.rg([*flags, "-e", args["pattern"]], path)
    if "glob" not in args:
        return lines
    listed = tree.listing(path, args.get("type"))  # a --glob outranks --type in rg: the type filters too
    return [line for line in lines if line != "--" and owner(line, listed, mode) in listed]


def owner(line: str, names: set[str], mode: str) -> str:
    """The file a line of rg's output belongs to: the longest listed name it starts with."""
    if mode == "files_with_matches":
        return line
    starts = [name for name in names if line.startswith(name) and line[len(name) : len(name) + 1] in (":", "-")]
    return max(starts, key=len, default=line)


@st.composite
def grep_queries(draw, tree: Tree) -> dict:
    args = {"output_mode": draw(st.sampled_from(["files_with_matches", "content", "count"])), "head_limit": 0}
    if draw(st.integers(0, 4)) == 0:
        args.update(pattern=draw(st.sampled_from(LITERALS)), fixed_strings=True)
    else:
        args["pattern"] = draw(st.sampled_from(PATTERNS))
    options = {
        "-i": st.just(True),
        "glob": st.sampled_from(GREP_GLOBS),
        "type": st.sampled_from(["py", "md"]),
        "path": st.sampled_from([*tree.dirs, *tree.files, ".narnat", ".narnat/logs/run.log"]),
    }
    for key, values in options.items():
        if draw(st.integers(0, 3)) == 0:
            args[key] = draw(values)
    if args["output_mode"] == "content" and draw(st.booleans()):
        args[draw(st.sampled_from(["-A", "-B", "-C"]))] = draw(st.integers(0, 2))
        args["-n"] = draw(st.booleans())
    if "path" in args and draw(st.integers(0, 3)) == 0:
        args["path"] = str(tree.root / args["path"])
    return args


def check_grep(tree: Tree, args: dict) -> None:
    result = execute("Grep", args, tree.ws)
    assert not result.is_error, result.text
    path = args.get("path")
    expected = grep_reference(tree, {**args, "path": os.path.relpath(tree.root / path, tree.root) if path else None})
    whole = [] if result.text.startswith("No matches for") else body(result.text)
    got = [line for line in whole if line != "--"] if "glob" in args else whole
    assert Counter(got) == Counter(expected), (args, got, expected)
    if args["output_mode"] == "files_with_matches":
        ages = [-tree.root.joinpath(tree.names[name]).stat().st_mtime for name in got]
        assert ages == sorted(ages), got
    if whole and args["pattern"] == "needle":  # one query kind in several also pages through the result
        size, pages = max(1, len(whole) // 3), []
        for offset in range(0, len(whole), size):
            pages += body(execute("Grep", {**args, "head_limit": size, "offset": offset}, tree.ws).text)
        assert pages == whole, args


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), phases=PHASES)
@given(spec=trees(), data=st.data())
def test_grep_equals_rg(spec, data):
    with tempfile.TemporaryDirectory() as base:
        tree = build(spec, Path(base))
        for _ in range(50):
            check_grep(tree, data.draw(grep_queries(tree)))


# ---- Glob ----


def braces(pattern: str) -> list[str]:
    """Every pattern a brace group stands for: 'a{b,c}' -> ['ab', 'ac'] (groups do not nest here)."""
    start = pattern.find("{")
    if start < 0:
        return [pattern]
    end = pattern.index("}", start)
    head, tail = pattern[:start], pattern[end + 1 :]
    return [head + choice + rest for choice in pattern[start + 1 : end].split(",") for rest in braces(tail)]


def matches(pattern: list[str], path: list[str]) -> bool:
    """Segment by segment: '*', '?' and [...] inside one segment; '**' any number of segments (one or more last)."""
    if not pattern:
        return not path
    if pattern[0] == "**":
        least = 1 if len(pattern) == 1 else 0
        return any(matches(pattern[1:], path[i:]) for i in range(least, len(path) + 1))
    return bool(path) and fnmatch.fnmatchcase(path[0], pattern[0]) and matches(pattern[1:], path[1:])


def glob_reference(tree: Tree, pattern: str, path: str | None) -> set[str]:
    """The listed files whose path below `path` matches, as the file system spells it (a byte that is not UTF-8
    is one character)."""
    prefix = f"{path}/" if path else ""
    disk = {shown: tree.names[shown] for shown in tree.listing(path) if shown.startswith(prefix)}
    below = {shown: name[len(prefix) :].split("/") for shown, name in disk.items()}
    return {shown for shown, parts in below.items() if any(matches(p.split("/"), parts) for p in braces(pattern))}


@st.composite
def glob_queries(draw, tree: Tree) -> tuple[dict, str, str | None]:
    pattern = "/".join(draw(st.lists(st.sampled_from(GLOB_PARTS), min_size=1, max_size=3)))
    path = draw(st.sampled_from([None, *tree.dirs, ".narnat", ".narnat/logs"]))
    form = draw(st.sampled_from(["plain", "plain", "./", "absolute"]))
    args = {"pattern": f"./{pattern}" if form == "./" else pattern}
    if form == "absolute":
        args["pattern"] = f"{tree.root / path if path else tree.root}/{pattern}"
    elif path:
        args["path"] = draw(st.sampled_from([path, str(tree.root / path)]))
    return args, pattern, path


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), phases=PHASES)
@given(spec=trees(), data=st.data())
def test_glob_equals_rg_files_filtered_by_the_stated_semantics(spec, data):
    with tempfile.TemporaryDirectory() as base:
        tree = build(spec, Path(base))
        for _ in range(60):
            args, pattern, path = data.draw(glob_queries(tree))
            result = execute("Glob", args, tree.ws)
            missing = result.is_error and "does not exist" in result.text  # a literal folder outside path, not there
            assert not result.is_error or missing, result.text
            got = set() if missing or result.text.startswith("No files match") else set(body(result.text))
            if "/" not in pattern and pattern != "**" and not args["pattern"].startswith("/"):  # and how many below
                deeper = glob_reference(tree, f"**/{pattern}", path) - glob_reference(tree, pattern, path)
                said = re.search(r"(\d+) (?:more )?files? match", result.text)
                assert (int(said[1]) if said else 0) == len(deeper), (args, result.text)
            if args["pattern"].startswith("/") and path and ".narnat" not in path:
                pattern, path = f"{path}/{pattern}", None  # the folder is part of the pattern: ignore rules hold
            assert got == glob_reference(tree, pattern, path), args
