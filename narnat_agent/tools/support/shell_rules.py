"""What a shell command would do that Narnat cares about: delete files, do a file tool's job, or wait for a human."""

import re
from dataclasses import dataclass, field

from narnat_agent.tools.support.shell_refusals import INTERPRETERS, file_op, waits_for_terminal
from narnat_agent.tools.support.shell_syntax import Command, operands, parse

MAX_DEPTH = 5
MAX_LENGTH = 10_000
MAX_COMMANDS = 200
SHELLS = {"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox-sh"}
CODE_FLAGS = {"-c", "-e", "-E", "-r", "--eval", "-p", "--print"}
DELETERS = {"rm", "rmdir", "unlink", "shred", "srm", "wipe", "trash", "trash-put", "rimraf", "del-cli", "wipefs"}
DELETION_WORDS = re.compile(r"\b(rm|rmdir|unlink|shred|truncate|rimraf)\b|-delete\b|git\s+clean")
DELETION_APIS = re.compile(
    r"shutil\.rmtree|\bos\.(remove|unlink|rmdir|removedirs)\b|\.unlink\(|\.rmdir\(|send2trash|"
    r"\bfs(\.promises)?\.(rm|rmdir|unlink)(Sync)?\b|\b(rm|rmdir|unlink)Sync\(|rimraf|FileUtils\.(rm\w*|remove\w*)|\bFile\.(delete|unlink)\b|"
    r"\bDir\.(delete|unlink|rmdir)\b|\bunlink\b|\brmtree\b|remove_tree|Deno\.remove|"
    r"\b(system|popen|Popen|run|call|check_call|check_output|exec\w*|spawn\w*)\s*\(\s*[\[(]?\s*['\"`](rm|rmdir|shred|unlink)\b|"
    r"`\s*(rm|rmdir|shred|unlink)\b"
)
# wrapper -> (options that take a value, positional words to skip before the command)
WRAPPERS = {
    "sudo": ({"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U"}, 0), "doas": ({"-u", "-C"}, 0),
    "env": ({"-u", "-C", "--unset", "--chdir"}, 0), "command": ({"-p"}, 0), "builtin": (set(), 0),
    "exec": ({"-a"}, 0), "nohup": (set(), 0), "time": (set(), 0), "setsid": (set(), 0),
    "unbuffer": (set(), 0), "chronic": (set(), 0), "nice": ({"-n"}, 0),
    "ionice": ({"-c", "-n", "-p", "-P", "-u"}, 0), "timeout": ({"-s", "-k", "--signal", "--kill-after"}, 1),
    "stdbuf": ({"-i", "-o", "-e"}, 0), "taskset": (set(), 1), "flock": ({"-w", "-E"}, 1),
    "xargs": ({"-I", "-n", "-L", "-P", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--delimiter"}, 0),
    "busybox": (set(), 0), "npx": ({"-p", "--package"}, 0), "pnpx": (set(), 0), "bunx": (set(), 0),
    "watch": ({"-n", "-d", "--interval"}, 0),
}  # fmt: skip


@dataclass
class Verdict:
    deletions: list[str] = field(default_factory=list)  # ask the user first
    file_ops: list[str] = field(default_factory=list)  # refuse: a dedicated tool does this
    interactive: list[str] = field(default_factory=list)  # refuse: it would wait for a human

    def merge(self, other: "Verdict") -> None:
        self.deletions += other.deletions
        self.file_ops += other.file_ops
        self.interactive += other.interactive


def analyze(source: str, depth: int = 0) -> Verdict:
    """Everything Narnat must know about a command before it may run; it fails closed (asks) when unsure."""
    verdict = Verdict()
    if depth > MAX_DEPTH or len(source) > MAX_LENGTH:
        verdict.deletions.append("the command is too long or too deeply nested to check")
        return verdict
    try:
        script = parse(source)
    except Exception:  # an unreadable command is never run unchecked
        verdict.deletions.append("the command could not be parsed")
        return verdict
    if script.broken and DELETION_WORDS.search(source):
        verdict.deletions.append("the command could not be fully parsed and mentions deletion")
    if len(script.commands) > MAX_COMMANDS:
        verdict.deletions.append("the command runs too many commands to check")
    for command in script.commands:
        _check(command, verdict, depth)
    return verdict


def peel(argv: list[str | None], verdict: Verdict, depth: int) -> list[str | None]:
    """The command under wrappers like sudo, env, timeout, xargs; strings they run as shell code are checked."""
    while argv and argv[0] is not None:
        name = argv[0].rsplit("/", 1)[-1]
        if name in ("command", "builtin", "type", "which") and (name in ("type", "which") or "-v" in argv[1:2]):
            return []
        if name in ("pnpm", "yarn") and argv[1:2] == ["dlx"]:
            argv = argv[2:]
            continue
        if name not in WRAPPERS:
            break
        takes, skip = WRAPPERS[name]
        i = 1
        while i < len(argv) and argv[i] is not None and argv[i].startswith("-") and argv[i] != "--":
            if argv[i] in ("-S", "--split-string") and name == "env" or argv[i] == "-c" and name == "flock":
                _script(argv[i + 1] if i + 1 < len(argv) else "", verdict, depth, f"{name} {argv[i]}")
                return []
            i += 2 if argv[i] in takes else 1
        i += argv[i : i + 1] == ["--"]
        while name == "env" and i < len(argv) and argv[i] is not None and "=" in argv[i]:
            i += 1
        if name == "watch":
            verdict.interactive.append("watch never ends; run the command once instead")
            _script(" ".join(a or "$X" for a in argv[i:]), verdict, depth, "watch")
            return []
        argv = argv[i + skip :]
    return argv


def _script(code: str | None, verdict: Verdict, depth: int, source: str) -> None:
    if code is None:
        verdict.deletions.append(f"{source} runs shell code computed at run time")
    else:
        verdict.merge(analyze(code, depth + 1))


def _check(command: Command, verdict: Verdict, depth: int) -> None:
    argv = peel(command.argv, verdict, depth)
    _redirects(command, argv, verdict)
    if not argv:
        return
    if argv[0] is None:
        verdict.deletions.append("the command name is computed at run time")
        return
    name = argv[0].rsplit("/", 1)[-1]
    _deletion(name, argv, command, verdict, depth)
    _embedded(name, argv, command, verdict, depth)
    if reason := file_op(name, argv, command):
        verdict.file_ops.append(reason)
    if reason := waits_for_terminal(name, argv, command):
        verdict.interactive.append(reason)


def _redirects(command: Command, argv: list, verdict: Verdict) -> None:
    clobber = not argv or argv[0] in (":", "true") or argv == ["cat", "/dev/null"]
    for operator, target in command.redirects:
        if operator not in (">", ">|", "&>", ">>", "&>>") or (target or "").startswith("/dev/"):
            continue
        if target is None and clobber:
            verdict.deletions.append("a redirection empties a file whose name is computed at run time")
        elif clobber and operator in (">", ">|", "&>"):
            verdict.deletions.append(f"the redirection empties {target}")
        elif argv and argv[0] in ("echo", "printf") or argv == ["cat"] and command.stdin is not None:
            verdict.file_ops.append(f"writing files with {argv[0]} > {target}: use Write (or Edit)")


def _deletion(name: str, argv: list, command: Command, verdict: Verdict, depth: int) -> None:
    args = [a for a in argv[1:] if a is not None]
    if name in DELETERS or name.startswith("mkfs") or name == "truncate":
        if set(args) - {"--help", "--version"} or not args:
            targets = " ".join(a or "$…" for a in operands(argv)) or "(no operands)"
            verdict.deletions.append(f"{name} deletes files: {targets}")
    elif name == "find":
        _find(argv, verdict, depth)
    elif name in RULES and (reason := RULES[name](args)):
        verdict.deletions.append(reason)


def _find(argv: list, verdict: Verdict, depth: int) -> None:
    if "-delete" in argv:
        verdict.deletions.append("find -delete deletes the files it finds")
    for i, word in enumerate(argv):
        if word in ("-exec", "-execdir", "-ok", "-okdir"):
            end = next((j for j in range(i + 1, len(argv)) if argv[j] in (";", "+")), len(argv))
            _check(Command(argv=argv[i + 1 : end]), verdict, depth)


def _git(args: list[str]) -> str | None:
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in ("-C", "-c", "--git-dir", "--work-tree", "--namespace") else 1
    sub, flags = (args[i], set(args[i + 1 :])) if i < len(args) else ("", set())
    risky = {
        "clean": not flags & {"-n", "--dry-run"},
        "rm": "--cached" not in flags,
        "reset": bool(flags & {"--hard", "--merge", "--keep"}),
        "checkout": bool(flags & {"--", ".", "-f", "--force"}),
        "restore": not flags & {"--staged", "-S"} or bool(flags & {"--worktree", "-W"}),
        "stash": bool(flags & {"drop", "clear"}),
        "worktree": "remove" in flags and bool(flags & {"-f", "--force"}),
    }
    return f"git {sub} can delete files or discard uncommitted work" if risky.get(sub) else None


def _containers(args: list[str]) -> str | None:
    words = [a for a in args if not a.startswith("-")]
    if words[:2] in (["volume", "rm"], ["volume", "prune"]) or words[:2] == ["system", "prune"] and "--volumes" in args:
        return "it deletes container volumes (persistent data)"
    if "down" in words and {"-v", "--volumes"} & set(args):
        return "compose down -v deletes container volumes"
    return None


def _words(args: list[str]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


# program -> what makes it delete files (a reason), given its literal arguments
RULES = {
    "dd": lambda a: "dd of= overwrites its output file" if any(x.startswith("of=") and x != "of=/dev/null" for x in a)
    else None,
    "mv": lambda a: "mv to /dev/null destroys the file" if a and a[-1] == "/dev/null" else None,
    "cp": lambda a: "cp from /dev/null empties the file" if "/dev/null" in a[:-1] else None,
    "rsync": lambda a: "rsync deletes files (--delete / --remove-source-files)"
    if any(x.startswith(("--delete", "--remove-source-files")) for x in a) else None,
    "tar": lambda a: "tar --remove-files deletes what it archives" if "--remove-files" in a else None,
    "zip": lambda a: "zip -m deletes what it archives" if {"-m", "--move"} & set(a) else None,
    "git": _git,
    "docker": _containers,
    "podman": _containers,
    "docker-compose": _containers,
    "aws": lambda a: "aws s3 rm deletes remote objects" if _words(a)[:2] in (["s3", "rm"], ["s3", "rb"]) else None,
    "gsutil": lambda a: "gsutil rm deletes remote objects" if _words(a)[:1] == ["rm"] else None,
    "gcloud": lambda a: "gcloud storage rm deletes remote objects" if _words(a)[:2] == ["storage", "rm"] else None,
}  # fmt: skip


def _embedded(name: str, argv: list, command: Command, verdict: Verdict, depth: int) -> None:
    """Code hidden in strings: shells' -c scripts, eval, piped scripts, inline interpreter code."""
    if name == "eval":
        _script(None if None in argv[1:] else " ".join(argv[1:]), verdict, depth, "eval")
    elif name in SHELLS:
        flag = next((i for i, a in enumerate(argv[1:], 1) if a and re.fullmatch(r"-[a-z]*c[a-z]*", a)), None)
        if flag is not None:
            _script(argv[flag + 1] if flag + 1 < len(argv) else "", verdict, depth, f"{name} -c")
        elif not operands(argv):
            _script(_fed_code(command), verdict, depth, f"the script piped to {name}")
    elif INTERPRETERS.match(name):
        code_at = next((i for i, a in enumerate(argv[1:], 1) if a in CODE_FLAGS), None)
        if code_at is not None:
            code = argv[code_at + 1] if code_at + 1 < len(argv) else ""
        elif not [a for a in operands(argv) if a != "-"]:
            code = _fed_code(command)
        else:
            return  # a script file: opaque by design
        if code is None:
            verdict.deletions.append(f"{name} runs code computed at run time")
        elif DELETION_APIS.search(code):
            verdict.deletions.append(f"the {name} code calls a file-deletion function")


def _fed_code(command: Command) -> str | None:
    """The literal code a program reads on stdin: a heredoc, or echo/printf/cat-heredoc upstream; else None."""
    if command.stdin is not None or command.stdin_dynamic:
        return None if command.stdin_dynamic else command.stdin
    source = command.upstream
    if source is None:
        return ""
    if source.argv[:1] in (["echo"], ["printf"]) and None not in source.argv:
        return " ".join(source.argv[1:]).replace("\\n", "\n")
    if source.argv == ["cat"] and source.stdin is not None and not source.stdin_dynamic:
        return source.stdin
    return None
