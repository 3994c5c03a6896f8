"""Code hidden in a command's words (shells' -c, scripts piped to a shell, eval, source, aliases, Windows shells),
option by option: where the code starts, and what Narnat then asks or lets run."""

import pytest

from narnat_agent.safety import analyze

LOST = ["rm deletes files: build"]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("bash -c -- 'rm -rf build'", LOST),
        ("bash -c -- 'rm -rf build' cleanup", LOST),  # the word after the code names the script ($0)
        ("bash -o errexit -c 'rm -rf build'", LOST),  # an option's value is no script file
        ("bash +o posix -c 'rm -rf build'", LOST),
        ("bash -O extglob -c 'rm -rf build'", LOST),
        ("bash +O extglob -c 'rm -rf build'", LOST),
        ("bash --rcfile env.sh -c 'rm -rf build'", LOST),
        ("bash --init-file env.sh -c 'rm -rf build'", LOST),
        ("bash -- -c 'rm -rf build'", []),  # after --, -c names a script file
        ("bash -c", []),
    ],
)
def test_a_shells_code_is_found_after_its_options(command, lost):
    assert analyze(command).deletions == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("echo 'rm -rf build' | bash -- -", LOST),
        ("echo 'rm -rf build' | bash - deploy", LOST),  # the words after - are the piped script's arguments
        ("echo 'rm -rf build' | bash /dev/stdin", LOST),
        ("echo 'rm -rf build' | bash -s -x deploy", LOST),
        ("echo 'rm -rf build' | bash -x deploy.sh", []),  # the script is the file: what is piped is its input
        ("echo 'rm -rf build' | bash --posix deploy.sh", []),
        ("echo 'rm -rf build' | bash Xsetup.sh", []),
    ],
)
def test_a_script_piped_to_a_shell_is_checked_only_when_the_shell_reads_it(command, lost):
    assert analyze(command).deletions == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ('eval rm -rf "" build', LOST),  # eval joins its words with spaces: an empty one adds nothing
        ("source", []),
        ("echo 'rm -rf build' | source -", LOST),
        ("echo ls | source /dev/stdin", []),
        ("alias $CLEAN", ["an alias is defined from text computed at run time"]),
        ("shopt -s expand_aliases\nalias clean='rm -rf --preserve-root=all build'\nclean", LOST),
        ("rm -rf build; pwsh -c 'Get-ChildItem'", LOST),
    ],
)
def test_eval_source_aliases_and_windows_shells_add_to_what_is_asked(command, lost):
    assert analyze(command).deletions == lost


def test_a_nested_scripts_reasons_come_in_the_order_its_commands_run():
    """The question reads as the command runs: what a nested script loses between what comes before and after it."""
    assert analyze("rm -rf a; bash -c 'rm -rf b'; rm -rf c").deletions == [
        "rm deletes files: a",
        "rm deletes files: b",
        "rm deletes files: c",
    ]


def test_a_nested_scripts_file_operations_join_those_of_the_commands_before_it():
    assert analyze("cat notes.txt && bash -c 'sed -i s/a/b/ x.txt'").file_ops == [
        "reading files with cat: use Read (offset/limit for a part)",
        "editing files with sed -i: use Edit",
    ]


@pytest.mark.parametrize(
    ("command", "lost"),
    [("cmd /C del /s /q build", ["del deletes build in every subfolder"]),
     ("cmd.exe /c rd /s /q build", ["rd deletes build with everything inside"]),
     ("CMD //K rd /S /Q build", ["rd deletes build with everything inside"]),
     ("Cmd.Exe /c rd /s /q build", ["rd deletes build with everything inside"]),
     ("powershell Remove-Item -Recurse build", ["Remove-Item deletes build with everything inside"]),
     ("powershell.exe -NoProfile Remove-Item -Recurse build", ["Remove-Item deletes build with everything inside"]),
     ("pwsh ./deploy.ps1", []),  # pwsh takes a bare word for -File's script, Windows PowerShell for -Command's text
     # a parameter that takes a value, abbreviated as people write it: its value is no command text
     ('powershell -exec bypass -c "Remove-Item -Recurse build"', ["Remove-Item deletes build with everything inside"]),
     ('powershell -NoP -ExecutionPol Bypass "Remove-Item -Recurse build"',
      ["Remove-Item deletes build with everything inside"]),
     ('pwsh -wind Hidden -c "Remove-Item -Recurse build"', ["Remove-Item deletes build with everything inside"]),
     ("git gc --prune=all", ["git prunes unreachable commits at once — /undo cannot restore it"])],
)  # fmt: skip
def test_code_handed_to_a_windows_shell_from_bash_is_read_as_that_shell_reads_it(command, lost):
    assert analyze(command).deletions == lost


@pytest.mark.parametrize(
    ("command", "shell"),
    [("echo x > NUL", "cmd"), ("type nul > NUL", "cmd"), ("cd > Nul:", "cmd"), ("Write-Output > $NULL", "powershell")],
)
def test_output_sent_to_the_null_device_in_any_case_replaces_nothing(command, shell):
    assert analyze(command, shell=shell).deletions == []
