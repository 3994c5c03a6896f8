"""One checkpoint of a ~10,000-file / ~200 MB tree next to `git status` on the same tree, and the disk 100 use.

The tree is a copy of the standard library (site-packages and files over 5 MB left out) topped up with a second
copy of some of its files to 10,000 files, committed to a git repository of its own so `git status` has work to do.
"""

import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from common import median_seconds, table

from narnat_agent.checkpoints.git_store import GitStore

FILES = 10_000
BUDGET_RATIO, BUDGET_MS = 1.5, 150
REPEAT = 11


def build(root: Path) -> tuple[int, int]:
    """Copy the stdlib into root; the number of files and their bytes."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    sources = [p for p in stdlib.rglob("*") if p.is_file() and "site-packages" not in p.parts
               and p.stat().st_size <= 5 * 2**20]  # fmt: skip
    copies = [(p, root / p.relative_to(stdlib)) for p in sources]
    copies += [(p, root / "again" / p.relative_to(stdlib)) for p in sources[: max(0, FILES - len(sources))]]
    for source, target in copies:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    return len(copies), sum(t.stat().st_size for _, t in copies)


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b", "-c", "gc.auto=0", *args], cwd=root, check=True,
                   capture_output=True)  # fmt: skip


def disk(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="narnat-bench-") as tmp:
        root = Path(tmp) / "tree"
        count, size = build(root)
        git(root, "init", "-q")
        git(root, "add", "-A")
        git(root, "commit", "-qm", "tree")
        store = GitStore(root, root / ".narnat" / "checkpoints" / "git")
        first = median_seconds(lambda: store.snapshot([]), repeat=1)
        # interleaved, so a busy machine weighs on both sides alike
        pairs = [(median_seconds(lambda: git(root, "status", "--porcelain"), repeat=1),
                  median_seconds(lambda: store.snapshot([]), repeat=1)) for _ in range(REPEAT)]  # fmt: skip
        status, unchanged = (statistics.median(side) for side in zip(*pairs, strict=True))
        edits = sorted(root.rglob("*.py"))[:5]
        changed = median_seconds(lambda: [p.write_text(p.read_text() + "#\n") for p in edits] and store.snapshot([]),
                                 repeat=REPEAT)  # fmt: skip
        before = disk(store.git_dir)
        for n in range(100):
            edits[n % 5].write_text(edits[n % 5].read_text() + f"x = {n}\n")
            store.snapshot([])
        hundred = disk(store.git_dir) - before
    ms = lambda s: f"{s * 1000:.0f} ms"  # noqa: E731
    print(f"tree: {count} files, {size / 2**20:.0f} MB (Python {sys.version.split()[0]} stdlib)")
    table(f"Checkpoint of a large tree (median of {REPEAT})", [
        ("first checkpoint (hashes every file)", ms(first), "", "", ""),
        ("checkpoint, unchanged", ms(unchanged), f"git status {ms(status)}", f"{unchanged / status:.2f}x",
         f"<= {BUDGET_RATIO}x and <= {BUDGET_MS} ms"),
        ("checkpoint, 5 files changed (with the writes)", ms(changed), f"git status {ms(status)}",
         f"{changed / status:.2f}x", ""),
        ("disk for 100 checkpoints, one small edit each", f"{hundred / 2**10:.0f} KiB",
         f"initial store {before / 2**20:.0f} MB", "", ""),
    ])  # fmt: skip


if __name__ == "__main__":
    main()
