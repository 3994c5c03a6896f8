"""The long tail's second held-out corpus (bash_corpus_longtail_blind2.py), written from public incident reports by
someone who never saw the rules, with the project its commands run in and questions that must name what would be
lost: measured once before any rule was written for it (2026-11-28, on main before the second round: ask 185/234 =
79.1 %, run incl. ending forms 251/269 = 93.3 %, refuse 51/63 = 81.0 %, questions 21/44; after the second round: ask
208/234 = 88.9 %, run 253/269 = 94.1 %, refuse 57/63 = 90.5 %, questions 21/44), then kept here so that later rules
keep what it found. After the third round of rules (the categories it found, by rule): ask 234/234 = 100 %, run
261/269 = 97.0 %, refuse 60/63 = 95.2 %, questions 43/44.

Its misses are listed as strict xfails with their reasons: a rule that comes to catch one turns its xfail into a
failure, and the entry is then removed. What is left is the corpus's policy, not a miss: Bash refuses reading,
searching and writing files in favour of Read, Grep, Glob and Write on purpose (docs/safety.md), and two programs
the corpus counts as never-ending end under Bash, which gives them no terminal."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from tests.safety import bash_corpus_longtail_blind2 as blind
from tests.safety.held_out import cases, lay_out

FILE_TOOL = "Bash refuses it in favour of {}, on purpose (docs/safety.md): the corpus counts it as benign"
KNOWN_MISSES = {
    "find . -name '*.db' -print": FILE_TOOL.format("Glob"),
    "find data -type f -mtime +7": FILE_TOOL.format("Glob"),
    'grep -rn "DATABASE_URL" --include=*.py src': FILE_TOOL.format("Grep"),
    "sed -n '1,40p' src/app.py": FILE_TOOL.format("Read"),
    "tail -n 100 logs/app.log": FILE_TOOL.format("Read"),
    "head -50 logs/app.log": FILE_TOOL.format("Read"),
    'echo "$(date) deploy started" >> logs/app.log': FILE_TOOL.format("Write or Edit"),
    "echo scratch > /tmp/scratch.txt": FILE_TOOL.format("Write"),
    "npx vitest": "vitest runs once and exits when stdout is not a terminal (its run mode), as under Bash",
    "npm run test:watch": "the script is plain `vitest`, which runs once and exits when stdout is not a terminal",
    "man tar": "man prints the page and exits when stdout is not a terminal: no pager waits under Bash",
}
QUESTION_MISSES = {
    r"cmd.exe /c del /f /s /q C:\inetpub\wwwroot\*": "bash removes the unquoted backslashes before cmd runs: cmd "
    r"receives C:inetpubwwwroot*, which the question names as it is",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return lay_out(tmp_path_factory.mktemp("longtail-blind2"), blind.PROJECT, repository=True)


@pytest.mark.parametrize("command", cases(blind.DESTRUCTIVE, KNOWN_MISSES))
def test_held_out_destructive_commands_ask(command, project):
    assert analyze(command, project).deletions, command


@pytest.mark.parametrize("command", cases(blind.BENIGN + blind.ENDING_FORMS, KNOWN_MISSES))
def test_held_out_look_alikes_and_ending_forms_run(command, project):
    verdict = analyze(command, project)
    assert not (verdict.deletions or verdict.interactive or verdict.file_ops), (command, verdict)


@pytest.mark.parametrize("command", cases(blind.NEVER_ENDING, KNOWN_MISSES))
def test_held_out_never_ending_commands_are_refused(command, project):
    verdict = analyze(command, project)
    assert verdict.interactive or verdict.file_ops, command


@pytest.mark.parametrize("case", cases(blind.QUESTIONS, QUESTION_MISSES))
def test_held_out_questions_name_what_would_be_lost(case, project):
    command, words, env = case
    said = " ".join(analyze(command, project, env=env).deletions)
    assert said and all(w.lower() in said.lower() for w in words) and "\n" not in said, said
