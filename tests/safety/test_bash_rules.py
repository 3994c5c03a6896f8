"""Bash's analysis against both corpora: every destructive command asks, every benign one runs, every file
operation and terminal program is refused — except the known misses below, each with its reason."""

import pytest

from narnat_agent.safety.rules import MAX_LENGTH, analyze
from tests.safety import bash_corpus as own
from tests.safety.bash_corpus import ALLOWED_NEAR_FILE_OPS, BENIGN, DELETING, FILE_OPS, INTERACTIVE

try:  # written independently of the rules, from the categories alone
    from tests.safety import bash_corpus_categories as categories
except ImportError:
    categories = None

# Cases the analysis does not satisfy, on purpose or for now. Each one says why; the list must stay small.
KNOWN_MISSES = {
    # `bash < file` reads a script file, which is opaque by design exactly like `bash file.sh` (which runs).
    "bash < script-from-web.txt",
    # Bash runs with MANPAGER=cat: man prints the page and exits, it does not wait for a terminal.
    "man git-rebase",
}


def _commands(name: str) -> list[str]:
    return [command for command, _ in getattr(categories, name)] if categories else []


ASK = DELETING + own.ASK + _commands("ASK") + own.REGRESSION_ASK
RUN = BENIGN + ALLOWED_NEAR_FILE_OPS + own.RUN + _commands("RUN") + own.REGRESSION_RUN
REFUSE = FILE_OPS + INTERACTIVE + own.REFUSE_FILE_OP + own.REFUSE_TERMINAL
REFUSE += _commands("REFUSE_FILE_OP") + _commands("REFUSE_TERMINAL") + own.REGRESSION_REFUSE


def _cases(commands: list[str]) -> list:
    return [pytest.param(c, marks=pytest.mark.xfail(strict=True)) if c in KNOWN_MISSES else c for c in commands]


def test_the_known_misses_stay_few_and_are_all_in_a_corpus():
    assert len(KNOWN_MISSES) <= 0.02 * len(ASK + RUN + REFUSE)
    assert set(ASK + RUN + REFUSE) >= KNOWN_MISSES


@pytest.mark.parametrize("command", _cases(ASK))
def test_destructive_commands_ask(command):
    assert analyze(command).deletions, command


@pytest.mark.parametrize("command", _cases(RUN))
def test_benign_commands_just_run(command):
    verdict = analyze(command)
    assert (verdict.deletions, verdict.file_ops, verdict.interactive) == ([], [], []), command


@pytest.mark.parametrize("command", _cases(REFUSE))
def test_file_operations_and_terminal_programs_are_refused(command):
    verdict = analyze(command)
    assert verdict.file_ops or verdict.interactive, command
    reasons = verdict.file_ops + verdict.interactive
    assert all(reason.strip() for reason in reasons)


@pytest.mark.parametrize("command", _cases(FILE_OPS + own.REFUSE_FILE_OP))
def test_file_operations_name_the_tool_to_use(command):
    verdict = analyze(command)
    assert any(tool in reason for reason in verdict.file_ops for tool in ("Read", "Grep", "Glob", "Edit", "Write"))


def test_long_chains_and_pipelines_are_checked_to_the_end():
    assert analyze(" && ".join(["true"] * 400)).deletions == []
    assert analyze("|".join(["wc"] * 3333)).deletions == []
    assert analyze(" && ".join(["true"] * 400 + ["rm x"])).deletions
    assert analyze("|".join(["wc"] * 3000 + ["xargs rm"])).deletions


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("python -m django flush --noinput", "django-admin deletes every row in the database"),
        ("python3 -u -m alembic downgrade base", "alembic unapplies migrations, dropping tables and columns: base"),
    ],
)
def test_a_module_python_runs_is_checked_as_the_program_it_is(command, said):
    """`python -m django` is django-admin: the question says what its subcommand loses, as django-admin's would."""
    assert [str(r) for r in analyze(command).deletions] == [f"{said} — /undo cannot restore it"]


def test_a_long_heredoc_is_not_too_long_but_long_syntax_is():
    body = "print('x')\n" * (2 * MAX_LENGTH // 11)
    assert analyze(f"python3 - <<'EOF'\n{body}EOF").deletions == []
    assert analyze(f"python3 - <<'EOF'\n{body}EOF\nrm x").deletions
    assert analyze("echo " + "a " * MAX_LENGTH).deletions == ["the command is too long or too deeply nested to check"]


def test_text_the_parser_cannot_read_asks_whatever_it_mentions():
    assert analyze("rm -rf 'unterminated").deletions
    assert analyze("echo 'unterminated").deletions
    assert analyze("ls )").deletions


def test_deeply_nested_wrappers_and_commands_are_analysed_without_error():
    assert analyze("find . -exec " * 700 + "ls").deletions == ["the command nests commands too deeply to check"]
    assert analyze("nohup " * 1600 + "rm x").deletions == ["rm deletes files: x"]
    assert analyze("sudo -X " * 1200 + "ls").deletions == []
    assert analyze("timeout --x 1 " * 600 + "rm x").deletions
