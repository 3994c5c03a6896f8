"""Peak memory of Read, Grep and Edit on a 100 MB file that is one line, each in a process of its own.

Run: python bench/long_line.py [--before REV]   (REV: a git revision measured the same way in the same run)
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, source_trees, table

SIZE = 100 * 1024 * 1024
CALL = """
import json, resource, sys
from pathlib import Path
from narnat_agent.tools import registry
from narnat_agent.tools.workspace import Workspace

root = Path(sys.argv[1])
ws = Workspace(root, root / ".narnat", confirm=None)
for name, args in json.loads(sys.argv[2]):
    result = registry.execute(name, args, ws)
    assert not result.is_error or name != "Read", result.text[:300]
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_mb(project: str, calls: list, tree: Path = ROOT) -> float:
    import json

    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{ROOT}"}
    out = subprocess.run(
        [sys.executable, "-c", CALL, project, json.dumps(calls)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=project,  # not the repository: `python -c` imports from its working directory first
    )
    return int(out.stdout.strip()) / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", help="a git revision to measure in the same run")
    options = parser.parse_args()
    trees = source_trees(options.before)
    project = tempfile.mkdtemp()
    with open(os.path.join(project, "one-line.txt"), "w") as f:  # in pieces: a child's peak starts at its parent's
        for _ in range(SIZE // 2**20):
            f.write("x" * 2**20)
        f.write(" needle here")  # one line, no newline at its end
    read = ("Read", {"file_path": "one-line.txt"})
    edit = ("Edit", {"file_path": "one-line.txt", "old_string": "needle", "new_string": "thread"})
    calls = {
        "imports only": [],
        "Read": [read],
        "Grep content": [("Grep", {"pattern": "needle", "output_mode": "content"})],
        "Read, then Edit": [read, edit],
    }
    rows = [(f"{name}: {call}", f"{peak_mb(project, steps, tree):.0f} MB") for call, steps in calls.items()
            for name, tree in trees.items()]  # fmt: skip
    table("Peak RSS, 100 MB one-line file", rows, ("call", "peak RSS"))


if __name__ == "__main__":
    main()
