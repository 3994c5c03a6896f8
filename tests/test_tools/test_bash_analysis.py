"""The analysis's decisions one rule at a time, where the corpora leave a case unsaid: the commands a user or
model writes, and what Narnat then asks, refuses or lets run."""

import pytest

from narnat_agent.safety import analyze, last_pipeline


@pytest.mark.parametrize(
    ("command", "stages"),
    [
        ("make build && pytest -q | tee log", [["pytest", "-q"], ["tee", "log"]]),
        ("pytest $(cat args) | grep -v warn", [["pytest", None], ["grep", "-v", "warn"]]),
        ("echo $(ls | wc -l)", [["echo", None]]),
        ("cd src; $RUNNER tests", [[None, "tests"]]),
        ("", []),
    ],
)
def test_the_last_pipeline_is_the_one_whose_exit_code_the_shell_reports(command, stages):
    assert last_pipeline(command) == stages


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ('pwsh -c "Remove-Item x; Clear-Content y"', ["pwsh deletes or overwrites (clear-content, remove-item)"]),
        ("pwsh -Co 'Remove-ItemProperty -Path HKCU:x'", ["pwsh deletes or overwrites (remove-itemproperty)"]),
        ('pwsh -c "Get-Content s.ps1 | iex; icm -ScriptBlock {1}"', ["pwsh runs code it builds or fetches (icm, iex)"]),
        ("pwsh -c $SCRIPT", ["pwsh runs code computed at run time"]),
        ('pwsh -c "Get-ChildItem"', []),
        ("pwsh -File clean.ps1 -Command Remove-Item x", []),  # the words after a script are its arguments
        ("pwsh -F clean.ps1 -c Remove-Item x", []),
        ('cmd /c "del a.txt & rd /s b"', ["cmd deletes files (del, rd)"]),
        ('cmd.exe /K "echo x && @ERASE y"', ["cmd deletes files (erase)"]),
        ('cmd /c "dir & echo hi"', []),
    ],
)
def test_windows_shells_say_which_commands_delete(command, lost):
    assert analyze(command).deletions == lost


@pytest.mark.parametrize("option", ["-e", "-E", "-ec", "-EC", "-en", "-enc", "-Enc", "-EncodedCommand", "-encodedc"])
def test_powershell_code_given_encoded_asks_under_every_abbreviation(option):
    assert analyze(f"pwsh -NoProfile {option} SQBFAFgA").deletions == [
        "pwsh runs encoded code the analysis cannot read"
    ]


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        ('read -p "Name? " name <<< bob', []),
        ("read -p x v < answers.txt", []),
        ("echo y | read -p ok a", []),
        ("read -p x v < <(echo y)", []),
        ('read -rp "Continue? " ok', ["read -p asks the user a question: ask in your answer instead"]),
    ],
)
def test_read_asks_the_user_only_when_nothing_feeds_it(command, refused):
    assert analyze(command).interactive == refused


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("gio trash $F", ["gio deletes files"]),
        ('git config --global alias.nuke "!rm -rf ."', ["rm deletes files: ."]),
        ("git config --global alias.st status", []),
    ],
)
def test_what_is_lost_is_seen_past_options_and_computed_words(command, lost):
    assert analyze(command).deletions == lost
