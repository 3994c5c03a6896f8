"""PowerShell and cmd text, analysed as the shell that runs it: the corpus written before the rules (ask, run,
refuse), the place and the loss each question names, and the forms of each shell one at a time."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narnat_agent.safety import analyze
from tests.safety import windows_corpus as corpus
from tests.tools.syntax_corpus import case_id


def windows_project(root: Path, existing: tuple[str, ...] = corpus.EXISTING) -> Path:
    """A project holding the files a Windows corpus names."""
    for name in existing:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}\n")
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return windows_project(tmp_path_factory.mktemp("windows"))


def text_id(value: object) -> str | None:
    """Ids of words alone: mutmut passes them on pytest's command line, where `::` splits a test's name."""
    return case_id(value) if isinstance(value, str) else None


def _ids(entries: list[tuple[str, str, str]]) -> list[str]:
    return [case_id(f"{shell} {command}") for shell, command, _ in entries]


@pytest.mark.parametrize(("shell", "command", "category"), corpus.ASK, ids=_ids(corpus.ASK))
def test_destructive_windows_commands_ask(shell, command, category, project):
    assert analyze(command, project, shell).deletions, command


@pytest.mark.parametrize(("shell", "command", "category"), corpus.RUN, ids=_ids(corpus.RUN))
def test_benign_windows_commands_run(shell, command, category, project):
    verdict = analyze(command, project, shell)
    assert (verdict.deletions, verdict.file_ops, verdict.interactive) == ([], [], []), command


REFUSE = corpus.REFUSE_FILE_OP + corpus.REFUSE_TERMINAL


@pytest.mark.parametrize(("shell", "command", "category"), REFUSE, ids=_ids(REFUSE))
def test_windows_file_operations_and_terminal_programs_are_refused(shell, command, category, project):
    verdict = analyze(command, project, shell)
    assert verdict.file_ops or verdict.interactive, command


@pytest.mark.parametrize(("shell", "command", "named"), corpus.NAMED, ids=_ids(corpus.NAMED))
def test_the_question_names_where_and_what(shell, command, named, project):
    assert any(named in reason for reason in analyze(command, project, shell).deletions), command


@pytest.mark.parametrize(
    ("shell", "command", "lost"),
    [
        ("cmd", "rd /s /q C:\\", "rd deletes C:\\ (the whole drive C:) with everything inside"),
        ("cmd", "rd /s /q node_modules", "rd deletes node_modules with everything inside"),
        ("cmd", "rd node_modules", "rd deletes node_modules"),
        ("cmd", 'RD /S/Q "node_modules"', "RD deletes node_modules with everything inside"),
        ("cmd", "del/f/s/q *.log", "del deletes *.log in every subfolder"),
        ("cmd", 'forfiles /p logs /s /m *.log /c "cmd /c del @path"', "del deletes logs\\**\\*.log"),
        ("cmd", 'forfiles /m *.tmp /c "cmd /c del @file"', "del deletes *.tmp"),
        ("cmd", 'FORFILES /P logs /M *.log /C "cmd /c del @FILE"', "del deletes logs\\*.log"),  # cmd has no case
        ("cmd", 'start "" /b cmd /c rd /s /q build', "rd deletes build with everything inside"),
        ("cmd", "start rd /s /q build", "rd deletes build with everything inside"),
        ("cmd", "del /s /q *.pyc", "del deletes *.pyc in every subfolder"),
        ("powershell", "Remove-Item ~ -Recurse", "Remove-Item deletes ~ (your home folder) with everything inside"),
        ("powershell", "ri $HOME\\x", "ri deletes $HOME\\x (in your home folder)"),
        ("powershell", "gci *.log | rm", "rm deletes what gci *.log gives it"),
        ("cmd", "move /y a.json config.json", "move overwrites config.json, which exists"),
        ("cmd", "format E: /q", "format erases the whole drive E: — /undo cannot restore it"),
        (
            "powershell",
            "Format-Volume -DriveLetter E",
            "Format-Volume erases the whole drive E: — /undo cannot restore it",
        ),
        ("powershell", "Clear-Disk -Number 1", "Clear-Disk erases disk 1 — /undo cannot restore it"),
        ("cmd", "robocopy a b /PURGE", "robocopy /PURGE deletes the files in b that a does not have"),
        ("cmd", "setx /M JAVA_HOME C:\\jdk", "setx replaces the environment variable JAVA_HOME (Machine)"),
        (
            "powershell",
            "[Environment]::SetEnvironmentVariable('Path', '', 'User')",
            "[Environment]::SetEnvironmentVariable clears the environment variable Path (User)",
        ),
    ],
    ids=text_id,
)
def test_what_is_lost_is_said_in_one_line(shell, command, lost, project):
    assert analyze(command, project, shell).deletions[0].startswith(lost)


def test_a_path_outside_the_project_is_said_to_be_beyond_undo(project):
    inside = analyze("Remove-Item build -Recurse", project, "powershell").deletions
    outside = analyze("Remove-Item C:\\build -Recurse", project, "powershell").deletions
    assert "/undo restores only the project's files" not in inside[0]
    assert outside[0].endswith("— /undo restores only the project's files")


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ('$x = "build"; Remove-Item $x', "build"),
        ("$x = 'a'\n$x = 'b'\nRemove-Item $x", "b"),  # the value at the time
        ("$dirs = @('a', 'b'); Remove-Item $dirs", "a, b"),
        ("foreach ($d in 'a', 'b') { Remove-Item $d }", "a, b"),
        ('$root = "C:\\p"; Remove-Item "$root\\out"', "C:\\p\\out"),
        ("$x = Get-Location; Remove-Item $x", "$x"),  # computed: as written
        ("Remove-Item -Path:$x", "$x"),
        ("Remove-Item -Path:'b c'", "b c"),
    ],
)
def test_powershell_variables_set_earlier_name_the_target(text, targets):
    assert analyze(text, shell="powershell").deletions[0] in (
        f"Remove-Item deletes {targets}",
        f"Remove-Item deletes {targets} — /undo restores only the project's files",
    )


@pytest.mark.parametrize(
    "text",
    [
        "Get-Date\nRemove-Item x",
        "Get-Date; Remove-Item x",
        "Get-Date | Remove-Item x",
        "Get-Date && Remove-Item x",
        "Get-Date || Remove-Item x",
        "if ($a) { Get-Date } else { Remove-Item x }",
        "1..3 | ForEach-Object { Remove-Item x }",
        "Invoke-Command -ComputerName s -ScriptBlock { Remove-Item x }",
        "& { Remove-Item x }",
        "(Test-Path y) -and (Remove-Item x)",
        "Write-Host $(Remove-Item x)",
        "try { Get-Date } finally { Remove-Item x }",
        "switch ($a) { 1 { Remove-Item x } }",
        "function F { Remove-Item x }; F",
        "Get-Date `\n; Remove-Item x",
        'Invoke-Expression "Remove-Item x"',
        "'Remove-Item x' | Invoke-Expression",
        'cmd /c "del x"',
        "powershell -Command Remove-Item x",
    ],
)
def test_powershell_commands_are_found_wherever_they_run(text):
    assert analyze(text, shell="powershell").deletions


@pytest.mark.parametrize(
    "text",
    [
        "Write-Output 'Remove-Item x'",
        "# Remove-Item x",
        "<# Remove-Item x #>",
        "Get-Help Remove-Item",
        "Remove-Item x -WhatIf",
        "Remove-Item x -wh",
        "Get-ChildItem | Remove-Item -WhatIf",
        "Remove-Item Env:\\TOKEN",
        "Remove-Variable x",
        "Remove-Service -Name Spooler -WhatIf",  # a rehearsal of what is not a file
        "Clear-RecycleBin -WhatIf",
        "Copy-Item a new.txt",
        "Move-Item config.json renamed.json",  # no -Force: PowerShell refuses to replace
        "[Environment]::SetEnvironmentVariable('X', '1')",
        "[Environment]::SetEnvironmentVariable('X', '1', 'Process')",
        "robocopy a b /MIR /L",
        "$s = @'\nRemove-Item x\n'@",
    ],
    ids=text_id,
)
def test_powershell_look_alikes_destroy_nothing(text):
    assert analyze(text, shell="powershell").deletions == []


@pytest.mark.parametrize(
    "text",
    [
        "dir & del x",
        "dir && del x",
        "dir || del x",
        "dir | del x",
        "dir\r\ndel x",
        "(dir\ndel x)",
        "if exist x del x",
        "if not exist y (del x) else (dir)",
        "if /i %1==a del x",
        '"%A%"=="" del x',
        "if exist y (dir) else (del x)",
        "for %f in (*.tmp) do del %f",
        "for /f %a in ('dir /b') do @del %a",
        "d^el x",
        "@del x",
        "call del x",
        "dir ^\n& del x",
        "set T=x\ndel %T%",
    ],
)
def test_cmd_commands_are_found_wherever_they_run(text):
    if text.startswith('"'):
        text = "if " + text
    assert analyze(text, shell="cmd").deletions, text


@pytest.mark.parametrize(
    "text",
    [
        "rem del x",
        ":: del x",
        "echo del x",
        'echo "a & del x"',
        "echo a ^& del x",
        "del /?",
        "rd /?",
        "format /?",
        "robocopy a b /MIR /L",
        "copy a new.txt",
        "reg query HKCU\\x",
        "sc query s",
        "schtasks /query",
        "net user",
        "wsl -l -v",
    ],
    ids=text_id,
)
def test_cmd_look_alikes_destroy_nothing(text):
    assert analyze(text, shell="cmd").deletions == []


@pytest.mark.parametrize(
    ("shell", "text", "reason"),
    [
        ("powershell", "Start-Process npm -ArgumentList 'run', 'dev'", "keeps running after the command"),
        ("powershell", "Start-Process python server.py", "keeps running after the command"),
        ("cmd", "start node server.js", "keeps running after the command"),
        ("cmd", "start /D web npm run dev", "start starts npm run dev, which keeps running"),  # /D takes a folder
        ("powershell", "Start-Process notepad x.txt -Wait", "interactive editor"),
        ("powershell", "Start-Process pwsh -Verb RunAs", "waits for a person to allow it"),
        ("powershell", "Get-Content log -Wait", "never ends"),
        ("powershell", "while ($true) { Get-Date }", "never ends"),
        ("cmd", "ping -t host", "never ends"),
        ("cmd", "ping /t host", "ping /t never ends"),  # Windows' ping takes its switches after - or /
        ("powershell", "PING /T host", "PING /t never ends"),
        ("cmd", "timeout /t -1", "waits for a person"),
        ("cmd", "choice /c yn", "waits for a person"),
        ("cmd", "set /p X=?", "waits for a person"),
        ("powershell", "Read-Host", "waits for a person"),
        ("powershell", "$x = [System.Console]::In.ReadLine()", "waits for a person"),  # the console's own input
        ("cmd", "powershell -NoProfile", "waits for input"),
    ],
)
def test_what_waits_or_never_ends_is_refused(shell, text, reason):
    assert any(reason in r for r in analyze(text, shell=shell).interactive), text


@pytest.mark.parametrize(
    ("shell", "text"),
    [
        ("powershell", "Start-Process http://localhost:3000"),
        ("powershell", "Start-Process python -ArgumentList x.py -Wait"),
        ("powershell", "while ($true) { if (Test-Path x) { break } }"),
        ("cmd", "ping -n 3 host"),
        ("cmd", "timeout /t 5"),
        ("cmd", "choice /c yn /t 5 /d y"),
        ("powershell", "npm run dev &"),
        ("cmd", "typeperf -?"),  # its help
        ("powershell", "Wait-Process -Name setup -Timeout 60"),
        ("cmd", "start notepad notes.txt"),  # an editor started on its own: the command does not wait for it
        ("powershell", "Start-Process notepad notes.txt"),
    ],
)
def test_what_ends_on_its_own_runs(shell, text):
    assert analyze(text, shell=shell).interactive == []


@pytest.mark.parametrize(
    ("shell", "text"),
    [
        ("powershell", "Get-Content package.json | ConvertFrom-Json"),
        ("powershell", "$c = Get-Content package.json"),
        ("powershell", "git log | Select-String fix"),
        ("powershell", "Get-ChildItem -Recurse | Remove-Item -WhatIf"),
        ("powershell", "Get-Date | Out-File date.txt"),
        ("cmd", "tasklist | findstr node"),
        ("cmd", "dir /s /b > files.txt"),
        ("cmd", "type nul > new.txt"),  # it creates an empty file: nothing is written by hand
        ("cmd", "echo done > NUL"),  # written nowhere, in any case
    ],
)
def test_reading_that_feeds_a_program_is_not_refused(shell, text, project):
    assert analyze(text, project, shell).file_ops == []


def test_an_edit_of_a_file_the_statement_reads_is_refused_as_an_edit(project):
    verdict = analyze("(Get-Content config.json) -replace 'a', 'b' | Set-Content config.json", project, "powershell")
    assert verdict.file_ops == ["editing files with Set-Content: use Edit"]
    assert verdict.deletions == ["Set-Content replaces config.json, which exists"]


@pytest.mark.parametrize("shell", ["powershell", "cmd"])
@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="ab $@&|;(){}[]'\"`^%<>=,.-:\\/#\n\r\t~*?!", max_size=40))
def test_any_text_is_analysed_without_an_error(shell, text):
    analyze(text, shell=shell)


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("reg.exe delete 'HKCU\\Software\\App' //f", "reg.exe deletes the registry key HKCU\\Software\\App"),
        ("schtasks.exe //delete //tn Sync //f", "schtasks.exe deletes the scheduled task Sync"),
        ("wsl.exe --unregister Ubuntu", "wsl.exe deletes the distribution Ubuntu with every file in it"),
        ("robocopy.exe a b //MIR", "robocopy /MIR deletes the files in b that a does not have"),
    ],
)
def test_windows_programs_run_from_git_bash_ask(command, lost):
    assert analyze(command).deletions[0].startswith(lost)


@pytest.mark.parametrize(
    ("shell", "command", "lost"),
    [
        ("cmd", "bcdedit /delete {abc} /f", "bcdedit deletes the boot entry {abc}"),
        ("cmd", "wevtutil cl System", "wevtutil clears the event log System"),
        ("powershell", "Clear-EventLog -LogName Application", "Clear-EventLog clears the event log Application"),
        ("cmd", "wslconfig /u Ubuntu", "wslconfig deletes the distribution Ubuntu"),
        ("cmd", "certutil -delstore My 3f2a", "certutil deletes the certificate 3f2a"),
        ("cmd", "cipher /W:D:", "cipher wipes what was deleted on D: for good"),  # cmd's switches take any case
        ("powershell", "Clear-Disk 2 -RemoveData", "Clear-Disk erases disk 2 —"),  # a disk's number, not a drive
        ("powershell", "Initialize-Disk 3", "Initialize-Disk erases disk 3 —"),
        ("powershell", "Format-Volume E", "Format-Volume erases the whole drive E: —"),
        ("powershell", "Format-Volume -d E", "Format-Volume erases the whole drive E: —"),
        ("cmd", "netsh advfirewall reset", "netsh resets advfirewall to its defaults"),
        ("cmd", "(echo select disk 1& echo clean) | diskpart", "diskpart runs the disk commands it is given"),
        ("cmd", "diskpart < wipe.txt", "diskpart runs the disk commands it is given"),  # its input, from a file
        ("powershell", 'Invoke-Sqlcmd -Query "TRUNCATE TABLE dbo.Log"', "Invoke-Sqlcmd empties table dbo.Log"),
        ("powershell", "[IO.File]::Copy('a.db', 'b.db', $true)", "[IO.File]::Copy overwrites b.db if it exists"),
        ("powershell", "$fso.DeleteFolder('C:\\tmp', $true)", "$fso.DeleteFolder deletes C:\\tmp with everything"),
        ("powershell", "(Get-Item x).Delete()", ".Delete deletes (Get-Item x)"),
        ("powershell", "New-Item -ItemType File -Path config.json -Force", "New-Item replaces config.json"),
        ("powershell", "Set-Content $PROFILE 'x'", "Set-Content replaces $PROFILE"),
        ("powershell", "Move-Item .\\new\\* .\\src -Force", "Move-Item overwrites files in .\\src"),
        ("powershell", "& { param($d) Remove-Item $d } 'x'", "Remove-Item deletes $d"),
    ],
    ids=text_id,
)
def test_what_else_windows_destroys_asks(shell, command, lost, project):
    (project / "src").mkdir(exist_ok=True)
    assert analyze(command, project, shell).deletions[0].startswith(lost), analyze(command, project, shell)


@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("cmd", "if not exist .env copy .env.example .env"),
        ("powershell", "if (-not (Test-Path .env)) { Copy-Item .env.example .env }"),
        ("powershell", "New-Item -ItemType File -Path config.json"),  # without -Force it fails on an existing file
        ("powershell", "Get-ChildItem -Recurse -File | Measure-Object -Property Length -Sum"),
        ("cmd", "netsh interface show interface"),
        ("cmd", "wevtutil qe System /c:5"),
    ],
)
def test_guarded_copies_and_counts_run(shell, command, project):
    verdict = analyze(command, project, shell)
    assert (verdict.deletions, verdict.file_ops, verdict.interactive) == ([], [], []), command


@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("powershell", '$Host.UI.RawUI.ReadKey("NoEcho")'),
        ("powershell", "Wait-Process -Name notepad"),
        ("powershell", "Get-Counter '\\Processor(_Total)\\% Processor Time' -Continuous"),
        ("cmd", 'typeperf "\\Memory\\Available MBytes"'),
        ("cmd", "netstat -an 5"),
        ("powershell", 'pwsh -NoExit -Command "Get-Date"'),
        ("cmd", "wsl -d Ubuntu"),
        ("cmd", "wsl ~"),  # a shell opened in the home folder
        ("cmd", "netsh"),
        ("cmd", "runas /user:Administrator cmd"),
        ("powershell", "[System.IO.File]::ReadAllText('README.md')"),
        ("powershell", "Import-Csv data.csv | Select-Object -First 5"),
        ("cmd", 'findstr /c:"TODO" app.py'),  # the pattern given by /c:, the one word left is a file
        ("cmd", "type app.py > NUL"),  # what goes to NUL in any case is not kept: still a read
        ("powershell", "Get-Content app.py > $NULL"),
        ("powershell", "Get-ChildItem *.py | Select-String TODO"),  # a search of the files a listing gives
        ("powershell", "Get-ChildItem src -Depth 2"),  # -Depth recurses too
        ("powershell", "code -w notes.txt"),  # code's -w is its --wait
        ("bash", "winpty python"),
        ("bash", "bash"),
        ("powershell", "docker compose up"),
        ("powershell", "python -m pdb app.py"),
        ("powershell", "dotnet watch run"),
    ],
    ids=text_id,
)
def test_what_else_waits_or_reads_is_refused(shell, command):
    verdict = analyze(command, shell=shell)
    assert verdict.file_ops or verdict.interactive, command


@pytest.mark.parametrize("command", ["netsh < rules.txt", "cmd < build.bat", "wsl < setup.sh"])
def test_a_console_whose_input_is_a_file_runs_what_the_file_says_and_ends(command):
    assert analyze(command, shell="cmd").interactive == []


@pytest.mark.parametrize(
    "command",
    ["dotnet ef database drop --force", "npx supabase db reset"],
)
def test_framework_commands_that_drop_the_database_ask_in_every_shell(command):
    for shell in ("bash", "powershell", "cmd"):
        assert analyze(command, shell=shell).deletions == [
            f"{command.split()[1] if command.startswith('npx') else 'dotnet'} drops the database and its data"
            " — /undo cannot restore it"
        ]


@pytest.mark.parametrize(
    ("shell", "command", "lost"),
    [
        ("cmd", "setx JAVA_HOME C:\\jdk", "setx replaces the environment variable JAVA_HOME (User)"),
        ("cmd", "SETX X 1 /m", "SETX replaces the environment variable X (Machine)"),  # a switch in any case
        ("cmd", "setx", "setx replaces the environment variable … (User)"),
        (
            "powershell",
            "[Environment]::SetEnvironmentVariable('P', 'x', $scope)",
            "[Environment]::SetEnvironmentVariable replaces the environment variable P (…)",  # a scope set at run time
        ),
        (
            "powershell",
            '[System.Environment]::SetEnvironmentVariable(\'P\', "", "Machine")',
            "[System.Environment]::SetEnvironmentVariable clears the environment variable P (Machine)",
        ),
        (
            "powershell",
            "[Environment]::SetEnvironmentVariable('P', $v, [System.EnvironmentVariableTarget]::User)",
            "[Environment]::SetEnvironmentVariable replaces the environment variable P (User)",
        ),
        (  # the scope's name in any case, as PowerShell reads an enumeration's value
            "powershell",
            "[environment]::setenvironmentvariable('P', $null, 'machine')",
            "[environment]::setenvironmentvariable clears the environment variable P (Machine)",
        ),
        ("cmd", "FORMAT D:\\ /FS:NTFS", "FORMAT erases the whole drive D:"),
        ("powershell", "Format-Volume -Path 'F:\\'", "Format-Volume erases the whole drive F:"),
        ("powershell", "Remove-Partition -DriveLetter 'G'", "Remove-Partition erases the whole drive G:"),
        ("powershell", "Remove-Partition -DiskNumber 1 -PartitionNumber 2", "Remove-Partition erases disk 1"),
        ("powershell", "Clear-Disk", "Clear-Disk erases disk …"),
        ("powershell", "Clear-RecycleBin -Force", "Clear-RecycleBin empties the Recycle Bin"),
        ("cmd", "diskpart /S wipe.txt", "diskpart runs the disk commands in wipe.txt, which can erase disks"),
        ("cmd", "diskpart /s", "diskpart runs the disk commands in …, which can erase disks"),
        ("cmd", "bcdedit /delete /f {x}", "bcdedit deletes the boot entry {x}"),
        ("cmd", "wevtutil clear-log Application", "wevtutil clears the event log Application"),
        ("cmd", "WEVTUTIL CL", "WEVTUTIL clears the event log …"),
        ("powershell", "Clear-EventLog Application, System", "Clear-EventLog clears the event log Application, System"),
        ("powershell", "Clear-EventLog", "Clear-EventLog clears the event log …"),
        ("cmd", "netsh int ip reset", "netsh resets int ip to its defaults"),
        ("cmd", "netsh reset", "netsh resets … to its defaults"),
        ("cmd", "certutil -DELSTORE My abc", "certutil deletes the certificate abc"),  # the last word
        ("cmd", "reg delete HKCU\\x /v Name /f", "reg deletes the registry key HKCU\\x"),  # the first word
        ("cmd", "reg delete", "reg deletes the registry key …"),
        ("cmd", "schtasks /delete /f /tn T", "schtasks deletes the scheduled task T"),  # the word after /tn
        ("cmd", "schtasks /delete /s srv01 /tn Backup /f", "schtasks deletes the scheduled task Backup"),
        ("cmd", 'schtasks /Delete /TN "Nightly Sync" /F', "schtasks deletes the scheduled task Nightly Sync"),
        ("cmd", "schtasks /delete /tn", "schtasks deletes the scheduled task …"),
        ("cmd", "net user /delete bob", "net deletes the account bob"),
        ("cmd", "wslconfig /unregister Debian", "wslconfig deletes the distribution Debian with every file in it"),
        ("cmd", "vssadmin Delete Shadows /For=C: /Oldest", "vssadmin deletes the shadow copies of the drives"),
        ("cmd", "cipher /w:C:\\", "cipher wipes what was deleted on C:\\ for good"),
        ("powershell", "Remove-LocalUser test", "Remove-LocalUser deletes test"),
        ("powershell", "Remove-Service -Name 'Old Service'", "Remove-Service deletes Old Service"),
        (
            "powershell",
            "Get-LocalUser bob | Remove-LocalUser",
            "Remove-LocalUser deletes what Get-LocalUser bob gives it",
        ),
        (
            "powershell",
            "Unregister-ScheduledTask -TaskPath \\x\\ -TaskName y",
            "Unregister-ScheduledTask deletes the scheduled task y",
        ),
        # a word known only at run time (a variable cmd never set) is named as written
        ("cmd", "reg delete %KEY% /f", "reg deletes the registry key %KEY%"),
        ("cmd", "wevtutil cl %LOG%", "wevtutil clears the event log %LOG%"),
        ("cmd", "netsh %WHAT% reset", "netsh resets %WHAT% to its defaults"),
    ],
)
def test_what_windows_loses_beyond_the_project_is_named(shell, command, lost):
    assert analyze(command, shell=shell).deletions == [f"{lost} — /undo cannot restore it"]


@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("cmd", "setx /?"),
        ("cmd", "format"),
        ("cmd", "diskpart /?"),
        ("cmd", "reg delete /?"),
        ("cmd", "reg query HKCU\\x"),
        ("cmd", "bcdedit /enum"),
        ("cmd", "wevtutil"),
        ("cmd", "wevtutil qe System"),
        ("cmd", "netsh interface show interface"),
        ("cmd", "net user bob"),
        ("cmd", "net localgroup x /delete"),
        ("cmd", "wslconfig /l"),
        ("cmd", "vssadmin delete"),
        ("cmd", "vssadmin list shadows"),
        ("cmd", "cipher /e x"),
        ("powershell", "Format-Volume -DriveLetter E -WhatIf"),
        ("powershell", "Clear-EventLog -LogName App -WhatIf"),
        ("powershell", "Remove-PSDrive X"),
        ("powershell", "Remove-Job 1"),
        ("powershell", "[Environment]::SetEnvironmentVariable('P')"),
    ],
)
def test_what_windows_only_shows_or_rehearses_runs(shell, command):
    assert analyze(command, shell=shell).deletions == []


@pytest.mark.parametrize("shell", ["bash", "powershell", "cmd"])
@pytest.mark.parametrize("option", ["-e", "-E", "-en", "-ec", "-EncodedCommand"])
def test_powershell_started_with_encoded_code_asks_from_every_shell(shell, option):
    """-e is the shortest abbreviation of -EncodedCommand PowerShell accepts: the code is base64, unread here."""
    assert analyze(f"powershell {option} UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAeAA=", None, shell).deletions == [
        "powershell runs encoded code the analysis cannot read"
    ]
