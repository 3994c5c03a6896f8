"""Which shell the Bash tool runs, found on a Windows machine laid out in a temporary folder, and the script each shell
runs: Git Bash's through the bash (and the busybox ash) of this machine, PowerShell's read by a PowerShell grammar."""

import base64
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import tree_sitter
import tree_sitter_powershell

from narnat_agent.config.loader import load_config
from narnat_agent.prompts.system_prompt import build_system_prompt
from narnat_agent.tools import registry
from narnat_agent.tools.bash import execute, for_shell
from narnat_agent.tools.bash.shells import BASH, POWERSHELL_7, WINDOWS_POWERSHELL, Machine, Shell, chosen, find
from tests.platforms import needs_a_shell

GIT_BASH = Shell("Git Bash", r"C:\Program Files\Git\bin\bash.exe", windows=True)
PWSH = Shell(POWERSHELL_7, r"C:\Program Files\PowerShell\7\pwsh.exe", powershell=True, windows=True)
OLD_PWSH = Shell(WINDOWS_POWERSHELL, r"C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe", True, True)


def exe(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"MZ")
    return str(path)


def windows(tmp_path: Path, path: tuple[Path, ...] = (), registry_folders: tuple[str, ...] = (), **env: str) -> Machine:
    """A Windows machine whose folders are under tmp_path: Program Files, the user's, Windows' own."""
    folders = {"ProgramFiles": "Program Files", "ProgramFiles(x86)": "Program Files (x86)", "SystemRoot": "Windows",
               "LOCALAPPDATA": "Users/me/AppData/Local", "USERPROFILE": "Users/me"}  # fmt: skip
    environ = {name: str(tmp_path / folder) for name, folder in folders.items()}
    environ["PATH"] = os.pathsep.join(map(str, path))
    return Machine(True, {**environ, **env}, lambda: list(registry_folders))


def test_on_linux_and_macos_it_is_bash_and_the_setting_is_said_to_be_for_windows():
    assert find("", Machine(False, {"PATH": "/usr/bin"})) == find("", Machine(False, {}))
    assert find("", Machine(False, {})).shell == BASH and not find("", Machine(False, {})).problem
    named = find("/opt/pwsh/pwsh", Machine(False, {}))
    assert named.shell == BASH and named.problem.startswith("The shell setting is used on Windows only")


def test_git_bash_on_path_is_taken_but_not_wsls_bash(tmp_path):
    wsl = exe(tmp_path / "Windows" / "System32" / "bash.exe")
    alias = exe(tmp_path / "Users/me/AppData/Local/Microsoft/WindowsApps/bash.exe")
    git = exe(tmp_path / "Git" / "usr" / "bin" / "bash.exe")
    machine = windows(tmp_path, (Path(wsl).parent, Path(alias).parent, Path(git).parent))
    assert find("", machine).shell == Shell("Git Bash", git, windows=True)
    assert find("", windows(tmp_path, (Path(wsl).parent, Path(alias).parent))).shell.powershell


@pytest.mark.parametrize("git", ["cmd/git.exe", "bin/git.exe", "mingw64/bin/git.exe"])
def test_git_bash_is_found_from_where_git_is(tmp_path, git):
    folder = tmp_path / "D" / "Tools" / "Git"
    bash = exe(folder / "bin" / "bash.exe")
    exe(folder / "usr" / "bin" / "bash.exe")
    exe(folder / git)
    assert find("", windows(tmp_path, ((folder / git).parent,))).shell == Shell("Git Bash", bash, windows=True)


USUAL = ["Program Files/Git", "Program Files (x86)/Git", "Users/me/AppData/Local/Programs/Git",
         "Users/me/scoop/apps/git/current"]  # fmt: skip


@pytest.mark.parametrize("where", USUAL)
def test_git_bash_is_found_in_the_usual_install_folders(tmp_path, where):
    bash = exe(tmp_path / where / "bin" / "bash.exe")
    assert find("", windows(tmp_path)).shell == Shell("Git Bash", bash, windows=True)


def test_git_bash_is_found_where_the_registry_says_git_is_and_usr_bin_serves_without_bin(tmp_path):
    bash = exe(tmp_path / "E" / "Git" / "usr" / "bin" / "bash.exe")
    machine = windows(tmp_path, registry_folders=(str(tmp_path / "E" / "Git"),))
    assert find("", machine).shell == Shell("Git Bash", bash, windows=True)


def test_without_git_powershell_7_then_windows_powershell(tmp_path):
    old = exe(tmp_path / "Windows" / "System32" / "WindowsPowerShell" / "v1.0" / "powershell.exe")
    assert find("", windows(tmp_path)).shell == Shell(WINDOWS_POWERSHELL, old, powershell=True, windows=True)
    pwsh = exe(tmp_path / "Program Files" / "PowerShell" / "7" / "pwsh.exe")
    assert find("", windows(tmp_path)).shell == Shell(POWERSHELL_7, pwsh, powershell=True, windows=True)
    on_path = exe(tmp_path / "scoop" / "shims" / "pwsh.exe")
    assert find("", windows(tmp_path, (Path(on_path).parent,))).shell.program == on_path
    nothing = windows(tmp_path / "empty")
    assert find("", nothing).shell == Shell(WINDOWS_POWERSHELL, "powershell.exe", powershell=True, windows=True)


def test_a_bash_or_git_in_the_current_folder_or_a_relative_path_entry_is_never_run(tmp_path, monkeypatch):
    project = tmp_path / "clone"
    exe(project / "bash.exe")
    exe(project / "git.exe")
    exe(project / "bin" / "bash.exe")  # beside git.exe, as Git's would be
    monkeypatch.chdir(project)
    shell = find("", windows(tmp_path, (Path("."), Path(""), Path("bin")))).shell
    assert shell.powershell and str(project) not in shell.program


def test_the_setting_names_the_shell_by_path_or_by_name_on_path(tmp_path):
    exe(tmp_path / "Program Files" / "Git" / "bin" / "bash.exe")
    pwsh = exe(tmp_path / "pwsh7" / "pwsh.exe")
    old = exe(tmp_path / "ps" / "PowerShell.exe")
    msys = exe(tmp_path / "msys64" / "usr" / "bin" / "bash.exe")
    assert find(pwsh, windows(tmp_path)) == find("pwsh", windows(tmp_path, (Path(pwsh).parent,)))
    assert find(pwsh, windows(tmp_path)).shell == Shell(POWERSHELL_7, pwsh, powershell=True, windows=True)
    assert find(old, windows(tmp_path)).shell.name == WINDOWS_POWERSHELL
    assert find(msys, windows(tmp_path)).shell == Shell("bash", msys, windows=True)


def test_a_setting_naming_nothing_is_said_and_the_shell_found_runs(tmp_path):
    bash = exe(tmp_path / "Program Files" / "Git" / "bin" / "bash.exe")
    missing = str(tmp_path / "nowhere" / "pwsh.exe")
    choice = find(missing, windows(tmp_path))
    assert choice.shell.program == bash and choice.values == {"path": missing, "found": "Git Bash"}
    said = choice.problem.format(**choice.values)
    assert said.startswith(f"shell: {missing} was not found; the Bash tool runs Git Bash instead.")
    assert "by its full path" in said


POSIX_SCRIPT = (
    'make test\n__narnat_pipe="${PIPESTATUS[*]}" __narnat_status=$?\n'
    '{ pwd -P; echo "$__narnat_pipe"; } > "/tmp/narnat-cwd-x"\nexit $__narnat_status\n'
)


def test_bashs_script_on_linux_and_macos_is_as_it_always_was():
    assert BASH.script("make test", Path("/tmp/narnat-cwd-x")) == POSIX_SCRIPT
    assert BASH.script("make test", None) == "make test"  # a background job
    assert BASH.directory("/c/Users") == "/c/Users" and BASH.variables == {}


def test_msys_paths_are_read_as_windows_paths():
    assert GIT_BASH.directory("/c/Users/me/proj") == "C:/Users/me/proj"
    assert GIT_BASH.directory("/d") == "D:/"
    assert GIT_BASH.directory("C:/Users/me") == "C:/Users/me"  # pwd -W's form, and busybox's
    assert GIT_BASH.directory("/tmp/x") == "/tmp/x" and GIT_BASH.directory("/cd/x") == "/cd/x"


POSIX_ONLY = pytest.mark.skipif(os.name == "nt", reason="runs this machine's bash (and ash) as a Windows bash")


def bashes(tmp_path: Path) -> list[Shell]:
    """This machine's bash, and busybox's ash where busybox is installed: both run the script a Windows bash runs."""
    found = [Shell("Git Bash", shutil.which("bash") or "bash", windows=True)]
    if busybox := shutil.which("busybox"):
        (tmp_path / "ash").symlink_to(busybox)  # busybox runs the applet its name says
        found.append(Shell("bash", str(tmp_path / "ash"), windows=True))
    return found


@POSIX_ONLY
def test_a_windows_bashs_script_reports_status_stages_and_directory(workspace, project, tmp_path):
    (project / "sub dir").mkdir()
    for shell in bashes(tmp_path):
        workspace.cwd = project
        done = execute("cd 'sub dir' && echo here; false | true | (exit 3)", workspace, 10, shell=shell)
        assert (done.text, done.code) == ("here\n", 3), shell
        assert workspace.cwd == project / "sub dir"
        assert done.pipeline == ((1, 0, 3) if shell.program.endswith("bash") else ())
        ended = execute("echo $PYTHONIOENCODING; exit 4", workspace, 10, shell=shell)
        assert (ended.text, ended.code, workspace.cwd) == ("utf-8\n", 4, project / "sub dir")


@POSIX_ONLY
def test_a_windows_bash_reports_its_directory_and_stages_from_a_temporary_folder_with_a_space(
    workspace, project, tmp_path, monkeypatch
):
    temp = tmp_path / "Users" / "Ann Lee" / "Temp"  # %TEMP% under a user folder whose name holds a space
    temp.mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    (project / "sub").mkdir()
    for shell in bashes(tmp_path):
        workspace.cwd = project
        done = execute("cd sub && echo here; false | (exit 3)", workspace, 10, shell=shell)
        assert (done.text, done.code, workspace.cwd) == ("here\n", 3, project / "sub"), shell
        assert done.pipeline == ((1, 3) if shell.program.endswith("bash") else ())
    assert list(temp.iterdir()) == []


@POSIX_ONLY
def test_a_windows_bashs_script_file_is_private_and_removed_with_the_directory_file(workspace, tmp_path):
    seen = []

    def spawn(argv, **kwargs):
        script = Path(argv[-1])
        seen.append((script, script.stat().st_mode & 0o777, script.read_text()))
        return subprocess.Popen(argv, **kwargs)

    done = execute("echo ok", workspace, 10, spawn=spawn, shell=bashes(tmp_path)[0])
    [(script, mode, text)] = seen
    assert done.text == "ok\n" and (script.suffix, mode) == (".sh", 0o600) and text.startswith("echo ok\neval ")
    after = script.with_suffix("")
    assert f"> {after}\n" in text and not script.exists() and not after.exists()


@POSIX_ONLY
def test_a_windows_background_job_runs_from_a_private_script_beside_its_log(workspace, tmp_path):
    from narnat_agent.tools.bash.execute import spawn_script

    shell, log = bashes(tmp_path)[0], tmp_path / "job-1.log"
    with open(log, "wb") as out:
        script = shell.script("echo bg $PYTHONIOENCODING", None), log.with_suffix(shell.suffix)
        job = spawn_script(subprocess.Popen, shell, script, workspace, out)
    assert job.wait() == 0 and log.read_text() == "bg utf-8\n"
    assert (tmp_path / "job-1.sh").read_text() == "echo bg $PYTHONIOENCODING"
    assert (tmp_path / "job-1.sh").stat().st_mode & 0o777 == 0o600


def powershell_errors(script: str) -> list[str]:
    grammar = tree_sitter.Language(tree_sitter_powershell.language())  # a grammar nobody here wrote
    tree = tree_sitter.Parser(grammar).parse(script.encode())
    errors, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            errors.append(script.encode()[node.start_byte : node.end_byte + 20].decode(errors="replace"))
        stack.extend(node.children)
    return errors


COMMANDS = ["git status", "npm test; echo done", "'@\nexit 3", "Write-Output \"$env:PATH\" 'it''s' ‘x’", "# only"]


@pytest.mark.parametrize("command", COMMANDS)
def test_powershells_script_carries_the_command_untouched_and_parses(command):
    script = PWSH.script(command, Path("C:/Users/O'Brien/AppData/Local/Temp/narnat-cwd-1"))
    assert powershell_errors(script) == []
    carried = re.search(r"FromBase64String\('([A-Za-z0-9+/=]+)'\)", script)[1]
    assert base64.b64decode(carried).decode() == command + "\n$global:__narnat_ok = $?\n"
    assert "WriteAllText('C:/Users/O''Brien/AppData/Local/Temp/narnat-cwd-1'," in script
    assert script.rstrip().endswith("else { 1 })") and "[Console]::OutputEncoding" in script


def test_a_path_holding_a_typographic_quote_stays_one_powershell_string():
    """PowerShell ends a '…' string at ‘ ’ ‚ ‛ as at ': a user folder named O’Brien is doubled there too."""
    script = PWSH.script("git status", Path("C:/Users/O’Brien/AppData/Local/Temp/narnat-cwd-1"))
    assert "WriteAllText('C:/Users/O’’Brien/AppData/Local/Temp/narnat-cwd-1'," in script
    argv = PWSH.argv(Path("C:/Users/‘me‚/proj/.narnat/jobs/job-1.ps1"))
    assert argv[7] == ". ([ScriptBlock]::Create([IO.File]::ReadAllText('C:/Users/‘‘me‚‚/proj/.narnat/jobs/job-1.ps1')))"


def test_the_powershell_grammar_sees_a_broken_script():
    assert powershell_errors("try { . ([ScriptBlock]::Create('x')) catch {}\n")  # the test above can fail


def test_a_background_powershell_script_writes_no_directory_and_runs_from_its_file():
    script = PWSH.script("npm run dev", None)
    assert "WriteAllText" not in script and powershell_errors(script) == []
    argv = PWSH.argv(Path("C:/Users/me/proj/.narnat/jobs/job-1.ps1"))
    assert argv[:7] == [PWSH.program, "-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass",
                        "-Command"]  # fmt: skip
    assert argv[7] == ". ([ScriptBlock]::Create([IO.File]::ReadAllText('C:/Users/me/proj/.narnat/jobs/job-1.ps1')))"
    assert powershell_errors(argv[7]) == [] and PWSH.variables == {"PYTHONIOENCODING": "utf-8"}
    assert GIT_BASH.argv(Path("C:/Users/me/x.sh")) == [GIT_BASH.program, "C:/Users/me/x.sh"]


def test_each_shell_says_how_to_stop_a_background_job():
    assert BASH.stop_hint(42) == "kill -- -42"
    assert PWSH.stop_hint(42) == "taskkill /T /F /PID 42"
    assert GIT_BASH.stop_hint(42) == "taskkill //T //F //PID 42"  # MSYS would turn /T into a path


def test_the_model_is_told_which_shell_it_has():
    env = {"SHELL": "/usr/bin/zsh"}
    assert BASH.environment_line(env) == "- Shell: /usr/bin/zsh (the Bash tool runs bash)\n"
    assert PWSH.environment_line(env) == (
        "- Shell: PowerShell 7 (the Bash tool runs PowerShell, not bash: use PowerShell syntax)\n"
    )
    assert OLD_PWSH.environment_line(env).endswith("use PowerShell syntax; it has no && or ||)\n")
    assert "bash on Windows" in GIT_BASH.environment_line(env) and "//switch" in GIT_BASH.environment_line(env)
    posix = registry.schemas()
    bash = next(tool for tool in posix if tool["function"]["name"] == "Bash")["function"]["description"]
    assert bash.startswith("Run a bash command (tests, builds,")
    told = for_shell(PWSH).schema["function"]
    assert told["description"].startswith("Run a PowerShell command (not bash) (tests,") and told["name"] == "Bash"
    assert told["description"].split("(tests", 1)[1] == bash.split("(tests", 1)[1]


def test_a_shell_setting_on_linux_is_said_once_at_start(project, monkeypatch):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text('{"shell": "C:\\\\Git\\\\bin\\\\bash.exe"}')
    config = load_config(project, project.parent / "home", env={"NARNAT_API_KEY": "sk-test"})
    said: list[str] = []
    prompt = build_system_prompt(config, said.append)
    assert said == ["The shell setting is used on Windows only; the Bash tool runs bash here."]
    assert "(the Bash tool runs bash)\n" in prompt and chosen(config.shell).shell == BASH


@pytest.mark.windows
@pytest.mark.skipif(os.name != "nt", reason="runs the shell found on Windows: Git Bash, else PowerShell")
def test_the_shell_found_on_windows_runs_keeps_the_directory_and_says_the_exit_code(workspace, project):
    from narnat_agent.tools.registry import execute as call

    needs_a_shell()
    shell = chosen().shell
    (project / "sub").mkdir()
    moved = call("Bash", {"command": "cd sub"}, workspace)
    assert "(exit code 0" in moved.text and workspace.cwd == project / "sub", moved.text
    said = call("Bash", {"command": "echo hi there"}, workspace)
    assert said.text.startswith("hi there\n") and f"Bash's working directory: {project / 'sub'}" in said.text
    assert call("Bash", {"command": "exit 3"}, workspace).text.startswith("(no output)\n(exit code 3")
    described = next(tool for tool in registry.schemas() if tool["function"]["name"] == "Bash")["function"]
    assert described["description"].startswith(f"Run {shell.runs} (")


def test_the_model_is_told_where_a_windows_virtualenv_keeps_its_programs(project):
    """.venv, activated for the commands when no other virtualenv is, is said to be active."""
    for name, folder in ((".venv", "Scripts"), ("env", "bin")):
        (project / name / folder).mkdir(parents=True)
        (project / name / "pyvenv.cfg").write_text("home = C:\\Python311\n")
    config = load_config(project, project.parent / "home", env={"NARNAT_API_KEY": "sk-test"})
    prompt = build_system_prompt(config)
    assert "- Python virtualenv: .venv (active; its tools: .venv/Scripts/python, .venv/Scripts/pip)\n" in prompt
    assert "- Python virtualenv: env (its tools: env/bin/python, env/bin/pip)\n" in prompt


def test_git_bash_is_looked_for_only_up_to_the_git_folder_above_git_exe(tmp_path):
    exe(tmp_path / "D" / "bin" / "bash.exe")  # three folders above cmd\git.exe: not Git's
    git = exe(tmp_path / "D" / "Tools" / "Git" / "cmd" / "git.exe")
    assert find("", windows(tmp_path, (Path(git).parent,))).shell.powershell


def test_git_bash_is_found_in_the_64_bit_program_files_a_32_bit_process_is_told_of(tmp_path):
    bash = exe(tmp_path / "PF64" / "Git" / "bin" / "bash.exe")
    machine = windows(tmp_path, ProgramW6432=str(tmp_path / "PF64"))
    assert find("", machine).shell == Shell("Git Bash", bash, windows=True)


def test_a_quoted_path_entry_is_read_and_a_machine_without_path_has_powershell(tmp_path):
    bash = exe(tmp_path / "My Git" / "bin" / "bash.exe")
    assert find("", windows(tmp_path, (Path(f'"{Path(bash).parent}"'),))).shell.program == bash
    assert find("", Machine(True, {})).shell == Shell(WINDOWS_POWERSHELL, "powershell.exe", True, True)
    pwsh = exe(tmp_path / "TOOLBOX" / "pwsh.exe")  # only the quotes are taken off, not a letter like them
    assert find("", windows(tmp_path / "none", (Path(pwsh).parent,))).shell.program == pwsh


def test_a_setting_ending_in_exe_is_the_whole_name_and_windows_powershell_runs_as_powershell(tmp_path):
    old = exe(tmp_path / "ps" / "PowerShell.EXE")
    assert find(old, windows(tmp_path)).shell == Shell(WINDOWS_POWERSHELL, old, powershell=True, windows=True)
    exe(tmp_path / "tools" / "sh.exe.exe")
    missing = str(tmp_path / "tools" / "sh.exe")
    assert find(missing, windows(tmp_path)).values == {"path": missing, "found": WINDOWS_POWERSHELL}
    on_path = windows(tmp_path, (tmp_path / "tools",))
    assert find("sh.exe", on_path).problem and find("sh.exe.exe", on_path).shell.program.endswith("sh.exe.exe")


def test_a_setting_naming_a_program_not_on_path_is_said_in_full(tmp_path):
    choice = find("pwsh", windows(tmp_path))
    assert choice.problem.format(**choice.values) == (
        "shell: pwsh was not found; the Bash tool runs Windows PowerShell 5.1 instead. Name bash.exe, pwsh.exe or "
        "powershell.exe by its full path, or remove the setting."
    )


def test_a_drive_in_capitals_is_read_and_the_shell_lines_are_said_whole():
    assert GIT_BASH.directory("/C/Users") == "C:/Users"
    assert BASH.environment_line({}) == "- Shell: /bin/sh (the Bash tool runs bash)\n"
    assert GIT_BASH.environment_line({}) == (
        "- Shell: Git Bash (the Bash tool runs bash on Windows: paths as C:/Users/me or /c/Users/me; a Windows "
        "program's /switch is written //switch)\n"
    )


def test_powershells_script_carries_a_name_that_is_not_utf8_byte_for_byte():
    script = PWSH.script("Get-Item caf\udce9.txt", None)
    carried = re.search(r"FromBase64String\('([A-Za-z0-9+/=]+)'\)", script)[1]
    assert base64.b64decode(carried) == b"Get-Item caf\xe9.txt\n$global:__narnat_ok = $?\n"
