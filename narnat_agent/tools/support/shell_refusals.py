"""Commands Bash refuses: plain file operations a dedicated tool does, and programs that wait for a human."""

import re

from narnat_agent.tools.support.shell_syntax import Command, operands

FILTERS = {"grep", "egrep", "fgrep", "head", "tail", "sort", "uniq", "cut", "tr", "nl", "cat", "column", "less",
           "more", "wc", "rg"}  # fmt: skip
EDITORS = {"vi", "vim", "nvim", "nano", "pico", "emacs", "joe", "micro", "mcedit", "ed"}
TUIS = {"htop", "btop", "atop", "iotop", "ncdu", "tig", "lazygit", "ranger", "mc", "watch", "less", "more", "most",
        "visudo", "passwd", "vipw", "mutt", "links", "lynx", "w3m"}  # fmt: skip
REPLS = {"ipython", "bpython", "irb", "ghci", "R", "redis-cli", "mongosh", "mongo", "sftp", "ftp", "telnet"}


INTERPRETERS = re.compile(r"(python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|perl|ruby|php|Rscript|lua)$")


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


def file_op(name: str, argv: list, command: Command) -> str | None:
    """Why a dedicated tool should do this instead, or None."""
    files = [a for a in operands(argv) if a != "-"]
    flags = {a for a in argv[1:] if a and a.startswith("-")}
    reason = None
    if name == "sed" and any(f.startswith(("-i", "--in-place")) for f in flags):
        reason = "editing files with sed -i: use Edit"
    elif name == "perl" and any(re.fullmatch(r"-[pnlae0-9]*i\S*", f) for f in flags):
        reason = "editing files with perl -i: use Edit"
    elif name == "tail" and flags & {"-f", "-F", "--follow"}:
        reason = "tail -f never ends: use Read to see the file"
    elif _consumed(command) or command.stdin is not None or command.upstream is not None:
        return None
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
    return reason


def _grep_files(argv: list, flags: set[str]) -> list[str]:
    """The literal file operands of grep: those after the pattern (unless -e gave it)."""
    words = operands(argv)
    if not flags & {"-e", "-f", "--regexp", "--file"}:
        words = words[1:]
    return [w for w in words if w is not None and w != "-"]


def _find_acts(argv: list) -> bool:
    return any(a in ("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fls") for a in argv)


def waits_for_terminal(name: str, argv: list, command: Command) -> str | None:
    """Why this would wait for a human at a terminal, or None."""
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
    return reason


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


# -m/-F/-C anywhere in a short-option cluster (-qm, -am), or a long option that settles the message
COMMIT_MESSAGE = re.compile(r"-[a-zA-Z]*[mFC]|--(message|file|reuse-message|fixup|squash|no-edit|amend)\b")


def _git_interactive(args: list[str]) -> str | None:
    sub = next((a for a in args if not a.startswith("-")), "")
    flags = set(args)
    if sub == "commit" and not any(COMMIT_MESSAGE.match(a) for a in args):
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
