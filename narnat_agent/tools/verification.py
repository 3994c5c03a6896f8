"""Which commands verify the work (test runners, linters, type checkers, builds), named as a person would say them."""

from dataclasses import dataclass

from narnat_agent.i18n import _

PROGRAMS = {
    "pytest", "py.test", "tox", "nox", "mypy", "pyright", "ruff", "flake8", "pylint", "unittest", "eslint", "tsc",
    "jest", "vitest", "mocha", "rspec", "phpunit", "ctest", "shellcheck", "golangci-lint", "stylelint", "biome",
}  # fmt: skip
CHECKING = {"black", "isort", "prettier"}  # formatters: a verification only with --check
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
SCRIPTS = {"test", "lint", "build", "typecheck", "type-check", "check", "tsc", "e2e"}
WRAPPERS = {"sudo", "env", "time", "nice", "nohup", "command", "exec", "xvfb-run", "npx", "pnpx", "bunx", "uvx"}
RUN_WRAPPERS = {("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run"), ("hatch", "run"), ("rye", "run"),
                ("conda", "run"), ("bundle", "exec"), ("npm", "exec"), ("pnpm", "exec"), ("yarn", "exec")}  # fmt: skip
PYTHONS = {"python", "python3", "py"}
NOT_BUILDS = {"clean", "install", "run", "dev", "serve", "start", "format", "fmt", "help"}  # make targets


@dataclass(frozen=True)
class Verification:
    """The outcome of one verification command: `pytest: failed (exit 1)`."""

    command: str  # pytest, cargo test, npm run lint
    exit_code: int | None  # None: stopped at its timeout

    @property
    def status(self) -> str:
        """passed, failed or timed_out: the stable name headless JSON carries."""
        if self.exit_code is None:
            return "timed_out"
        return "passed" if self.exit_code == 0 else "failed"

    def __str__(self) -> str:
        """How the footer says it, in the interface's language."""
        if self.exit_code is None:
            return _("{command}: timed out").format(command=self.command)
        if self.exit_code == 0:
            return _("{command}: passed").format(command=self.command)
        return _("{command}: failed (exit {code})").format(command=self.command, code=self.exit_code)


def _program(argv: list[str]) -> list[str]:
    """The words from the program that does the work on, past wrappers (`time uv run python -m pytest` → pytest)."""
    at = 0
    while at < len(argv):
        word = argv[at].rsplit("/", 1)[-1]
        if word in WRAPPERS or word.startswith("-") or "=" in word:  # options and env's assignments
            at += 1
        elif word == "timeout":
            at += 2  # and its duration
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
    if any(word is None for word in argv):
        argv = argv[: next(i for i, w in enumerate(argv) if w is None)]
    words = _program([w for w in argv if w is not None])
    if not words:
        return None
    program, rest = words[0], [w for w in words[1:] if not w.startswith("-") or w == "--build"]
    if program in CHECKING or program == "ruff" and rest[:1] == ["format"]:
        return program if "--check" in words else None
    if program in PROGRAMS:
        return program
    if program in SUBCOMMANDS:
        allowed = SUBCOMMANDS[program]
        if allowed is None:
            return None if rest[:1] and rest[0] in NOT_BUILDS else " ".join([program, *rest[:1]])
        return f"{program} {rest[0]}" if rest and rest[0] in allowed else None
    if program in SCRIPT_RUNNERS and rest:
        script = rest[1] if rest[0] == "run" and len(rest) > 1 else rest[0]
        return " ".join([program, *rest[: 2 if rest[0] == "run" else 1]]) if script in SCRIPTS else None
    return None


def verified(stages: list[list[str | None]], code: int | None, pipeline: tuple[int, ...]) -> Verification | None:
    """The last verification command of the pipeline the shell reports on, with that stage's own exit code (code
    is the pipeline's, None when it timed out; pipeline holds each stage's, when known)."""
    statuses = pipeline if len(pipeline) == len(stages) else ()
    for n in reversed(range(len(stages))):
        if name := recognise(stages[n]):
            return Verification(name, code if code is None or not statuses else statuses[n])
    return None
