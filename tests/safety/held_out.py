"""What the held-out corpora's tests and the bench share: the project a corpus's commands run in, and its misses
marked as strict xfails."""

import subprocess
from pathlib import Path

import pytest


def lay_out(root: Path, files: dict[str, str], repository: bool = False) -> Path:
    """The corpus's project: its files (and, when asked, a git repository holding them in one commit)."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    if repository:
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        subprocess.run(["git", "add", "-A"], cwd=root, check=True)
        identity = ["-c", "user.email=corpus@example.invalid", "-c", "user.name=corpus"]
        subprocess.run(["git", *identity, "commit", "-qm", "init"], cwd=root, check=True)
    return root


def cases(entries: list, misses: dict[str, str]) -> list:
    """Each entry (a command, or a tuple whose first item is one), its known miss a strict xfail with the reason: a
    rule that comes to catch it turns the xfail into a failure, and the entry's miss is then removed."""
    return [
        pytest.param(e, marks=pytest.mark.xfail(strict=True, reason=misses[c])) if (c := _command(e)) in misses else e
        for e in entries
    ]


def _command(entry: str | tuple) -> str:
    return entry[0] if isinstance(entry, tuple) else entry
