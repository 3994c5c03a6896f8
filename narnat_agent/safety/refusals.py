"""Commands Bash refuses: plain file operations a dedicated tool does, and programs that wait for a human."""

import re

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.code import INTERPRETERS, SHELLS, interpreter_code
from narnat_agent.safety.sql import CLIENTS, has_code
from narnat_agent.safety.syntax import Command, names, operands, positionals, short_option

FILTERS = names("grep egrep fgrep head tail sort uniq cut tr nl cat column less more wc rg sed")
EDITORS = names(
    "vi vim nvim view vimdiff nvimdiff gvimdiff rview rvim ex nano pico emacs emacsclient joe micro mcedit ed kak "
    "helix hx jed ne mg"
)
TUIS = names(
    "htop btop bpytop atop iotop nvtop glances ncdu tig lazygit lazydocker k9s ranger nnn vifm broot mc less more "
    "most visudo vipw vigr passwd mutt neomutt links lynx w3m elinks fzf sk peco zellij byobu dialog whiptail nmtui "
    "alsamixer cmus weechat irssi"
)
REPLS = names("ipython R sbcl guile racket julia scala ocaml swipl")  # without a script to run
ALWAYS_REPLS = names("bpython ptpython irb pry ghci iex erl jshell utop clj")  # a file only preloads the session
CONTAINER_VALUES = names(
    "-e --env -v --volume -p --publish --name -w --workdir -u --user --network --entrypoint -l --label --env-file "
    "--mount --platform -m --memory --cpus -n --namespace -c --container --image --restart --hostname"
)
PATCH = {"-p", "--patch"}  # questions asked hunk by hunk, whatever the editor
NO_WAIT = {"--version", "-V", "--help", "-h", "-v"}
# -m/-F/-C anywhere in a short-option cluster (-qm, -am), or a long option that settles the message
COMMIT_MESSAGE = re.compile(r"-[a-zA-Z]*[mFC]|--(message|file|reuse-message|fixup|squash|no-edit|amend)\b")
# an awk program that only picks lines by number: NR==5, NR>=10 && NR<=20, optionally { print }
LINE_RANGE = re.compile(r"NR\s*[<>=!]=?\s*\d+(\s*&&\s*NR\s*[<>=!]=?\s*\d+)?\s*(\{\s*print\s*;?\s*\})?")
FOLLOW = re.compile(r"-[a-zA-Z]*f[a-zA-Z]*$|--follow$")
# grep's options that take the next word as their value: a short one when its cluster ends at the first letter
# that takes a value (-ie PATTERN, but -efoo), a long one written without "="
GREP_VALUE = re.compile(
    r"-[^efmABCdD]*[efmABCdD]|--(regexp|file|max-count|after-context|before-context|context|label|include|exclude"
    r"|exclude-dir|exclude-from|binary-files|directories|devices|group-separator)"
)
GREP_PATTERN = re.compile(r"-[^efmABCdD-]*[ef]|--(regexp|file)(=|$)")  # the pattern is given by an option
TAIL_FOLLOW = re.compile(r"-[a-zA-Z0-9]*[fF][a-zA-Z0-9]*$|--follow(=.*)?$")  # -f, -F, -Fn, -5f, --follow=name
BATCH = re.compile(r"-[a-zA-Z0-9]*b|--batch")  # top -b, -bn1, -n1b, --batch


def _plumbing(command: Command) -> bool:
    """The output feeds a program (not just a text filter) or is captured or saved: plumbing, not a read.
    Remembered per command, so a long pipeline is walked once."""
    chain: list[Command] = []
    after: Command | None = command
    while after is not None and after.plumbing is None:
        chain.append(after)
        after = after.downstream
    known = after.plumbing if after is not None else False
    for node in reversed(chain):
        saved = any(op in (">", ">>") and not (t or "").startswith("/dev/") for op, t in node.redirects)
        feeds = node.downstream is not None and (node.downstream.name not in FILTERS or known)
        node.plumbing = known = node.consumed or saved or feeds
    return bool(command.plumbing)


FOLLOWING = N_("{program} -f never ends: use Read to see the file")  # a file op that also never ends
TAIL_READ = N_("reading files with {program}: use Read (offset=-N for the last N lines)")
FROM_LINE = re.compile(r"(-n|--lines=?)?\+\d+")  # `tail -n +20`: from line 20 on, an offset like any other


def file_op(name: str, argv: list, command: Command) -> str | None:
    """Why a dedicated tool should do this instead, or None."""
    if name not in FILE_TOOLS_DO:
        return None
    files = [a for a in operands(argv) if a != "-"]
    flags = {a for a in argv[1:] if a and a.startswith("-")}
    if name in ("sed", "gsed") and any(re.fullmatch(r"-[nErsuz]*i.*", f) or f.startswith("--in-place") for f in flags):
        return Said(N_("editing files with sed -i: use Edit"))
    if name == "perl" and any(re.fullmatch(r"-[pnlae0-9]*i\S*", f) for f in flags):
        return Said(N_("editing files with perl -i: use Edit"))
    if name in ("awk", "gawk") and "inplace" in argv and "-i" in argv:
        return Said(N_("editing files with awk -i inplace: use Edit"))
    if name == "tail" and any(TAIL_FOLLOW.match(f) for f in flags):  # bounded by a timeout, it watches for a while
        return None if command.background else Said(FOLLOWING, program=name)
    if name == "tee" and files and command.stdin is not None and not command.stdin_dynamic:
        return Said(N_("writing files with tee: use Write (or Edit)"))
    if _plumbing(command) or command.stdin is not None or command.upstream is not None or command.stdin_file:
        return None
    return _read_or_search(name, argv, flags, files)


def _read_or_search(name: str, argv: list, flags: set[str], files: list) -> str | None:
    if name == "tail" and files and not any(FROM_LINE.fullmatch(a) for a in argv[1:] if a):
        return Said(TAIL_READ, program=name)  # the last lines: a model cannot count a growing log's lines for an offset
    if name in ("cat", "tac", "nl", "bat", "batcat", "head", "tail", "less", "more") and files:
        return Said(N_("reading files with {program}: use Read (offset/limit for a part)"), program=name)
    if name in ("sed", "gsed") and "-n" in flags and len(files) > 1:
        return Said(N_("printing lines with sed -n: use Read with offset and limit"))
    if name in ("awk", "gawk", "mawk") and len(files) > 1 and files[0] and LINE_RANGE.fullmatch(files[0].strip()):
        return Said(N_("printing lines with {program}: use Read with offset and limit"), program=name)
    if name in ("grep", "egrep", "fgrep") and (_grep_files(argv) or flags & {"-r", "-R", "--recursive"}):
        return Said(N_("searching files with {program}: use Grep"), program=name)
    if name in ("rg", "ag", "ack", "ripgrep"):
        return Said(N_("searching with {program}: use Grep (or Glob for file names)"), program=name)
    if name in ("fd", "fdfind", "locate") or name == "find" and not _find_acts(argv):
        return Said(N_("finding files with {program}: use Glob (names) or Grep (contents)"), program=name)
    if name == "ls" and ("--recursive" in flags or any(re.fullmatch(r"-[a-zA-Z1]*R[a-zA-Z1]*", f) for f in flags)):
        return Said(N_("listing a tree with {program}: use Glob"), program=name)
    if name == "tree":
        return Said(N_("listing a tree with {program}: use Glob"), program=name)
    return None


def _grep_files(argv: list) -> list[str]:
    """The literal file operands of grep: its words that are neither options nor their values, after the pattern
    (unless -e or -f gave it)."""
    words, skip, given, ended = [], False, False, False
    for word in argv[1:]:
        if skip:
            skip = False
        elif ended or word is None or not word.startswith("-"):
            words.append(word)
        elif word == "--":  # the options end
            ended = True
        else:
            given = given or bool(GREP_PATTERN.match(word))
            skip = bool(GREP_VALUE.fullmatch(word))
    return [w for w in words[0 if given else 1 :] if w is not None]


def _find_acts(argv: list) -> bool:
    return any(a in ("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fls") for a in argv)


def waits_for_terminal(name: str, argv: list, command: Command) -> str | None:
    """Why this would wait for a human at a terminal, or None."""
    if name not in WAITERS and not INTERPRETERS.match(name):
        return None
    args = [a for a in argv[1:] if a is not None]
    fed = command.stdin is not None or command.stdin_dynamic or command.upstream is not None or command.stdin_file
    if name == "git" and _edited(command) and {"rebase", "commit", "tag"} & set(args) and not PATCH & set(args):
        return None  # its editor is a program that returns at once: the todo list or message is not a person's
    if name in FOLLOWERS:
        return FOLLOWERS[name](args, bool(fed))
    if len(args) == 1 and args[0] in NO_WAIT:
        return None
    if name in EDITORS and not {"--batch", "-batch", "--script", "-s", "-es", "-Es"} & set(args):
        return Said(N_("{program} is an interactive editor: use Edit or Write"), program=name)
    if name in TUIS and not (name in ("fzf", "sk") and any(a.startswith(("-f", "--filter")) for a in args)):
        return Said(
            N_("{program} needs a terminal: drop it (pipe output directly) or use a non-interactive form"), program=name
        )
    if name in ("tmux", "screen") and not {"ls", "list-sessions", "-ls", "kill-server", "kill-session"} & set(args):
        return Said(N_("{program} needs a terminal: run the command directly"), program=name)
    if name == "top" and not any(BATCH.match(a) for a in args):
        return Said(N_("top is interactive: use top -bn1"))
    if name == "crontab" and "-e" in args:
        return Said(N_("crontab -e opens an editor: use crontab FILE"))
    return None if fed else _repl(name, argv, args, command)


def _edited(command: Command) -> bool:
    """git's editor is set in front of the command to a program that is no interactive editor (`:`, `true`, a
    sed script): `GIT_SEQUENCE_EDITOR=: git rebase -i`, `GIT_EDITOR=true git commit`."""
    for assignment in command.assignments:
        variable, _, value = assignment.partition("=")
        program = value.strip("\"'").split(" ", 1)[0].rsplit("/", 1)[-1]
        if variable in ("GIT_SEQUENCE_EDITOR", "GIT_EDITOR") and program not in EDITORS:
            return True
    return False


def _repl(name: str, argv: list, args: list[str], command: Command) -> str | None:
    if INTERPRETERS.match(name):
        kind, _ = interpreter_code(name, argv)
        asked = {"-i", "--interactive"} if name != "perl" else set()
        debugger = args[:2] in (["-m", "pdb"], ["-m", "ipdb"])  # the debugger's prompt waits for a person
        waits = kind == "stdin" or asked & set(args) or name.startswith("php") and "-a" in args or debugger
        waits = waits or args[:1] == ["repl"] or _app_shell(name, args)
    elif name in CLIENTS:
        waits = not has_code(name, argv, command)
    elif name == "redis-cli":
        waits = not positionals(args, {"-h", "-p", "-a", "-n", "-u", "--user", "--pass"})
    elif name == "ssh":
        waits = "-t" in args or len(positionals(args, {"-i", "-p", "-o", "-l", "-F", "-J", "-L", "-R", "-D"})) <= 1
    elif name in SHELLS:  # a shell given no script and nothing on its input waits for commands
        waits = None not in argv[1:] and set(args) <= {"-l", "-i", "-il", "-li", "--login", "--noprofile", "--norc"}
    elif name in REPLS or name in ALWAYS_REPLS:
        waits = name in ALWAYS_REPLS or not [a for a in args if not a.startswith("-")]
    else:
        waits = name in ("sftp", "ftp", "telnet") or _app_shell(name, args)
    return (
        Said(N_("{program} waits for input: pass code with -c/-e, a script file, or feed it on stdin"), program=name)
        if waits
        else None
    )


def _app_shell(name: str, args: list[str]) -> bool:
    """A framework's console: manage.py shell, flask shell, rails console, artisan tinker."""
    if name == "rails":
        return args[:1] in (["console"], ["c"], ["dbconsole"], ["db"])
    runs_app = name == "flask" or any(a.endswith(("manage.py", "artisan")) for a in args)
    return runs_app and args[-1:] in (["shell"], ["dbshell"], ["tinker"], ["shell_plus"])


def _git_interactive(args: list[str], fed: bool) -> str | None:
    words = [a for a in args if not a.startswith("-")]
    sub, flags = (words[:1] or [""])[0], set(args)
    if sub == "commit" and not any(COMMIT_MESSAGE.match(a) for a in args):
        return Said(N_("git commit without -m opens an editor: use git commit -m 'message'"))
    if sub == "rebase" and flags & {"-i", "--interactive"}:
        return Said(N_("git rebase -i opens an editor: rebase without -i"))
    patch = flags & {"-p", "--patch", "-i", "--interactive"}
    if patch and (sub in ("add", "checkout", "reset", "restore") or sub == "stash" and words[1:2] in ([], ["push"])):
        return Said(N_("git {subcommand} -p/-i asks questions: name the paths instead"), subcommand=sub)
    if sub == "mergetool":
        return Said(N_("git mergetool needs a terminal: resolve conflicts with Edit"))
    if sub == "tag" and flags & {"-a", "-s"} and not any(a.startswith("-m") for a in args):
        return Said(N_("git tag -a without -m opens an editor: add -m 'message'"))
    return None


def _containers(args: list[str], fed: bool) -> str | None:
    words = [a for a in args if not a.startswith("-")]
    sub = words[1] if words[:1] == ["compose"] and len(words) > 1 else (words[:1] or [""])[0]
    # input and a terminal make it wait: with -i alone it reads Bash's empty stdin, with -t alone it only prints
    own = _own_options(args, sub)
    terminal = _flag(own, "t", "--tty") and _flag(own, "i", "--interactive", "--stdin")
    if sub in ("run", "exec", "attach") and (terminal or sub == "attach") and not fed:
        return Said(N_("it waits for a terminal: drop -it (or run the command non-interactively)"))
    if sub == "logs" and any(FOLLOW.match(a) for a in args):
        return Said(N_("following logs never ends: drop -f (use --tail N)"))
    if sub == "get" and (watch := {"-w", "--watch", "--watch-only"} & set(args)):
        return Said(N_("{option} watches for changes and never ends: drop it, or put timeout N in front"),
                    option=min(watch))  # fmt: skip
    if sub == "up" and words[:1] == ["compose"] and not {"-d", "--detach", "--help"} & set(args):
        return Said(N_("docker compose up never ends: add -d (--detach)"))
    if sub == "stats" and "--no-stream" not in args or sub == "events":
        return Said(N_("{subcommand} never ends: use --no-stream or a one-shot command"), subcommand=sub)
    return None


def _own_options(args: list[str], sub: str) -> list[str]:
    """The options of `run`/`exec` itself: those before the image or container (the command after it has its own)."""
    own: list[str] = []
    rest = args[args.index(sub) + 1 :] if sub in args else []
    for i, word in enumerate(rest):
        if not word.startswith("-") and (i == 0 or rest[i - 1] not in CONTAINER_VALUES):
            break
        own.append(word)
    return own


def _flag(args: list[str], letter: str, *long: str) -> bool:
    """A one-letter option in a cluster (not a detached run's), or one of its long names."""
    return any(short_option([a], letter) and "d" not in a for a in args) or bool(set(long) & set(args))


FOLLOWERS = {
    "git": _git_interactive,
    "docker": _containers,
    "podman": _containers,
    "kubectl": _containers,
    "docker-compose": lambda a, fed: _containers(["compose", *a], fed),
    "journalctl": lambda a, fed: (
        Said(N_("journalctl -f never ends: use -n N")) if any(FOLLOW.match(x) for x in a) else None
    ),
    "dmesg": lambda a, fed: Said(N_("dmesg -w never ends")) if {"-w", "--follow", "-W"} & set(a) else None,
    "npm": lambda a, fed: (
        Said(N_("npm init asks questions: use npm init -y"))
        if a[:1] == ["init"] and not {"-y", "--yes"} & set(a)
        else None
    ),
    "gh": lambda a, fed: (
        Said(N_("gh auth login asks questions: use --with-token"))
        if a[:2] == ["auth", "login"] and "--with-token" not in a
        else None
    ),
}
# the programs each check is about, so that every other command is passed over at once
FILE_TOOLS_DO = names(
    "cat tac nl bat batcat head tail less more sed gsed perl awk gawk mawk grep egrep fgrep rg ripgrep ag ack fd "
    "fdfind locate find ls tree tee"
)
WAITERS = (
    EDITORS
    | TUIS
    | REPLS
    | ALWAYS_REPLS
    | CLIENTS.keys()
    | FOLLOWERS.keys()
    | SHELLS
    | names("tmux screen top crontab redis-cli ssh sftp ftp telnet rails flask")
)
