"""What a PowerShell cmdlet, a cmd built-in or a .NET call destroys, said as the question says it: each rule of
safety/windows_losses.py through the analysis, with the whole sentence a person reads (the program as written, each
path, how much goes, and whether /undo reaches it)."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze

OUTSIDE = " — /undo restores only the project's files"
BEYOND = " — /undo cannot restore it"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with files that a copy or a write would replace, and folders a copy would write into."""
    root = tmp_path_factory.mktemp("losses")
    for name in ("config.json", "a.txt", "src/a.txt", "out/keep.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}\n")
    return root


def said(shell: str, command: str, project: Path) -> list[str]:
    return analyze(command, project, shell).deletions


OWN = " — Narnat's own checkpoints and sessions among them (.narnat/): /undo cannot restore anything once they are gone"


@pytest.mark.parametrize(
    ("shell", "command", "lost"),
    [
        (
            "powershell",
            "Remove-Item .narnat -Recurse -Force",
            "Remove-Item deletes .narnat with everything inside" + OWN,
        ),
        ("powershell", "Remove-Item .\\.narnat\\sessions\\*", "Remove-Item deletes .\\.narnat\\sessions\\*" + OWN),
        ("cmd", "rd /s /q .narnat\\checkpoints", "rd deletes .narnat\\checkpoints with everything inside" + OWN),
        ("cmd", "del /q .narnat\\logs\\x.log", "del deletes .narnat\\logs\\x.log"),  # a log: /undo still works
    ],
)
def test_deleting_narnats_own_checkpoints_says_undo_goes_with_them(shell, command, lost, project):
    assert said(shell, command, project) == [lost]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("Remove-Item build", ["Remove-Item deletes build"]),
        ("Remove-Item build -Recurse", ["Remove-Item deletes build with everything inside"]),
        ("Remove-Item build -Recurse:$false", ["Remove-Item deletes build"]),
        ("Remove-Item build -WhatIf:$false", ["Remove-Item deletes build"]),
        ("Remove-Item -Path a -LiteralPath b c", ["Remove-Item deletes a, b, c"]),
        ("Remove-Item -LiteralPath a,b", ["Remove-Item deletes a, b"]),
        # cmd's switches handed to PowerShell are no paths; a rooted path of more than one letter is
        ("Remove-Item build /s /q", ["Remove-Item deletes build"]),
        ("Remove-Item /build", ["Remove-Item deletes /build" + OUTSIDE]),
        ("Remove-Item C:\\x, build", ["Remove-Item deletes C:\\x, build" + OUTSIDE]),
        ("rm -r -fo C:\\", ["rm deletes C:\\ (the whole drive C:) with everything inside" + OUTSIDE]),
        ("Remove-Item $x", ["Remove-Item deletes $x"]),
        ("Remove-Item ..\\x -Recurse", ["Remove-Item deletes ..\\x with everything inside" + OUTSIDE]),
        ("Remove-Item ../x, a\\..\\b", ["Remove-Item deletes ../x, a\\..\\b" + OUTSIDE]),
        ("Remove-Item a\\..\\b, ..x", ["Remove-Item deletes a\\..\\b, ..x"]),
        ("Get-ChildItem *.log | Remove-Item", ["Remove-Item deletes what Get-ChildItem *.log gives it"]),
        ("Get-ChildItem | Remove-Item -Filter x", ["Remove-Item deletes what Get-ChildItem gives it"]),
        ("Remove-Item -Recurse", ["Remove-Item deletes what … gives it with everything inside"]),
        # PowerShell's own drives hold the session's variables, functions and aliases: only when all are
        ("Remove-Item Env:X, Function:f", []),
        ("Remove-Item variable:x", []),
        ("Remove-Item alias:ll", []),
        ("Remove-Item Env:\\X, build", ["Remove-Item deletes Env:\\X, build"]),
        # the registry is beyond the files
        (
            "Remove-Item HKCU:\\Software\\A, HKLM:\\B",
            ["Remove-Item deletes the registry key HKCU:\\Software\\A, HKLM:\\B" + BEYOND],
        ),
        (
            "Remove-Item registry::HKEY_CURRENT_USER\\x",
            ["Remove-Item deletes the registry key registry::HKEY_CURRENT_USER\\x" + BEYOND],
        ),
        ("Remove-Item HKEY_CURRENT_USER\\x", ["Remove-Item deletes the registry key HKEY_CURRENT_USER\\x" + BEYOND]),
        ("Remove-Item HKCR:\\x", ["Remove-Item deletes the registry key HKCR:\\x" + BEYOND]),
        ("Remove-Item HKU:\\x", ["Remove-Item deletes the registry key HKU:\\x" + BEYOND]),
        ("Remove-Item HKCU:\\Software\\A, build", ["Remove-Item deletes HKCU:\\Software\\A, build"]),
    ],
)
def test_remove_item_names_each_path_and_how_much_goes(command, lost, project):
    assert said("powershell", command, project) == lost


@pytest.mark.parametrize(("path", "outside"), [("..\\app\\x", False), ("..\\app2\\x", True), ("../app/x", False)])
def test_a_path_climbing_out_and_back_into_the_folder_stays_the_projects(path, outside):
    lost = said("powershell", f"Remove-Item {path}", Path("/work/app"))
    assert lost == [f"Remove-Item deletes {path}" + OUTSIDE * outside]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("Clear-Content a.txt", ["Clear-Content empties a.txt"]),
        ("Clear-Content -LiteralPath a.txt", ["Clear-Content empties a.txt"]),
        ("Clear-Content a.txt, C:\\b.txt", ["Clear-Content empties a.txt, C:\\b.txt" + OUTSIDE]),
        ("Clear-Content a.txt -WhatIf", []),
        ("Get-ChildItem *.log | Clear-Content", ["Clear-Content empties what Get-ChildItem *.log gives it"]),
        ("Clear-Item a.txt, Env:X", ["Clear-Item empties a.txt, Env:X"]),
        ("Clear-Item C:\\a.txt", ["Clear-Item empties C:\\a.txt" + OUTSIDE]),
        ("Clear-Item Env:X", []),
        ("Clear-Item Variable:x, Function:f", []),
    ],
)
def test_emptying_names_the_files(command, lost, project):
    assert said("powershell", command, project) == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("Set-Content config.json x", ["Set-Content replaces config.json, which exists"]),
        ("Set-Content -Path config.json -Value x", ["Set-Content replaces config.json, which exists"]),
        ("Set-Content -LiteralPath config.json x", ["Set-Content replaces config.json, which exists"]),
        ("Set-Content new.json x", []),
        ("Set-Content $x 'y'", []),
        ("Set-Content config.json x -WhatIf", []),
        ("Out-File config.json", ["Out-File replaces config.json, which exists"]),
        ("Out-File -FilePath config.json -Append:$false", ["Out-File replaces config.json, which exists"]),
        ("'x' | Out-File -LiteralPath config.json", ["Out-File replaces config.json, which exists"]),
        ("Out-File config.json -Append", []),
        ("Out-File config.json -WhatIf", []),
        ("Tee-Object config.json", ["Tee-Object replaces config.json, which exists"]),
        ("Tee-Object -FilePath config.json", ["Tee-Object replaces config.json, which exists"]),
        ("New-Item config.json -Force", ["New-Item replaces config.json, which exists"]),
        ("New-Item config.json", []),
        ("New-Item config.json -Force:$false", []),
        # the download's address comes first, in Uri's position: the file it replaces is -OutFile's
        (
            "Invoke-WebRequest https://x/y -OutFile config.json",
            ["Invoke-WebRequest replaces config.json, which exists"],
        ),
        ("iwr https://x/y -o config.json", ["iwr replaces config.json, which exists"]),
        (
            "Invoke-WebRequest -Uri https://x/y -OutFile config.json",
            ["Invoke-WebRequest replaces config.json, which exists"],
        ),
        ("Invoke-WebRequest https://x/y -OutFile new.json", []),
        # the user's profile is taken to exist, however it is quoted
        ("Set-Content $PROFILE x", ["Set-Content replaces $PROFILE, which exists"]),
        ("Set-Content '$PROFILE' x", ["Set-Content replaces '$PROFILE', which exists"]),
        ('Set-Content "$PROFILE" x', ['Set-Content replaces "$PROFILE", which exists']),
        ("Set-Content $profile.AllUsers x", ["Set-Content replaces $profile.AllUsers, which exists"]),
        # a file the enclosing `if` found missing is created, not replaced
        ("if (-not (Test-Path config.json)) { Set-Content config.json x }", []),
    ],
)
def test_a_write_replaces_only_an_existing_file(command, lost, project):
    assert said("powershell", command, project) == lost


@pytest.mark.parametrize(
    ("shell", "command", "lost"),
    [
        ("powershell", "Copy-Item a.txt config.json", ["Copy-Item overwrites config.json, which exists"]),
        (
            "powershell",
            "Copy-Item -Path a.txt -Destination config.json",
            ["Copy-Item overwrites config.json, which exists"],
        ),
        (
            "powershell",
            "Copy-Item -LiteralPath a.txt -Destination config.json",
            ["Copy-Item overwrites config.json, which exists"],
        ),
        ("powershell", "Copy-Item new.txt, a.txt config.json", ["Copy-Item overwrites config.json, which exists"]),
        ("powershell", "Copy-Item a.txt src", ["Copy-Item overwrites src\\a.txt, which exists"]),
        (
            "powershell",
            "Copy-Item a.txt -Destination src -WhatIf:$false",
            ["Copy-Item overwrites src\\a.txt, which exists"],
        ),
        ("powershell", "Copy-Item b.txt out", []),
        ("powershell", "Copy-Item *.txt out", ["Copy-Item overwrites files in out"]),
        ("powershell", "Copy-Item a?.txt out", ["Copy-Item overwrites files in out"]),
        ("powershell", "Copy-Item *.txt nowhere", []),
        ("powershell", "Copy-Item a.txt", []),
        ("powershell", "Copy-Item a.txt new.txt", []),
        ("powershell", "Copy-Item $x config.json", []),
        ("powershell", "Copy-Item a.txt $x", []),
        ("powershell", "Copy-Item a.txt src -WhatIf", []),
        ("powershell", "if (-not (Test-Path config.json)) { Copy-Item a.txt config.json }", []),
        ("powershell", "Move-Item a.txt config.json", []),  # without -Force PowerShell refuses to replace
        ("powershell", "Move-Item a.txt config.json -Force", ["Move-Item overwrites config.json, which exists"]),
        ("powershell", "Move-Item a.txt config.json -Force:$false", []),
        ("cmd", "copy a.txt config.json", ["copy overwrites config.json, which exists"]),
        ("cmd", "copy /Y a.txt config.json", ["copy overwrites config.json, which exists"]),
        ("cmd", "copy /-Y a.txt config.json", []),
        ("cmd", "copy a.txt b.txt config.json", ["copy overwrites config.json, which exists"]),
        ("cmd", "copy a.txt src", ["copy overwrites src\\a.txt, which exists"]),
        ("cmd", "copy *.txt src", ["copy overwrites files in src"]),
        ("cmd", "copy b.txt out", []),
        ("cmd", "copy a.txt", []),
        ("cmd", "copy a.txt %X%", []),
        ("cmd", "move a.txt config.json", ["move overwrites config.json, which exists"]),
    ],
)
def test_a_copy_overwrites_only_an_existing_file(shell, command, lost, project):
    assert said(shell, command, project) == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("robocopy a b /MIR", ["robocopy /MIR deletes the files in b that a does not have"]),
        ("robocopy a b /purge", ["robocopy /PURGE deletes the files in b that a does not have"]),
        ("robocopy /mir a b", ["robocopy /MIR deletes the files in b that a does not have"]),
        ("robocopy a b /XO /MIR", ["robocopy /MIR deletes the files in b that a does not have"]),
        ("robocopy a C:\\b /MIR", ["robocopy /MIR deletes the files in C:\\b that a does not have" + OUTSIDE]),
        ("robocopy a b", []),
        ("robocopy a /MIR", []),
        ("robocopy a b /purge /l", []),
        ("del a.txt", ["del deletes a.txt"]),
        ("del /q a.txt b.txt", ["del deletes a.txt, b.txt"]),
        ("del /s a.txt", ["del deletes a.txt in every subfolder"]),
        ("erase /s /q C:\\x", ["erase deletes C:\\x in every subfolder" + OUTSIDE]),
        ("del", ["del deletes …"]),
        ("del /?", []),
        ("rd /s build", ["rd deletes build with everything inside"]),
        ("rd /s /q ..\\x", ["rd deletes ..\\x with everything inside" + OUTSIDE]),
        ("rd /S/Q build", ["rd deletes build with everything inside"]),
        ("rd /q build", ["rd deletes build"]),
        ("rmdir build", ["rmdir deletes build"]),
        ("rmdir /s build", ["rmdir deletes build with everything inside"]),
        ("rd", ["rd deletes …"]),
        ("rd /s /?", []),
        ("xcopy a src", ["xcopy overwrites files in src"]),
        ("xcopy /s a .\\src", ["xcopy overwrites files in .\\src"]),
        ("xcopy a nowhere", []),
        ("xcopy a src /L", []),
        ("xcopy a", []),
        ("xcopy a %X%", []),
    ],
)
def test_cmd_names_what_its_deleters_and_copiers_lose(command, lost, project):
    assert said("cmd", command, project) == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("[IO.Directory]::Delete('build', $true)", ["[IO.Directory]::Delete deletes build with everything inside"]),
        ("[IO.Directory]::Delete('build', $false)", ["[IO.Directory]::Delete deletes build"]),
        ("[IO.Directory]::Delete('build')", ["[IO.Directory]::Delete deletes build"]),
        (
            "[IO.Directory]::Delete('C:\\build', $true)",
            ["[IO.Directory]::Delete deletes C:\\build with everything inside" + OUTSIDE],
        ),
        ("[IO.File]::Delete('a.txt')", ["[IO.File]::Delete deletes a.txt"]),
        ("[IO.File]::Delete()", ["[IO.File]::Delete deletes …"]),
        ("(Get-Item x).Delete()", [".Delete deletes (Get-Item x)"]),
        ("$d.Delete()", ["$d.Delete deletes $d"]),
        (
            "[Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory('b', 'DeleteAllContents')",
            ["[Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory deletes b with everything inside"],
        ),
        ("[Foo]::DeleteAll('x')", ["[Foo]::DeleteAll deletes x"]),
        ("[IO.File]::WriteAllText('config.json', 'x')", ["[IO.File]::WriteAllText replaces config.json, which exists"]),
        (
            "[IO.File]::WriteAllLines('config.json', $l)",
            ["[IO.File]::WriteAllLines replaces config.json, which exists"],
        ),
        (
            "[IO.File]::WriteAllBytes('config.json', $b)",
            ["[IO.File]::WriteAllBytes replaces config.json, which exists"],
        ),
        ("[IO.File]::WriteAllText('new.json', 'x')", []),
        ("[IO.File]::WriteAllText($p, 'x')", []),
        ("[IO.File]::Copy('a.txt', 'config.json')", []),  # without overwrite it fails on an existing file
        ("[IO.File]::Copy('a.txt', 'config.json', $false)", []),
        ("[IO.File]::Copy('a.txt', 'new.json', $true)", ["[IO.File]::Copy overwrites new.json if it exists"]),
        ("[IO.File]::Move('a.txt', 'config.json', $true)", ["[IO.File]::Move overwrites config.json if it exists"]),
        ("[IO.File]::Copy($a, $b, $true)", ["[IO.File]::Copy overwrites $b if it exists"]),
        # calls missing their arguments fail before they write
        ("[IO.File]::Copy('a.txt')", []),
        ("[IO.File]::Copy()", []),
        ("[IO.File]::WriteAllText()", []),
    ],
)
def test_dotnet_calls_name_what_they_delete_or_replace(command, lost, project):
    assert said("powershell", command, project) == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("Invoke-Sqlcmd -Query 'DROP TABLE t'", ["Invoke-Sqlcmd drops table t" + BEYOND]),
        (
            "Invoke-Sqlcmd -Query 'DROP TABLE t' -Query 'DELETE FROM u'",
            ["Invoke-Sqlcmd drops table t" + BEYOND, "Invoke-Sqlcmd deletes rows from u" + BEYOND],
        ),
        ("Invoke-Sqlcmd -ServerInstance s -Database d 'DROP TABLE t'", ["Invoke-Sqlcmd drops table t" + BEYOND]),
        ("Invoke-Sqlcmd -Query $q", ["Invoke-Sqlcmd runs code computed at run time"]),
        # T-SQL's own statements, read in SQL Server's dialect
        (
            "Invoke-Sqlcmd \"IF OBJECT_ID('dbo.t') IS NOT NULL DROP TABLE dbo.t\"",
            ["Invoke-Sqlcmd drops table dbo.t" + BEYOND],
        ),
        # -U and -Pa are Invoke-Sqlcmd's -Username and -Password, not PowerShell's -UseBasicParsing and -PassThru: the
        # query stays in its place
        ("Invoke-Sqlcmd -U sa -Pa secret 'DROP TABLE t'", ["Invoke-Sqlcmd drops table t" + BEYOND]),
        ("Invoke-Sqlcmd -Query 'SELECT 1'", []),
        ("Invoke-Sqlcmd -InputFile x.sql", []),
        (
            "Remove-ItemProperty -Path HKCU:\\Software\\A -Name X",
            ["Remove-ItemProperty deletes a value of the registry key HKCU:\\Software\\A" + BEYOND],
        ),
        (
            "Remove-ItemProperty -Name X -Path HKCU:\\A",
            ["Remove-ItemProperty deletes a value of the registry key HKCU:\\A" + BEYOND],
        ),
        ("Remove-ItemProperty", ["Remove-ItemProperty deletes a value of the registry key …" + BEYOND]),
        ("Remove-ItemProperty HKCU:\\A X -WhatIf", []),
        # any other Remove- or Unregister- cmdlet deletes what it names, beyond the files
        ("Remove-LocalUser bob", ["Remove-LocalUser deletes bob" + BEYOND]),
        ("Unregister-Event x", ["Unregister-Event deletes x" + BEYOND]),
        ("Get-Item x", []),
    ],
)
def test_sql_registry_and_what_lies_beyond_the_files(command, lost, project):
    assert said("powershell", command, project) == lost
