"""git: the forms that throw away uncommitted work or delete files, and the settings that make git run shell text."""

import copy
import os
import re
from pathlib import Path

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import NOT_UNDOABLE, OWN_FOLDER_LOST, Argv, Check, own_folder
from narnat_agent.safety.probes import MAX_LINES, git_lines, named
from narnat_agent.safety.syntax import COMPUTED, Command, names, positionals, short_option

GLOBAL_VALUES = {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"}
SHELL_SETTINGS = names(
    "core.fsmonitor core.sshcommand core.editor core.pager core.askpass sequence.editor diff.external "
    "credential.helper gpg.program core.hookspath pager.log pager.diff"
)
SHELL_SETTING_ENDS = (".textconv", ".clean", ".smudge", ".process", ".driver", ".command", ".cmd", ".program")
FILTERS = {
    "--env-filter",
    "--tree-filter",
    "--index-filter",
    "--parent-filter",
    "--msg-filter",
    "--commit-filter",
    "--tag-name-filter",
}
DISCARDS = names("clean rm reset checkout switch restore checkout-index read-tree stash worktree")
PUSH_VALUES = ("-o", "--push-option", "--repo", "--receive-pack", "--exec")
MAX_SPECS = 8  # refspecs of one push whose commits are listed
FILE_LIKE = re.compile(r"^(\.{1,2}|[~/:]|\./|\.\./)|/$|[*?[]|\.[A-Za-z][A-Za-z0-9]{0,9}$")


def git(argv: Argv, command: Command, check: Check) -> str | None:
    i = 1
    # where git works: a leading `cd DIR &&` moves it, each -C from there; its files and listings are that folder's
    folder = Path(check.directory) if check.directory and check.cwd else check.cwd
    while i < len(argv) and ((word := argv[i]) is None or word.startswith("-")):
        if word is None:
            return Said(N_("git gets an option computed at run time"))
        if word == "-c" and i + 1 < len(argv):
            _setting(argv[i + 1], check)
        if word == "-C" and folder is not None:
            given = argv[i + 1] if i + 1 < len(argv) else None
            folder = folder / os.path.expanduser(given) if given else None
        elif word.startswith(("--git-dir", "--work-tree")):
            folder = None  # another repository, another working tree: what git would list is not looked for
        i += 2 if word in GLOBAL_VALUES else 1
    if folder != check.cwd:
        check = copy.copy(check)  # the same verdict, looked at from where git works
        check.cwd = folder
    if i >= len(argv):
        return None
    sub, rest = argv[i], argv[i + 1 :]
    if sub is None:
        return Said(N_("the git subcommand is computed at run time"))
    if sub in DISCARDS and any(a is None or COMPUTED in a for a in rest):
        return Said(N_("git {subcommand} gets words computed at run time, which may discard work"), subcommand=sub)
    words = [COMPUTED if a is None else a for a in rest]  # `git rebase -x "$CMD"` runs code computed at run time
    if sub in SUBCOMMANDS:
        return SUBCOMMANDS[sub](words, check)
    return None


def _setting(assignment: str | None, check: Check) -> None:
    """`git -c key=value`: an alias starting with ! or a setting git runs as a command is shell text."""
    if assignment is None:
        check.verdict.deletions.append(Said(N_("git -c sets a value computed at run time")))
        return
    key, _, value = assignment.partition("=")
    key = key.lower()
    if key.startswith("alias."):
        check.script(
            value[1:] if value.startswith("!") else f"git {value}", Said(N_("the git alias {alias}"), alias=key[6:])
        )
    elif key in SHELL_SETTINGS or key.endswith(SHELL_SETTING_ENDS):
        check.script(value.lstrip("!"), f"git's {key}")


def _value(words: list[str], *options: str) -> list[str]:
    """The values given to options, as `--opt value`, `--opt=value` or `-xvalue`."""
    found = []
    for i, word in enumerate(words):
        for option in options:
            if word == option and i + 1 < len(words):
                found.append(words[i + 1])
            elif word.startswith(option + "=") or len(option) == 2 and word.startswith(option) and word != option:
                found.append(word[len(option) + (word[len(option) : len(option) + 1] == "=") :])
    return found


def _checkout(words: list[str], check: Check) -> str | None:
    if "--force" in words or short_option(words, "f"):
        return Said(N_("{git} discards uncommitted work"), git="git checkout -f")
    if {"-p", "--patch"} & set(words):
        return None  # refused: it asks questions
    if "--" in words:
        at = words.index("--")
        return _overwritten(positionals(words[:at])[:1], words[at + 1 :], check) if words[at + 1 :] else None
    if "-B" in words and (moved := words[words.index("-B") + 1 : words.index("-B") + 2]):
        start = positionals(words[words.index("-B") + 2 :])[:1] or ["HEAD"]
        return _moves("git checkout -B", moved[0], start[0], check)
    creates = {"-b", "-B", "--orphan"} & set(words)
    plain = positionals(words, ("-b", "-B", "--orphan", "--conflict"))
    if creates or not plain:
        return None
    # `git checkout Makefile` or `git checkout a.py b.py`: a first word naming a file makes every word a path, as
    # git takes them; otherwise `git checkout main Makefile` takes the files from the commit
    if check.cwd is not None and os.path.lexists(check.cwd / plain[0]):
        return _overwritten([], plain, check)
    if len(plain) > 1:
        return _overwritten(plain[:1], plain[1:], check)
    return _overwritten([], plain, check) if FILE_LIKE.search(plain[0]) else None


def _overwritten(source: list[str], paths: list[str], check: Check) -> str:
    """git checkout [TREE-ISH] -- PATHS: the files whose uncommitted changes go, listed by git when Bash is about to
    run it (from the index, the changes not staged; from a commit, the staged ones too)."""
    said = Said(N_("{git} overwrites uncommitted changes"), git="git checkout <paths>")
    return _uncommitted(said, ["HEAD"] if source else [], paths, check)


def _uncommitted(said: str, against: list[str], paths: list[str], check: Check) -> str:
    """`said`, naming the files git diff lists as changed (against the index, or `against` a commit)."""
    # only when Bash is about to run it is the listing worth its time
    listed = (
        git_lines(["diff", "--name-only", *against, "--", *paths], check.cwd)
        if check.env is not None and check.cwd
        else None
    )
    return named(listed, said)


def _switch_c(words: list[str], check: Check) -> str | None:
    """`git switch -C branch [start]` resets the branch to start when it exists, as checkout -B does."""
    at = next((i for i, w in enumerate(words) if w in ("-C", "--force-create")), None)
    if at is None or at + 1 >= len(words):
        return None
    start = positionals(words[at + 2 :])[:1] or ["HEAD"]
    return _moves("git switch -C", words[at + 1], start[0], check)


def _reset(words: list[str], check: Check) -> str | None:
    """--hard and --merge discard uncommitted work; all three move the branch, and the commits after the target
    leave it (--keep keeps the uncommitted changes, refusing where they would be lost)."""
    mode = next((m for m in ("--hard", "--merge", "--keep") if m in words), None)
    if mode is None:
        return None
    target = (positionals(words)[:1] or ["HEAD"])[0]
    leaving = _leaving(target, "HEAD", check)
    if mode == "--keep":
        kept = N_("git reset --keep moves the branch to {target}; uncommitted changes are kept")
        said: str = Said(kept, target=target)
    else:
        said = _uncommitted(Said(N_("{git} discards uncommitted work"), git=f"git reset {mode}"), ["HEAD"], [], check)
    return Said(N_("{said}; {leaving}"), said=said, leaving=leaving) if leaving else said


def _moves(git: str, branch: str, start: str, check: Check) -> str | None:
    """A branch set to another commit asks when commits leave it (listed with Bash's git; the text alone cannot
    tell whether the branch exists, as creating one is the common case)."""
    leaving = _leaving(start, branch, check)
    said = Said(N_("{git} moves the branch {branch} to {start}"), git=git, branch=branch, start=start)
    return Said(N_("{said}; {leaving}"), said=said, leaving=leaving) if leaving else None


def _leaving(target: str, tip: str, check: Check) -> str:
    """The commits reachable from tip but not from target — those that leave the branch — counted, with the first
    subjects; "" when they cannot be listed here (the text alone is read, or git cannot tell)."""
    if check.env is None or check.cwd is None or target.startswith("-") or tip.startswith("-"):
        return ""
    subjects = git_lines(["log", "--format=%s", f"{target}..{tip}", "--"], check.cwd)
    if not subjects:
        return ""
    count = len(subjects) if len(subjects) <= MAX_LINES else f"{MAX_LINES:,}+"
    shown = ", ".join(f"“{s[:60]}”" for s in subjects[:3]) + (", …" if len(subjects) > 3 else "")
    if count == 1:
        return Said(N_("1 commit leaves it ({subjects})"), subjects=shown)
    return Said(N_("{count} commits leave it ({subjects})"), count=str(count), subjects=shown)


def _push(words: list[str], check: Check) -> str | None:
    """A forced push: the commits each remote branch it rewrites would lose, as the remote-tracking branch knows
    them (listed with Bash's git; what the push destroys is said by the families table)."""
    forced = {"--force", "--force-with-lease", "--mirror"} & {w.split("=", 1)[0] for w in words} or short_option(
        words, "f"
    )
    given = positionals(words, PUSH_VALUES)
    remote, specs = (given[0], given[1:]) if given else ("origin", [])
    if check.env is None or check.cwd is None or not specs and not forced:
        return None
    if not specs:
        specs = git_lines(["rev-parse", "--abbrev-ref", "HEAD"], check.cwd) or []
    lost = []
    for spec in specs[:MAX_SPECS]:
        source, _, branch = spec.lstrip("+").partition(":")
        branch = (branch or source).removeprefix("refs/heads/")
        if (
            source
            and (forced or spec.startswith("+"))
            and (leaving := _leaving(source, f"refs/remotes/{remote}/{branch}", check))
        ):
            lost.append(
                Said(
                    N_("the remote branch {branch} is rewritten: {leaving}"),
                    branch=f"{remote}/{branch}",
                    leaving=leaving,
                )
            )
    return "; ".join(lost) or None


def _deletes(words: list[str]) -> bool:
    return bool({"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy"} & set(words))


def _stash(words: list[str]) -> str | None:
    """git-stash(1): drop deletes the stash it names (the latest, stash@{0}, when none), clear every stash."""
    if words[:1] == ["clear"]:
        return Said(N_("git stash clear deletes every stash — {undo}"), undo=NOT_UNDOABLE)
    if words[:1] == ["drop"]:
        return Said(N_("git stash drop deletes the stash {stash} — {undo}"), stash=" ".join(words[1:]) or "stash@{0}",
                    undo=NOT_UNDOABLE)  # fmt: skip
    return None


def _restore(words: list[str], check: Check) -> str | None:
    staged_only = ("--staged" in words or short_option(words, "S")) and not (
        "--worktree" in words or short_option(words, "W")
    )
    return None if staged_only else Said(N_("{git} overwrites uncommitted changes"), git="git restore")


def _run(words: list[str], check: Check, source: str, options: set[str]) -> None:
    for code in _value(words, *options):
        check.script(code, source)


def _rebase(words: list[str], check: Check) -> None:
    _run(words, check, "git rebase --exec", {"--exec", "-x"})


def _filter_branch(words: list[str], check: Check) -> None:
    _run(words, check, "git filter-branch", FILTERS)


def _submodule(words: list[str], check: Check) -> None:
    if "foreach" in words:
        rest = [w for w in words[words.index("foreach") + 1 :] if w not in ("--recursive", "-q", "--quiet")]
        check.script(" ".join(rest), "git submodule foreach")


def _bisect(words: list[str], check: Check) -> None:
    if words[:1] == ["run"]:
        check.command(Command(argv=list(words[1:])))


def _config(words: list[str], check: Check) -> None:
    """`git config alias.x '!…'` stores shell text that a later git command runs: checked now."""
    plain = [w for w in words if not w.startswith("-")]
    if len(plain) >= 2:
        _setting(f"{plain[0]}={plain[1]}", check)


def _clean(words: list[str], check: Check) -> str | None:
    """What git clean deletes, listed by its own dry run when Bash is about to run it: with -x or -X that includes
    what .gitignore names (a virtualenv, Narnat's own folder)."""
    if _dry(words) or {"-i", "--interactive"} & set(words):
        return None
    if short_option(words, "X"):
        said: str = Said(N_("git clean -X deletes the files .gitignore names"))
    elif short_option(words, "x"):
        said = Said(N_("git clean -x deletes untracked files and those .gitignore names"))
    else:
        said = Said(N_("git clean deletes untracked files"))
    listed = git_lines(["clean", "--dry-run", *words], check.cwd) if check.env is not None and check.cwd else None
    if listed is None:
        return said
    gone = [line.removeprefix("Would remove ") for line in listed if line.startswith("Would remove ")]
    said = named(gone, said)
    return Said(N_("{said} — {lost}"), said=said, lost=OWN_FOLDER_LOST) if own_folder(gone) else said


def _dry(words: list[str]) -> bool:
    return "--dry-run" in words or short_option(words, "n")


SUBCOMMANDS = {
    "clean": _clean,
    "rm": lambda w, c: (
        None if _dry(w) or "--cached" in w else Said(N_("git rm deletes the files from the working tree"))
    ),
    "reset": _reset,
    "branch": lambda w, c: (
        _moves("git branch -f", positionals(w)[0], (positionals(w)[1:] or ["HEAD"])[0], c)
        if ("--force" in w or short_option(w, "f")) and len(positionals(w)) in (1, 2) and not _deletes(w)
        else None
    ),
    "checkout": _checkout,
    "switch": lambda w, c: (
        Said(N_("{git} discards uncommitted work"), git="git switch")
        if {"-f", "--force", "--discard-changes"} & set(w)
        else _switch_c(w, c)
    ),
    "push": _push,
    "restore": _restore,
    "checkout-index": lambda w, c: (
        Said(N_("git checkout-index -f overwrites files")) if "--force" in w or short_option(w, "f") else None
    ),
    "read-tree": lambda w, c: Said(N_("git read-tree -u overwrites the working tree")) if "-u" in w else None,
    "stash": lambda w, c: _stash([x for x in w if not x.startswith("-")]),
    "worktree": lambda w, c: (
        Said(
            N_("git worktree remove --force deletes the working tree {path} and its changes — {undo}"),
            path=" ".join(x for x in w[w.index("remove") + 1 :] if not x.startswith("-")),
            undo=NOT_UNDOABLE,
        )
        if "remove" in w and ({"--force"} & set(w) or short_option(w, "f"))
        else None
    ),  # fmt: skip
    "rebase": _rebase,
    "filter-branch": _filter_branch,
    "submodule": _submodule,
    "bisect": _bisect,
    "config": _config,
}
