"""Whether a command is one of the forms in the families table: what it would destroy, in one line for the user."""

import functools
import re

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import NOT_UNDOABLE
from narnat_agent.safety.families import BY_PROGRAM, Form
from narnat_agent.safety.syntax import Command, fed_code, positionals, short_option

MAX_TARGETS = 6  # the operands a question names; more are said as "…"
SCRIPTS = ("manage.py", "artisan")  # run by an interpreter, they are the program: `python manage.py flush`


ANY_FORM = {  # per program, one test for the common case: none of its family's forms
    program: re.compile("|".join(f"(?:{form.words})" for form in family.forms), re.IGNORECASE)
    for program, family in BY_PROGRAM.items()
}


def program(name: str, argv: list[str | None]) -> tuple[str, list[str | None]]:
    """The program a command runs and its argv: a framework's script, or a jar named after its tool (bfg.jar)."""
    first = argv[1] if len(argv) > 1 else None
    if first is not None and first.rsplit("/", 1)[-1] in SCRIPTS:
        return first.rsplit("/", 1)[-1], argv[1:]
    if name == "java" and first == "-jar" and len(argv) > 2 and argv[2] is not None:
        return re.split(r"[-.]", argv[2].rsplit("/", 1)[-1])[0], argv[2:]
    return name, argv


def fed_commands(name: str, argv: list[str | None], command: Command) -> list[str]:
    """What the commands a client reads on its stdin would destroy (`echo FLUSHALL | redis-cli`): each line is
    checked as if it were the client's words."""
    family = BY_PROGRAM.get(name)
    if family is None or not (family.reads_stdin or family.sends_stdin):
        return []
    if family.reads_stdin and positionals([a for a in argv[1:] if a], family.values):
        return []
    if (text := fed_code(command)) is None:
        if family.sends_stdin:
            return []  # a stream it carries (`tar c . | nc host 9000`), not commands written for the server
        return [Said(N_("{program} runs commands from its stdin that cannot be read here — {undo}"), program=name,
                     undo=NOT_UNDOABLE)]  # fmt: skip
    if family.sends_stdin:  # the lines are the server's commands, its words the server's address
        return [reason for line in text.splitlines() for reason in destroys(name, [name, *line.split()])]
    return [reason for line in text.splitlines() for reason in destroys(name, [*argv, *line.split()])]


def destroys(name: str, argv: list[str | None]) -> list[str]:
    """What running argv would destroy that /undo cannot bring back, one phrase per form it matches."""
    name, argv = program(name, argv)
    family = BY_PROGRAM.get(name)
    if family is None:
        return []
    args = [a for a in argv[1:] if a is not None]
    if "--help" in args or args in (["-h"], ["--version"], ["-V"]):
        return []  # it prints how to use it
    words = " ".join(positionals(args, family.values))
    if not ANY_FORM[name].match(words):
        return []
    if any(_has(args, option) for option in family.dry):
        return []
    for form in family.forms:
        if matched := _matches(form, words, args):
            after = len(words[: matched.end()].split())
            targets = [*(_operands(args, family.values, after) if family.operands else []),
                       *_values(args, family.targets)]  # fmt: skip
            if not targets:
                return [Said(N_("{program} {lost} — {undo}"), program=name, lost=form.lost, undo=form.undo)]
            targets = list(dict.fromkeys(targets))
            shown = " ".join(targets[:MAX_TARGETS]) + (" …" if len(targets) > MAX_TARGETS else "")
            return [Said(N_("{program} {lost}: {targets} — {undo}"), program=name, lost=form.lost, targets=shown,
                         undo=form.undo)]  # fmt: skip
    return []


def _matches(form: Form, words: str, args: list[str]) -> re.Match[str] | None:
    """The words the form matched (what follows them names what is destroyed), or None."""
    matched = _pattern(form.words).match(words)
    if not matched:
        return None
    needed = all(not group or any(_has(args, option) for option in group) for group in (form.needs, form.also))
    return matched if needed else None


def _operands(args: list[str], values: frozenset[str], after: int) -> list[str]:
    """The words that name what the form destroys: those not options (nor the values the table knows options take)
    after the `after` first, the form's own words."""
    return [word for word in positionals(args, values)[after:] if word is not None]


def _values(args: list[str], options: frozenset[str]) -> list[str]:
    """The values given to these options (`-target=x`, `--app x`)."""
    found = []
    for i, word in enumerate(args):
        flag, equals, value = word.partition("=")
        if flag in options:
            found.append(value if equals else args[i + 1] if i + 1 < len(args) else "")
    return [value for value in found if value]


@functools.cache
def _pattern(words: str) -> re.Pattern[str]:
    return re.compile(words, re.IGNORECASE)


def _has(args: list[str], option: str) -> bool:
    """option is among args: `--opt`, `--opt=value`, a one-letter option in a cluster, or `-X=VALUE` as written
    any of the ways the option's value can be given."""
    flag, _, value = option.partition("=")
    for i, word in enumerate(args):
        if value:
            given = args[i + 1] if word == flag and i + 1 < len(args) else word[len(flag) :].lstrip("=")
            if word.startswith(flag) and given.lower() == value.lower():
                return True
        elif word == flag or word.startswith(flag + "=") and flag.startswith("--") or _in_cluster(flag, word):
            return True
    return False


def _in_cluster(flag: str, word: str) -> bool:
    return len(flag) == 2 and flag[1].isalpha() and short_option([word], flag[1])
