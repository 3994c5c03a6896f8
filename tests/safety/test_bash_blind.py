"""The held-out corpus, written from the contract by someone who never saw the rules: measured once, then kept here
so that later rules keep what it found. Its commands name files that exist in the project (src/app.py,
package.json, config.json, data.json, README.md); they are analysed from such a project."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from tests.safety import bash_corpus_blind as blind

EXISTING = ("src/app.py", "package.json", "config.json", "data.json", "README.md")
KNOWN_MISSES = {
    # Bash runs with MANPAGER=cat: man prints the page and exits, it does not wait for a terminal.
    "man git-rebase": "man prints through cat under Bash",
    # Bash runs with GIT_EDITOR=true: --amend keeps the message and returns at once.
    "git commit --amend": "GIT_EDITOR=true under Bash",
}


def held_out_project(root: Path) -> Path:
    """A project holding the files the held-out corpus names."""
    for name in EXISTING:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}\n")
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return held_out_project(tmp_path_factory.mktemp("blind"))


def _cases(pairs: list[tuple[str, str]]) -> list:
    return [
        pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=KNOWN_MISSES[c])) if c in KNOWN_MISSES else c
        for c, _ in pairs
    ]


@pytest.mark.parametrize("command", _cases(blind.ASK))
def test_held_out_destructive_commands_ask(command, project):
    assert analyze(command, project).deletions, command


@pytest.mark.parametrize("command", _cases(blind.RUN))
def test_held_out_benign_commands_run(command, project):
    verdict = analyze(command, project)
    assert (verdict.deletions, verdict.file_ops, verdict.interactive) == ([], [], []), command


@pytest.mark.parametrize("command", _cases(blind.REFUSE_FILE_OP + blind.REFUSE_TERMINAL))
def test_held_out_file_operations_and_terminal_programs_are_refused(command, project):
    verdict = analyze(command, project)
    assert verdict.file_ops or verdict.interactive, command
