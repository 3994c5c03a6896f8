"""What the benchmarks share: the repository on sys.path, a median timer and a table printer."""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def median_seconds(run: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def table(title: str, rows: list[tuple], headers: tuple = ("measure", "value", "baseline", "ratio", "budget")) -> None:
    """Print rows of (measure, value, baseline, ratio, budget) as an aligned table."""
    cells = [headers] + [tuple(str(c) for c in row) for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    print(f"\n{title}")
    for n, row in enumerate(cells):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
        if n == 0:
            print("  ".join("-" * width for width in widths))


def compiled(tree: Path = ROOT) -> Path:
    """The package's bytecode written, as an install writes it: a launch then loads it rather than compiling."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "narnat_agent")], check=True)
    return tree


def source_tree(revision: str | None) -> Path:
    """The package at a git revision, exported to a temporary folder and compiled; the working tree for None.
    With PYTHONPATH set to it, `python -m narnat_agent` runs that revision in this environment: before and after
    measured in one run, interleaved."""
    if revision is None:
        return compiled(ROOT)
    folder = Path(tempfile.mkdtemp(prefix=f"narnat-{revision[:12]}-"))
    archive = subprocess.run(["git", "archive", revision, "narnat_agent"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return compiled(folder)


def source_trees(before: str | None) -> dict[str, Path]:
    """The working tree as "now", and the revision `--before` names beside it, to measure interleaved."""
    return {"now": source_tree(None)} | ({before: source_tree(before)} if before else {})


def environment(home: str, tree: Path = ROOT, **settings: str) -> dict[str, str]:
    """The environment a measured run gets: no provider settings of this machine, the tree's package first."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NARNAT_", "OPENAI_", "NO_COLOR"))}
    env.update(HOME=home, NARNAT_API_KEY="k", PYTHONPATH=f"{tree}{os.pathsep}{ROOT}", **settings)
    return env
