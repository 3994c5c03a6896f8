"""What Windows loses beyond the project (safety/windows_system.py), said as the question says it: the whole sentence
for the names that are easy to get wrong (a drive or an account whose name starts or ends with an X, two names,
a script after its switch), and the help that destroys nothing."""

import pytest

from narnat_agent.safety import analyze

BEYOND = " — /undo cannot restore it"


@pytest.mark.parametrize(
    ("shell", "command", "lost"),
    [
        ("cmd", "diskpart /t 10 /s wipe.txt", "diskpart runs the disk commands in wipe.txt, which can erase disks"),
        ("powershell", "Format-Volume -DriveLetter X", "Format-Volume erases the whole drive X:"),  # a mapped drive
        ("powershell", "Format-Volume X", "Format-Volume erases the whole drive X:"),
        ("powershell", "Remove-Partition -DriveLetter X", "Remove-Partition erases the whole drive X:"),
        ("powershell", "Remove-Partition 1 2", "Remove-Partition erases disk 1"),  # the disk, then the partition
        ("powershell", "Remove-LocalUser Xavier", "Remove-LocalUser deletes Xavier"),
        ("powershell", "Remove-Service -Name Xbox", "Remove-Service deletes Xbox"),
        ("powershell", "Remove-LocalUser alice, bob", "Remove-LocalUser deletes alice, bob"),
        ("cmd", "net user /delete Xavier", "net deletes the account Xavier"),
        ("cmd", "schtasks /delete /tn Xsync /f", "schtasks deletes the scheduled task Xsync"),
        (
            "powershell",
            "$s = 'Machine'; [Environment]::SetEnvironmentVariable('P', 'x', $s)",  # the scope set just before
            "[Environment]::SetEnvironmentVariable replaces the environment variable P (Machine)",
        ),
        (
            "powershell",
            "[Environment]::SetEnvironmentVariable($name, 'x', 'User')",  # a name known at run time, as written
            "[Environment]::SetEnvironmentVariable replaces the environment variable $name (User)",
        ),
        (
            "powershell",
            "[Environment]::SetEnvironmentVariable('P', $null, 'User')",
            "[Environment]::SetEnvironmentVariable clears the environment variable P (User)",
        ),
        (
            "powershell",
            "[Environment]::SetEnvironmentVariable('P', $NULL, 'User')",
            "[Environment]::SetEnvironmentVariable clears the environment variable P (User)",
        ),
    ],
)
def test_the_thing_windows_loses_is_named_whole(shell, command, lost):
    assert analyze(command, shell=shell).deletions == [lost + BEYOND], command


@pytest.mark.parametrize(("shell", "command"), [("cmd", "format E: /?"), ("cmd", "diskpart /s wipe.txt /?")])
def test_help_asked_beside_a_drive_or_a_script_destroys_nothing(shell, command):
    assert analyze(command, shell=shell).deletions == [], command
