"""The task runners pyproject.toml configures, read as package.json's scripts are: poe's `[tool.poe.tasks]`
(`poe NAME`), PDM's `[tool.pdm.scripts]` (`pdm run NAME`, with pre_/post_ scripts), taskipy's
`[tool.taskipy.tasks]` (`task NAME`, with pre_/post_ tasks) and Hatch's environment scripts
(`[tool.hatch.envs.ENV.scripts]`, `hatch run [ENV:]NAME`). Each task's commands are checked as the shell text they
are, tasks that name other tasks followed (bounded); a Python callable cannot be read and asks only when its name
says it destroys. A name the file does not give is left to the rest of the analysis (`pdm run pytest` runs pytest).
"""

import sys
from typing import Any

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import Argv, Check
from narnat_agent.safety.syntax import names
from narnat_agent.safety.tasks import MAX_TARGETS, checked, read_small
from narnat_agent.safety.vocabulary import said_by_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the same parser, before it joined the standard library
    import tomli as tomllib

RUNNERS = names("poe poethepoet pdm task hatch")
OWN = {"pdm": names("run"), "hatch": names("run")}  # the subcommand that runs a script; poe and task take the name


def pyproject_task(argv: Argv, check: Check) -> list | None:
    """`poe NAME`, `pdm run NAME`, `task NAME`, `hatch run [ENV:]NAME`: the task's commands checked ([] then); None
    when the command names no task of the project's pyproject.toml."""
    runner = (argv[0] or "").rsplit("/", 1)[-1]
    words = [a for a in argv[1:] if a is not None and not a.startswith("-")]
    if None in argv or runner in OWN and words[:1] != ["run"]:
        return None
    words = words[1:] if runner in OWN else words
    if not words or check.cwd is None or (text := read_small(check.cwd / "pyproject.toml")) is None:
        return None
    try:
        tool = tomllib.loads(text).get("tool", {})
    except tomllib.TOMLDecodeError:
        return None
    env, _, name = words[0].rpartition(":") if runner == "hatch" else ("", "", words[0])
    tasks = _table(runner, tool, env or "default")
    if name not in tasks:
        return None
    extra = argv[argv.index(words[0]) + 1 :]
    hooks = runner in ("pdm", "task")  # pre_NAME and post_NAME run around NAME
    for task in [f"pre_{name}", name, f"post_{name}"] if hooks else [name]:
        if task in tasks:
            _task(runner, tasks, task, extra if task == name else [], check, set())
    return []


def _table(runner: str, tool: dict, env: str) -> dict[str, Any]:
    """The tasks one runner reads from the [tool] table."""
    found: Any
    if runner in ("poe", "poethepoet"):
        found = tool.get("poe", {}).get("tasks")
    elif runner == "pdm":
        found = tool.get("pdm", {}).get("scripts")
    elif runner == "task":
        found = tool.get("taskipy", {}).get("tasks")
    else:
        found = tool.get("hatch", {}).get("envs", {}).get(env, {}).get("scripts")
    return found if isinstance(found, dict) else {}


def _task(runner: str, tasks: dict, name: str, extra: Argv, check: Check, seen: set[str]) -> None:
    """Check what one task runs: its commands, or the tasks it names (a sequence, a composite, a ref)."""
    if name in seen or len(seen) >= MAX_TARGETS:
        return
    seen.add(name)
    kind = Said(N_("{runner} task"), runner=runner)
    body = tasks[name]
    if isinstance(body, dict):  # a Python function (`script`, `call`) gives no text: read no further
        body = next((body[key] for key in ("cmd", "shell", "sequence", "composite", "ref") if key in body), None)
    lines = body if isinstance(body, list) else [body]
    for line in lines[:MAX_TARGETS]:
        if isinstance(line, str) and line in tasks and (isinstance(body, list) or runner == "poe"):
            _task(runner, tasks, line, [], check, seen)  # a sequence's, a composite's or a script's other task
        elif isinstance(line, str):
            text = " ".join([line, *(w or "" for w in extra)]) if extra and line is lines[-1] else line
            checked(text, Said(N_("the {kind} {name}"), kind=kind, name=name), check)
        else:
            check.verdict.deletions += said_by_name(kind, name)  # a function, or an inline table in a sequence
