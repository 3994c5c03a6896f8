"""The type checker holds the joints: both UIs to the core's protocols, typed tool results, checked settings."""

import subprocess
import sys
from pathlib import Path


def test_the_package_type_checks():
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=root, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
