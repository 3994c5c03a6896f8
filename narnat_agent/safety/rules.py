"""What a shell command would do that Narnat cares about: delete files, do a file tool's job, or wait for a human.

Whatever the analysis cannot see — code computed at run time, text it cannot parse, words that may turn into
options — counts as a deletion, so the user is asked.
"""

from dataclasses import dataclass, field, replace
from pathlib import Path

from narnat_agent.safety.code import INTERPRETERS, SHELLS, interpreter_code, scan
from narnat_agent.safety.deletions import deletions, silent
from narnat_agent.safety.destroys import destroys
from narnat_agent.safety.refusals import file_op, waits_for_terminal
from narnat_agent.safety.sql import sql_destroys
from narnat_agent.safety.syntax import COMPUTED, Command, fed_code, parse, syntax_length
from narnat_agent.safety.wrappers import KNOWN, peel, risky

MAX_DEPTH = 5
MAX_NESTING = 10  # commands inside commands (find -exec, a runner's command) checked one within another
MAX_LENGTH = 10_000  # characters of shell syntax; heredoc bodies are not counted
MAX_TOTAL = 50_000


@dataclass
class Verdict:
    deletions: list[str] = field(default_factory=list)  # ask the user first
    file_ops: list[str] = field(default_factory=list)  # refuse: a dedicated tool does this
    interactive: list[str] = field(default_factory=list)  # refuse: it would wait for a human

    def merge(self, other: "Verdict") -> None:
        self.deletions += other.deletions
        self.file_ops += other.file_ops
        self.interactive += other.interactive


@dataclass
class Check:
    """One analysis in progress: nested shell text and nested commands land in the same verdict."""

    verdict: Verdict
    depth: int
    cwd: Path | None = None  # where the command runs, when known: a word naming an existing file is a path there
    nesting: int = 0

    def script(self, code: str | None, source: str, remote: bool = False) -> None:
        """Shell text that will run: checked like the command itself, or asked about when computed. Run
        elsewhere (remote), only what it deletes matters: the file tools cannot reach there."""
        if code is None or COMPUTED in code:
            self.verdict.deletions.append(f"{source} runs shell code computed at run time")
        elif remote:
            self.verdict.deletions += analyze(code, self.depth + 1, self.cwd).deletions
        else:
            self.verdict.merge(analyze(code, self.depth + 1, self.cwd))

    def command(self, command: Command) -> None:
        """A command that another one runs (find -exec, a wrapper's): checked like a top-level one."""
        if self.nesting >= MAX_NESTING:
            self.verdict.deletions.append("the command nests commands too deeply to check")
            return
        self.nesting += 1
        _check(command, self)
        self.nesting -= 1


def analyze(source: str, depth: int = 0, cwd: Path | None = None) -> Verdict:
    """Everything Narnat must know about a command before it may run; it fails closed (asks) when unsure."""
    verdict = Verdict()
    if depth > MAX_DEPTH or len(source) > MAX_TOTAL or syntax_length(source) > MAX_LENGTH:
        verdict.deletions.append("the command is too long or too deeply nested to check")
        return verdict
    script = parse(source)
    if len(source) - script.heredocs > MAX_LENGTH:
        verdict.deletions.append("the command is too long to check")
    elif script.broken:
        verdict.deletions.append(f"part of the command cannot be parsed ({script.broken[:40]})")
    check = Check(verdict, depth, cwd)
    for command in script.commands:
        _check(command, check)
    return verdict


def _check(command: Command, check: Check) -> None:
    argv = peel(command, check)
    verdict = check.verdict
    if argv is None:  # a wrapper handed its command over as shell text, already checked
        return
    _redirects(command, argv, verdict)
    if not argv:
        return
    if argv[0] is None:
        verdict.deletions.append("the command name is computed at run time")
        return
    name = argv[0].rsplit("/", 1)[-1]
    verdict.deletions += deletions(name, argv, command, check) + destroys(name, argv)
    verdict.deletions += sql_destroys(name, argv, command, check.cwd)
    _embedded(name, argv, command, check)
    _runs_another(name, argv, command, check)
    if reason := file_op(name, argv, command):
        verdict.file_ops.append(reason)
    if reason := waits_for_terminal(name, argv, command):
        verdict.interactive.append(reason)


def _redirects(command: Command, argv: list, verdict: Verdict) -> None:
    """`> f` from a command that prints nothing empties f; `echo … > f` is Write's job."""
    empties = silent(argv, command)
    for operator, target in command.redirects:
        if operator not in (">", ">|", "&>", ">>", "&>>") or (target or "").startswith("/dev/"):
            continue
        if empties and operator != ">>" and operator != "&>>":
            verdict.deletions.append(f"the redirection empties {target or 'a file named at run time'}")
        elif argv and argv[0] in ("echo", "printf") or argv[:1] in (["cat"], ["tee"]) and command.stdin is not None:
            verdict.file_ops.append(f"writing files with {argv[0]} > {target}: use Write (or Edit)")


def _embedded(name: str, argv: list, command: Command, check: Check) -> None:
    """Code hidden in strings: shells' -c scripts, eval, source, piped scripts, inline interpreter code."""
    if name == "eval":
        check.script(None if None in argv[1:] else " ".join(argv[1:]), "eval")
    elif name in ("source", ".") and len(argv) > 1 and argv[1] in (None, "/dev/stdin", "-"):
        check.script(None if argv[1] is None else fed_code(command), name)
    elif name == "alias":  # aliases are not expanded in `bash -c`, unless the command turns expansion on
        for word in argv[1:]:
            if word is None or "=" in word:
                check.script(word and word.split("=", 1)[1], f"the alias {word and word.split('=', 1)[0]}")
    elif name in SHELLS:
        _shell(name, argv, command, check)
    elif INTERPRETERS.match(name) or name in ("awk", "gawk", "mawk", "nawk", "sed", "gsed"):
        kind, code = interpreter_code(name, argv)
        if kind == "stdin" and INTERPRETERS.match(name) and not command.stdin_file:
            kind, code = "code", fed_code(command)
        if kind == "code":
            if code is None:
                check.verdict.deletions.append(f"{name} runs code computed at run time")
            else:
                check.verdict.deletions += scan(
                    name, code, lambda text: analyze(text, check.depth + 1, check.cwd).deletions
                )


def _runs_another(name: str, argv: list, command: Command, check: Check) -> None:
    """A program the rules do not know may run the words after it as a command (numactl, a container, a new
    sandbox): the first word that names a program that can delete starts a command checked on its own."""
    if name in ("docker", "podman", "nerdctl", "kubectl"):
        if not {"run", "exec"} & set(argv[1:3]):
            return
    elif name in KNOWN or risky(name):  # its own rules read it
        return
    for j in range(1, len(argv) - 1):
        if argv[j] is not None and not argv[j].startswith("-") and risky(argv[j].rsplit("/", 1)[-1]):
            check.command(replace(command, argv=argv[j:]))  # with its stdin: `docker exec -i db psql <<SQL`
            return


def _shell(name: str, argv: list, command: Command, check: Check) -> None:
    i, stdin = 1, False
    while i < len(argv) and argv[i] is not None and argv[i][:1] in "-+" and argv[i] not in ("-", "--"):
        word = argv[i]
        if not word.startswith("--") and "c" in word[1:]:
            check.script(argv[i + 1] if i + 1 < len(argv) else "", f"{name} -c")
            return
        stdin |= not word.startswith("--") and "s" in word[1:]
        i += 2 if word in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file") else 1
    rest = argv[i + (argv[i : i + 1] == ["--"]) :]
    if rest and not stdin and rest[0] not in ("-", "/dev/stdin"):
        if rest[0] is None:
            check.verdict.deletions.append(f"{name} runs a script computed at run time")
    elif not command.stdin_file:  # `sh < file` reads a script file, which is opaque by design like `sh file`
        check.script(fed_code(command), f"the script piped to {name}")
