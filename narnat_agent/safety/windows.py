"""Code for Windows shells inside a command: PowerShell's -Command text and cmd's /c line, and what they delete.

From the PowerShell documentation (about_Pwsh, the Microsoft.PowerShell.Management cmdlets and their aliases) and
cmd's built-in commands (del, erase, rd, rmdir, format)."""

import re

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import computed
from narnat_agent.safety.syntax import names

POWERSHELLS = names("pwsh powershell pwsh.exe powershell.exe")
CMDS = names("cmd cmd.exe")
# cmdlets and aliases that delete, empty or overwrite, or run code the analysis cannot see
PS_DELETES = names(
    "remove-item rm ri del erase rd rmdir clear-content clc clear-item cli clear-recyclebin format-volume clear-disk "
    "set-content sc out-file move-item mi move"
)
PS_UNSEEN = names("invoke-expression iex invoke-command icm start-process saps start")
CMD_DELETES = names("del erase rd rmdir format move")
# parameters that take the next word as their value (about_Pwsh, about_PowerShell_exe), and their aliases
PS_VALUES = names(
    "-executionpolicy -ep -ex -windowstyle -w -outputformat -o -of -inputformat -inp -if -workingdirectory -wd "
    "-configurationname -config -custompipename -settingsfile -configurationfile -version -v -psconsolefile"
)
PS_COMMAND = re.compile(r"(?:^|[;|{(]|&&|\|\|)\s*&?\s*([\w.-]+)")
CMD_COMMAND = re.compile(r"(?:^|[&|(])\s*@?([\w.]+)")


def windows_code(name: str, argv: list[str | None], fed: str | None) -> list[str]:
    """What the code handed to a Windows shell deletes or hides; empty when it is plain. `fed` is the text on its
    standard input, which it runs when given no command of its own (None: text computed at run time)."""
    if None in argv:
        return [computed(name)]
    words = [a for a in argv[1:] if a is not None]
    if name in CMDS:
        at = next((i for i, w in enumerate(words) if w.lower() in ("/c", "/k")), None)
        code = " ".join(words[at + 1 :]) if at is not None else fed
        if code is None:
            return [computed(name)]
        found = {m.lower() for m in CMD_COMMAND.findall(code)} & CMD_DELETES
        return [Said(N_("cmd deletes files ({commands})"), commands=", ".join(sorted(found)))] if found else []
    return _powershell(name, words, fed)


def _powershell(name: str, words: list[str], fed: str | None) -> list[str]:
    """PowerShell takes its parameters abbreviated and in any case: -c, -Com, -COMMAND; -e, -en, -enc, -ec.
    `-Command -`, `-File -` and no command or file at all read the commands from standard input (the parser drops
    a lone - before a heredoc: an option without its value reads them too)."""
    skip = False
    for i, word in enumerate(words):
        option = word.lower()
        if skip:
            skip = False
        elif option in ("-file", "-f"):
            return _ps_code(name, fed) if words[i + 1 : i + 2] in ([], ["-"]) else []  # a script, like `bash x.sh`
        elif option == "-ec" or len(option) > 1 and "-encodedcommand".startswith(option):
            return [Said(N_("{program} runs encoded code the analysis cannot read"), program=name)]
        elif option in ("-cwa", "-commandwithargs") or len(option) > 1 and "-command".startswith(option):
            return _ps_code(name, fed if words[i + 1 :] in ([], ["-"]) else " ".join(words[i + 1 :]))
        elif option == "-":
            return _ps_code(name, fed)
        elif not option.startswith("-"):  # pwsh takes it for -File's script, Windows PowerShell for -Command's text
            return [] if name.startswith("pwsh") else _ps_code(name, " ".join(words[i:]))
        else:
            skip = option in PS_VALUES or len(option) > 2 and any(p.startswith(option) for p in PS_VALUES)
    return _ps_code(name, fed)


def _ps_code(name: str, code: str | None) -> list[str]:
    if code is None:
        return [computed(name)]
    commands = {m.lower() for m in PS_COMMAND.findall(code)}
    if commands & PS_UNSEEN:
        unseen = ", ".join(sorted(commands & PS_UNSEEN))
        return [Said(N_("{program} runs code it builds or fetches ({commands})"), program=name, commands=unseen)]
    deletes = commands & PS_DELETES | {c for c in commands if c.startswith("remove-")}
    if not deletes:
        return []
    return [Said(N_("{program} deletes or overwrites ({commands})"), program=name, commands=", ".join(sorted(deletes)))]
