"""The long tail (bash_corpus_longtail.py), written before its rules: destructive commands no family lists ask,
their look-alikes run, never-ending forms are refused unless a timeout ends them, and each question names what
would be lost. Analysed from the project the corpus lays out (a git repository with package scripts, a Makefile,
a justfile)."""

import subprocess
from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from tests.safety import bash_corpus_longtail as corpus


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return corpus.lay_out(tmp_path_factory.mktemp("longtail"))


@pytest.mark.parametrize(("command", "category"), corpus.ASK)
def test_long_tail_destructive_commands_ask(command, category, project):
    assert analyze(command, project).deletions, command


@pytest.mark.parametrize(("command", "category"), corpus.RUN)
def test_their_look_alikes_run(command, category, project):
    verdict = analyze(command, project)
    assert (verdict.deletions, verdict.file_ops, verdict.interactive) == ([], [], []), command


@pytest.mark.parametrize(("command", "category"), corpus.REFUSE_TERMINAL)
def test_never_ending_forms_are_refused(command, category, project):
    assert analyze(command, project).interactive, command


@pytest.mark.parametrize(("command", "env", "must", "must_not"), corpus.QUESTIONS)
def test_the_question_names_what_would_be_lost(command, env, must, must_not, project):
    base = subprocess.run(["git", "-C", str(project), "rev-list", "--max-parents=0", "HEAD"], capture_output=True)
    verdict = analyze(command.replace("{base}", base.stdout.decode().strip()), project, env=env)
    said = "; ".join(verdict.deletions + verdict.file_ops + verdict.interactive)
    assert all(word in said for word in must) and not any(word in said for word in must_not), said
    assert "\n" not in said


def test_without_bash_s_environment_only_the_text_is_read(project):
    assert analyze("git branch -f release HEAD~3", project).deletions == []  # whether it loses commits: unknown
    assert analyze('rm -rf "$BUILD_DIR/"*', project).deletions == ["rm deletes files: $BUILD_DIR/*"]
    assert analyze("find old -name '*.log' -delete", project).deletions == ["find -delete deletes the files it finds"]


def test_a_package_script_that_cannot_be_read_asks_only_when_its_name_says_it_destroys(tmp_path):
    assert analyze("npm run db:reset", tmp_path).deletions
    assert analyze("npm run build", tmp_path).deletions == []
    assert analyze("make drop-tables", tmp_path).deletions
    assert analyze("make rm", tmp_path).deletions == []  # an abbreviation, as a whole name
