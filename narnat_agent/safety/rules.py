"""What a shell command would do that Narnat cares about: destroy what /undo may not bring back, do a file tool's
job, or wait for a human.

Whatever the analysis cannot see — code computed at run time, text it cannot parse, words that may turn into
options — counts as destructive, so the user is asked.
"""

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from narnat_agent.i18n import N_, Said
from narnat_agent.safety import windows
from narnat_agent.safety.check import NOT_UNDOABLE, Argv, Shell, Verdict
from narnat_agent.safety.code import INTERPRETERS, SHELLS, interpreter_code
from narnat_agent.safety.deletions import DELETERS, RULES, deletions, fed_names, paths_of, silent
from narnat_agent.safety.destroys import destroys, fed_commands, program
from narnat_agent.safety.downloads import FETCHERS, fetched, runs_fetched
from narnat_agent.safety.embedded import embedded
from narnat_agent.safety.endless import NAMES, never_ends, serves_by_words
from narnat_agent.safety.families import BY_PROGRAM
from narnat_agent.safety.overwrites import COPIERS, copied_over, existing_file, redirected
from narnat_agent.safety.refusals import file_op, waits_for_terminal
from narnat_agent.safety.runners import SPECIAL
from narnat_agent.safety.sql import CLIENTS, sql_destroys, sql_in_words
from narnat_agent.safety.syntax import COMPUTED, Command, and_parts, names, parse, positionals, syntax_length
from narnat_agent.safety.tasks import script_file
from narnat_agent.safety.vocabulary import parts, said_by_words, subcommands
from narnat_agent.safety.windows import windows_command, windows_program
from narnat_agent.safety.windows_system import SYSTEM
from narnat_agent.safety.wrappers import DATA, KNOWN, peel, risky

OWNERS = COPIERS | {"tee"} | BY_PROGRAM.keys() | CLIENTS.keys()
RUN_BY_INTERPRETER = ("python", "php", "java")  # `python manage.py flush`, `java -jar bfg.jar`
# names the command gives a value or a body itself: variables (x=…, for x in, read x) and functions (f() {, function f)
ASSIGNS = re.compile(
    r"\b([A-Za-z_]\w*)(?:\[[^]]*\])?\+?=|\b(?:for|read|select|getopts)\s+(?:-\S+\s+)*([A-Za-z_]\w*)"
    r"|([\w-]+)\s*\(\s*\)\s*\{|\bfunction\s+([\w-]+)"
)
CONTAINERS = names("docker podman nerdctl kubectl")
BOUNDS = names("timeout gtimeout")  # wrappers that end what they run
MODULES = {"django": "django-admin"}  # modules whose program has another name
MAX_DEPTH = 5
MAX_NESTING = 10  # commands inside commands (find -exec, a runner's command) checked one within another
MAX_LENGTH = 10_000  # characters of shell syntax; heredoc bodies are not counted
MAX_TOTAL = 50_000


@dataclass
class Analysis:
    """The `Check` the rules work with: one analysis in progress."""

    verdict: Verdict
    depth: int
    cwd: Path | None = None
    nesting: int = 0
    downloaded: set[str] = field(default_factory=set)  # files curl or wget wrote earlier in the command
    aliases: dict[str, str] = field(default_factory=dict)
    env: Mapping[str, str] | None = None
    assigned: frozenset[str] = frozenset()
    directory: str | None = None

    def script(self, code: str | None, source: str, remote: bool = False, shell: Shell = "bash") -> None:
        """Run elsewhere (remote), only what the code destroys matters: the file tools cannot reach there."""
        if code is None or COMPUTED in code:
            self.verdict.deletions.append(Said(N_("{source} runs shell code computed at run time"), source=source))
        elif remote:
            lost = self.deletions_in(code)
            self.verdict.deletions += [
                r
                if NOT_UNDOABLE in r
                else Said(N_("{reason} (on another machine — {undo})"), reason=r, undo=NOT_UNDOABLE)
                for r in lost
            ]
        else:
            self.verdict.merge(_analyze(code, self.cwd, self.depth + 1, shell, self.env))

    def command(self, command: Command) -> None:
        if self.nesting >= MAX_NESTING:
            self.verdict.deletions.append(Said(N_("the command nests commands too deeply to check")))
            return
        self.nesting += 1
        _check(command, self)
        self.nesting -= 1

    def deletions_in(self, code: str) -> list[str]:
        return _analyze(code, self.cwd, self.depth + 1, env=self.env).deletions

    def analysed(self, code: str) -> Verdict:
        return _analyze(code, self.cwd, self.depth + 1, env=self.env)


def analyze(
    source: str, cwd: Path | None = None, shell: Shell = "bash", env: Mapping[str, str] | None = None
) -> Verdict:
    """Everything Narnat must know about a command before the shell runs it in cwd; it fails closed (asks) when
    unsure. `shell` is the one that runs the text: bash, or on Windows PowerShell or cmd. `env`, the environment
    the command will run with, lets the question name what would be lost: variables' values, the files find
    selects, the commits a branch would leave behind."""
    return _analyze(source, cwd, 0, shell, env)


def _analyze(
    source: str, cwd: Path | None, depth: int, shell: Shell = "bash", env: Mapping[str, str] | None = None
) -> Verdict:
    verdict = Verdict()
    if depth > MAX_DEPTH or len(source) > MAX_TOTAL or syntax_length(source) > MAX_LENGTH:
        verdict.deletions.append(Said(N_("the command is too long or too deeply nested to check")))
        return verdict
    if shell != "bash":
        check = Analysis(verdict, depth, cwd, env=env)
        for found in windows.parse(source, shell):
            windows_command(found, check)
        return verdict
    script = parse(source)
    if len(source) - script.heredocs > MAX_LENGTH:
        verdict.deletions.append(Said(N_("the command is too long to check")))
    elif script.broken:
        verdict.deletions.append(Said(N_("part of the command cannot be parsed ({part})"), part=script.broken[:40]))
    check = Analysis(
        verdict, depth, cwd, env=env, assigned=frozenset(n for pair in ASSIGNS.findall(source) for n in pair if n)
    )
    check.directory = _moved_to(source, check) if env is not None and depth == 0 else None
    for command in script.commands:
        _check(command, check)
    return verdict


def _moved_to(source: str, check: Analysis) -> str | None:
    """The folder a command starting with `cd DIR &&` works in, from Bash's environment: the relative paths after it
    are said under it. Only a `cd` that starts the whole command counts (one in a subshell moves nothing after)."""
    chain = and_parts(source)
    if len(chain) < 2 or not source.lstrip().startswith(chain[0]):
        return None
    commands = parse(chain[0]).commands
    if len(commands) != 1 or commands[0].name != "cd" or len(commands[0].argv) != 2:
        return None
    (_, path), *_ = paths_of(commands[0].argv, commands[0], check)
    return path if path is not None and path.startswith("/") else None


def _check(command: Command, check: Analysis) -> None:
    if command.argv and command.argv[0] in check.aliases:
        rest = [word for word in command.argv[1:] if word is not None]
        text = " ".join([check.aliases[command.argv[0]], *map(shlex.quote, rest)])
        check.script(
            text if len(rest) == len(command.argv) - 1 else None, Said(N_("the alias {alias}"), alias=command.argv[0])
        )
        return
    waiting = len(check.verdict.interactive)
    argv = peel(command, check)
    wrappers = {(w or "").rsplit("/", 1)[-1] for w in command.argv[: len(command.argv) - len(argv or [])]}
    bounded = argv is not None and bool(wrappers & BOUNDS)
    if argv and "xargs" in wrappers and (argv[0] or "").rsplit("/", 1)[-1] in DELETERS:
        fed = fed_names(command, check)  # what xargs hands it, named in place of its operands
        argv = [fed if w in ("{}", "%") and fed else w for w in argv] if "{}" in argv else [*argv, *[fed] * bool(fed)]
    if command.background or bounded:  # the shell does not wait for it, or the timeout ends it
        _unbounded(argv, replace(command, background=True), check)
        del check.verdict.interactive[waiting:]
        return
    _unbounded(argv, command, check)


def _unbounded(argv: Argv | None, command: Command, check: Analysis) -> None:
    if argv is None:  # a wrapper handed its command over as shell text, already checked
        return
    _redirects(command, argv, check)
    if not argv:
        return
    if argv[0] is None:
        check.verdict.deletions.append(Said(N_("the command name is computed at run time")))
        return
    name = argv[0].rsplit("/", 1)[-1]
    windows_program(argv, check)  # Git Bash runs Windows programs too
    asked = len(check.verdict.deletions)
    _destroying(name, argv, command, check)
    if len(check.verdict.deletions) == asked:  # no rule knew what it destroys: its own words may say
        check.verdict.deletions += _by_words(name, argv, command, check)
    _module(name, argv, command, check)
    embedded(name, argv, command, check)
    _runs_another(name, argv, command, check)
    if reason := file_op(name, argv, command):
        check.verdict.file_ops.append(reason)
    if (
        reason := waits_for_terminal(name, argv, command)
        or never_ends(name, argv, command)
        or _serves(name, argv, command)
    ):
        check.verdict.interactive.append(reason)


def _destroying(name: str, argv: Argv, command: Command, check: Analysis) -> None:
    """Everything the command itself would destroy, by every rule that knows the program."""
    lost = check.verdict.deletions
    if check.downloaded and (reason := runs_fetched(name, argv, check.downloaded)):
        lost.append(reason)
    if name in FETCHERS:  # `curl -o README.md URL`: what it saves replaces the file
        files = fetched(name, argv, command)
        check.downloaded |= files
        redirected_to = {target for _, target in command.redirects}
        lost += [
            Said(N_("{program} replaces {file}, which exists"), program=name, file=f)
            for f in files - redirected_to
            if existing_file(f, check.cwd)
        ]
    lost += deletions(name, argv, command, check)
    if name in OWNERS or name.startswith(RUN_BY_INTERPRETER):  # the other rules know only these programs
        if reason := copied_over(name, argv, check.cwd):
            lost.append(reason)
        lost += destroys(name, argv) + fed_commands(name, argv, command)
        lost += sql_destroys(name, argv, command, check.cwd)


def _by_words(name: str, argv: Argv, command: Command, check: Analysis) -> list[str]:
    """What the words of a command say it destroys, where no table knows it: a program of its own, a family's
    subcommand its forms lack, a build tool's goal named after a program of the table (`flyway:clean`), a script
    an interpreter runs."""
    if name in DATA or name in RULES or name in DELETERS or name in CLIENTS or name in SYSTEM or name in SPECIAL:
        return []  # their words are data, or their own rules know them (a just recipe is read from the justfile)
    if name in check.assigned:
        return []  # a function the command defines
    known, words = program(name, argv)
    family = BY_PROGRAM.get(known)
    if family is not None:
        kept = family.keeps and re.match(family.keeps, " ".join(subcommands(words, family.values)))
        if kept or family.dry & set(words[1:]):
            return []  # what its table says loses nothing the user needs, or a rehearsal
        found = sql_in_words(known, words) or _goals(words, family.values)
        return found or said_by_words(known, words, family.values, command.raw)
    if not (name in SHELLS or INTERPRETERS.match(name)) and (found := sql_in_words(known, words)):
        return found
    if name in SHELLS or INTERPRETERS.match(name):
        script = _script(name, argv)
        if script is None or script_file(name, script, check):
            return []
        shown = script.rsplit("/", 1)[-1]
        after = argv[argv.index(script) + 1 :]  # its own subcommands: `php bin/console doctrine:schema:drop`
        return said_by_words(shown, [shown, *after]) if "/" in script or "." in script else []
    if argv[0] and "/" in argv[0] and script_file(None, argv[0], check):
        return []
    return [] if risky(name) else _goals(argv) or said_by_words(name, argv, raw=command.raw)


def _goals(argv: Argv, values: frozenset[str] = frozenset()) -> list[str]:
    """A build tool's goal or task named after a program of the table and its subcommand (Maven's `flyway:clean`,
    Gradle's `flywayClean`): what that subcommand would destroy."""
    for word in subcommands(argv, values):
        split = parts(word)
        if (
            len(split) > 1
            and split[0] in BY_PROGRAM
            and split[0] != argv[0]
            and (found := destroys(split[0], [*split]))
        ):
            return found
    return []


def _serves(name: str, argv: Argv, command: Command) -> str | None:
    """Whether the words of a program no table knows say it never ends (a server, a port-forward, a dev loop)."""
    known, words = program(name, argv)
    if command.background or name in SHELLS or INTERPRETERS.match(known) or known in KNOWN | CLIENTS.keys() | NAMES:
        return None
    return serves_by_words(known, words)


def _script(name: str, argv: Argv) -> str | None:
    """The script file a shell or an interpreter runs (`bash x.sh`, `python -u x.py`), or None."""
    if name in SHELLS:
        first = argv[1] if len(argv) > 1 else None
        return first if first and not first.startswith("-") else None
    return next(iter(positionals(argv[1:])), None) if interpreter_code(name, argv)[0] == "script" else None


def _module(name: str, argv: Argv, command: Command, check: Analysis) -> None:
    """`python -m alembic downgrade base` runs alembic: the module is checked as the program it is."""
    if not name.startswith("python") or "-m" not in argv[1:]:
        return
    at = argv.index("-m")
    given = argv[at + 1] if at + 1 < len(argv) else None
    if any(a is None or not a.startswith("-") for a in argv[1:at]) or given is None:
        return  # `python script.py -m x`: the script's option
    module = given.split(".", 1)[0]
    check.command(replace(command, argv=[MODULES.get(module, module), *argv[at + 2 :]]))


def _redirects(command: Command, argv: Argv, check: Analysis) -> None:
    """`> f` from a command that prints nothing empties f; so does `f(x) > x`; `> f` replaces an existing f;
    `echo … > f` is Write's job."""
    verdict, empties = check.verdict, silent(argv, command)
    for operator, target in command.redirects:
        if operator not in (">", ">|", "&>", ">>", "&>>") or (target or "").startswith("/dev/"):
            continue
        if empties and operator != ">>" and operator != "&>>":
            verdict.deletions.append(
                Said(N_("the redirection empties {file}"), file=target)
                if target
                else Said(N_("the redirection empties a file named at run time"))
            )
        elif reason := redirected(command, operator, target, check.cwd):
            verdict.deletions.append(reason)
        if argv and argv[0] in ("echo", "printf") or argv[:1] in (["cat"], ["tee"]) and command.stdin is not None:
            shown = ">>" if operator in (">>", "&>>") else ">"
            verdict.file_ops.append(
                Said(N_("writing files with {program} {operator} {file}: use Write (or Edit)"),
                     program=str(argv[0]), operator=shown, file=target)
                if target
                else Said(N_("writing files with {program} {operator} a file named at run time: use Write (or Edit)"),
                          program=str(argv[0]), operator=shown)  # the name is `$(…)`: it was said as "None"
            )  # fmt: skip


def _runs_another(name: str, argv: Argv, command: Command, check: Analysis) -> None:
    """A program the rules do not know may run the words after it as a command (numactl, a container, a new
    sandbox): the first word that names a program that can delete starts a command checked on its own."""
    if name in CONTAINERS:
        if not {"run", "exec"} & set(argv[1:3]):
            return
    elif name in KNOWN or risky(name):  # its own rules read it
        return
    for j in range(argv.index("run" if "run" in argv[1:3] else "exec") + 1 if name in CONTAINERS else 1, len(argv) - 1):
        if (word := argv[j]) is not None and not word.startswith("-") and risky(word.rsplit("/", 1)[-1]):
            waiting = len(check.verdict.interactive)
            check.command(replace(command, argv=argv[j:]))  # with its stdin: `docker exec -i db psql <<SQL`
            if name in CONTAINERS:  # -it decides whether it waits, said once
                del check.verdict.interactive[waiting:]
            return


def ending_chain(source: str) -> list[list[list[str | None]]]:
    """The pipelines of the `&&` list the script ends with, each as last_pipeline gives it (`cd sub && pytest | tail`
    → cd's, then pytest's and tail's stages), each stage led by the environment written in front of it, as written
    (`PYTHONPATH=src pytest`: a verification run again without it is another command)."""
    return [last_pipeline(part, given=True) for part in and_parts(source)]


def last_pipeline(source: str, given: bool = False) -> list[list[str | None]]:
    """The words of each stage of the last top-level pipeline (the one whose exit code the shell reports), None
    where one is computed at run time (given: its assignments first). Empty when the statuses the shell keeps may be
    another pipeline's of as many stages (`false | false && true | cat` stops before the last one)."""
    ends = [c for c in parse(source).commands if not c.consumed and c.downstream is None]
    pipelines = [_stages(end, given) for end in ends]
    if any(len(other) == len(pipelines[-1]) > 1 for other in pipelines[:-1]):
        return []
    return pipelines[-1] if pipelines else []


def _stages(last: Command, given: bool) -> list[list[str | None]]:
    stages: list[list[str | None]] = []
    stage: Command | None = last
    while stage is not None:
        stages.insert(0, [*(stage.assignments if given else []), *stage.argv])
        stage = stage.upstream
    return stages
