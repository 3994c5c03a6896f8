"""The system prompt: the design's base prompt, the iron laws, this run's environment and the user's instructions."""

import json
import os
import platform
import re
import shutil
import stat
from collections.abc import Callable
from datetime import date
from pathlib import Path

from narnat_agent import state
from narnat_agent.config.settings import Config
from narnat_agent.encodable import encodable
from narnat_agent.i18n import _
from narnat_agent.keyguard import redact
from narnat_agent.prompts.skills import find_skills, skills_section
from narnat_agent.prompts.texts import BASE_PROMPT, IRON_LAWS
from narnat_agent.tools.bash import chosen, environment
from narnat_agent.tools.bash.shells import Shell

MAX_INSTRUCTIONS = 32_000  # characters of one instruction file in the system prompt, which every request carries

HEADLESS = (
    "- Mode: headless (one request from a script, a CI job or another agent): nobody reads questions or can answer "
    "them during this run, so do not end with one; finish the task on your own and end with the result. "
)
CONFIRMATION = {
    False: "Commands that need the user's confirmation (deleting files, destroying data) will be refused.\n",
    True: "Commands that would need the user's confirmation (deleting files, destroying data) are allowed in this run "
    "(--yes).\n",
}
ENVIRONMENT = re.compile(r"^# Environment\n(?:- .*\n)*", re.MULTILINE)


def _environment_block(project: Path, headless: bool, yes: bool, shell: Shell) -> str:
    git = any(_found(d / ".git") for d in (project, *project.parents))
    return (
        (
            "# Environment\n"
            f"- Working directory: {project}\n"
            f"- Platform: {platform.system()} {platform.release()} ({platform.machine()})\n"
            + shell.environment_line(os.environ)
            + f"- Date: {date.today().isoformat()}\n"
            f"- Git repository: {'yes' if git else 'no'}\n"
        )
        + _python_environments(project)
        + _node(project)
        + (HEADLESS + CONFIRMATION[yes] if headless else "")
    )


def _python_environments(project: Path) -> str:
    """The project's own Python environments, which the Bash tool's commands should use."""
    variable = environment(root=project).get("VIRTUAL_ENV")
    active = Path(variable).resolve() if variable else None
    try:
        entries = sorted(project.iterdir())
    except OSError:  # a project folder that can be entered but not listed (mode 0311): no virtualenv to name
        entries = []
    found = [d.resolve() for d in entries if _found(d / "pyvenv.cfg", Path.is_file)]
    lines = [f"- Python virtualenv: {d.name} ({'active; ' if d == active else ''}its tools: {d.name}/{_bin(d)}/python, "
             f"{d.name}/{_bin(d)}/pip)" for d in found]  # fmt: skip
    if active and active not in found:
        lines.append(f"- Python virtualenv: {active} (active)")
    for lock, tool in (("poetry.lock", "poetry"), ("uv.lock", "uv")):
        if not _found(project / lock, Path.is_file):
            continue
        if _installed(tool, project):
            lines.append(f"- {lock}: run the project's Python tools with `{tool} run …`")
        else:
            instead = "; use the virtualenv's tools above" if found or active else ""
            lines.append(f"- {lock}: {tool} is not installed here{instead}")
    if (conda := os.environ.get("CONDA_DEFAULT_ENV")) and conda != "base":
        lines.append(f"- Conda environment: {conda} (active)")
    return "".join(f"{line}\n" for line in lines)


LOCKFILES = (("pnpm-lock.yaml", "pnpm"), ("yarn.lock", "yarn"), ("bun.lock", "bun"), ("bun.lockb", "bun"),
             ("package-lock.json", "npm"))  # fmt: skip
MAX_SCRIPTS = 20  # of package.json's scripts named in the prompt, which every request carries
MAX_PACKAGE_JSON = 1_000_000  # bytes: a larger package.json is not read at start


def _node(project: Path) -> str:
    """A Node project's package manager (from its lockfile) and package.json's scripts, for the model to run the
    project's own test command."""
    package = project / "package.json"
    if not _found(package, Path.is_file):
        return ""
    lockfile, manager = next(((f, m) for f, m in LOCKFILES if _found(project / f, Path.is_file)), ("", "npm"))
    line = f"- Node: {manager} ({f'from {lockfile}' if lockfile else 'no lockfile'}); "
    if manager != "npm" and not _installed(manager, project):
        # the lockfile names a manager the commands cannot run: npm runs the same scripts
        line += f"{manager} is not installed here (npm runs the scripts; an npm install writes package-lock.json); "
        manager = "npm"
    scripts = _scripts(package)
    if scripts is None:
        return line + "package.json cannot be read\n"
    if not scripts:
        return line + "package.json has no scripts\n"
    names = [str(name) for name in scripts][:MAX_SCRIPTS]
    more = f" ({len(scripts) - MAX_SCRIPTS} more)" if len(scripts) > MAX_SCRIPTS else ""
    return line + f"package.json scripts: {', '.join(names)}{more} — run them with `{manager} run NAME`\n"


def _scripts(package: Path) -> dict | None:
    """package.json's scripts ({} when it has none), None when it cannot be read as a package.json."""
    try:
        with package.open("rb") as f:
            data = f.read(MAX_PACKAGE_JSON + 1)
        found = json.loads(data) if len(data) <= MAX_PACKAGE_JSON else None
    except (OSError, ValueError, RecursionError):
        return None
    scripts = found.get("scripts", {}) if isinstance(found, dict) else None
    return scripts if isinstance(scripts, dict) else None


def _installed(program: str, project: Path) -> bool:
    """Whether the Bash tool's commands find the program on their PATH."""
    return shutil.which(program, path=environment(root=project).get("PATH")) is not None


def _bin(venv: Path) -> str:
    """Where a virtualenv keeps its programs: Scripts on Windows, bin elsewhere."""
    return "Scripts" if (venv / "Scripts").is_dir() and not (venv / "bin").is_dir() else "bin"


def _found(path: Path, kind: Callable[[Path], bool] = Path.exists) -> bool:
    """Whether path is there (as a file, with Path.is_file): inside a folder the user cannot enter (a database's
    volume, lost+found), no."""
    try:
        return kind(path)
    except OSError:  # pathlib lets EACCES through
        return False


def with_environment(saved_prompt: str, system_prompt: str) -> str:
    """A saved conversation's system prompt with this run's environment block (date, mode) in place of its own."""
    block = ENVIRONMENT.findall(system_prompt)[0]  # the first: instructions quoted after it may look alike
    return ENVIRONMENT.sub(lambda _: block, saved_prompt, count=1)


def _instructions(path: Path, notify: Callable[[str], None]) -> str:
    """One instruction file's text, capped; a FIFO or device is never opened (it could block the start)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return ""
        with path.open("rb") as f:
            data = f.read(MAX_INSTRUCTIONS * 4 + 4)
    except OSError:
        return ""
    text = data.decode("utf-8", errors="backslashreplace").strip()
    if len(text) <= MAX_INSTRUCTIONS:
        return text
    cut = _("{path} is longer than {limit:,} characters; only its beginning is in the system prompt.")
    notify(cut.format(path=path, limit=MAX_INSTRUCTIONS))
    return f"{text[:MAX_INSTRUCTIONS]}\n[The rest of {path.name} is left out: it is longer than this limit.]"


def build_system_prompt(
    config: Config, notify: Callable[[str], None] = lambda text: None, headless: bool = False, yes: bool = False
) -> str:
    """Base prompt + iron laws + environment (headless or not) + user instructions, computed once per run."""
    shell = chosen(config.shell)
    if shell.problem:
        notify(_(shell.problem).format(**shell.values))
    environment_block = _environment_block(config.project, headless, yes, shell.shell)
    parts = [BASE_PROMPT.replace("{model}", config.model), IRON_LAWS, environment_block]
    sources = (
        ("User instructions (~/.narnat/narnat.md)", state.user_folder(config.home) / state.INSTRUCTIONS),
        ("Project instructions (.narnat/narnat.md)", state.project_folder(config.project) / state.INSTRUCTIONS),
        ("Project instructions (AGENTS.md)", config.project / "AGENTS.md"),
    )
    for title, path in sources:
        if text := _instructions(path, notify):
            parts.append(f"# {title}\n{text}\n")
    if skills := find_skills(config.project, config.home, notify):
        parts.append(skills_section(skills))
    # a project path that is not UTF-8; the key in a file of instructions or a skill's description, masked as in a
    # tool's result
    return redact(encodable("\n".join(parts)), config.api_key)


def for_model(system_prompt: str, old: str, new: str) -> str:
    """The prompt naming another model, for the next conversation: the current one keeps its prefix byte-stable."""
    start, rest = BASE_PROMPT.split("{model}", 1)
    end = rest.split("\n", 1)[0]
    return system_prompt.replace(f"{start}{old}{end}", f"{start}{new}{end}", 1)
