"""What a command may change, for plan mode: nothing (it only reads, so it runs) or why it may change something.

The judgment is narrow on purpose, and fails closed: a command changes nothing only when every simple command in it
(pipelines, `$( )`, `&&` chains) is a program that only reads — listings, viewers, searches, counts, hashes,
`git`'s read-only subcommands, a program's `--version` — used without an option that writes, and no redirection
writes a file (`/dev/null` and the other devices excepted). Test runners, builds, package managers, interpreters
and scripts may change files (caches, outputs, installs), so they wait for the plan's approval, as does anything
the analysis cannot read (text computed at run time, a parse it cannot finish).
"""

import re
from pathlib import Path

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.edits import ADDRESS, SED_VALUES, sed_scripts
from narnat_agent.safety.rules import analyze
from narnat_agent.safety.syntax import Command, names, operands, parse, positionals, short_option

READERS = names("""
    ls dir vdir cat tac head tail wc nl od hexdump grep egrep fgrep rg ag ack pwd echo printf which whereis
    type file stat tree du df basename dirname realpath readlink whoami id groups uname hostname
    printenv true false test [ md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum cut tr
    column seq jq yq diff cmp comm cd pushd popd ps pgrep uptime free nproc locale tput sleep fold fmt expand
    unexpand rev strings
""")  # fmt: skip
WRITING_OPTIONS = {"sort": ("-o", "--output"), "tree": ("-o",), "date": ("-s", "--set"), "uniq": ()}
# the one-letter options each takes without a value: they may come before the writing one in a cluster (`sort -uo`)
FLAGS = {"sort": "bcCdfghiMmnRrsuVz", "tree": "acdfghilnpqrstuvxACDFNQS", "date": "Ru"}
VERSIONED = names("""
    python python3 py pip pip3 uv poetry node npm npx pnpm yarn bun deno go cargo rustc rustup gcc g++ clang make
    cmake java javac mvn gradle ruby gem php perl dotnet swift git docker kubectl terraform
""")
VERSION_WORDS = {"--version", "-V", "version", "--help", "-h", "help"}
GIT_READERS = names("""
    status log show diff blame grep ls-files ls-tree ls-remote rev-parse rev-list describe shortlog cat-file
    name-rev merge-base show-ref count-objects whatchanged cherry help version annotate
""")
GIT_LISTINGS = {  # subcommands that only read when used as listings: the options allowed with them
    "branch": {"-a", "-r", "-v", "-vv", "--list", "--all", "--remotes", "--show-current", "--merged", "--no-merged",
               "--contains", "-l"},
    "tag": {"-l", "--list", "-n"},
    "remote": {"-v", "--verbose", "show", "get-url"},
    "stash": {"list", "show"},
    "worktree": {"list"},
    "config": {"--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin"},
    "reflog": {"show"},
}  # fmt: skip
# the options or words that make the listing take names or patterns (`git config --get user.name`, `git tag -l 'v*'`):
# without one, a name creates, sets or adds it (`git branch feature`, `git config user.name Ann`)
GIT_NAMED = {
    "branch": {"-l", "--list", "--contains", "--merged", "--no-merged"},  # git-branch(1): each implies --list
    "tag": {"-l", "--list"},
    "remote": {"show", "get-url"},
    "stash": {"show"},
    "config": {"--get", "--get-all", "--get-regexp"},
    "reflog": {"show"},
}
# sed's commands that write a file, each where a command starts: `w FILE` after its address, s///'s w flag
SED_WRITES = re.compile(
    rf"(?:^|[\n;{{}}])\s*(?:{ADDRESS})?\s*!?\s*(?:[wW]\s*\S"
    r"|s([^\s\\])(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[gpiImMe0-9]*w)"
)
AWK_FILES = ("--file", "--exec", "--include", "--load")  # gawk's long options whose program is in a file
FIND_WRITES = ("-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls")


def changes(source: str, cwd: Path | None = None) -> list[str]:
    """Why the command may change something (each reason a Said, for the person and the model alike); [] when it
    only reads."""
    reasons = list(analyze(source, cwd).deletions)
    script = parse(source)
    if script.broken:
        reasons.append(Said(N_("part of the command cannot be read")))
    for command in script.commands:
        reasons += _writes(command)
    return list(dict.fromkeys(reasons))


def _writes(command: Command) -> list[str]:
    found: list[str] = [
        Said(N_("the redirection writes {file}"), file=target or "?")
        for operator, target in command.redirects
        if ">" in operator and not (target or "").startswith("/dev/")
    ]
    argv = command.argv
    if not argv:
        return found
    name = command.name
    # a reader's words may expand at run time (`cat "$f"`): whatever they become, it reads
    if name is None or (name not in READERS and any(word is None for word in argv)):
        return [*found, Said(N_("it runs what is computed at run time"))]
    words = [w for w in argv[1:] if w is not None]
    if not _reads_only(name, words):
        found.append(
            Said(
                N_("{program} may change files"),
                program=f"git {words[0]}" if name == "git" and words else name,
            )
        )
    return found


def _reads_only(name: str, words: list[str]) -> bool:
    if name in WRITING_OPTIONS:
        return _sorting(name, words)
    if name == "find":
        return not any(w.startswith(FIND_WRITES) for w in words)
    if name == "sed":
        return _sed_reads(words)
    if name in ("awk", "gawk", "mawk"):
        # a command runs only through `|` (getline's too) or system(); `getline < file` reads; a program read from
        # a file (-f, gawk's -E, -i and -l) is not read here
        if any(re.fullmatch(r"-[fEil].*", w) or w.startswith(AWK_FILES) for w in words):
            return False
        return not any(part in w for w in words for part in (">", "|", "system"))
    if name == "git":
        return _git_reads(words)
    if name == "env":
        return all(
            w is not None and "=" in w for w in operands([name, *words])
        )  # `env` lists; `env X=1 prog` runs prog
    if name == "command":
        return short_option(words, "v") or short_option(words, "V")  # `command prog` runs prog
    if name in READERS:
        return True
    return name in VERSIONED and len(words) == 1 and words[0] in VERSION_WORDS


def _sed_reads(words: list[str]) -> bool:
    """sed reads unless -i edits in place (its backup's suffix attached: `-i.bak`), a script from a file (-f) is not
    read here, or the script writes a file (`w FILE`, `s/a/b/w FILE`)."""
    if any(re.fullmatch(r"-[a-zA-Z0-9]*i\S*", w) or w.startswith("--in-place") for w in words):
        return False
    if any(re.fullmatch(r"-[nErsuz]*f.*", w) or w.startswith("--file") for w in words):
        return False
    codes = sed_scripts(words)
    scripts = codes or positionals(words, (*SED_VALUES, "-e", "--expression"))[:1]
    return not any(SED_WRITES.search(script) for script in scripts if script)


def _sorting(name: str, words: list[str]) -> bool:
    """sort and tree write with -o; date sets the clock with -s; uniq writes its second operand."""
    if name == "uniq":
        return len(operands([name, *words])) < 2
    cluster = re.compile(rf"-[{FLAGS[name]}]+{WRITING_OPTIONS[name][0][1]}.*")
    return not any(w.startswith(WRITING_OPTIONS[name]) or cluster.fullmatch(w) for w in words)


def _git_reads(words: list[str]) -> bool:
    """git's read-only subcommands; -c and --exec-path may run code, so only -C and --no-pager come before one."""
    while words and words[0] in ("-C", "--no-pager", "-P"):
        words = words[2:] if words[0] == "-C" else words[1:]
    if not words:
        return False
    sub, rest = words[0], words[1:]
    if sub in GIT_READERS or sub == "--version":
        return not any(w.startswith("--output") for w in rest)
    if sub in GIT_LISTINGS:
        allowed, named = GIT_LISTINGS[sub], bool(GIT_NAMED.get(sub, set()) & set(rest))
        return all(
            w in allowed or (sub in ("branch", "tag") and w.startswith("--format")) or named and not w.startswith("-")
            for w in rest
        ) and (
            sub not in ("stash", "worktree") or bool(rest)  # `git reflog` alone is `git reflog show`
        )
    return False
