"""PowerShell and cmd: their text read as the commands it runs, each checked by the Windows rules (cmdlets, cmd's
built-ins, Windows programs) or by the rules every shell shares (git, docker, databases, clouds, runners); and the
code a command hands to a Windows shell (`pwsh -Command …`, `cmd /c …`, text on their input), checked the same way.

From the PowerShell documentation (about_Pwsh, about_PowerShell_exe) and cmd's (`cmd /?`)."""

import dataclasses
import ntpath
import re

from narnat_agent.i18n import N_, Said
from narnat_agent.safety import cmd, powershell
from narnat_agent.safety.check import Check, Shell, computed
from narnat_agent.safety.syntax import names
from narnat_agent.safety.windows_losses import losses
from narnat_agent.safety.windows_refusals import refusals
from narnat_agent.safety.windows_syntax import WinCommand, existing, is_cmdlet, program, switches
from narnat_agent.safety.windows_system import SYSTEM

POWERSHELLS = names("pwsh powershell pwsh.exe powershell.exe")
CMDS = names("cmd cmd.exe")
# parameters that take the next word as their value (about_Pwsh, about_PowerShell_exe), and their aliases
PS_VALUES = names(
    "-executionpolicy -ep -ex -windowstyle -w -outputformat -o -of -inputformat -inp -if -workingdirectory -wd "
    "-configurationname -config -custompipename -settingsfile -configurationfile -version -v -psconsolefile"
)
# cmd's built-ins, and Windows programs whose names mean something else to the shared rules (timeout, find, sort)
OWN = cmd.BUILT_INS | names(
    "timeout find findstr sort more tree where format ping choice xcopy robocopy diskpart reg sc schtasks net setx "
    "vssadmin cipher notepad write-output while runas typeperf netstat netsh nslookup wmic bcdedit wevtutil "
    "wslconfig certutil forfiles"
)
FORFILES_VALUES = names("/p /m /c /d")  # forfiles' switches that take the next word (`forfiles /?`)


def parse(source: str, shell: str) -> list[WinCommand]:
    """The commands PowerShell or cmd would run for source."""
    commands = powershell.parse(source) if shell == "powershell" else cmd.parse(source)
    for command in commands:
        command.shell = shell
    return commands


def windows_command(command: WinCommand, check: Check) -> None:
    """Check one command of PowerShell or cmd: what it would destroy, whether it is refused."""
    name = command.name
    if name == "":  # `""`: nothing runs
        return
    if name is None:
        check.verdict.deletions.append(Said(N_("the command name is computed at run time")))
        return
    _redirects(command, check)
    check.verdict.deletions += losses(command, check)
    refusals(command, check, windows_command)
    if name == "invoke-expression":
        _invoke_expression(command, check)
    elif name == "forfiles":
        _forfiles(command, check)
    elif not (name in OWN or is_cmdlet(name) or name.startswith((".", "["))):
        check.command(dataclasses.replace(command, redirects=[]))  # a program every shell runs: the shared rules


def windows_program(argv: list[str | None], check: Check) -> None:
    """What a Windows program run from Git Bash would destroy (`reg.exe delete …`, `schtasks //delete …`): MSYS
    hands `//x` over as `/x`."""
    name = program(argv[0] or "")
    if name in SYSTEM or name == "robocopy":
        words = [w[1:] if w and w.startswith("//") else w for w in argv[1:]]
        command = WinCommand(argv=[name, *words], shown=[argv[0] or name, *(w or "…" for w in words)], shell="cmd")
        check.verdict.deletions += losses(command, check)


def _redirects(command: WinCommand, check: Check) -> None:
    """`> file` replaces an existing file (`>>` adds to it); a command that writes nothing empties it."""
    silent = command.argv in (["write-output"], ["type", "nul"]) or command.name == "cd"
    for operator, target in command.redirects:
        if target is None or target.lower() in ("nul", "$null", "nul:") or ">" not in operator:
            continue
        if silent and ">>" not in operator:
            check.verdict.deletions.append(Said(N_("the redirection empties {file}"), file=target))
        elif ">>" not in operator and existing(target, check.cwd):
            check.verdict.deletions.append(Said(N_("the redirection replaces {file}, which exists"), file=target))


def _invoke_expression(command: WinCommand, check: Check) -> None:
    words = command.argv[1:] if len(command.argv) > 1 else [command.stdin]
    code = " ".join(w for w in words if w is not None) if None not in words else None
    check.script(code, command.shown[0], shell="powershell")


def _forfiles(command: WinCommand, check: Check) -> None:
    """forfiles runs its /c command (`cmd /c echo @file` unless given) once for each file it finds, the file named
    by @path, @file, @fname or @relpath: the question names them as the files found (`logs\\**\\*.log` with /s)."""
    given: dict[str, str | None] = {}
    words = command.argv[1:]
    for i, word in enumerate(words):
        option = (word or "").lower()
        if option in FORFILES_VALUES and i + 1 < len(words):
            given[option] = words[i + 1]
    code, folder, mask = given.get("/c", "cmd /c echo @file"), given.get("/p", "."), given.get("/m", "*")
    if code is None or folder is None or mask is None:
        check.verdict.deletions.append(computed(command.shown[0]))
        return
    found = ntpath.join(folder, "**", mask) if "/s" in switches(command) else ntpath.join(folder, mask)
    found = found[2:] if found.startswith(".\\") else found
    check.script(re.sub(r"@(?:path|file|fname|relpath)\b", lambda _: found, code, flags=re.IGNORECASE), "forfiles",
                 shell="cmd")  # fmt: skip


def _run(code: str | None, name: str, shell: Shell, check: Check) -> None:
    if code is None:
        check.verdict.deletions.append(computed(name))
    else:
        check.script(code, name, shell=shell)


def windows_code(name: str, argv: list[str | None], fed: str | None, check: Check) -> None:
    """Check the code a command hands to a Windows shell. `fed` is the text on its standard input, which it runs when
    given no command of its own (None: text computed at run time)."""
    if None in argv:
        check.verdict.deletions.append(computed(name))
        return
    words = [a for a in argv[1:] if a is not None]
    if name in CMDS:  # Git Bash turns //c into /c
        at = next((i for i, w in enumerate(words) if w.lower() in ("/c", "/k", "//c", "//k")), None)
        _run(" ".join(words[at + 1 :]) if at is not None else fed, name, "cmd", check)
    else:
        _powershell(name, words, fed, check)


def _powershell(name: str, words: list[str], fed: str | None, check: Check) -> None:
    """PowerShell takes its parameters abbreviated and in any case: -c, -Com, -COMMAND; -e, -en, -enc, -ec.
    `-Command -`, `-File -` and no command or file at all read the commands from standard input (the parser drops
    a lone - before a heredoc: an option without its value reads them too)."""
    skip = False
    for i, word in enumerate(words):
        option = word.lower()
        if skip:
            skip = False
        elif option in ("-file", "-f"):
            if words[i + 1 : i + 2] in ([], ["-"]):  # otherwise a script, like `bash x.sh`
                _run(fed, name, "powershell", check)
            return
        elif option == "-ec" or len(option) > 1 and "-encodedcommand".startswith(option):
            check.verdict.deletions.append(
                Said(N_("{program} runs encoded code the analysis cannot read"), program=name)
            )
            return
        elif option in ("-cwa", "-commandwithargs") or len(option) > 1 and "-command".startswith(option):
            code = fed if words[i + 1 :] in ([], ["-"]) else " ".join(words[i + 1 :])
            _run(code, name, "powershell", check)
            return
        elif option == "-":
            _run(fed, name, "powershell", check)
            return
        elif not option.startswith("-"):  # pwsh takes it for -File's script, Windows PowerShell for -Command's text
            if not name.startswith("pwsh"):
                _run(" ".join(words[i:]), name, "powershell", check)
            return
        else:
            skip = option in PS_VALUES or len(option) > 2 and any(p.startswith(option) for p in PS_VALUES)
    _run(fed, name, "powershell", check)
