"""Which commands verify the work (test runners, linters, type checkers, builds), named as a person would say them."""

import re
import shlex
from dataclasses import dataclass

from narnat_agent.i18n import _
from narnat_agent.processes.jobs import Job
from narnat_agent.safety import ending_chain, unwrapped

PROGRAMS = {
    "pytest", "py.test", "tox", "nox", "mypy", "pyright", "ruff", "flake8", "pylint", "unittest", "eslint", "tsc",
    "jest", "vitest", "mocha", "rspec", "phpunit", "ctest", "shellcheck", "golangci-lint", "stylelint", "biome",
}  # fmt: skip
# formatters: a verification only with the option that checks instead of writing
CHECKING = {"black": {"--check"}, "isort": {"--check", "--check-only", "-c"}, "ruff format": {"--check"},
            "prettier": {"--check", "-c", "--list-different", "-l"}, "cargo fmt": {"--check"}}  # fmt: skip
SUBCOMMANDS = {
    "go": {"test", "vet", "build"},
    "cargo": {"test", "check", "build", "clippy", "nextest"},
    "make": None,
    "mvn": {"test", "verify", "package", "compile", "install"},
    "gradle": {"test", "build", "check"},
    "gradlew": {"test", "build", "check"},
    "dotnet": {"test", "build"},
    "deno": {"test", "lint", "check"},
    "swift": {"test", "build"},
    "mix": {"test", "compile"},
    "bazel": {"test", "build"},
    "ninja": None,
    "cmake": {"--build"},
}  # None: any target
SCRIPT_RUNNERS = {"npm", "yarn", "pnpm", "bun"}
SCRIPTS = {"test", "lint", "build", "typecheck", "type-check", "check", "tsc", "e2e"}  # and test:node, lint:css…
NPM_OWN = {"test", "start", "stop", "restart"}  # the scripts npm runs without `run`: `npm test` is `npm run test`
# what narrows a run to part of the suite: options that pick tests, and the options whose value is not a path
NARROWING = {"-k", "-m", "--lf", "--last-failed", "--deselect", "--testNamePattern", "-t", "--grep", "-g", "--run"}
VALUED = {"-p", "-c", "-n", "-o", "-W", "-r", "--timeout", "--rootdir", "--maxfail", "--tb", "--cov", "--durations",
          "--basetemp", "--log-level", "--junitxml", "--import-mode", "--dist", "--reporter", "--config", "-j",
          "--workspace", "--project", "--package", "--features", "--target", "-C", "--manifest-path"}  # fmt: skip
TEST_RUNNERS = {"pytest", "py.test", "unittest", "jest", "vitest", "mocha", "rspec", "phpunit", "node", "go", "cargo",
                "dotnet", "deno", "swift", "mix", "bazel"}  # fmt: skip  # a path given to a linter is its whole job
NOT_TARGETS = {"run", "watch", "discover", "./..."}  # vitest run, unittest discover, go test ./...: the whole suite
RUN_WRAPPERS = {("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run"), ("hatch", "run"), ("rye", "run"),
                ("conda", "run"), ("bundle", "exec"), ("npm", "exec"), ("pnpm", "exec"), ("yarn", "exec")}  # fmt: skip
PYTHONS = {"python", "python3", "py"}
CANNOT_RUN = (126, 127)  # the shell's codes for a program it cannot execute or find: nothing was verified
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")  # a word the shell reads as the environment it gives the command
NOT_BUILDS = {"clean", "install", "run", "dev", "serve", "start", "format", "fmt", "help"}  # make targets


@dataclass(frozen=True)
class Verification:
    """The outcome of one verification command: `pytest: failed (exit 1)`."""

    command: str  # pytest, cargo test, npm run lint
    exit_code: int | None  # None: stopped at its timeout
    run: str = ""  # the command as it ran: `pytest tests/test_io.py -k slow`
    filtered: bool = False  # it ran part of the suite: named tests, files or a pattern

    @property
    def shown(self) -> str:
        """The command as the footer names it: a filtered run as it was written, so it is not read as the suite's."""
        return self.command if not self.filtered else self.run if len(self.run) <= 40 else self.run[:39] + "…"

    @property
    def status(self) -> str:
        """passed, failed, timed_out or could_not_run: the stable name headless JSON carries."""
        if self.exit_code is None:
            return "timed_out"
        if self.exit_code in CANNOT_RUN:
            return "could_not_run"
        return "passed" if self.exit_code == 0 else "failed"

    def __str__(self) -> str:
        """How the footer says it, in the interface's language."""
        if self.exit_code is None:
            return _("{command}: timed out").format(command=self.shown)
        if self.exit_code == 0:
            return _("{command}: passed").format(command=self.shown)
        if self.exit_code in CANNOT_RUN:
            return _("{command}: could not run (exit {code})").format(command=self.shown, code=self.exit_code)
        return _("{command}: failed (exit {code})").format(command=self.shown, code=self.exit_code)


def _program(argv: list[str]) -> list[str]:
    """The words from the program that does the work on, past wrappers (`time uv run python -m pytest` → pytest)."""
    at = 0
    while at < len(argv):
        at = len(argv) - len(unwrapped(argv[at:]))  # sudo -u ci, nice -n 10, timeout -s KILL 60
        word = argv[at].rsplit("/", 1)[-1] if at < len(argv) else ""
        if not word:
            return []
        if word.startswith("-") or "=" in word:  # a run tool's options: `uv run --frozen pytest`
            at += 1
        elif (word, argv[at + 1] if at + 1 < len(argv) else "") in RUN_WRAPPERS:
            at += 2
        elif word in PYTHONS or word.startswith("python3.") or word == "coverage":
            if "-m" not in argv[at:]:
                return []  # a script: it could do anything
            at = argv.index("-m", at) + 1
        else:
            return [word, *argv[at + 1 :]]
    return []


def recognise(argv: list[str | None]) -> str | None:
    """What a command verifies, as a short name, or None when it is not a test, lint, type check or build."""
    words = _words(argv)
    return _name(words[0], words) if words else None


def _words(argv: list[str | None]) -> list[str]:
    """The program doing the work and its words, up to the first word known only at run time."""
    if any(word is None for word in argv):
        argv = argv[: next(i for i, w in enumerate(argv) if w is None)]
    return _program([w for w in argv if w is not None])


def _name(program: str, words: list[str]) -> str | None:
    rest = [w for w in words[1:] if not w.startswith("-") or w == "--build"]
    formatter = program if program in CHECKING else " ".join([program, *rest[:1]])
    if formatter in CHECKING:
        return formatter if not CHECKING[formatter].isdisjoint(words) else None
    if program in PROGRAMS:
        return program
    if program == "node":
        return "node --test" if "--test" in words else None
    if program in SUBCOMMANDS:
        allowed = SUBCOMMANDS[program]
        if allowed is None:
            return None if rest[:1] and rest[0] in NOT_BUILDS else " ".join([program, *rest[:1]])
        return f"{program} {rest[0]}" if rest and rest[0] in allowed else None
    if program in SCRIPT_RUNNERS and rest:
        script = rest[1] if rest[0] == "run" and len(rest) > 1 else rest[0]
        if script.split(":")[0] not in SCRIPTS:
            return None
        return f"{program} {script}" if program != "npm" or script in NPM_OWN else f"npm run {script}"
    return None


def filtered(argv: list[str | None]) -> bool:
    """Whether a verification runs part of what it would run alone: named tests or files, a pattern, the last
    failures, or a script's arguments after `--`."""
    words = _words(argv)  # none for a command that is no verification (a goal's check: `python check.py`)
    if "--" in words:  # never the program: _program passes over options
        return bool(words[words.index("--") + 1 :])
    if len(words) < 2 or words[0] not in TEST_RUNNERS:
        return False
    at = 2 if words[0] in SUBCOMMANDS else 1
    skip = False
    for word in words[at:]:
        if skip:
            skip = False
        elif word.split("=")[0] in NARROWING:
            return True
        elif word.startswith("-"):
            skip = word in VALUED
        elif word not in NOT_TARGETS and _part(words[0], word):
            return True
    return False


def _part(program: str, target: str) -> bool:
    """Whether a target names part of the suite; for pytest a top folder (`pytest tests`) is the suite itself."""
    path = target.removeprefix("./").strip("/")
    if path in ("", "."):
        return False
    if program in ("pytest", "py.test"):
        return "/" in path or "." in path  # a folder inside the top one, or a file (t.py, t.py::test_a)
    return True


def verified_chain(
    chain: list[list[list[str | None]]], code: int | None, pipeline: tuple[int, ...]
) -> Verification | None:
    """What the `&&` list a command ends with verified (its pipelines as `ending_chain` gives them; pipeline: the
    last one's stage statuses). Verifications joined by `&&` are one, named by each (`eslint && prettier`): the
    exit code is the first failure's, and cannot tell which. One before a command that is no verification passed
    when the list did, and is unknown when it failed (`pytest && git commit` fails when there is nothing to commit)."""
    *before, last = chain or [[]]
    ending = verified(last, code, pipeline)
    earlier = [v for stages in before if (v := verified(stages, code, ()))]
    if not earlier:
        return ending
    every = [*earlier, *([ending] if ending else [])]
    if len(every) == 1 and code != 0:
        return None
    if len(every) == 1:
        return every[0]
    return Verification(" && ".join(v.command for v in every), code, " && ".join(v.run for v in every),
                        any(v.filtered for v in every))  # fmt: skip


def verified(stages: list[list[str | None]], code: int | None, pipeline: tuple[int, ...]) -> Verification | None:
    """The last verification command of the pipeline the shell reports on, with that stage's own exit code (code
    is the pipeline's, None when it timed out; pipeline holds each stage's, when known)."""
    statuses = pipeline if len(pipeline) == len(stages) else ()
    for n in reversed(range(len(stages))):
        if name := recognise(stages[n]):
            run = _as_written(stages[n])
            return Verification(name, code if code is None or not statuses else statuses[n], run, filtered(stages[n]))
    return None


def _as_written(words: list[str | None]) -> str:
    """A stage as a shell runs it again: its assignments as written (`NODE_OPTIONS="--x=1"`), its words quoted."""
    given = 0
    while given < len(words) and (word := words[given]) is not None and ASSIGNMENT.match(word):
        given += 1
    shown = shlex.join(word for word in words[given:] if word is not None)
    return " ".join([*(word for word in words[:given] if word is not None), shown])


def of_job(job: Job) -> Verification | None:
    """What an ended background job verified, the first time the model learns how it ended (waiting for it, or
    reading its log): a test run in the background counts as one in the foreground, once."""
    if job.recorded:
        return None
    job.recorded = True
    return verified_chain(ending_chain(job.command), job.process.returncode, ())
