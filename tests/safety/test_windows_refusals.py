"""What Bash refuses among PowerShell's and cmd's commands, said as the model reads it: each rule of
safety/windows_refusals.py through the analysis, with the whole sentence (the program as written, the tool to use
instead), and the look-alikes that end on their own and run."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze

READ = "use Read (offset/limit for a part)"
LAST = "use Read (offset=-N for the last N lines)"
GREP = "use Grep"
GLOB = "use Glob"
WRITE = "use Write (or Edit)"
ASK = "waits for a person to answer: ask in your answer instead"
ENDLESS = "never ends: run it a set number of times"
INPUT = "waits for input: pass code with -c/-e, a script file, or feed it on stdin"
COUNTERS = '"\\Memory\\Available MBytes" "\\Processor(_Total)\\% Processor Time" "\\PhysicalDisk(_Total)\\% Disk Time"'
BACKGROUND = "which keeps running after the command: run it with run_in_background"


def refused(shell: str, command: str) -> tuple[list[str], list[str]]:
    verdict = analyze(command, shell=shell)
    assert verdict.deletions == [], command
    return verdict.file_ops, verdict.interactive


@pytest.mark.parametrize(
    ("shell", "command", "file_ops"),
    [
        ("powershell", "Get-Content README.md", [f"reading files with Get-Content: {READ}"]),
        ("powershell", "Get-Content app.log -Tail 20", [f"reading files with Get-Content: {LAST}"]),
        ("powershell", "gc app.log -Last 5", [f"reading files with gc: {LAST}"]),  # -Tail's other name
        ("powershell", "Get-Content app.log -TotalCount 5", [f"reading files with Get-Content: {READ}"]),
        ("powershell", "[IO.File]::ReadAllText('a.md')", [f"reading files with [IO.File]::ReadAllText: {READ}"]),
        ("cmd", "type README.md", [f"reading files with type: {READ}"]),
        ("cmd", "more README.md", [f"reading files with more: {READ}"]),
        ("powershell", "Select-String TODO *.py", [f"searching files with Select-String: {GREP}"]),
        ("powershell", "Select-String -LiteralPath a.py -Pattern x", [f"searching files with Select-String: {GREP}"]),
        ("cmd", "findstr /s TODO *.py", [f"searching files with findstr: {GREP}"]),
        ("cmd", 'find "x" a.txt', [f"searching files with find: {GREP}"]),
        ("cmd", 'findstr /c:"TODO" app.py', [f"searching files with findstr: {GREP}"]),  # /c: holds the pattern
        ("cmd", "findstr /g:patterns.txt app.py", [f"searching files with findstr: {GREP}"]),  # /g: a file of them
        ("powershell", "Select-String -Pattern TODO *.py", [f"searching files with Select-String: {GREP}"]),
        ("powershell", "Select-String -Lit app.py -Pattern TODO", [f"searching files with Select-String: {GREP}"]),
        ("powershell", "Get-ChildItem -Recurse", [f"listing a tree with Get-ChildItem -Recurse: {GLOB}"]),
        ("powershell", "gci -Depth 2", [f"listing a tree with gci -Recurse: {GLOB}"]),
        ("cmd", "dir /s", [f"listing a tree with dir /s: {GLOB}"]),
        ("cmd", "tree", [f"listing a tree with tree: {GLOB}"]),
        (
            "powershell",
            "Get-ChildItem -Recurse | Select-String TODO",
            [f"listing a tree with Get-ChildItem -Recurse: {GLOB}", f"searching files with Select-String: {GREP}"],
        ),
        ("powershell", "Set-Content x.txt 'hi'", [f"writing files with Set-Content: {WRITE}"]),
        ("powershell", "'hi' | Out-File x.txt", [f"writing files with Out-File: {WRITE}"]),
        ("powershell", "Add-Content -Path x.txt -Value 'hi'", [f"writing files with Add-Content: {WRITE}"]),
        ("powershell", "New-Item x.txt -Value hi", [f"writing files with New-Item: {WRITE}"]),
        ("cmd", "echo hi > x.txt", [f"writing files with echo > x.txt: {WRITE}"]),
        ("powershell", "Write-Output hi >> x.txt", [f"writing files with Write-Output > x.txt: {WRITE}"]),
    ],
)
def test_reading_searching_listing_and_writing_files_name_the_tool_to_use(shell, command, file_ops):
    assert refused(shell, command) == (file_ops, []), command


@pytest.mark.parametrize(
    ("shell", "command", "interactive"),
    [
        ("cmd", "notepad x.txt", "notepad is an interactive editor: use Edit or Write"),
        ("powershell", "code --wait x.txt", "code is an interactive editor: use Edit or Write"),
        ("powershell", "subl -w x.txt", "subl is an interactive editor: use Edit or Write"),
        ("powershell", "Read-Host", f"Read-Host {ASK}"),
        ("cmd", "pause", f"pause {ASK}"),
        ("cmd", "choice /c yn", f"choice {ASK}"),
        ("cmd", "set /p X=?", f"set /p {ASK}"),
        ("cmd", "timeout /t -1", f"timeout {ASK}"),
        ("cmd", "timeout /t -1 /nobreak", f"timeout {ASK}"),
        ("powershell", "$Host.UI.RawUI.ReadKey()", f"$Host.UI.RawUI.ReadKey {ASK}"),
        ("powershell", "[Console]::In.ReadLine()", f"[Console]::In.ReadLine {ASK}"),
        ("powershell", "[System.Console]::In.ReadLine()", f"[System.Console]::In.ReadLine {ASK}"),
        ("cmd", "runas /user:x cmd", f"runas {ASK}"),
        ("powershell", "Wait-Process -Name notepad", f"Wait-Process {ASK}"),
        ("cmd", "ping -t host", f"ping -t {ENDLESS}"),
        ("cmd", "ping /T host", f"ping /t {ENDLESS}"),
        ("powershell", "while ($true) { Get-Date }", f"while ($true) {ENDLESS}"),
        ("cmd", "netstat -an 5", f"netstat -an 5 {ENDLESS}"),
        ("powershell", "Get-Counter -Continuous", f"Get-Counter -Continuous {ENDLESS}"),
        ("cmd", f"typeperf {COUNTERS}", f"{f'typeperf {COUNTERS}'[:60]} {ENDLESS}"),  # the first 60 characters
        ("cmd", "netsh", f"netsh {INPUT}"),
        ("cmd", "wsl", f"wsl {INPUT}"),
        ("cmd", "wsl -d Ubuntu --cd ~", f"wsl {INPUT}"),
        ("cmd", "pwsh -NoExit -Command Get-Date", f"pwsh {INPUT}"),
        ("cmd", "powershell -NoProfile", f"powershell {INPUT}"),
        ("cmd", "cmd", f"cmd {INPUT}"),
        (
            "powershell",
            "Start-Process npm -ArgumentList 'run', 'dev'",
            f"Start-Process starts npm run dev, {BACKGROUND}",
        ),
        ("cmd", 'start "Dev server" npm run dev', f"start starts npm run dev, {BACKGROUND}"),  # the title is not run
        ("cmd", "start /min /d web npm start", f"start starts npm start, {BACKGROUND}"),  # /d takes a folder
        ("cmd", "start /wait notepad x.txt", "notepad is an interactive editor: use Edit or Write"),
        ("cmd", "start /wa^it notepad x.txt", "notepad is an interactive editor: use Edit or Write"),  # ^ is dropped
        ("cmd", "start /wait /min notepad x.txt", "notepad is an interactive editor: use Edit or Write"),  # any order
        ("cmd", "start /min /wait notepad x.txt", "notepad is an interactive editor: use Edit or Write"),
        ("cmd", "start ^/wait notepad x.txt", "notepad is an interactive editor: use Edit or Write"),
    ],
)
def test_what_waits_or_never_ends_says_why_and_what_to_do(shell, command, interactive):
    assert refused(shell, command) == ([], [interactive]), command


def test_start_process_run_as_administrator_waits_for_a_person_and_keeps_running():
    assert refused("powershell", "Start-Process pwsh -Verb RunAs") == (
        [],
        ["Start-Process -Verb RunAs waits for a person to allow it", f"Start-Process starts pwsh, {BACKGROUND}"],
    )


@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("cmd", "start explorer ."),  # a program that is no runtime opens its window and the command ends
        ("powershell", "Start-Process explorer"),
        ("powershell", "Start-Process https://example.com"),
        ("cmd", "start notepad x.txt"),  # without /wait, the editor's window opens and the command ends
        ("cmd", "start /b"),  # no program: start opens a new console of cmd's, on its own
        ("cmd", 'start "" /min'),
        ("cmd", "wsl make test"),
        ("cmd", "wsl -d Ubuntu make test"),  # the distribution's name is not the command
        ("cmd", "wsl -u root --cd /srv ls"),
        ("cmd", "tree /?"),
        ("cmd", "echo hi > nul"),
        ("powershell", "code x.txt"),  # without --wait, the editor's window opens and the command ends
        ("powershell", "Wait-Process -Name notepad -Timeout 5"),
        ("cmd", "choice /c yn /t 5 /d y"),
        ("cmd", "timeout /t 5"),
        ("cmd", "typeperf -sc 5 \\Memory\\Available MBytes"),
        ("cmd", "netstat -an"),
        ("cmd", "netsh /?"),
        ("cmd", "choice /?"),  # help, printed at once
        ("cmd", "timeout /?"),
        ("cmd", "timeout 10"),  # the seconds without /t
        ("powershell", "Receive-Job -Id 1 -Wait"),  # -Wait of a job that ends, not of a file followed
        ("powershell", "$reader.ReadLine()"),  # a line of a file's reader, not of the console
        ("powershell", "$Host.UI.RawUI.FlushInputBuffer()"),  # the console's input, not waited for
        ("cmd", "pwsh -NoExit -?"),
    ],
)
def test_what_ends_on_its_own_is_not_refused(shell, command):
    assert refused(shell, command) == ([], []), command


@pytest.mark.parametrize(
    "option",
    ["-e", "--exec", "-l", "--list", "--status", "--shutdown", "--version", "--install", "--update", "--help", "-t",
     "--terminate", "--unregister", "--set-default", "-s", "--export", "--import"],
)  # fmt: skip
def test_wsl_with_one_of_its_own_commands_ends(option):
    """Given no value where one is needed, wsl says what is missing and ends: no shell opens."""
    assert analyze(f"wsl {option}", shell="cmd").interactive == [], option


@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("cmd", "type config.json > %TEMP%\\backup.json"),  # a file named at run time still keeps the output
        ("powershell", "Get-Content config.json > $env:TEMP\\backup.json"),
        ("powershell", "Get-Content config.json | Out-File $out"),
        ("cmd", "type a.txt > b.txt"),
        ("powershell", "Get-Content a.txt >> b.txt"),
    ],
)
def test_a_read_whose_output_goes_to_a_file_is_a_copy_not_a_read(shell, command):
    assert analyze(command, shell=shell).file_ops == [], command


@pytest.mark.parametrize(
    ("shell", "command", "program"),
    [
        ("cmd", "type README.md 2>nul", "type"),  # only the errors are thrown away: the file is shown
        ("cmd", "type README.md 2>NUL", "type"),
        ("powershell", "Get-Content README.md 2>$null", "Get-Content"),
        ("powershell", "Get-Content README.md 2>$NULL", "Get-Content"),
    ],
)
def test_a_read_whose_errors_are_thrown_away_is_still_a_read(shell, command, program):
    assert refused(shell, command) == ([f"reading files with {program}: {READ}"], []), command


@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("cmd", "echo %VERSION% > version.txt"),  # text known only at run time: no text to give Write
        ("cmd", "echo > x.txt"),  # echo alone writes cmd's echo state, not text of the model's
        ("cmd", "echo y < answers.txt"),  # a file read, not written
        ("cmd", "echo done > nul"),
        ("cmd", "type nul"),  # the empty device: nothing is read
        ("cmd", "findstr TODO"),  # its pattern alone: it searches its input, as grep -e TODO does in bash
        ("cmd", 'findstr /c:"TODO"'),
        ("cmd", 'find "TODO"'),
        ("cmd", "TYPE NUL"),
        ("powershell", "$log | Select-String error"),  # text already in a variable, no file
        ("cmd", "echo done >NUL"),
        ("powershell", "Write-Output done > $null"),
        ("powershell", "Write-Output done > $NULL"),
        ("powershell", "Get-Date | Out-File date.txt ascii"),  # Out-File's second word is the encoding, not text
        ("powershell", "New-Item -ItemType File notes.txt"),  # an empty file: -ItemType takes File, not the path
        ("powershell", "Start-Process"),  # no program: nothing starts
        ("powershell", "Start-Process https://github.com/nodejs/node"),  # a page opens, not node
        ("cmd", "start HTTPS://github.com/denoland/deno"),
    ],
)
def test_what_writes_no_text_of_the_models_or_starts_nothing_runs(shell, command):
    assert refused(shell, command) == ([], []), command


@pytest.mark.parametrize(
    ("shell", "command", "file_ops"),
    [
        (
            "powershell",
            "(Get-Content x.txt) -replace 'a', 'b' | Set-Content -LiteralPath x.txt",
            ["editing files with Set-Content: use Edit"],
        ),
        ("powershell", "'hi' | Set-Content -LiteralPath x.txt", [f"writing files with Set-Content: {WRITE}"]),
        ("powershell", "'hi' | Set-Content -Lit x.txt", [f"writing files with Set-Content: {WRITE}"]),  # abbreviated
    ],
)
def test_a_literal_path_is_the_file_written(shell, command, file_ops):
    assert refused(shell, command) == (file_ops, []), command


@pytest.mark.parametrize(
    ("command", "started"),
    [
        ("Start-Process python server.py", "python server.py"),
        ("Start-Process node -ArgumentList $script", "node"),  # the arguments known only at run time are left out
        ("Start-Process -WindowStyle Hidden node server.js", "node server.js"),  # Hidden is -WindowStyle's
        ("Start-Process -WorkingDirectory web npm 'run dev'", "npm run dev"),  # web is -WorkingDirectory's
    ],
)
def test_start_process_names_the_program_it_leaves_running(command, started):
    assert refused("powershell", command) == ([], [f"Start-Process starts {started}, {BACKGROUND}"]), command


def test_start_process_without_a_program_to_run_as_administrator_waits_for_a_person():
    assert refused("powershell", "Start-Process -Verb RunAs") == (
        [],
        ["Start-Process -Verb RunAs waits for a person to allow it"],
    )


@pytest.mark.parametrize(
    ("shell", "command", "deletions", "interactive"),
    [
        (
            "powershell",
            "Remove-Item x; Start-Process cmd -ArgumentList '/c rd /s /q b'",
            ["Remove-Item deletes x", "rd deletes b with everything inside"],
            [],
        ),
        ("cmd", "del x & start rd /s /q b", ["del deletes x", "rd deletes b with everything inside"], []),
        (
            "powershell",
            "Read-Host; Start-Process notepad x.txt -Wait",
            [],
            [f"Read-Host {ASK}", "notepad is an interactive editor: use Edit or Write"],
        ),
        (
            "powershell",
            "Start-Process powershell -ArgumentList '-Command', 'Remove-Item build -Recurse'",
            ["Remove-Item deletes build with everything inside"],
            [],
        ),
        ("powershell", "Start-Process ri -ArgumentList build", ["ri deletes build"], []),
    ],
)
def test_what_a_started_program_does_adds_to_what_the_line_does(shell, command, deletions, interactive):
    verdict = analyze(command, shell=shell)
    assert (verdict.deletions, verdict.interactive) == (deletions, interactive), command


@pytest.mark.parametrize(
    ("shell", "command"),
    [
        (
            "powershell",
            "Get-Content package.json | Select-Object -First 5 | ConvertFrom-Json",
        ),  # the filter feeds a program
        ("powershell", "Get-Content app.log | Where-Object { $_ -match 'ERROR' } | Measure-Object"),
        ("cmd", "type app.log | findstr ERROR | sort > errors.txt"),
    ],
)
def test_a_read_that_filters_feed_to_a_program_or_a_file_is_not_refused(shell, command):
    assert analyze(command, shell=shell).file_ops == [], command


def test_get_content_wait_is_a_read_that_never_ends():
    assert refused("powershell", "Get-Content app.log -Wait") == (
        [f"reading files with Get-Content: {READ}"],
        ["Get-Content -Wait never ends: use Read to see the file"],
    )


def test_a_cmd_command_start_runs_is_read_as_cmd_reads_it(tmp_path: Path):
    """start runs a cmd built-in in a new cmd: its /y is cmd's switch, not a PowerShell path."""
    (tmp_path / "config.json").write_text("{}\n")
    verdict = analyze("start move /y a.json config.json", tmp_path, "cmd")
    assert verdict.deletions == ["move overwrites config.json, which exists"]
