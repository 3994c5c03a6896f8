"""Peak memory of Read and Edit on a notebook holding a 200 MB cell output, each in a process of its own, against
json.loads of the same file (the least any reader of a notebook holds).

Run: python bench/notebook.py
"""

import json
import os
import subprocess
import sys
import tempfile

from common import ROOT, table

LINES = 2_000_000  # of 100 characters: a 200 MB stream output, as a cell that printed in a loop leaves
CALL = """
import json, resource, sys
from pathlib import Path
from narnat_agent.tools import registry
from narnat_agent.tools.workspace import Workspace

root = Path(sys.argv[1])
ws = Workspace(root, root / ".narnat", confirm=None)
for name, args in json.loads(sys.argv[2]):
    result = registry.execute(name, args, ws)
    assert not result.is_error, result.text[:300]
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""
BASELINE = """
import json, resource, sys
from pathlib import Path
import narnat_agent.tools.registry
json.loads(Path(sys.argv[1], "big.ipynb").read_bytes())
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_mb(code: str, *args: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True)
    return int(out.stdout.strip()) / 1024


def write_notebook(project: str) -> None:
    """nbformat's own layout (indent 1, sorted keys), written a piece at a time: a child's peak starts at its
    parent's."""
    line = json.dumps("x" * 99 + "\n")
    with open(os.path.join(project, "big.ipynb"), "w") as f:
        f.write('{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 1,\n   "id": "a",\n')
        f.write('   "metadata": {},\n   "outputs": [\n    {\n     "name": "stdout",\n     "output_type": "stream",\n')
        f.write('     "text": [\n')
        for n in range(LINES):
            f.write(f"      {line}{',' if n < LINES - 1 else ''}\n")
        f.write('     ]\n    }\n   ],\n   "source": [\n    "for i in range(N):\\n",\n    "    print(i)"\n   ]\n')
        f.write('  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n')


def main() -> None:
    project = tempfile.mkdtemp()
    write_notebook(project)
    size = os.path.getsize(os.path.join(project, "big.ipynb")) / 2**20
    read = ("Read", {"file_path": "big.ipynb"})
    edit = ("Edit", {"file_path": "big.ipynb", "old_string": "print(i)", "new_string": "print(i * 2)"})
    baseline = peak_mb(BASELINE, project)
    rows = []
    for name, calls in (("Read", [read]), ("Read, then Edit", [read, edit])):
        mb = peak_mb(CALL, project, json.dumps(calls))
        rows.append((name, f"{mb:.0f} MB", f"{baseline:.0f} MB json.loads", f"{mb / baseline:.2f}x", "< 1.5x"))
    table(f"Peak RSS, a notebook with a {size:.0f} MB cell output", rows)


if __name__ == "__main__":
    main()
