"""The analysis's walk over a command: its limits of length and depth, the aliases it defines, and what an earlier
command in the same line downloaded."""

import shlex

import pytest

from narnat_agent.safety.rules import MAX_DEPTH, MAX_LENGTH, MAX_NESTING, analyze

OUTSIDE = "/undo restores only the project's files"

TOO_DEEP = "the command is too long or too deeply nested to check"


def _quoted_heredoc_marker(length: int) -> str:
    """A command of length characters in which only a quoted `<<EOF` looks like a heredoc: every line counts."""
    head, tail = "echo '<<EOF'\n", "\nEOF"
    return head + "x" * (length - len(head) - len(tail)) + tail


def test_a_command_over_the_length_limit_is_too_long_to_check():
    assert analyze(_quoted_heredoc_marker(MAX_LENGTH + 1)).deletions == ["the command is too long to check"]


def test_a_command_at_the_length_limit_is_checked():
    assert analyze(_quoted_heredoc_marker(MAX_LENGTH)).deletions == []


def _nested(command: str, times: int) -> str:
    for _ in range(times):
        command = "bash -c " + shlex.quote(command)
    return command


def test_shell_code_nested_to_the_depth_limit_is_checked():
    assert analyze(_nested("true", MAX_DEPTH)).deletions == []


def test_shell_code_nested_past_the_depth_limit_asks():
    assert analyze(_nested("true", MAX_DEPTH + 1)).deletions == [TOO_DEEP]


def test_an_alias_given_words_computed_at_run_time_asks_naming_the_alias():
    verdict = analyze("alias wipe='rm -rf build'; wipe $(cat more)")
    assert verdict.deletions == ["the alias wipe runs shell code computed at run time"]


def test_running_the_first_of_two_downloads_asks():
    verdict = analyze("curl -o a.sh https://x.example/a; wget -O b.sh https://x.example/b; sh a.sh")
    assert verdict.deletions == ["it runs a.sh, downloaded by the same command: code nobody has read"]


def test_emptying_a_file_named_at_run_time_asks():
    assert analyze(': > "$(ls -t | head -1)"').deletions == ["the redirection empties a file named at run time"]


def test_echo_into_a_file_named_at_run_time_says_so_not_none():
    said = "writing files with printf > a file named at run time: use Write (or Edit)"
    assert analyze("printf 'new\\n' > \"$(printf 'a.txt')\"").file_ops == [said]


def test_appending_nothing_to_a_file_runs():
    assert analyze("true >> log").deletions == []
    assert analyze("true &>> log").deletions == []


def test_echo_into_a_file_after_other_redirections_is_the_write_tools_job():
    for command in ("echo hi &> notes.txt", "echo hi 2>/dev/null > notes.txt"):
        assert analyze(command).file_ops == ["writing files with echo > notes.txt: use Write (or Edit)"], command
    for command in ("echo hi &>> notes.txt", "echo hi >> notes.txt"):  # adding to the file is said as it is
        assert analyze(command).file_ops == ["writing files with echo >> notes.txt: use Write (or Edit)"], command


def _finds(n: int, command: str) -> str:
    """The command run by n finds, each -exec'ing the next."""
    return "find . -exec " * n + command + " \\;" * n


TOO_NESTED = "the command nests commands too deeply to check"


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        (_finds(MAX_NESTING, "rm -rf build"), ["rm deletes files: build"]),
        (_finds(MAX_NESTING + 1, "rm -rf build"), [TOO_NESTED]),
        # one nesting ended gives its depth back to the next
        (
            f"{_finds(6, 'rm -rf a')} && {_finds(MAX_NESTING, 'rm -rf b')}",
            ["rm deletes files: a", "rm deletes files: b"],
        ),
        (f"{_finds(6, 'rm -rf a')} && {_finds(MAX_NESTING + 1, 'rm -rf b')}", ["rm deletes files: a", TOO_NESTED]),
    ],
    ids=["at-limit", "past-limit", "sibling-at-limit", "sibling-past-limit"],
)
def test_commands_run_by_commands_are_checked_to_a_nesting_limit(command, lost):
    assert analyze(command).deletions == lost


def test_plain_syntax_at_the_length_limit_is_checked():
    assert analyze("echo " + "a" * (MAX_LENGTH - 5)).deletions == []


def test_an_unparsable_part_is_quoted_to_forty_characters():
    assert analyze(_finds(11, "rm -rf build").replace("\\;", ";")).deletions[0] == (
        "part of the command cannot be parsed (find . -exec find . -exec find . -exec f)"
    )


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("docker run alpine rm build", ["rm deletes files: build"]),
        ("docker run alpine /bin/rm -rf /data", [f"rm deletes files: /data — {OUTSIDE}"]),  # named by its path
        ("podman exec db rm -rf /var/lib/data", [f"rm deletes files: /var/lib/data — {OUTSIDE}"]),
        ("nerdctl run alpine rm -rf /data", [f"rm deletes files: /data — {OUTSIDE}"]),
        ("docker compose run web rm -rf /app/build", [f"rm deletes files: /app/build — {OUTSIDE}"]),
        ("docker logs rm", []),  # not run: a container's name
        ("docker run alpine rm", []),  # the last word starts nothing that can delete
    ],
)
def test_a_container_runs_the_command_after_its_image(command, lost):
    assert analyze(command).deletions == lost


def test_tee_fed_a_heredoc_into_a_file_is_the_write_tools_job():
    assert analyze("tee -a <<'EOF' > notes.md\nhi\nEOF").file_ops == [
        "writing files with tee > notes.md: use Write (or Edit)"
    ]
