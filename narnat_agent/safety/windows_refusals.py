"""What Bash refuses among PowerShell's and cmd's commands, as it does for bash: reading, searching, listing and
writing files (Read, Grep, Glob, Write and Edit do it better), and what waits for a person or never ends (editors,
prompts, `Get-Content -Wait`, `ping -t`, `while ($true)`, a server started by Start-Process, which keeps running
after the command)."""

import re
from collections.abc import Callable

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import Check, Verdict
from narnat_agent.safety.code import INTERPRETERS
from narnat_agent.safety.refusals import TAIL_READ
from narnat_agent.safety.syntax import Command, names
from narnat_agent.safety.windows_syntax import WinCommand, bind, cmdlet, fed, operands, program, switches

# what only shapes what another command printed: reading through it is still reading
FILTERS = names(
    "select-object select-string where-object sort-object format-table format-list out-string "
    "out-host out-default get-unique group-object more findstr find sort"
)
READERS = names("get-content import-csv [io.file]::readalltext [io.file]::readalllines")
EDITORS = names("notepad notepad++ wordpad write gvim")
GUI_EDITORS = names("code code-insiders subl atom")  # they wait only with --wait
ASKS = names("read-host get-credential pause choice enter-pssession [console]::readkey [console]::readline")
SHELLS = names("cmd powershell pwsh")
SHELL_FLAGS = names("-nologo -noprofile -nop -noexit -noninteractive -mta -sta /q /d /a /u /e:on /e:off /v:on /v:off")
RUNTIMES = names("npm npx yarn pnpm dotnet java go cargo deno uvicorn gunicorn flask rails hugo")  # and interpreters
CONSOLES = names("netsh nslookup diskpart wmic ftp telnet")  # alone, each opens a console of its own
WSL_VALUES = names("-d --distribution -u --user --cd")
START_VALUES = names("/d /node /affinity")  # start's switches that take the next word
NEVER_END = {  # a sampling program that samples until stopped
    "get-counter": lambda args: "-continuous" in args,
    "typeperf": lambda args: not {"-sc", "-?"} & set(args),
    "netstat": lambda args: any(a.isdigit() for a in args),
}
WAITS = Said(N_("{program} waits for a person to answer: ask in your answer instead"))


def _plumbing(command: Command) -> bool:
    """Its output feeds a program, is kept in a variable or an argument, or goes to a file: not a read."""
    after = command.downstream
    # a file named at run time (`> %TEMP%\out.txt`) keeps the output as well as a literal one
    saved = any(t is None or t and t.lower() not in ("nul", "$null") for _, t in command.redirects)
    return command.consumed or saved or after is not None and (after.name not in FILTERS or _plumbing(after))


def _reads(command: WinCommand) -> str | None:
    name, shown = command.name, command.shown[0]
    if name in READERS and not _plumbing(command):
        bound = bind(command, ("path",), ("tail", "last")) if name == "get-content" else None
        if bound is not None and (bound.has("tail") or bound.has("last")):
            return Said(TAIL_READ, program=shown)  # as for bash's tail: the model cannot count a log's lines
        return Said(N_("reading files with {program}: use Read (offset/limit for a part)"), program=shown)
    files = [w for w, _ in operands(command) if (w or "").lower() != "nul"]
    if name in ("type", "more") and files and command.upstream is None and not _plumbing(command):
        return Said(N_("reading files with {program}: use Read (offset/limit for a part)"), program=shown)
    if name == "select-string":
        bound = bind(command, ("pattern", "path"), ("literalpath",))
        upstream = command.upstream.name if command.upstream is not None else None
        if upstream == "get-childitem" or upstream is None and (bound.has("path") or bound.has("literalpath")):
            return Said(N_("searching files with {program}: use Grep"), program=shown)
    if name in ("findstr", "find") and command.upstream is None:
        given = any((w or "").lower().startswith(("/c:", "/g:")) for w in command.argv[1:])
        if len(files) > (0 if given else 1) or "/s" in switches(command):
            return Said(N_("searching files with {program}: use Grep"), program=shown)
    return _lists(command)


def _lists(command: WinCommand) -> str | None:
    name, shown = command.name, command.shown[0]
    recursive = name == "get-childitem" and (bind(command, ("path", "filter")).on("recurse") or "-depth" in
                                             {a.lower() for a in command.argv[1:] if a})  # fmt: skip
    if (recursive or name == "dir" and "/s" in switches(command)) and not _plumbing(command):
        listing = f"{shown} -Recurse" if recursive else "dir /s"
        return Said(N_("listing a tree with {program}: use Glob"), program=listing)
    if name == "tree" and "/?" not in command.argv and not _plumbing(command):
        return Said(N_("listing a tree with {program}: use Glob"), program=shown)
    return None


def _writes(command: WinCommand) -> str | None:
    """Text written into a file with Set-Content, Add-Content, Out-File or New-Item is Write's job; a file
    rewritten from what the same statement read of it is Edit's."""
    name, shown = command.name, command.shown[0]
    if name not in ("set-content", "add-content", "out-file", "new-item"):
        return None
    bound = bind(command, ("filepath",) if name == "out-file" else ("path", "value"), ("literalpath", "itemtype"))
    files = [w for w, _ in bound.get("path") + bound.get("filepath") + bound.get("literalpath")]
    if any(f in command.reads for f in files if f):
        return Said(N_("editing files with {program}: use Edit"), program=shown)
    values = bound.get("value")
    literal = command.stdin is not None if not values else None not in [v for v, _ in values]
    if literal and (values or command.upstream is not None) and files:
        return Said(N_("writing files with {program}: use Write (or Edit)"), program=shown)
    return None


def _redirected_text(command: WinCommand) -> str | None:
    """`echo text > file`, `"text" > file`: a write by another name."""
    writer = command.name in ("echo", "write-output") and None not in command.argv[1:] and len(command.argv) > 1
    target = next((t for o, t in command.redirects if ">" in o and t and t.lower() not in ("nul", "$null")), None)
    if writer and target:
        return Said(N_("writing files with {program} > {file}: use Write (or Edit)"), program=command.shown[0],
                    file=target)  # fmt: skip
    return None


def _waits(command: WinCommand) -> str | None:
    name, shown = command.name or "", command.shown[0]
    args = [a.lower() for a in command.argv[1:] if a]
    if "/?" in args or "-?" in args:
        return None
    if name in EDITORS or name in GUI_EDITORS and {"--wait", "-w"} & set(args):
        return Said(N_("{program} is an interactive editor: use Edit or Write"), program=shown)
    # $Host.UI.RawUI.ReadKey(), [Console]::In.ReadLine(): the console's own input
    owner = command.shown[1].lower().replace("[system.", "[") if len(command.shown) > 1 else ""
    host = name in (".readkey", ".readline") and ("$host" in owner or owner.startswith("[console]::in"))
    if name in ASKS and not (name == "choice" and "/t" in args) or name == "set" and args[:1] == ["/p"] or host:
        return Said(WAITS, program=shown if name != "set" else "set /p")
    if name == "timeout" and args[args.index("/t") + 1 : args.index("/t") + 2] == ["-1"] if "/t" in args else False:
        return Said(WAITS, program=shown)
    if name == "get-content" and bind(command, ("path",)).on("wait"):
        return Said(N_("{program} -Wait never ends: use Read to see the file"), program=shown)
    forever = next((a for a in args if a in ("-t", "/t")), None) if name == "ping" else None  # ping's -t is /t too
    if forever or name == "while":
        return Said(N_("{program} never ends: run it a set number of times"), program=f"{shown} {forever}" if
                    forever else "while ($true)")  # fmt: skip
    if name in NEVER_END and NEVER_END[name](args):
        return Said(N_("{program} never ends: run it a set number of times"), program=command.text[:60])
    alone = command.upstream is None and command.stdin is None and not fed(command)
    if alone and (
        name in CONSOLES and not args or name == "wsl" and _wsl_shell(args) or name in SHELLS and "-noexit" in args
    ):
        return Said(N_("{program} waits for input: pass code with -c/-e, a script file, or feed it on stdin"),
                    program=shown)  # fmt: skip
    if name == "runas" or name == "wait-process" and not any(a.startswith("-t") for a in args):
        return Said(WAITS, program=shown)
    if name in SHELLS and set(args) <= SHELL_FLAGS and alone:
        return Said(N_("{program} waits for input: pass code with -c/-e, a script file, or feed it on stdin"),
                    program=shown)  # fmt: skip
    return None


Run = Callable[[WinCommand, Check], None]


def _wsl_shell(args: list[str]) -> bool:
    """wsl with only its options (a distribution, a user, a folder, `~` for the home folder) opens a shell."""
    words = [
        a for i, a in enumerate(args) if not a.startswith("-") and a != "~" and not (i and args[i - 1] in WSL_VALUES)
    ]
    return not words and not {"-e", "--exec", "--", "-l", "--list", "--status", "--shutdown", "--version",
                              "--install", "--update", "--help", "-t", "--terminate", "--unregister",
                              "--set-default", "-s", "--export", "--import"} & set(args)  # fmt: skip


def _started(command: WinCommand, check: Check, run: Run) -> None:
    """Start-Process and cmd's start: the program runs on its own; without -Wait it outlives the command."""
    if command.name == "start-process":
        bound = bind(command, ("filepath", "argumentlist"), ("verb", "workingdirectory", "windowstyle"))
        file = (bound.get("filepath") or [(None, "")])[0][0]
        args = [w for v, _ in bound.get("argumentlist") + bound.get("args") for w in (v or "").split()]
        waits = bound.on("wait")
        if any((v or "").lower() == "runas" for v, _ in bound.get("verb")):
            check.verdict.interactive.append(Said(N_("{program} -Verb RunAs waits for a person to allow it"),
                                                  program=command.shown[0]))  # fmt: skip
    else:
        file, args, waits = _start_line(command)
    if file is None or re.match(r"[a-z]+://", file, re.IGNORECASE):
        return
    name = program(file)
    inner = WinCommand(argv=[cmdlet(name) if command.shell == "powershell" else name, *args], shown=[file, *args],
                       shell=command.shell, text=" ".join([file, *args]))  # fmt: skip
    saved, check.verdict = check.verdict, Verdict()
    run(inner, check)
    started, check.verdict = check.verdict, saved
    check.verdict.deletions += started.deletions
    if waits:
        check.verdict.interactive += started.interactive
    elif started.interactive and inner.name not in EDITORS or _runtime(inner.name or ""):
        check.verdict.interactive.append(Said(
            N_("{program} starts {started}, which keeps running after the command: run it with run_in_background"),
            program=command.shown[0], started=inner.text))  # fmt: skip


def _start_line(command: WinCommand) -> tuple[str | None, list[str], bool]:
    """cmd's start: a title (its first quoted word), start's own switches, then the program with its words, switches
    included; and whether start waits for it (`start /?`)."""
    words = list(zip(command.argv[1:], command.shown[1:], strict=False))
    at = 1 if words and words[0][1].startswith('"') else 0
    waits = False
    while at < len(words) and (words[at][0] or "").startswith("/"):
        switch = (words[at][0] or "").lower()
        waits = waits or switch == "/wait"
        at += 2 if switch in START_VALUES else 1
    rest = [w for w, _ in words[at:] if w is not None]
    return (rest[0] if rest else None), rest[1:], waits


def _runtime(name: str) -> bool:
    """A program that keeps running what it is given (a script, a server) until it is stopped."""
    return name in RUNTIMES or bool(INTERPRETERS.match(name))


def refusals(command: WinCommand, check: Check, run: Run) -> None:
    """Add to the verdict why the command is refused, if it is; `run` checks a program Start-Process starts."""
    if command.name in ("start-process", "start"):
        _started(command, check, run)
        return
    if reason := _reads(command) or _writes(command) or _redirected_text(command):
        check.verdict.file_ops.append(reason)
    if reason := _waits(command):
        check.verdict.interactive.append(reason)
