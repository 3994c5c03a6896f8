"""What PowerShell's and cmd's parses share: a command's words as the shell passes them and as they were written,
a program's name as Windows finds it, PowerShell's parameters bound to their names, and where a path lies (a drive's
root, the user's home, outside the project).

From the PowerShell documentation (about_Parameters, about_Command_Syntax, the default aliases of Windows PowerShell
5.1) and cmd's (`cmd /?`, `set /?`)."""

import ntpath
import re
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.syntax import Command, names

SHELLS = ("powershell", "cmd")
EXTENSIONS = (".exe", ".com", ".bat", ".cmd")
# the default aliases of Windows PowerShell 5.1 that the rules care about (Get-Alias), by the cmdlet they name
ALIASES = {
    alias: cmdlet
    for cmdlet, spelled in {
        "remove-item": "rm ri del erase rd rmdir",
        "get-content": "gc cat type",
        "set-content": "",  # `sc` is taken as sc.exe, the service control program models mean by it
        "add-content": "ac",
        "clear-content": "clc",
        "clear-item": "cli",
        "copy-item": "copy cp cpi",
        "move-item": "move mv mi",
        "rename-item": "ren rni",
        "get-childitem": "ls dir gci",
        "select-string": "sls",
        "foreach-object": "% foreach",
        "where-object": "? where",
        "write-output": "echo write",
        "set-location": "cd chdir sl",
        "invoke-expression": "iex",
        "invoke-command": "icm",
        "start-process": "start saps",
        "invoke-webrequest": "iwr curl wget",
        "invoke-restmethod": "irm",
        "new-item": "ni",
        "select-object": "select",
        "sort-object": "sort",
        "measure-object": "measure",
        "get-item": "gi",
        "tee-object": "tee",
        "stop-process": "kill spps",
        "get-process": "ps gps",
        "clear-host": "cls clear",
    }.items()
    for alias in spelled.split()
}
# the verbs of Get-Verb: `Verb-Noun` names a cmdlet, `http-server` a program
VERBS = names(
    "add approve assert backup block build checkpoint clear close compare complete compress confirm connect convert "
    "convertfrom convertto copy debug deny deploy disable disconnect dismount edit enable enter exit expand export "
    "find format get grant group hide import initialize install invoke join limit lock measure merge mount move new "
    "open optimize out ping pop protect publish push read receive redo register remove rename repair request reset "
    "resize resolve restart restore resume revoke save search select send set show skip split start step stop "
    "submit suspend switch sync test trace unblock undo uninstall unlock unprotect unpublish unregister update use "
    "wait watch where write foreach sort tee"
)
# parameters that take no value, among those the rules read, the most used first: PowerShell takes the first a
# prefix matches (-r, -fo, -wh)
SWITCHES = (
    "recurse", "force", "whatif", "confirm", "wait", "append", "raw", "verbose", "debug", "noclobber", "passthru",
    "nonewline", "asjob", "file", "directory", "hidden", "readonly", "system", "nonewwindow", "usebasicparsing",
    "allversions", "asstring", "simplematch", "notmatch", "list", "quiet", "allmatches", "removedata", "full",
)  # fmt: skip
Pairs = list[tuple[str | None, str]]  # words as passed (None: computed at run time), and as written
HOMES = names("~ $home $env:userprofile ${env:userprofile} %userprofile% $env:homepath %homepath%")


@dataclass
class WinCommand(Command):
    """A command PowerShell or cmd runs: argv as the shell passes it (None where computed at run time), `shown` as
    it was written, for the question."""

    shown: list[str] = field(default_factory=list)
    shell: str = "powershell"
    text: str = ""  # the command as written
    reads: set[str] = field(default_factory=set)  # files that commands of the same statement read
    joined: set[int] = field(default_factory=set)  # words (after the name, from 0) that continue a list: `a, b`
    absent: set[str] = field(default_factory=set)  # paths an enclosing `if` found missing: not overwritten


def program(word: str) -> str:
    """A program's name as Windows looks it up: no folder, no extension, any case; a cmdlet without its module, an
    alias as the cmdlet it names."""
    name = ntpath.basename(word.replace("/", "\\")).lower() or word.lower()
    for extension in EXTENSIONS:
        if name.endswith(extension) and len(name) > len(extension):
            name = name[: -len(extension)]
            break
    return name


def cmdlet(name: str) -> str:
    """The cmdlet an alias names, or the name itself."""
    return ALIASES.get(name, name)


def is_cmdlet(name: str) -> bool:
    verb, _, noun = name.partition("-")
    return bool(noun) and verb in VERBS and "." not in name


@dataclass
class Bound:
    """A command's parameters by full name (lowercase), each with its values: literal text or None, and as written."""

    values: dict[str, list[tuple[str | None, str]]] = field(default_factory=dict)

    def get(self, name: str) -> list[tuple[str | None, str]]:
        return self.values.get(name, [])

    def has(self, name: str) -> bool:
        return name in self.values

    def on(self, name: str) -> bool:
        """A switch given and not turned off (`-WhatIf:$false`)."""
        return any(v is None or v.lower() not in ("$false", "0", "false") for v, _ in self.values.get(name, []))


def bind(command: WinCommand, positional: tuple[str, ...], known: tuple[str, ...] = ()) -> Bound:
    """PowerShell's parameters of command: `-Name value`, `-Name:value`, a switch, or a word in its position.
    A name is matched to the first of `known` + `positional` + SWITCHES it abbreviates."""
    full = (*known, *positional, *SWITCHES)
    bound = Bound()
    at, i, words = 0, 0, list(zip(command.argv[1:], command.shown[1:], strict=False))
    last: str | None = None  # the parameter the last value went to: a list (`a, b`) goes on there
    while i < len(words):
        word, shown = words[i]
        if word is not None and len(word) > 1 and word[0] == "-" and (word[1].isalpha() or word[1] == "-"):
            given, colon, value = word.lstrip("-").partition(":")
            given = given.lower()  # a name matches in any case; the value is passed as written (`-Path:Config.json`)
            name = next((p for p in full if p.startswith(given)), given) if given else given
            if colon:
                bound.values.setdefault(name, []).append((value, value))
            elif name in SWITCHES or i + 1 == len(words) or words[i + 1][1].startswith("-"):
                bound.values.setdefault(name, []).append(("$true", ""))
            else:
                i += 1
                bound.values.setdefault(name, []).append(words[i])
        else:
            if i not in command.joined or last is None:
                while at < len(positional) and positional[at] in bound.values:
                    at += 1
                last = positional[at] if at < len(positional) else "args"
            bound.values.setdefault(last, []).append((word, shown))
            i += 1
            continue
        last = name
        i += 1
    return bound


def switches(command: WinCommand) -> set[str]:
    """cmd's switches, each on its own: `/s/q` is `/s` and `/q`, as rd and del read them."""
    return {s.lower() for a in command.argv[1:] if a and a[:1] == "/" for s in re.findall(r"/[^/]*", a)}


def operands(command: WinCommand) -> Pairs:
    """cmd's words that are not switches, literal or not, with how they were written."""
    return [(a, s) for a, s in zip(command.argv[1:], command.shown[1:], strict=False) if a is None or a[:1] != "/"]


def given(command: WinCommand) -> str:
    upstream = command.upstream
    source = upstream.text if isinstance(upstream, WinCommand) else ""
    return Said(N_("what {source} gives it"), source=source[:60] or "…")


def fed(command: Command) -> bool:
    """Its input is a file (cmd's `diskpart < wipe.txt`): it reads that, not a person."""
    return any(operator.endswith("<") for operator, _ in command.redirects)


def windows_path(name: str, cwd: Path | None) -> Path | None:
    """The file a Windows path names, looked at from cwd; None when it cannot be looked at."""
    if cwd is None or any(mark in name for mark in "$%*?"):
        return None
    if name.startswith("~"):
        return Path(name.replace("\\", "/")).expanduser()
    return cwd / name.replace("\\", "/")


def existing(name: str | None, cwd: Path | None) -> bool:
    path = windows_path(name, cwd) if name else None
    return path is not None and path.is_file()


def place(word: str | None, shown: str, cwd: Path | None) -> tuple[str, bool]:
    """How a question names a path (a drive's root and the user's home called out), and whether it may lie outside
    the project (where /undo does not reach)."""
    text = (word if word is not None else shown).strip('"')
    lowered = text.lower().rstrip("\\/")
    windows = PureWindowsPath(text)
    if windows.drive and str(windows).rstrip("\\/*.") in (windows.drive, windows.drive + "\\"):
        return Said(N_("{path} (the whole drive {drive})"), path=text, drive=windows.drive), True
    first = lowered.replace("/", "\\").split("\\", 1)[0]
    if lowered in HOMES or first in HOMES and lowered == first:
        return Said(N_("{path} (your home folder)"), path=text), True
    if first in HOMES or lowered.startswith("c:\\users\\") and lowered.count("\\") == 2:
        return Said(N_("{path} (in your home folder)"), path=text), True
    outside = bool(windows.drive or windows.root or text.startswith(("$env:", "%", "~", "$home")))
    return text, outside and not _under(text, cwd) or _climbs_out(text, cwd)


def _climbs_out(text: str, cwd: Path | None) -> bool:
    """A relative path that leads out of the folder the command runs in (`..\\x`, `a/../../x`)."""
    relative = ntpath.normpath(text.replace("/", "\\"))
    if relative != ".." and not relative.startswith("..\\"):
        return False
    return cwd is None or not _under(ntpath.normpath(ntpath.join(str(PureWindowsPath(str(cwd))), relative)), cwd)


def _under(text: str, cwd: Path | None) -> bool:
    if cwd is None:
        return False
    here = PureWindowsPath(str(cwd))
    there = PureWindowsPath(text)
    return str(there).lower().startswith(str(here).lower().rstrip("\\") + "\\") or there == here
