"""Which programs delete files, empty or replace them, or throw away uncommitted work — and with which arguments.

Each rule gets the whole argv (None where a word is computed at run time), the command, and the check in progress
(for shell text a program will run). A reason is a short phrase; Bash joins them into its question to the user.
"""

import os
import re
from collections.abc import Callable
from pathlib import Path

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import Argv, Check
from narnat_agent.safety.git import git
from narnat_agent.safety.syntax import Command, names, operands, short_option

DELETERS = names("rm rmdir unlink shred srm wipe trash trash-put trash-rm rimraf del-cli wipefs truncate")
FIND_ACTIONS = ("-exec", "-execdir", "-ok", "-okdir")


def deletions(name: str, argv: Argv, command: Command, check: Check) -> list[str]:
    """Why running argv would delete or replace files, or discard work; empty when it would not."""
    if name in DELETERS or name.startswith("mkfs"):
        args = argv[1:]
        if args and set(args) <= {"--help", "--version"}:
            return []
        targets = " ".join(a or "$…" for a in operands(argv)) or "(no operands)"
        elsewhere = any(_outside(a, check.cwd) for a in operands(argv))
        if elsewhere:
            return [Said(N_("{program} deletes files: {targets} — /undo restores only the project's files"),
                         program=name, targets=targets)]  # fmt: skip
        return [Said(N_("{program} deletes files: {targets}"), program=name, targets=targets)]
    rule = RULES.get(name)
    reason = rule(argv, command, check) if rule else None
    return [reason] if reason else []


def _outside(path: str | None, cwd: Path | None) -> bool:
    """An absolute or home path that is not under the directory the command runs in: /undo does not reach it."""
    if path is None or not path.startswith(("/", "~")):
        return False
    full = os.path.normpath(os.path.expanduser(path))
    return cwd is None or os.path.commonpath([full, str(cwd)]) != str(cwd)


def silent(argv: Argv, command: Command) -> bool:
    """The command prints nothing, so redirecting it over a file only empties the file."""
    if not argv or argv[0] in (":", "true", "false"):
        return True
    name, args = argv[0], argv[1:]
    if name == "exec":  # redirections of the shell itself: `exec 3> f`, `exec {fd}> f`
        return all(a is not None and re.fullmatch(r"\{\w+\}", a) for a in args)
    if name == "cat":
        return args == ["/dev/null"] or not args and command.stdin_file == "/dev/null"
    if name == "echo":
        return all(a in ("-n", "-e", "-E", "") for a in args)
    return name == "printf" and args == [""]


def _find(argv: Argv, command: Command, check: Check) -> str | None:
    i = 0
    while i < len(argv):  # each -exec command once: the next one starts after its terminator
        if argv[i] in FIND_ACTIONS:
            end = next((j for j in range(i + 1, len(argv)) if argv[j] in (";", "+")), len(argv))
            check.command(Command(argv=argv[i + 1 : end], splits=command.splits))
            i = end
        i += 1
    if "-delete" in argv:
        return Said(N_("find -delete deletes the files it finds"))
    return Said(N_("find gets words computed at run time, which may be actions")) if command.splits else None


def _rsync(argv: Argv, command: Command, check: Check) -> str | None:
    if "--dry-run" in argv or short_option(argv[1:], "n"):
        return None
    if any(a and a.startswith(("--del", "--remove-source-files")) for a in argv):
        return Said(N_("rsync deletes files (--delete / --remove-source-files)"))
    return _may_be_options("rsync") if command.splits else None


def _sort(argv: Argv, command: Command, check: Check) -> str | None:
    out = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("-o", "--output")), None)
    out = out or next((a.split("=", 1)[1] for a in argv if a and a.startswith("--output=")), None)
    out = out or next((a[2:] for a in argv[1:] if a and a.startswith("-o") and len(a) > 2), None)
    inputs = [
        a for i, a in enumerate(argv[1:], 1) if a is None or a[:1] != "-" and argv[i - 1] not in ("-o", "--output")
    ]
    empty = inputs == ["/dev/null"] or not inputs and command.stdin_file == "/dev/null"
    return Said(N_("sort -o replaces {file}"), file=out) if out and (out in inputs or empty) else None


def _tee(argv: Argv, command: Command, check: Check) -> str | None:
    upstream = command.upstream
    empty = command.stdin_file == "/dev/null" or upstream is not None and silent(upstream.argv, upstream)
    files = [a or "$…" for a in operands(argv)]
    return Said(N_("tee empties {files}"), files=" ".join(files)) if empty and files else None


def _ln(argv: Argv, command: Command, check: Check) -> str | None:
    if "--force" in argv or short_option(argv[1:], "f"):
        target = operands(argv)[-1:]
        return (
            Said(N_("ln -f replaces {file}"), file=target[0] or "$…")
            if target
            else Said(N_("ln -f replaces its target"))
        )
    return None


def _words(argv: Argv) -> list:
    return [a for a in argv[1:] if a is None or not a.startswith("-")]


def _dd(argv: Argv, command: Command, check: Check) -> str | None:
    out = [a for a in argv[1:] if a is None or a.startswith("of=")]
    return (
        Said(N_("dd of= overwrites its output file"))
        if any(a is None or a not in ("of=/dev/null",) for a in out)
        else None
    )


def _archive(argv: Argv, command: Command, check: Check) -> str | None:
    name = (argv[0] or "").rsplit("/", 1)[-1]
    if (
        name == "tar"
        and "--remove-files" in argv
        or name == "zip"
        and ("--move" in argv or short_option(argv[1:], "m"))
    ):
        return Said(N_("{program} deletes what it archives"), program=name)
    if name.startswith("7z") and "-sdel" in argv:
        return Said(N_("{program} deletes what it archives"), program="7z -sdel")
    return _may_be_options(name) if command.splits else None


def _may_be_options(name: str) -> str:
    return Said(N_("{program} gets words computed at run time, which may be options"), program=name)


Rule = Callable[[Argv, Command, Check], str | None]
RULES: dict[str, Rule] = {
    "find": _find,
    "rsync": _rsync,
    "sort": _sort,
    "tee": _tee,
    "ln": _ln,
    "dd": _dd,
    "tar": _archive,
    "zip": _archive,
    "7z": _archive,
    "7za": _archive,
    "7zr": _archive,
    "git": git,
    "mv": lambda a, c, k: Said(N_("mv to /dev/null destroys the file")) if a[-1:] == ["/dev/null"] else None,
    "cp": lambda a, c, k: (
        Said(N_("{program} from /dev/null empties the file"), program="cp") if "/dev/null" in operands(a)[:-1] else None
    ),
    "install": lambda a, c, k: (
        Said(N_("{program} from /dev/null empties the file"), program="install")
        if "/dev/null" in operands(a)[:-1]
        else None
    ),
    "sponge": lambda a, c, k: (
        Said(N_("sponge replaces {files}"), files=" ".join(x or "$…" for x in operands(a))) if operands(a) else None
    ),
    "gio": lambda a, c, k: (
        Said(N_("{program} deletes files"), program="gio") if _words(a)[:1] in (["trash"], ["remove"], ["rm"]) else None
    ),
    "cmake": lambda a, c, k: (
        Said(N_("{program} deletes files"), program="cmake -E")
        if a[1:3] in (["-E", "rm"], ["-E", "remove"], ["-E", "remove_directory"])
        else None
    ),
}
