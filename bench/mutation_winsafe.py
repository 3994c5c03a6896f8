"""The equivalent mutants of PowerShell's and cmd's losses and of what their parses share (bench/mutation.py): a piece
of a line as the mutant writes it, and why that change cannot alter what the code does."""

SQLCMD_NAMES = (
    "Invoke-Sqlcmd's -ServerInstance, -Database and -InputFile: PowerShell refuses -S and -D as fitting more than one "
    "of its parameters (SeverityLevel, DisableCommands), and every abbreviation it takes ('-ser', '-da', '-inp' and "
    "longer) fits no switch nor -Query: the value binds alike under the name as written"
)
WRITE_ARGUMENTS = (
    "[IO.File]::Copy and ::Move are asked about only with $true as their fourth word, when a third word (the "
    "destination) is always there"
)

WINSAFE_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/safety/windows_losses.py": {
        '("XXserverinstanceXX", "database"': SQLCMD_NAMES,
        '("SERVERINSTANCE", "database"': SQLCMD_NAMES,
        '"serverinstance", "XXdatabaseXX"': SQLCMD_NAMES,
        '"serverinstance", "DATABASE"': SQLCMD_NAMES,
        '"database", "XXinputfileXX"': SQLCMD_NAMES,
        '"database", "INPUTFILE"': SQLCMD_NAMES,
        "shown = command.shown[2] if len(command.shown) > 3 else": WRITE_ARGUMENTS,
        'shown = command.shown[2] if len(command.shown) > 2 else "XX…XX"': WRITE_ARGUMENTS,
        "file = command.argv[1] if len(command.argv) > 2 else None": "every [IO.File] write takes the path and what "
        "it writes: a call with the path alone has no overload, and fails before it writes",
        '(command.name or "XXXX").endswith': "a command whose name is computed at run time is asked about before the "
        "rules (windows_command): a rule always has a name",
    },
}
