"""Programs that take shell text or a command line in their own way: watch, parallel, hyperfine, trap, at, make -f -,
fd -x/-X, and ssh (whose remote command counts for what it deletes). Each handler checks what will run and returns
the argv still to check as a command, or None when nothing is left."""

from pathlib import Path

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import NOT_UNDOABLE, Argv, Check
from narnat_agent.safety.code import SHELLS
from narnat_agent.safety.syntax import COMPUTED, Command, fed_code
from narnat_agent.safety.tasks import just_recipes, make_targets

FD_EXEC = ("-x", "--exec", "-X", "--exec-batch")
FD_PLACEHOLDERS = ("{}", "{/}", "{//}", "{.}", "{/.}")
MAX_SCRIPT = 50_000  # characters of a script file fed to ssh; longer ones are too long to check


def _shell_text(argv: Argv, source: str, check: Check, remote: bool = False) -> None:
    words = [a for a in argv if a is not None and COMPUTED not in a]
    code = " ".join(words) if len(words) == len(argv) else None
    check.script(code, source, remote)


def _watch(argv: Argv, command: Command, check: Check) -> None:
    check.verdict.interactive.append(Said(N_("watch never ends; run the command once instead")))
    i = 1
    while i < len(argv) and (word := argv[i]) is not None and word.startswith("-"):
        i += 2 if word in ("-n", "--interval") else 1  # -d takes its value only as --differences=permanent
    _shell_text(argv[i:], "watch", check)


def _parallel(argv: Argv, command: Command, check: Check) -> None:
    words = argv[1 : argv.index(":::")] if ":::" in argv else argv[1:]
    while words and words[0] is not None and words[0].startswith("-"):
        takes = words[0] in (
            "-j",
            "--jobs",
            "-S",
            "--sshlogin",
            "-a",
            "--arg-file",
            "-d",
            "--delimiter",
            "-I",
            "-N",
            "-n",
            "-L",
            "--colsep",
            "--results",
            "--joblog",
        )
        words = words[2 if takes else 1 :]
    _shell_text(words, "parallel", check)


def _hyperfine(argv: Argv, command: Command, check: Check) -> None:
    for word in argv[1:]:
        if word is None or not word.startswith("-"):
            _shell_text([word], "hyperfine", check)


def _trap(argv: Argv, command: Command, check: Check) -> None:
    words = [a for a in argv[1:] if a != "--"]
    if len(words) > 1 and words[0] not in ("-", "-p", "-l"):
        _shell_text(words[:1], "trap", check)


def _at(argv: Argv, command: Command, check: Check) -> None:
    if not {"-f", "-l", "-r", "-d", "-c"} & set(argv[1:]):
        check.script(fed_code(command), "at")


def _make(argv: Argv, command: Command, check: Check) -> list:
    files = [(argv + ["-"])[i + 1] for i, a in enumerate(argv) if a in ("-f", "--file", "--makefile")]  # `-` before
    # a heredoc is not a word of its own to tree-sitter
    if {"-", "/dev/stdin"} & set(files) or any(a in ("-f-", "--file=-") for a in argv):
        text = fed_code(command)
        recipes = None if text is None else "\n".join(line[1:] for line in text.splitlines() if line[:1] == "\t")
        check.script(recipes, Said(N_("the makefile piped to make")))
    else:
        make_targets(argv, command, check)
    return argv


def _fd(argv: Argv, command: Command, check: Check) -> list:
    """fd(1) -x/--exec and -X/--exec-batch: the rest of its words are a command run on what it finds, named in place
    of its placeholders (or after the command when it has none)."""
    at = next((i for i, a in enumerate(argv) if a in FD_EXEC or (a or "").startswith(("--exec=", "--exec-batch="))), 0)
    if at:
        words = argv[at + 1 :] if "=" not in (argv[at] or "") else [(argv[at] or "").split("=", 1)[1], *argv[at + 1 :]]
        words = words[: words.index(";")] if ";" in words else words
        found = Said(N_("the files fd finds"))
        inner = [found if w in FD_PLACEHOLDERS else w for w in words]
        check.command(Command(argv=inner if inner != words else [*inner, found], splits=command.splits))
    return argv


def _ssh(argv: Argv, command: Command, check: Check) -> list:
    """The words after the host are shell text run on that machine."""
    i, rest = 1, []
    while i < len(argv):
        word = argv[i]
        if word is not None and word.startswith("-") and word != "--":
            i += 2 if len(word) == 2 and word[1] in "BbcDEeFIiJLlmOoPpQRSWw" else 1
            continue
        rest = argv[i + 1 + (word == "--") :]
        break
    if rest:
        _shell_text(rest, "ssh", check, remote=True)
    words = " ".join(a or "" for a in rest).split()
    fed = command.stdin is not None or command.stdin_dynamic or command.upstream is not None or command.stdin_file
    if fed and (not words or words[0] in SHELLS and "-c" not in words):  # the remote shell runs what stdin holds
        script = fed_code(command) if not command.stdin_file else _script_file(command.stdin_file, check.cwd)
        if script is None and command.stdin_file:
            check.verdict.deletions.append(
                Said(
                    N_("ssh runs {file} on another machine, unread — {undo}"),
                    file=command.stdin_file,
                    undo=NOT_UNDOABLE,
                )
            )
        else:
            check.script(script, Said(N_("the script fed to ssh")), remote=True)
    return argv


def _script_file(name: str, cwd: Path | None) -> str | None:
    """The text of a script file to check, or None when it cannot be read here or is too long to check."""
    try:
        with open(cwd / name if cwd is not None else "", "rb") as f:
            text = f.read(MAX_SCRIPT + 1)
    except OSError:
        return None
    return text.decode("utf-8", "replace") if len(text) <= MAX_SCRIPT else None


SPECIAL = {
    "watch": _watch,
    "parallel": _parallel,
    "hyperfine": _hyperfine,
    "trap": _trap,
    "at": _at,
    "batch": _at,
    "make": _make,
    "just": just_recipes,
    "ssh": _ssh,
    "fd": _fd,
    "fdfind": _fd,  # Debian's name for it
}
