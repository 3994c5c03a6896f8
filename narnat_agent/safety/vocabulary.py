"""What a command's own words say it does, for programs and subcommands no table knows: `minikube delete`,
`drizzle-kit drop`, `supabase projects delete`, `bazel clean --expunge`, `./scripts/reset-db.sh`.

The words read are the program's name, its subcommands (the words before its first option that look like
subcommands, not paths or values) and its long options; each is split into its parts (`db:reset`, `dropAll`,
`--zap-all`). A part in the vocabulary of destruction asks; so does a verb that destroys only what it is done to
(`clean`, `fresh`, `rollback`, `down`) when the words name a data store (`atlas schema clean`, `knex migrate:down`,
`yarn db:fresh`), and so does an import told to replace what is there (`convex import --replace`). A command that
names a database (a database URL, a `$DATABASE_URL`, a `-database` option) has its words after its options read
too, as migration tools take their command there (`goose -dir m postgres "$DB" reset`). An option that declines
the backup (`--no-backup`) asks; a rehearsal (`--dry-run`, `--help`) does not. Every family of the table has the
subcommands its forms lack read so (`podman system reset`, `terragrunt run-all destroy`). The vocabulary was
designed on the Bash corpora of tests/safety, before the held-out long tail was read again: its false positives
on every benign list there are none (docs/safety.md has the figures).
"""

import re
from collections.abc import Sequence

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import NOT_UNDOABLE, REGENERABLE, Argv
from narnat_agent.safety.syntax import names

VERBS = names(  # parts of a name or a subcommand that say it destroys
    "delete del destroy drop purge reset prune wipe zap expunge erase flush truncate uninstall remove rm rmi nuke "
    "unset unpublish"
)
SHORT = names("rm rmi del")  # as a target's or script's whole name, an abbreviation that may mean anything (make rm)
STORES = names("db database databases schema schemas table tables migrate migration migrations data")
# they destroy the store they are done to (`redo` undoes before it does again; piccolo's `backwards` undoes)
EMPTIES = names("clean clear fresh rollback downgrade down revert undo redo backwards")
UNDOES = names("rollback downgrade down revert undo redo backwards")  # … back to nothing with ALL's targets
ALL = names("--all all 0 zero base")  # `ecto.rollback --all`, `rollback -t 0`, `--migration_id=all`: every step
PUSHES = names("push")  # a script named for pushing to a store replaces what it holds (db:push-remote)
REBUILDS = (("full", "refresh"),)  # two parts that say a store is rebuilt from nothing (dbt's --full-refresh)
OPTION_VERBS = VERBS - {"rm"} | names("clear clean")
TIDY = names("--remove-orphans --remove-source-files")  # they clean up after the run, nothing the user keeps
FORCED = names("push migrate")  # `--force` on these overwrites what is there (drizzle-kit push --force)
LOADS = names("import load restore")  # with `--replace` or `--overwrite`, what they load replaces what is there
REPLACES = names("replace overwrite")
DECLINES = names("no skip without omit")  # `--no-backup`: what would have been kept is not
KEPT = names("backup backups snapshot snapshots")
REHEARSALS = names(  # `--dump`: the SQL is printed instead of run (mikro-orm schema:drop --dump)
    "--dry-run --dryrun --dry --help -h --version --print --plan --preview --check --what-if --list --dump --dump-sql"
)
SUBCOMMAND = re.compile(r"[A-Za-z][\w:.-]*")  # no path, no value: `db:reset`, `ecto.reset`, `delete-cache`
CACHES = names("cache caches cached")  # what a cache held, its tool makes again
PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
DATABASE_URL = re.compile(
    r"(?:postgres(?:ql)?|mysql|mariadb|sqlite3?|mongodb(?:\+srv)?|rediss?|clickhouse|cockroachdb|sqlserver|mssql)"
    r"(?::|$)|jdbc:",
    re.IGNORECASE,
)
DATABASE_WORDS = names("database db dsn datasource pg postgres mysql mongo")  # in a variable's or an option's name
VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*)")
MAX_SUBCOMMANDS = 3


def parts(word: str) -> list[str]:
    """The words a name is made of, in lower case: `dropAll` → drop, all; `db:push-remote` → db, push, remote."""
    return [part.lower() for part in PARTS.findall(word)]


def _rebuilds(found: list[str]) -> bool:
    return any(tuple(found[i : i + len(p)]) == p for p in REBUILDS for i in range(len(found)))


def destructive_words(words: list[str], context: list[str]) -> list[str]:
    """The words among these (names, subcommands) that say they destroy: a verb of destruction, or one that
    empties a data store named among the words or the context (`schema clean`, `db:fresh`); "" in the context
    says the command names a database."""
    every = {p for w in [*words, *context] for p in parts(w)}
    store = bool(STORES & every) or "" in context
    return [
        word
        for word in words
        if VERBS & set(parts(word)) or _rebuilds(parts(word)) or store and EMPTIES & set(parts(word))
    ]


def to_nothing(words: list[str], args: list[str]) -> list[str]:
    """The words that undo every step, whatever the store (`mix ecto.rollback --all`, `phinx rollback -t 0`): a verb
    that undoes among the subcommands, and `--all`, 0, zero or base as a word or an option's value."""
    if not any(UNDOES & set(parts(word)) for word in words):
        return []
    return [a for a in args if a in ALL or a.startswith("-") and a.partition("=")[2] in ALL - {"--all"}]


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
        if not _subcommand(word):
            break  # a path, a file, a value: what the command acts on, not what it does
        found.append(word)
    return found


def _subcommand(word: str) -> bool:
    extension = re.search(r"\.(\w{1,4})$", word)  # `ecto.drop` is a task, `release.zip` a file
    return bool(SUBCOMMAND.fullmatch(word)) and not (extension and extension.group(1) not in VERBS)


def names_a_database(argv: Argv, raw: list[str]) -> bool:
    """The command names a database: a database URL or dialect among its words, a variable or an option whose
    name says database (`$DATABASE_URL`, `-database`, `--db-url`)."""
    for word in [*(w for w in argv[1:] if w is not None), *raw[1:]]:
        value = word.split("=", 1)[-1].strip("\"'")
        if DATABASE_URL.match(value) or any(DATABASE_WORDS & set(parts(v)) for v in VARIABLE.findall(word)):
            return True
        if word.startswith("-") and DATABASE_WORDS & set(parts(word.split("=", 1)[0])):
            return True
    return False


def _commands_after_options(argv: Argv, before: list[str]) -> list[str]:
    """The words after the options that a migration tool takes as its command and that destroy: each starts with
    a verb (`reset`, `dropAll`, `down`), so a migration's name (`create add_drop_column`) is no command."""
    return [
        w
        for w in argv[1:]
        if w is not None and not w.startswith("-") and w not in before and _subcommand(w)
        if parts(w)[:1] and parts(w)[0] in VERBS | EMPTIES
    ]


def declined(args: list[str]) -> list[str]:
    """The options that decline what would have been kept: `--no-backup`, `--skip-snapshot`."""
    found = []
    for option in (a.split("=", 1)[0] for a in args if a.startswith("--")):
        split = parts(option)
        if len(split) > 1 and split[0] in DECLINES and set(split[1:]) <= KEPT:
            found.append(option)
    return found


def said_by_words(name: str, argv: Argv, values: frozenset[str] | None = None, raw: Sequence[str] = ()) -> list[str]:
    """Why the words of a command no table knows say it destroys: its name or subcommands hold a verb of
    destruction, a long option does (`--purge`, `--zap-all`, `--clear`), `--force` is given to a push or a
    migration, or an option declines the backup. With `values` (a known program's options that take a value),
    only its subcommands and the declining options are read: its name and other options are the table's to know.
    `raw` (the words as written) tells whether the command names a database, whose words are then all read."""
    args = [a for a in argv[1:] if a is not None]
    if REHEARSALS & {a.split("=", 1)[0] for a in args}:
        return []
    words = subcommands(argv, values or frozenset())
    program = values is None and len(parts(name)) > 1 and re.fullmatch(r"[\w.+-]+", name)  # a program's name
    database = [""] if names_a_database(argv, list(raw)) else []
    later = _commands_after_options(argv, words) if database else []
    named = destructive_words(([name] if program else []) + words, [name, *database]) + later
    if every := to_nothing(words, args):
        named += [w for w in words if UNDOES & set(parts(w)) and w not in named]
    options = [a.split("=", 1)[0] for a in args if a.startswith("--") and not a.startswith("--no-")]
    flagged = [o for o in options if OPTION_VERBS & set(parts(o)) and o not in TIDY] if values is None else []
    flagged += [o for o in options if _rebuilds(parts(o)) and o not in flagged] if values is None else []
    if values is None and "--force" in options and FORCED & {p for w in words for p in parts(w)}:
        flagged.append("--force")
    if LOADS & {p for w in words for p in parts(w)}:
        flagged += [o for o in options if REPLACES & set(parts(o)) and o not in flagged]
    flagged += declined(args) + [a for a in every if a not in flagged]
    if not named and not flagged:
        return []
    undo = REGENERABLE if CACHES & {p for w in [*named, *flagged] for p in parts(w)} else NOT_UNDOABLE
    return [Said(N_("{command}: its words say it destroys, and Narnat does not know what — {undo}"),
                 command=" ".join([name, *words, *[w for w in named if w in later], *flagged]), undo=undo)]  # fmt: skip


def said_by_name(kind: str, name: str) -> list[str]:
    """A script that cannot be read (a package script, a make target: `kind`, said), whose name says it destroys:
    a verb of destruction, or one that empties or replaces a store named with it (`clean-db`, `db:push-remote`)."""
    split = set(parts(name))
    if (
        not (VERBS - SHORT) & split
        and not _rebuilds(parts(name))
        and not (STORES & split and (EMPTIES | PUSHES) & split)
    ):
        return []
    return [Said(N_("the {kind} {name} cannot be read here, and its name says it destroys — {undo}"), kind=kind,
                 name=name, undo=NOT_UNDOABLE)]  # fmt: skip
