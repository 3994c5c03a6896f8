"""Grep and Glob against running `rg` directly on a large tree (a copy of this Python's standard library).

Each side runs once per round, interleaved (rg, then the tools of each revision, each in a process of its own that
stays up), so the machine's load falls on all of them alike; the medians of the rounds are compared.

Run: python bench/search.py [--before REV] [--rounds N] [TREE]
     (TREE: default the standard library copied once to /tmp/narnat-bench-tree)
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from common import ROOT, source_tree, table

from narnat_agent.tools.files import ripgrep

SIDE = """
import json, sys, time
from pathlib import Path
from narnat_agent.tools import registry
from narnat_agent.tools.workspace import Workspace

root = Path(sys.argv[1])
ws = Workspace(root, root / ".narnat", confirm=None)
cases = json.loads(sys.argv[2])
for line in sys.stdin:
    tool, args = cases[int(line)]
    started = time.perf_counter()
    registry.execute(tool, args, ws)
    print(time.perf_counter() - started, flush=True)
"""

CASES = [
    ("Grep files_with_matches 'def main'", "Grep", {"pattern": "def main"}, ["-l", "-e", "def main"]),
    ("Grep content 'raise NotImplementedError'", "Grep", {"pattern": "raise NotImplementedError",
     "output_mode": "content"}, ["--heading", "-n", "-e", "raise NotImplementedError"]),
    ("Grep count 'import os'", "Grep", {"pattern": "import os", "output_mode": "count"}, ["-c", "-e", "import os"]),
    ("Grep -l 'import os' glob '*.py'", "Grep", {"pattern": "import os", "glob": "*.py"},
     ["-l", "--glob", "*.py", "-e", "import os"]),
    ("Glob '**/*.py'", "Glob", {"pattern": "**/*.py"}, ["--files", "--glob", "**/*.py"]),
    ("Glob '**/test_*.py'", "Glob", {"pattern": "**/test_*.py"}, ["--files", "--glob", "test_*.py"]),
]  # fmt: skip


def tree(argument: str | None) -> Path:
    if argument:
        return Path(argument)
    target = Path("/tmp/narnat-bench-tree")
    if not target.exists():
        shutil.copytree(sysconfig.get_paths()["stdlib"], target, symlinks=True)
    return target


def side(source: Path, root: Path) -> subprocess.Popen:
    """A process that runs a case of CASES each time it is sent its number, and answers the seconds it took."""
    cases = json.dumps([(tool, args) for _, tool, args, _ in CASES])
    env = {**os.environ, "PYTHONPATH": f"{source}{os.pathsep}{ROOT}"}
    return subprocess.Popen([sys.executable, "-c", SIDE, str(root), cases], env=env, cwd=root, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip


def timed(process: subprocess.Popen, case: int) -> float:
    assert process.stdin and process.stdout
    process.stdin.write(f"{case}\n")
    process.stdin.flush()
    return float(process.stdout.readline())


def direct(rg_args: list[str], root: Path) -> float:
    started = time.perf_counter()
    subprocess.run([ripgrep.binary(), *ripgrep.COMMON, *rg_args], cwd=root, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("tree", nargs="?")
    parser.add_argument("--before", help="a git revision to measure in the same run")
    parser.add_argument("--rounds", type=int, default=11)
    options = parser.parse_args()
    root = tree(options.tree)
    size = sum(f.stat().st_size for f in root.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6
    sources = {"now": source_tree(None)} | ({options.before: source_tree(options.before)} if options.before else {})
    sides = {name: side(source, root) for name, source in sources.items()}
    times: dict[tuple[int, str], list[float]] = {}
    for _ in range(options.rounds):
        for n, (_, _, _, rg_args) in enumerate(CASES):
            times.setdefault((n, "rg"), []).append(direct(rg_args, root))
            for name, process in sides.items():
                times.setdefault((n, name), []).append(timed(process, n))
    for process in sides.values():
        process.communicate("")
    rows = []
    for n, (label, _, _, _) in enumerate(CASES):
        rg = statistics.median(times[(n, "rg")])
        for name in sides:
            ours = statistics.median(times[(n, name)])
            rows.append((f"{name}: {label}", f"{ours * 1000:.0f} ms", f"{rg * 1000:.0f} ms rg", f"{ours / rg:.2f}x",
                         "<= 1.3x"))  # fmt: skip
    table(f"Search on {root} ({size:.0f} MB), median of {options.rounds} interleaved rounds", rows)


if __name__ == "__main__":
    main()
