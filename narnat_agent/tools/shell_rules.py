"""What a shell command would do that Narnat cares about: delete files, do a file tool's job, or wait for a human."""

import re
from dataclasses import dataclass, field

from narnat_agent.tools.shell_syntax import Command, parse

MAX_DEPTH = 5
MAX_LENGTH = 10_000
MAX_COMMANDS = 200
SHELLS = {"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox-sh"}
INTERPRETERS = re.compile(r"(python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|perl|ruby|php|Rscript|lua)$")
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
FILTERS = {"grep", "egrep", "fgrep", "head", "tail", "sort", "uniq", "cut", "tr", "nl", "cat", "column", "less",
           "more", "wc", "rg"}  # fmt: skip
EDITORS = {"vi", "vim", "nvim", "nano", "pico", "emacs", "joe", "micro", "mcedit", "ed"}
TUIS = {"htop", "btop", "atop", "iotop", "ncdu", "tig", "lazygit", "ranger", "mc", "watch", "less", "more", "most",
        "visudo", "passwd", "vipw", "mutt", "links", "lynx", "w3m"}  # fmt: skip
REPLS = {"ipython", "bpython", "irb", "ghci", "R", "redis-cli", "mongosh", "mongo", "sftp", "ftp", "telnet"}


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


def _operands(argv: list[str | None]) -> list[str | None]:
    return [a for a in argv[1:] if a is None or not a.startswith("-") or a == "-"]


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
    for rule in (_deletion, _embedded, _file_op, _interactive):
        rule(name, argv, command, verdict, depth)


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
            targets = " ".join(a or "$…" for a in _operands(argv)) or "(no operands)"
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
        elif not _operands(argv):
            _script(_fed_code(command), verdict, depth, f"the script piped to {name}")
    elif INTERPRETERS.match(name):
        code_at = next((i for i, a in enumerate(argv[1:], 1) if a in CODE_FLAGS), None)
        if code_at is not None:
            code = argv[code_at + 1] if code_at + 1 < len(argv) else ""
        elif not [a for a in _operands(argv) if a != "-"]:
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


def _consumed(command: Command) -> bool:
    """The output feeds another program (not just a text filter) or is captured: plumbing, not a read."""
    if command.consumed:
        return True
    after = command.downstream
    while after is not None:
        if after.name not in FILTERS:
            return True
        after = after.downstream
    return any(op in (">", ">>") and not (t or "").startswith("/dev/") for op, t in command.redirects)


def _file_op(name: str, argv: list, command: Command, verdict: Verdict, depth: int) -> None:
    files = [a for a in _operands(argv) if a != "-"]
    flags = {a for a in argv[1:] if a and a.startswith("-")}
    reason = None
    if name == "sed" and any(f.startswith(("-i", "--in-place")) for f in flags):
        reason = "editing files with sed -i: use Edit"
    elif name == "perl" and any(re.fullmatch(r"-\w*i\w*", f) for f in flags):
        reason = "editing files with perl -i: use Edit"
    elif name == "tail" and flags & {"-f", "-F", "--follow"}:
        reason = "tail -f never ends: use Read to see the file"
    elif _consumed(command) or command.stdin is not None or command.upstream is not None:
        return
    elif name in ("cat", "tac", "nl", "bat", "batcat", "head", "tail", "less", "more") and files:
        reason = f"reading files with {name}: use Read (offset/limit for a part)"
    elif name == "sed" and "-n" in flags and files:
        reason = "printing lines with sed -n: use Read with offset and limit"
    elif name in ("grep", "egrep", "fgrep") and (_grep_files(argv, flags) or flags & {"-r", "-R", "--recursive"}):
        reason = f"searching files with {name}: use Grep"
    elif name in ("rg", "ag", "ack", "ripgrep"):
        reason = f"searching with {name}: use Grep (or Glob for file names)"
    elif name in ("fd", "fdfind", "locate") or name == "find" and not _find_acts(argv):
        reason = f"finding files with {name}: use Glob (names) or Grep (contents)"
    elif name == "ls" and flags & {"-R", "--recursive"}:
        reason = "listing a tree with ls -R: use Glob"
    if reason:
        verdict.file_ops.append(reason)


def _grep_files(argv: list, flags: set[str]) -> list[str]:
    """The literal file operands of grep: those after the pattern (unless -e gave it)."""
    operands = _operands(argv)
    if not flags & {"-e", "-f", "--regexp", "--file"}:
        operands = operands[1:]
    return [o for o in operands if o is not None and o != "-"]


def _find_acts(argv: list) -> bool:
    return any(a in ("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fls") for a in argv)


def _interactive(name: str, argv: list, command: Command, verdict: Verdict, depth: int) -> None:
    args = [a for a in argv[1:] if a is not None]
    fed = command.stdin is not None or command.stdin_dynamic or command.upstream is not None
    reason = None
    if name in EDITORS and not {"--batch", "-batch", "--script", "-s", "-es", "-Es"} & set(args):
        reason = f"{name} is an interactive editor: use Edit or Write"
    elif name in TUIS or name in ("tmux", "screen") and not {"ls", "list-sessions", "-ls"} & set(args):
        reason = f"{name} needs a terminal: drop it (pipe output directly) or use a non-interactive form"
    elif name == "top" and "-b" not in "".join(args):
        reason = "top is interactive: use top -bn1"
    elif name in ("crontab",) and "-e" in args:
        reason = "crontab -e opens an editor: use crontab FILE"
    elif not fed and _repl(name, args):
        reason = f"{name} without code waits for input: pass code with -c/-e or a script file"
    elif name == "git":
        reason = _git_interactive(args)
    elif name in ("docker", "podman", "kubectl") and {"-it", "-ti", "-t", "--tty"} & set(args):
        reason = f"{name} with a TTY flag waits for a terminal: drop -t/-it"
    elif name == "npm" and args[:1] == ["init"] and not {"-y", "--yes"} & set(args):
        reason = "npm init asks questions: use npm init -y"
    if reason:
        verdict.interactive.append(reason)


def _repl(name: str, args: list[str]) -> bool:
    if INTERPRETERS.match(name) and name != "perl":
        return not args or args == ["-i"] or args[:1] == ["-i"] and len(args) == 1
    if name in ("sqlite3",):
        return len([a for a in args if not a.startswith("-")]) <= 1
    if name in ("psql", "mysql"):
        return not {"-c", "-f", "-e", "--command", "--file", "--execute"} & set(args)
    if name == "ssh":
        return "-t" in args or len([a for a in args if not a.startswith("-")]) <= 1
    return name in REPLS and not args


def _git_interactive(args: list[str]) -> str | None:
    sub = next((a for a in args if not a.startswith("-")), "")
    flags = set(args)
    if sub == "commit" and not flags & {"-m", "-F", "-C", "--no-edit", "--fixup", "--message", "--file"} and not any(
        a.startswith(("-m", "--message=", "-F", "--file=", "--fixup=")) for a in args):  # fmt: skip
        return "git commit without -m opens an editor: use git commit -m 'message'"
    if sub == "rebase" and flags & {"-i", "--interactive"}:
        return "git rebase -i opens an editor: rebase without -i"
    if sub in ("add", "checkout", "reset", "restore", "stash") and flags & {"-p", "--patch", "-i", "--interactive"}:
        return f"git {sub} -p/-i asks questions: name the paths instead"
    if sub == "mergetool":
        return "git mergetool needs a terminal: resolve conflicts with Edit"
    if sub == "tag" and flags & {"-a", "-s"} and not any(a.startswith("-m") for a in args):
        return "git tag -a without -m opens an editor: add -m 'message'"
    return None
