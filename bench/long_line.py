"""Peak memory of Read, Grep and Edit on a 100 MB file that is one line, each in a process of its own.

Run: python bench/long_line.py
"""

import os
import subprocess
import sys
import tempfile

from common import ROOT, table

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


def peak_mb(project: str, calls: list) -> float:
    import json

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", CALL, project, json.dumps(calls)], env=env, capture_output=True, text=True, check=True
    )
    return int(out.stdout.strip()) / 1024


def main() -> None:
    project = tempfile.mkdtemp()
    with open(os.path.join(project, "one-line.txt"), "w") as f:  # in pieces: a child's peak starts at its parent's
        for _ in range(SIZE // 2**20):
            f.write("x" * 2**20)
        f.write(" needle here")  # one line, no newline at its end
    read = ("Read", {"file_path": "one-line.txt"})
    rows = [
        ("imports only", peak_mb(project, [])),
        ("Read", peak_mb(project, [read])),
        ("Grep content", peak_mb(project, [("Grep", {"pattern": "needle", "output_mode": "content"})])),
        (
            "Read, then Edit",
            peak_mb(
                project, [read, ("Edit", {"file_path": "one-line.txt", "old_string": "needle", "new_string": "thread"})]
            ),
        ),
    ]
    table("Peak RSS, 100 MB one-line file", [(name, f"{mb:.0f} MB") for name, mb in rows], ("call", "peak RSS"))


if __name__ == "__main__":
    main()
