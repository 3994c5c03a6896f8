"""Grep and Glob against running `rg` directly on a large tree (a copy of this Python's standard library).

Run: python bench/search.py [TREE]   (default: the standard library copied once to /tmp/narnat-bench-tree)
"""

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from common import median_seconds, table

from narnat_agent.tools import registry
from narnat_agent.tools.files import ripgrep
from narnat_agent.tools.workspace import Workspace

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


def tree() -> Path:
    if len(sys.argv) > 1:
        return Path(sys.argv[1])
    target = Path("/tmp/narnat-bench-tree")
    if not target.exists():
        shutil.copytree(sysconfig.get_paths()["stdlib"], target, symlinks=True)
    return target


def main() -> None:
    root = tree()
    size = sum(f.stat().st_size for f in root.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6
    ws = Workspace(root, root / ".narnat", confirm=None)
    rows = []
    for label, tool, args, rg_args in CASES:
        direct = median_seconds(
            lambda a=rg_args: subprocess.run([ripgrep.binary(), *ripgrep.COMMON, *a], cwd=root, capture_output=True)
        )
        ours = median_seconds(lambda t=tool, a=args: registry.execute(t, a, ws))
        rows.append((label, f"{ours * 1000:.0f} ms", f"{direct * 1000:.0f} ms rg", f"{ours / direct:.2f}x", "<= 1.3x"))
    table(f"Search on {root} ({size:.0f} MB), median of 5", rows)


if __name__ == "__main__":
    main()
