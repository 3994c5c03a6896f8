"""The analysis's decisions on programs that run shell text or a command line of their own: watch, parallel,
hyperfine, trap, at, make -f - and ssh — which words they run, which options stop them running any, and the question
the user reads."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from narnat_agent.safety.runners import MAX_SCRIPT

READS = ["reading files with cat: use Read (offset/limit for a part)"]
RM = ["rm deletes files: build"]
REMOTE_RM = ["rm deletes files: build (on another machine — /undo cannot restore it)"]
FED = "<<< 'rm -rf build'"
MAKEFILE = "<<< $'all:\\n\\trm -rf build\\n\\tls'"


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ('parallel "$CMD" ::: a b', ["parallel runs shell code computed at run time"]),
        ('hyperfine "$CMD"', ["hyperfine runs shell code computed at run time"]),
        ('trap "$CMD" EXIT', ["trap runs shell code computed at run time"]),
        ('at now <<< "$CMD"', ["at runs shell code computed at run time"]),
        ('make -f - all <<< "$CMD"', ["the makefile piped to make runs shell code computed at run time"]),
        ('make -f - all < "$FILE"', ["the makefile piped to make runs shell code computed at run time"]),
        ('ssh prod "$CMD"', ["ssh runs shell code computed at run time"]),
        ('echo "$CMD" | ssh prod', ["the script fed to ssh runs shell code computed at run time"]),
        ('ssh prod < "$FILE"', ["the script fed to ssh runs shell code computed at run time"]),
    ],
)
def test_code_computed_at_run_time_asks_naming_the_program_that_runs_it(command, lost):
    assert analyze(command).deletions == lost


def test_watch_skips_the_value_of_its_long_interval_option():
    assert analyze("watch --interval 5 cat log.txt").file_ops == READS


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("trap -- 'rm -rf build' EXIT", RM),
        ("trap 'rm -rf build' - EXIT", RM),  # only a first word of - resets the signals
        ("trap 'rm -rf build'", []),  # a lone word is a signal to reset
        (f"at now {FED}", RM),
        (f"at -f job.sh now {FED}", []),  # the job is the file's; stdin is not read
        (f"at -l {FED}", []),
        (f"at -r 3 {FED}", []),
        (f"at -d 3 {FED}", []),
        (f"at -c 3 {FED}", []),
        (f"make -f - all {MAKEFILE}", RM),  # each recipe line is a command of its own
        (f"make --file - all {MAKEFILE}", RM),
        (f"make --makefile - all {MAKEFILE}", RM),
        (f"make -f /dev/stdin all {MAKEFILE}", RM),
        (f"make -f- all {MAKEFILE}", RM),
        (f"make --file=- all {MAKEFILE}", RM),
        (f"make all {MAKEFILE}", []),  # make reads its Makefile, not stdin
        ("make -f Makefile all", []),
    ],
)
def test_trap_at_and_make_check_only_the_code_they_will_run(command, lost):
    assert analyze(command).deletions == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("ssh -p 22 prod rm -rf build", REMOTE_RM),
        ("ssh -v prod rm -rf build", REMOTE_RM),  # an option without a value
        ("ssh -X prod rm -rf build", REMOTE_RM),
        ("ssh -oBatchMode=yes prod rm -rf build", REMOTE_RM),  # an option with its value in one word
        ("echo 'rm -rf build' | ssh prod", REMOTE_RM),
        ("echo 'rm -rf build' | ssh -p 22 prod", REMOTE_RM),
        ("echo 'rm -rf build' | ssh -F ssh.cfg prod", REMOTE_RM),
        ("echo 'rm -rf build' | ssh -- prod", REMOTE_RM),
        ("echo 'rm -rf build' | ssh prod bash", REMOTE_RM),
        ("echo 'rm -rf build' | ssh prod \"$SH\"", ["ssh runs shell code computed at run time", *REMOTE_RM]),
        ("echo 'rm -rf build' | ssh prod ls", []),  # ls does not read its stdin as commands
        ("echo 'rm -rf build' | ssh prod bash -c ls", []),
        ("ssh prod", []),
    ],
)
def test_ssh_checks_the_remote_command_or_the_script_its_remote_shell_reads(command, lost):
    assert analyze(command).deletions == lost


def test_ssh_with_nothing_to_run_waits_for_input():
    assert analyze("ssh prod").interactive == [
        "ssh waits for input: pass code with -c/-e, a script file, or feed it on stdin"
    ]


HEREDOC = b"cat > /dev/null <<'E'\n"  # its body is not counted against the length of shell syntax checked


def _unread(name: str) -> list[str]:
    return [f"ssh runs {name} on another machine, unread — /undo cannot restore it"]


@pytest.mark.parametrize(
    ("text", "lost"),
    [
        (
            HEREDOC + b"x" * (MAX_SCRIPT - len(HEREDOC) - 21) + b"\nE\nrm -rf build_12345",
            ["rm deletes files: build_12345"],
        ),
        (b"#" * MAX_SCRIPT + b"\n", _unread("job.sh")),  # one character too long to check
        (b"echo \xff\nrm -rf build\n", RM),  # bytes that are not UTF-8 do not stop the reading
    ],
)
def test_a_script_file_fed_to_ssh_is_read_up_to_its_limit(tmp_path: Path, text: bytes, lost: list[str]):
    (tmp_path / "job.sh").write_bytes(text)
    remote = [r if "unread" in r else f"{r} (on another machine — /undo cannot restore it)" for r in lost]
    assert analyze("ssh prod 'bash -s' < job.sh", tmp_path).deletions == remote


def test_a_script_file_fed_to_ssh_that_cannot_be_opened_asks_unread(tmp_path: Path):
    (tmp_path / "deploy").mkdir()  # a folder: opening it fails as an unreadable file's opening does
    assert analyze("ssh prod 'bash -s' < deploy", tmp_path).deletions == _unread("deploy")


def test_a_script_file_fed_to_ssh_where_the_folder_is_unknown_asks_unread():
    assert analyze("ssh prod 'bash -s' < job.sh").deletions == _unread("job.sh")
