"""What a command's own words say it does, for programs and subcommands no table knows: `minikube delete`,
`drizzle-kit drop`, `supabase projects delete`, `bazel clean --expunge`, `./scripts/reset-db.sh`.

The words read are the program's name, its subcommands (the words before its first option that look like
subcommands, not paths or values) and its long options; each is split into its parts (`db:reset`, `dropAll`,
`--zap-all`). A part in the vocabulary of destruction asks; a rehearsal (`--dry-run`, `--help`) does not. The
vocabulary was designed on the Bash corpora of tests/safety: see the long-tail corpus's test for its false
positives on every benign corpus.
"""

import re

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import NOT_UNDOABLE, REGENERABLE, Argv
from narnat_agent.safety.syntax import names

VERBS = names(  # parts of a name or a subcommand that say it destroys
    "delete destroy drop purge reset prune wipe zap expunge erase flush truncate uninstall remove rm rmi nuke"
)
SHORT = names("rm rmi")  # as a target's or script's whole name, an abbreviation that may mean anything (make rm)
OPTION_VERBS = VERBS - {"rm"} | names("clear clean")
TIDY = names("--remove-orphans --remove-source-files")  # they clean up after the run, nothing the user keeps
FORCED = names("push migrate")  # `--force` on these overwrites what is there (drizzle-kit push --force)
FRESH = re.compile(r"migrate\W*fresh")  # migrate:fresh drops every table first
REHEARSALS = names("--dry-run --dryrun --help -h --version --print --plan --preview --check --what-if --list")
SUBCOMMAND = re.compile(r"[A-Za-z][\w:.-]*")  # no path, no value: `db:reset`, `ecto.reset`, `delete-cache`
CACHES = names("cache caches cached")  # what a cache held, its tool makes again
PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
MAX_SUBCOMMANDS = 3


def parts(word: str) -> list[str]:
    """The words a name is made of, in lower case: `dropAll` → drop, all; `db:push-remote` → db, push, remote."""
    return [part.lower() for part in PARTS.findall(word)]


def destructive_words(words: list[str]) -> list[str]:
    """The words among these (names, subcommands) that say they destroy."""
    return [word for word in words if VERBS & set(parts(word)) or FRESH.search(word.lower())]


def subcommands(argv: Argv, values: frozenset[str] = frozenset()) -> list[str]:
    """The words after the program name that name what it does: those before its first option (or, when the
    options that take a value are known, among its positional words), up to three, none a path or a value."""
    found: list[str] = []
    skip = False
    for word in argv[1:]:
        if skip:
            skip = False
            continue
        if word is None or len(found) == MAX_SUBCOMMANDS:
            break
        if word.startswith("-"):
            if not values:
                break
            skip = word in values
            continue
        extension = re.search(r"\.(\w{1,4})$", word)  # `ecto.drop` is a task, `release.zip` a file
        if not SUBCOMMAND.fullmatch(word) or extension and extension.group(1) not in VERBS:
            break  # a path, a file, a value: what the command acts on, not what it does
        found.append(word)
    return found


def said_by_words(name: str, argv: Argv, values: frozenset[str] | None = None) -> list[str]:
    """Why the words of a command no table knows say it destroys: its name or subcommands hold a verb of
    destruction, a long option does (`--purge`, `--zap-all`, `--clear`), or `--force` is given to a push or a
    migration. With `values` (a known program's options that take a value), only its subcommands are read: its
    name and options are the table's to know."""
    args = [a for a in argv[1:] if a is not None]
    if REHEARSALS & {a.split("=", 1)[0] for a in args}:
        return []
    words = subcommands(argv, values or frozenset())
    program = values is None and len(parts(name)) > 1 and re.fullmatch(r"[\w.+-]+", name)  # a program's name
    named = destructive_words(([name] if program else []) + words)
    options = [a.split("=", 1)[0] for a in args if a.startswith("--") and not a.startswith("--no-")]
    flagged = [o for o in options if OPTION_VERBS & set(parts(o)) and o not in TIDY] if values is None else []
    if values is None and "--force" in options and FORCED & {p for w in words for p in parts(w)}:
        flagged.append("--force")
    if not named and not flagged:
        return []
    undo = REGENERABLE if CACHES & {p for w in [*named, *flagged] for p in parts(w)} else NOT_UNDOABLE
    return [Said(N_("{command}: its words say it destroys, and Narnat does not know what — {undo}"),
                 command=" ".join([name, *words, *flagged]), undo=undo)]  # fmt: skip


def said_by_name(kind: str, name: str) -> list[str]:
    """A script that cannot be read (a package script, a make target: `kind`, said), whose name says it destroys."""
    if not (VERBS - SHORT) & set(parts(name)) and not FRESH.search(name.lower()):
        return []
    return [Said(N_("the {kind} {name} cannot be read here, and its name says it destroys — {undo}"), kind=kind,
                 name=name, undo=NOT_UNDOABLE)]  # fmt: skip
