"""SQL (and MongoDB shell code) that reaches a database client: what it would destroy, read by a real SQL parser.

The text comes from the client's code options (`psql -c`, `mysql -e`, `mongosh --eval`), its stdin (a heredoc, a
herestring, `echo … |`), a file it is told to run when that file exists, or sqlite3's second word. DROP, TRUNCATE,
DELETE, UPDATE and ALTER … DROP ask; SQL the parser cannot read asks only when it names one of those. A framework's
database console (`manage.py dbshell`, `rails dbconsole`, `heroku pg:psql`) is a client of its stdin; a program no
table knows that is given a statement written as SQL (`snowsql -q "DROP TABLE t"`, `wrangler d1 execute
--command …`) runs it.
"""

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from narnat_agent.i18n import N_, Said, listed
from narnat_agent.safety.check import NOT_UNDOABLE, computed
from narnat_agent.safety.syntax import Command, fed_code, names, positionals

if TYPE_CHECKING:
    from sqlglot import exp

MAX_SQL = 100_000  # characters parsed; longer text is judged by its keywords
MAX_FILE = 1_000_000  # bytes of a file the client runs that are kept to be parsed
MAX_SCAN = 64_000_000  # bytes of it searched for destructive words; a longer file is too long to check
TOO_LONG = "\0too long"  # what stands for such a file's code


@dataclass(frozen=True)
class Client:
    dialect: str | None  # sqlglot's name for the server's SQL; None for MongoDB's JavaScript shell
    code: frozenset[str]  # options whose value is the code
    files: frozenset[str] = frozenset()  # options whose value is a file of code
    operand: int = 0  # the code is this positional word (sqlite3 DB 'SQL'), 0 when never
    scripts: str = ""  # a positional word ending so is a file of code it runs (mongosh app clean.js)


def _c(dialect: str | None, code: str, files: str = "", operand: int = 0, scripts: str = "") -> Client:
    return Client(dialect, names(code), names(files), operand, scripts)


# the clients' manuals: psql(1), mysql(1), sqlite3(1), duckdb CLI, clickhouse-client, cqlsh, sqlcmd, usql, mongosh
CLIENTS = {
    "psql": _c("postgres", "-c --command", "-f --file"),
    "usql": _c("postgres", "-c --command", "-f --file"),
    "pgcli": _c("postgres", ""),
    "mysql": _c("mysql", "-e --execute"),
    "mariadb": _c("mysql", "-e --execute"),
    "mycli": _c("mysql", "-e --execute"),
    "sqlite3": _c("sqlite", "-cmd", operand=2),
    "litecli": _c("sqlite", "-e --execute"),
    "duckdb": _c("duckdb", "-c -cmd", operand=2),
    "clickhouse-client": _c("clickhouse", "-q --query", "--queries-file"),
    "cqlsh": _c(None, "-e --execute", "-f --file"),
    "sqlcmd": _c("tsql", "-Q -q", "-i"),
    "mongosh": _c(None, "--eval", "-f --file", scripts=".js"),
    "mongo": _c(None, "--eval", "-f --file", scripts=".js"),
}
CONSOLES = re.compile(r"(?:db|sql|pg|database)[:_-]?(?:shell|console|psql)", re.IGNORECASE)  # their client's stdin
# a statement as SQL is written, not a sentence (`Drop the old importer`, `truncate logs`): its keyword in capitals,
# or the words that make it a statement
STATEMENT = re.compile(
    r"(?:^|;)\s*(?:(?:DROP|DELETE|TRUNCATE|UPDATE|ALTER|MERGE)\s|(?i:drop\s+(?:table|database|schema|view|index|"
    r"collection|keyspace|materialized|sequence|function|procedure|user|role)\b|delete\s+from\b|truncate\s+table\b"
    r"|update\s+\S+\s+set\b|alter\s+table\b|merge\s+into\b))"
)
VALUES = names("-U -d -h -p -u -P -S -D -W --host --port --user --username --dbname --database --password -v --set")
DESTRUCTIVE = re.compile(r"\b(drop|truncate|delete|update|alter)\b", re.IGNORECASE)
SQL_LITERAL = re.compile(r"[\"']\s*((?:drop|truncate|delete|update|alter)\s[^\"'\n]*)[\"']", re.IGNORECASE)
META = re.compile(r"^\s*[\\.].*$", re.MULTILINE)  # psql's \dt, sqlite's .tables: the client's own commands
MONGO = re.compile(
    r"\.\s*(drop|dropDatabase|dropIndex|dropIndexes|deleteOne|deleteMany|remove|findOneAndDelete|updateOne|updateMany"
    r"|replaceOne|findOneAndReplace|findOneAndUpdate|renameCollection|bulkWrite)\s*\("
)

# the collection a call is made on, right before it: `db.orders`, `db.getCollection("carts")`, `db["carts"]`
COLLECTION = re.compile(
    r"""\bdb\s*(?:\.\s*(\w+)|\.\s*getCollection\(\s*['"]([^'"]+)['"]\s*\)|\[\s*['"]([^'"]+)['"]\s*\])\s*$"""
)
# Cypher (Neo4j Cypher manual: DELETE, DETACH DELETE, REMOVE; DROP of a database, constraint or index): a pattern
# that is matched, then deleted; or a DROP of what a graph database holds
CYPHER = re.compile(
    r"\b(?i:match)\s*\(.*?\b((?i:detach\s+delete|delete))\b|^\s*(DROP\s+(?:DATABASE|CONSTRAINT|INDEX|ALIAS))\b",
    re.DOTALL,
)


def sql_destroys(name: str, argv: list[str | None], command: Command, cwd: Path | None) -> list[str]:
    """What the code this client runs would destroy; empty when it reads, creates or inserts."""
    client = CLIENTS.get(name)
    if client is None and (console := _console(argv)):
        client, name = _c(None, ""), console
    if client is None:
        return []
    reasons = []
    for code in sources(client, argv, command, cwd):
        if code is None:
            reasons.append(computed(name))
        elif code is TOO_LONG:
            reasons.append(
                Said(N_("{program} runs a SQL file too long to check — {undo}"), program=name, undo=NOT_UNDOABLE)
            )
        elif found := (_mongo(code) if name.startswith("mongo") else judge(code, client.dialect)):
            reasons.append(Said(N_("{program} {lost} — {undo}"), program=name, lost=found, undo=NOT_UNDOABLE))
    return reasons


def _console(argv: list[str | None]) -> str:
    """A framework's database console among the first words, said as the words that start it (`manage.py
    dbshell`, `rails dbconsole`); "" when there is none."""
    words = [
        (argv[0] or "").rsplit("/", 1)[-1],
        *(w.rsplit("/", 1)[-1] if w else "" for w in positionals(argv[1:])[:2]),
    ]
    at = next((i for i, word in enumerate(words) if i and CONSOLES.fullmatch(word)), 0)
    return " ".join(words[1 if words[1:2] and words[1].endswith(".py") else 0 : at + 1]) if at else ""


def sql_in_words(name: str, argv: list[str | None]) -> list[str]:
    """What the SQL statements given as words to a program no table knows destroy (`bq query 'DELETE FROM t'`,
    `--command="DROP TABLE t"`): only a word written as a statement counts."""
    found: list[str] = []
    for word in argv[1:]:
        text = (word or "").partition("=")[2] if (word or "").startswith("--") else word or ""
        if STATEMENT.search(text) and (lost := _parsed(text)):
            found.append(Said(N_("{program} {lost} — {undo}"), program=_with_target(name, argv, word), lost=lost,
                              undo=NOT_UNDOABLE))  # fmt: skip
        elif cypher := CYPHER.search(text):
            found.append(Said(N_("{program} runs {keyword} on a graph database's data — {undo}"), program=name,
                              keyword=(cypher.group(1) or cypher.group(2)).upper(), undo=NOT_UNDOABLE))  # fmt: skip
    return found


def _with_target(name: str, argv: list[str | None], statement: str | None) -> str:
    """The program with the operands that say where the statement runs (`wrangler d1 execute prod-db`): its words
    that are not options, up to the statement."""
    words = [w for w in argv[1 : argv.index(statement)] if w is not None and not w.startswith("-")]
    return " ".join([name, *words[:4]])


def has_code(name: str, argv: list[str | None], command: Command) -> bool:
    """The client is given code to run, so it does not wait for a human."""
    client = CLIENTS.get(name)
    return client is not None and bool(sources(client, argv, command, None, files=True))


def sources(
    client: Client, argv: list[str | None], command: Command, cwd: Path | None, files: bool = False
) -> list[str | None]:
    """Each text of code the client gets (None where the shell computes it); a file it runs is read when it
    exists under cwd, or stands as "" when files is set (to tell that some code is given)."""
    found: list[str | None] = []
    plain: list[str | None] = []
    i = 1
    while i < len(argv):
        word = argv[i]
        option = _option(word, client)
        if option:
            value = word.split("=", 1)[1] if word and "=" in word else argv[i + 1] if i + 1 < len(argv) else ""
            found.append(value if option == "code" else "" if files else _read(value, cwd))
            i += 1 if word and "=" in word else 2
            continue
        if word is None or not word.startswith("-"):
            plain.append(word)
        i += 2 if word in VALUES else 1
    if client.operand and len(plain) >= client.operand:
        found.append(plain[client.operand - 1])
    for script in [w for w in plain if client.scripts and w and w.endswith(client.scripts)]:
        found.append("" if files else _read(script, cwd))
    if command.stdin is not None or command.stdin_dynamic or command.upstream is not None:
        found.append(fed_code(command))
    elif command.stdin_file:
        found.append("" if files else _read(command.stdin_file, cwd))
    return [text for text in found if text != "" or files]


def _option(word: str | None, client: Client) -> str:
    """ "code" or "file" when word is one of the client's options for them (also `-Atc`, `--command=…`)."""
    if word is None or not word.startswith("-"):
        return ""
    flag = word.split("=", 1)[0]
    cluster = "-" + word[-1] if re.fullmatch(r"-[a-zA-Z]{2,4}", word) else ""  # psql -Atc SQL
    for kind, options in (("code", client.code), ("file", client.files)):
        if flag in options or cluster in options:
            return kind
    return ""


def _read(path: str | None, cwd: Path | None) -> str | None:
    """The code in a file the client runs, "" when it cannot be seen (not there yet, or no cwd), None when
    its name is computed."""
    if path is None:
        return None
    file = Path(path) if cwd is None or Path(path).is_absolute() else cwd / path
    if cwd is None or not file.is_file():
        return ""
    with open(file, "rb") as f:
        text = f.read(MAX_FILE).decode("utf-8", "replace")
        if DESTRUCTIVE.search(text):
            return text
        rest, read = text[-16:], len(text)  # a word cut by a chunk's end is read whole with the next
        while chunk := f.read(MAX_FILE):  # too long to parse, the file is judged by its words: those past
            rest, read = rest[-16:] + chunk.decode("utf-8", "replace"), read + len(chunk)  # the part kept count too
            if found := DESTRUCTIVE.search(rest):
                return f"{text}\n{found.group()}"
            if read > MAX_SCAN:
                return TOO_LONG
    return text


def judge(code: str, dialect: str | None = None) -> str:
    """What the SQL destroys, in a phrase; "" when nothing."""
    sql = META.sub("", code)
    if not DESTRUCTIVE.search(sql):
        return ""
    found = _parsed(sql, dialect) if len(sql) <= MAX_SQL else None
    return (
        Said(N_("runs SQL it cannot read that mentions {keyword}"), keyword=_keyword(sql)) if found is None else found
    )


def in_code(code: str) -> list[str]:
    """What the SQL statements written as string literals in a program's code destroy (sqlite3's execute('…')):
    only literals that parse as SQL count, so `print("Update done")` is text."""
    found = (_parsed(text) for text in SQL_LITERAL.findall(code))
    return [Said(N_("{reason} — {undo}"), reason=reason, undo=NOT_UNDOABLE) for reason in found if reason]


def _parsed(sql: str, dialect: str | None = None) -> str | None:
    """What parsed SQL destroys ("" when nothing), or None when it cannot be parsed."""
    import sqlglot
    from sqlglot import exp

    logging.getLogger("sqlglot").setLevel(logging.ERROR)  # it warns on statements it passes through as text
    try:
        statements = sqlglot.parse(sql, dialect=dialect)
    except (sqlglot.errors.ParseError, sqlglot.errors.TokenError):
        return None
    found = []
    for statement in statements:
        if isinstance(statement, exp.Command) and DESTRUCTIVE.search(statement.sql()):
            return None
        if statement is not None and (does := _destroys(statement)) and does not in found:
            found.append(does)
    return listed(found) if found else ""  # every statement's target: `DELETE FROM a; DELETE FROM b`


def _destroys(statement: "exp.Expression") -> str:
    """What the statement destroys, "" when nothing."""
    from sqlglot import exp

    if isinstance(statement, exp.Merge):  # its WHEN MATCHED clauses update or delete rows
        return Said(N_("rewrites rows of {target}"), target=statement.this.sql())
    node = statement.find(exp.Drop, exp.TruncateTable, exp.Delete, exp.Update)
    if node is None:
        return ""
    target = node.this.sql() if node.this is not None else ""
    if not target and not isinstance(node, exp.TruncateTable):  # `delete frm t` parses so
        return Said(N_("runs SQL it cannot read that mentions {keyword}"), keyword=type(node).__name__.upper())
    if isinstance(node, exp.Drop):
        kind = str(node.args.get("kind") or "").lower()
        if isinstance(statement, exp.Drop):
            return Said(N_("drops {kind} {target}"), kind=kind, target=target)
        return Said(N_("drops {kind} {target} of a table"), kind=kind, target=target)
    if isinstance(node, exp.TruncateTable):
        return Said(N_("empties table {tables}"), tables=", ".join(e.sql() for e in node.expressions))
    if isinstance(node, exp.Delete):
        return Said(N_("deletes rows from {target}"), target=target)
    return Said(N_("rewrites rows of {target}"), target=target)


def _keyword(sql: str) -> str:
    match = DESTRUCTIVE.search(sql)
    return match.group().upper() if match else "nothing destructive"


def _mongo(code: str) -> str:
    """The destructive calls, each with the collection it is made on when the code names it (`db.orders.drop()`,
    `db.getCollection("carts").deleteMany({})`): "runs orders.drop(), carts.deleteMany() in MongoDB"."""
    calls: list[str] = []
    for match in MONGO.finditer(code):
        named = COLLECTION.search(code[max(0, match.start() - 200) : match.start()])
        call = f"{named.group(1) or named.group(2)}.{match.group(1)}()" if named else f"{match.group(1)}()"
        if call not in calls:
            calls.append(call)
    return Said(N_("runs {calls} in MongoDB"), calls=", ".join(calls)) if calls else ""
