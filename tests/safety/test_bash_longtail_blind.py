"""The long tail's held-out corpus, written from public incident reports by someone who never saw the rules:
measured once (2026-11-28: ask 191/222 = 86.0 %, run 200/204 = 98.0 %, refuse 55/64 = 85.9 %, ending forms run
30/32), then kept here so that later rules keep what it found. Its misses are listed as strict xfails with their
reasons: a rule that comes to catch one turns its xfail into a failure, and the entry is then removed. After the
second round of rules (the categories it found, by rule): ask 218/222 = 98.2 %, run 202/204 = 99.0 %, refuse
64/64, ending forms run 32/32; what is left is what the project does not hold, or a file tool's job."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from tests.safety import bash_corpus_longtail_blind as blind
from tests.safety.held_out import cases

EXISTING = ("src/app.py", "package.json", "data/store.bin")
KNOWN_MISSES = {
    'cp -f .env.example .env': 'the corpus project has no .env: over no file, cp loses nothing',
    'mv -f config.generated.yaml config.yaml': 'the corpus project has no config.yaml: over no file, mv loses nothing',
    'tar -xzf backup.tar.gz -C .': 'the corpus project has no backup.tar.gz: tar extracts nothing, and an archive '
    'that is there is listed and the files it would replace named',
    'git checkout -B main origin/main': 'the corpus project is no git repository: with Bash\'s environment, git '
    'lists the commits that would leave main, and it asks when there are any',
    "find . -name '*.log' -print": 'a file search: Bash refuses it for Glob, as docs/safety.md says',
    'tail -n 100 logs/app.log': 'a file read: Bash refuses it for Read, as docs/safety.md says',
}  # fmt: skip


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("longtail-blind")
    for name in EXISTING:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}\n")
    return root


@pytest.mark.parametrize("command", cases(blind.DESTRUCTIVE, KNOWN_MISSES))
def test_held_out_long_tail_destructive_commands_ask(command, project):
    assert analyze(command, project).deletions, command


@pytest.mark.parametrize("command", cases(blind.BENIGN + blind.ENDING_FORMS, KNOWN_MISSES))
def test_held_out_look_alikes_and_ending_forms_run(command, project):
    verdict = analyze(command, project)
    assert not (verdict.deletions or verdict.interactive or verdict.file_ops), (command, verdict)


@pytest.mark.parametrize("command", cases(blind.NEVER_ENDING, KNOWN_MISSES))
def test_held_out_never_ending_commands_are_refused(command, project):
    verdict = analyze(command, project)
    assert verdict.interactive or verdict.file_ops, command
