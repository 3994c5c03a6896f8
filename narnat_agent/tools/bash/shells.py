"""Which shell the Bash tool runs, found once per run, and the script each one runs.

On Linux and macOS it is bash, as always. On Windows it is Git Bash when Git for Windows is installed (bash syntax,
as the model knows best), else PowerShell 7 (`pwsh`), else Windows PowerShell 5.1, which every Windows 10/11 has; the
`shell` setting names another. Each shell's script runs the command, then writes where it ended and how its last
pipeline's stages exited to a file Narnat reads (`after`), and exits with the command's status.
"""

import base64
import functools
import os
import re
import shlex
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath

from narnat_agent.i18n import N_
from narnat_agent.platform.processes import registered_git_folders

# PIPESTATUS and $? are read in one assignment, before anything else can change them
BASH_TRAILER = (
    '\n__narnat_pipe="${{PIPESTATUS[*]}}" __narnat_status=$?\n{{ pwd -P; echo "$__narnat_pipe"; }} > "{after}"\n'
)
EXIT = "exit $__narnat_status\n"
# On Windows, a bash that is not bash (busybox's ash, as a bash.exe) stops at ${PIPESTATUS[*]} itself, so only bash
# is shown it, inside eval, which still sees the command's $? and PIPESTATUS. `pwd -W` is MSYS bash's C:/… form.
WINDOWS_BASH_TRAILER = (
    '\neval "${{BASH_VERSION:+__narnat_pipe=\\"\\${{PIPESTATUS[*]\\}}\\" }}__narnat_status=\\$?"\n'
    '{{ pwd -W 2>/dev/null || pwd -P; echo "$__narnat_pipe"; }} > {after}\n'
)
# PowerShell's output in UTF-8 whatever the console's code page (setting the console's fails when there is none), no
# progress bars or colours in a log, and the command's own text parsed on its own (carried in base64: no quoting to
# get wrong), so its `using` and `param` keep their place and its syntax error is said as such.
POWERSHELL_PRELUDE = """\
$ErrorActionPreference = 'Continue'
$ProgressPreference = 'SilentlyContinue'
try { [Console]::OutputEncoding = [Text.UTF8Encoding]::new($false) } catch {}
$OutputEncoding = [Text.UTF8Encoding]::new($false)
if ($PSStyle) { $PSStyle.OutputRendering = 'PlainText' }
$global:__narnat_ok = $false
try {
    . ([ScriptBlock]::Create([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('{command}'))))
} catch {
    $__narnat_error = $_ | Out-String
    $__narnat_parse = $_.Exception.InnerException
    if ($__narnat_parse -is [Management.Automation.ParseException]) { $__narnat_error = $__narnat_parse.Message }
    [Console]::Error.WriteLine($__narnat_error.TrimEnd())
}"""
# The command's $? right after its last statement: bash's "status of the last command". When it failed, the exit code
# of the last native program if that was not 0 (a cmdlet's failure has none: 1).
POWERSHELL_OK = "\n$global:__narnat_ok = $?\n"
POWERSHELL_AFTER = """ finally {{
    $__narnat_dir = Get-Location
    $__narnat_where = if ($__narnat_dir.Provider.Name -eq 'FileSystem') {{ $__narnat_dir.ProviderPath }} else {{ '' }}
    [IO.File]::WriteAllText({after}, "$__narnat_where`n")
}}"""
POWERSHELL_EXIT = """
exit $(if ($global:__narnat_ok) { 0 } elseif ($global:LASTEXITCODE) { $global:LASTEXITCODE } else { 1 })
"""
POWERSHELL_FLAGS = ("-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command")
WSL_FOLDERS = {"system32", "sysnative", "syswow64", "windowsapps"}  # where WSL's bash.exe launcher lives
SINGLE_QUOTES = "'\u2018\u2019\u201a\u201b"  # PowerShell ends a '…' string at any of them


@dataclass(frozen=True)
class Shell:
    name: str  # as the model and the person are told it
    program: str  # a full path, or a name found on PATH when the command starts ("bash" on Linux and macOS)
    powershell: bool = False
    windows: bool = False

    @property
    def suffix(self) -> str:
        """The script file's extension (on Windows a script goes in a file: no command line's quoting or length)."""
        return ".ps1" if self.powershell else ".sh"

    def script(self, command: str, after: Path | None) -> str:
        """command, then (unless after is None: a background job) what writes where it ended to after, and the exit
        with its status."""
        if self.powershell:
            code = base64.b64encode((command + POWERSHELL_OK).encode("utf-8", "surrogateescape")).decode()
            wrapper = POWERSHELL_PRELUDE.replace("{command}", code)
            if after is not None:
                wrapper += POWERSHELL_AFTER.format(after=_powershell_quoted(str(after)))
            return wrapper + POWERSHELL_EXIT
        if after is None:
            return command
        if self.windows:
            return command + WINDOWS_BASH_TRAILER.format(after=shlex.quote(after.as_posix())) + EXIT
        return command + BASH_TRAILER.format(after=after) + EXIT

    @property
    def variables(self) -> dict[str, str]:
        """What the command's environment adds on this shell. On Windows, Python's children print into a pipe in the
        ANSI code page (and fail on what it lacks); the output is read as UTF-8."""
        return {"PYTHONIOENCODING": "utf-8"} if self.windows else {}

    def argv(self, script_file: Path) -> list[str]:
        """How a Windows shell runs a script file. PowerShell reads it as text: no execution policy applies to
        that, and -ExecutionPolicy Bypass (this process only) lets the command's own scripts run, npm's npm.ps1
        among them."""
        if self.powershell:
            run = f". ([ScriptBlock]::Create([IO.File]::ReadAllText({_powershell_quoted(str(script_file))})))"
            return [self.program, *POWERSHELL_FLAGS, run]
        return [self.program, script_file.as_posix()]  # a non-interactive bash reads no profile or rc file

    def directory(self, reported: str) -> str:
        """The directory a script reported, as this machine opens it: MSYS's /c/Users/me is C:/Users/me (Windows
        takes either slash)."""
        if self.windows and (drive := re.match(r"/([A-Za-z])(?=/|$)", reported)):
            return f"{drive[1].upper()}:{reported[2:] or '/'}"
        return reported

    def stop_hint(self, pid: int) -> str:
        """The command that stops a background job and what it started."""
        if not self.windows:
            return f"kill -- -{pid}"
        return f"taskkill /T /F /PID {pid}" if self.powershell else f"taskkill //T //F //PID {pid}"

    @property
    def runs(self) -> str:
        """What the Bash tool's description says it runs."""
        if self.powershell:
            return "a PowerShell command (not bash)"
        return "a bash command (Git Bash on Windows)" if self.windows else "a bash command"

    def environment_line(self, env: Mapping[str, str]) -> str:
        """The system prompt's line on the shell."""
        if not self.windows:
            return f"- Shell: {env.get('SHELL', '/bin/sh')} (the Bash tool runs bash)\n"
        if not self.powershell:
            return (f"- Shell: {self.name} (the Bash tool runs bash on Windows: paths as C:/Users/me or /c/Users/me; "
                    "a Windows program's /switch is written //switch)\n")  # fmt: skip
        old = "; it has no && or ||" if self.name == WINDOWS_POWERSHELL else ""
        return f"- Shell: {self.name} (the Bash tool runs PowerShell, not bash: use PowerShell syntax{old})\n"


BASH = Shell("bash", "bash")
POWERSHELL_7 = "PowerShell 7"
WINDOWS_POWERSHELL = "Windows PowerShell 5.1"


def _powershell_quoted(text: str) -> str:
    return "'" + "".join(c * 2 if c in SINGLE_QUOTES else c for c in text) + "'"


@dataclass(frozen=True)
class Machine:
    """What discovery looks at: whether this is Windows, the environment (PATH and the folders Windows names in it),
    and the install folders Git for Windows wrote in the registry. Tests give fake ones."""

    windows: bool
    env: Mapping[str, str]
    git_folders: Callable[[], list[str]] = field(default=lambda: [])


@dataclass(frozen=True)
class Choice:
    shell: Shell
    problem: str = ""  # a notice for the person (N_-marked, formatted with `values`), when the setting was not used
    values: Mapping[str, str] = field(default_factory=dict)


def find(setting: str, machine: Machine) -> Choice:
    """The shell for the Bash tool: the one the `shell` setting names, else the first found."""
    if not machine.windows:
        if setting:
            return Choice(BASH, N_("The shell setting is used on Windows only; the Bash tool runs bash here."))
        return Choice(BASH)
    if setting:
        if named := _named(setting, machine.env):
            return Choice(named)
        found = _discovered(machine)
        problem = N_("shell: {path} was not found; the Bash tool runs {found} instead. Name bash.exe, pwsh.exe or "
                     "powershell.exe by its full path, or remove the setting.")  # fmt: skip
        return Choice(found, problem, {"path": setting, "found": found.name})
    return Choice(_discovered(machine))


def _discovered(machine: Machine) -> Shell:
    env = machine.env
    if bash := next(_git_bash(machine), None):
        return Shell("Git Bash", bash, windows=True)
    for program, folders, name in (
        ("pwsh.exe", [_joined(env, "ProgramFiles", "PowerShell", "7")], POWERSHELL_7),
        ("powershell.exe", [_joined(env, "SystemRoot", "System32", "WindowsPowerShell", "v1.0")], WINDOWS_POWERSHELL),
    ):
        candidates = [*_on_path(program, env), *(os.path.join(f, program) for f in folders if f)]
        if found := next((path for path in candidates if os.path.isfile(path)), None):
            return Shell(name, found, powershell=True, windows=True)
    return Shell(WINDOWS_POWERSHELL, "powershell.exe", powershell=True, windows=True)  # its start will say why not


def _git_bash(machine: Machine) -> Iterator[str]:
    """Git Bash's bash.exe, where peers look: PATH (not WSL's bash.exe, which runs Linux), beside git.exe on PATH,
    the usual install folders, then the folders Git for Windows' installer recorded."""
    env = machine.env
    yield from (path for path in _on_path("bash.exe", env) if Path(path).parent.name.lower() not in WSL_FOLDERS)
    # …\Git\cmd\git.exe, …\Git\bin\git.exe and …\Git\mingw64\bin\git.exe are all inside the Git folder
    folders = [str(up) for git in _on_path("git.exe", env) for up in list(Path(git).parents)[:3]]
    folders += [_joined(env, "ProgramFiles", "Git"), _joined(env, "ProgramW6432", "Git"),
                _joined(env, "ProgramFiles(x86)", "Git"), _joined(env, "LOCALAPPDATA", "Programs", "Git"),
                _joined(env, "USERPROFILE", "scoop", "apps", "git", "current")]  # fmt: skip
    for folder in filter(None, folders):
        yield from _bash_in(folder)
    for folder in machine.git_folders():
        yield from _bash_in(folder)


def _bash_in(git_folder: str) -> Iterator[str]:
    for inside in (("bin", "bash.exe"), ("usr", "bin", "bash.exe")):  # bin\bash.exe sets up Git's PATH first
        path = os.path.join(git_folder, *inside)
        if os.path.isfile(path):
            yield path


def _named(setting: str, env: Mapping[str, str]) -> Shell | None:
    """The shell a setting names, by path or by a name on PATH; None when it is not there."""
    names = [setting] if setting.lower().endswith(".exe") else [setting, setting + ".exe"]
    if os.path.isabs(setting):
        path = next((name for name in names if os.path.isfile(name)), None)
    else:
        path = next((found for name in names for found in _on_path(name, env)), None)
    if path is None:
        return None
    stem = PureWindowsPath(path).stem.lower()
    if stem == "pwsh":
        return Shell(POWERSHELL_7, path, powershell=True, windows=True)
    if stem == "powershell":
        return Shell(WINDOWS_POWERSHELL, path, powershell=True, windows=True)
    return Shell("bash", path, windows=True)


def _on_path(name: str, env: Mapping[str, str]) -> list[str]:
    """Files named name in PATH's folders, in order. Unlike shutil.which on Windows, never in the current folder
    (nor a relative PATH entry): a cloned project holding a bash.exe or git.exe must not be run for it."""
    found = []
    for folder in env.get("PATH", "").split(os.pathsep):
        folder = folder.strip().strip('"')
        if os.path.isabs(folder) and os.path.isfile(path := os.path.join(folder, name)):
            found.append(path)
    return found


def _joined(env: Mapping[str, str], variable: str, *parts: str) -> str:
    """A folder under one that Windows names in the environment ("" when the variable is not set)."""
    return os.path.join(env[variable], *parts) if env.get(variable) else ""


@functools.cache
def chosen(setting: str = "") -> Choice:
    """This machine's shell, found once per run (and per setting: tests try several)."""
    return find(setting, Machine(os.name == "nt", os.environ, registered_git_folders))
