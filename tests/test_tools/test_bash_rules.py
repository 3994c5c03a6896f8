import pytest

from narnat_agent.tools.support.shell_rules import analyze
from tests.test_tools.bash_corpus import ALLOWED_NEAR_FILE_OPS, BENIGN, DELETING, FILE_OPS, INTERACTIVE


def test_corpus_sizes():
    assert len(DELETING) >= 60 and len(BENIGN) >= 60 and len(FILE_OPS) >= 20 and len(INTERACTIVE) >= 20


@pytest.mark.parametrize("command", DELETING)
def test_deleting_commands_ask(command):
    verdict = analyze(command)
    assert verdict.deletions, command


@pytest.mark.parametrize("command", BENIGN + ALLOWED_NEAR_FILE_OPS)
def test_benign_commands_just_run(command):
    verdict = analyze(command)
    assert (verdict.deletions, verdict.file_ops, verdict.interactive) == ([], [], []), command


@pytest.mark.parametrize("command", FILE_OPS)
def test_file_operations_are_refused_with_the_right_tool(command):
    verdict = analyze(command)
    assert verdict.file_ops and not verdict.deletions, command
    assert any(tool in verdict.file_ops[0] for tool in ("Read", "Grep", "Glob", "Edit", "Write"))


@pytest.mark.parametrize("command", INTERACTIVE)
def test_terminal_programs_are_refused(command):
    verdict = analyze(command)
    assert verdict.interactive or verdict.file_ops, command
    assert not verdict.deletions


def test_a_400_step_chain_does_not_overflow_and_too_many_commands_ask():
    assert analyze(" && ".join(["true"] * 400)).deletions == ["the command runs too many commands to check"]
    assert analyze(" && ".join(["true"] * 150)).deletions == []
    assert analyze(" && ".join(["true"] * 150 + ["rm x"])).deletions


def test_unparseable_text_that_mentions_deletion_asks():
    assert analyze("rm -rf 'unterminated").deletions
    assert not analyze("echo 'unterminated").deletions
