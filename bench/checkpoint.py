"""The cost of checkpoints on a 10,000- and a 100,000-file tree, next to `git status` on the same tree in the same run.

The tree is a copy of the standard library (site-packages and files over 5 MB left out) topped up with small
generated files, committed to a git repository of its own so `git status` has work to do; a .gitignore names
some files and a node_modules/ folder, as in a real project. Usage: bench/checkpoint.py [files ...]
"""

import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from common import median_seconds, table

from narnat_agent.checkpoints.git_store import GitStore

SIZES = (10_000, 100_000)
BUDGET_RATIO, BUDGET_MS = 1.5, 150
REPEAT = 11


def build(root: Path, files: int) -> tuple[int, int]:
    """Copy the stdlib into root and top it up to `files` files; the number of files and their bytes."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    sources = [
        p for p in stdlib.rglob("*") if p.is_file() and "site-packages" not in p.parts and p.stat().st_size <= 5 * 2**20
    ][:files]
    for source in sources:
        target = root / source.relative_to(stdlib)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    for n in range(files - len(sources)):
        folder = root / "generated" / f"{n // 500}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"module_{n}.py").write_text(f"VALUE = {n}\n" + "# filler\n" * 100)
    (root / ".gitignore").write_text("*.log\n.env\nnode_modules/\n")
    (root / ".env").write_text("TOKEN=x\n")
    for n in range(50):
        (root / f"run-{n}.log").write_text("log\n")
        (root / "node_modules" / f"m{n}").mkdir(parents=True)
        (root / "node_modules" / f"m{n}" / "index.js").write_text("module.exports = 1\n")
    found = [p for p in root.rglob("*") if p.is_file()]
    hour_ago = time.time() - 3600
    for path in found:  # files written this very second are re-read by every git until its index is rewritten
        os.utime(path, (hour_ago, hour_ago))
    return len(found), sum(p.stat().st_size for p in found)


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b", "-c", "gc.auto=0", *args], cwd=root, check=True,
                   capture_output=True)  # fmt: skip


def committed(root: Path, files: int) -> tuple[int, int]:
    """The tree built and committed in a repository of its own: its file count and size."""
    count, size = build(root, files)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "tree")
    return count, size


def disk(path: Path) -> int:
    return sum(p.stat().st_blocks * 512 for p in path.rglob("*") if p.is_file())


def measure(files: int) -> None:
    with tempfile.TemporaryDirectory(prefix="narnat-bench-") as tmp:
        root = Path(tmp) / "tree"
        count, size = committed(root, files)
        store = GitStore(root, root / ".narnat" / "checkpoints" / "git", print)
        whole = lambda: store.snapshot([], everything=True)  # noqa: E731
        first = median_seconds(whole, repeat=1)
        loose = disk(store.git_dir)
        edited = root / "generated" / "0" / "module_0.py" if files > 10_000 else sorted(root.rglob("*.py"))[0]
        # a second store over the same tree whose watcher is off: every whole snapshot walks the project
        walking = GitStore(root, store.git_dir, print)
        walking.watcher.off = True

        def one_changed() -> None:  # a command that changed one file: the watched store updates only that file
            edited.write_text(edited.read_text() + "#\n")
            whole()

        # interleaved, so a busy machine weighs on both sides alike
        rounds = [(median_seconds(lambda: git(root, "status", "--porcelain"), repeat=1),
                   median_seconds(lambda: walking.snapshot([], everything=True), repeat=1),
                   median_seconds(whole, repeat=1),
                   median_seconds(one_changed, repeat=1),
                   median_seconds(lambda: store.snapshot([edited], everything=False), repeat=1))
                  for _ in range(REPEAT)]  # fmt: skip
        status, unchanged, watched, changed, touched = (statistics.median(side) for side in zip(*rounds, strict=True))
        pack = median_seconds(lambda: store.prune(set()), repeat=1)
        packed = disk(store.git_dir)
    ms = lambda s: f"{s * 1000:.0f} ms"  # noqa: E731
    ratio = lambda s: f"{s / status:.2f}x"  # noqa: E731
    table(f"Checkpoints of a {count:,}-file, {size / 2**20:.0f} MB tree (median of {REPEAT})", [
        ("first snapshot (hashes every file)", ms(first), "", "", ""),
        ("whole snapshot looking at every file, unchanged (unwatched: a command's two)", ms(unchanged),
         f"git status {ms(status)}", ratio(unchanged), f"<= {BUDGET_RATIO}x and <= {BUDGET_MS} ms"),
        ("whole snapshot, watched, nothing changed", ms(watched), f"git status {ms(status)}", ratio(watched), ""),
        ("whole snapshot, watched, one file changed (write included)", ms(changed), f"git status {ms(status)}",
         ratio(changed), ""),
        ("snapshot of one touched file (Write, Edit: twice)", ms(touched), f"git status {ms(status)}", ratio(touched),
         ""),
        ("store on disk: after the first snapshot / packed on exit",
         f"{loose / 2**20:.0f} MB / {packed / 2**20:.0f} MB", f"the tree {size / 2**20:.0f} MB", "", ""),
        ("the first exit's prune and pack", ms(pack), "", "", ""),
    ])  # fmt: skip


if __name__ == "__main__":
    for files in map(int, sys.argv[1:]) if len(sys.argv) > 1 else SIZES:
        measure(files)
