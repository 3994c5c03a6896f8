"""Code hidden in a command's words: shells' -c scripts, eval, source, scripts piped to a shell, aliases, inline
interpreter code, and Windows shells' code strings."""

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import Argv, Check, computed
from narnat_agent.safety.code import INTERPRETERS, SHELLS, interpreter_code, scan, written
from narnat_agent.safety.overwrites import existing_file
from narnat_agent.safety.syntax import Command, fed_code
from narnat_agent.safety.windows import CMDS, POWERSHELLS, windows_code

TEXT_TOOLS = ("awk", "gawk", "mawk", "nawk", "sed", "gsed")


def embedded(name: str, argv: Argv, command: Command, check: Check) -> None:
    """Check the code argv hands to a shell or an interpreter."""
    if name == "eval":
        check.script(None if None in argv[1:] else " ".join(a or "" for a in argv[1:]), "eval")
    elif name in ("source", ".") and len(argv) > 1 and argv[1] in (None, "/dev/stdin", "-"):
        check.script(None if argv[1] is None else fed_code(command), name)
    elif name == "alias":
        _alias(argv, check)
    elif name in SHELLS:
        _shell(name, argv, command, check)
    elif name.lower() in POWERSHELLS | CMDS:  # Git Bash finds `CMD` as cmd.exe: Windows names have no case
        # `pwsh < script.ps1` reads a script file, which is opaque by design like `pwsh script.ps1`
        windows_code(name.lower(), argv, "" if command.stdin_file else fed_code(command), check)
    elif INTERPRETERS.match(name) or name in TEXT_TOOLS:
        _interpreter(name, argv, command, check)


def _alias(argv: Argv, check: Check) -> None:
    """An alias's text runs where the alias is used (if the command turns expansion on): it is checked there."""
    for word in argv[1:]:
        if word is None:
            check.verdict.deletions.append(Said(N_("an alias is defined from text computed at run time")))
        elif "=" in word:
            alias, text = word.split("=", 1)
            check.aliases[alias] = text


def _interpreter(name: str, argv: Argv, command: Command, check: Check) -> None:
    kind, code = interpreter_code(name, argv)
    if kind == "stdin" and INTERPRETERS.match(name) and not command.stdin_file:
        kind, code = "code", fed_code(command)
    if kind != "code":
        return
    if code is None:
        check.verdict.deletions.append(computed(name))
        return
    check.verdict.deletions += scan(name, code, check.deletions_in)
    for path in written(code):
        if existing_file(path, check.cwd):
            check.verdict.deletions.append(
                Said(N_("the {language} code replaces {file}, which exists"), language=name, file=path)
            )


def _shell(name: str, argv: Argv, command: Command, check: Check) -> None:
    i, stdin = 1, False
    while i < len(argv) and (word := argv[i]) is not None and word[:1] in "-+" and word not in ("-", "--"):
        if not word.startswith("--") and "c" in word[1:]:
            i += 1 + (argv[i + 1 : i + 2] == ["--"])  # `bash -c -- 'code'`: the code follows the --
            check.script(argv[i] if i < len(argv) else "", f"{name} -c")
            return
        stdin |= not word.startswith("--") and "s" in word[1:]
        i += 2 if word in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file") else 1
    rest = argv[i + (argv[i : i + 1] == ["--"]) :]
    if rest and not stdin and rest[0] not in ("-", "/dev/stdin"):
        if rest[0] is None:
            check.verdict.deletions.append(Said(N_("{program} runs a script computed at run time"), program=name))
    elif not command.stdin_file:  # `sh < file` reads a script file, which is opaque by design like `sh file`
        check.script(fed_code(command), Said(N_("the script piped to {program}"), program=name))
