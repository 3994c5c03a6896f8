"""Configuration: one merge of defaults, user and project files, environment and flags."""

import json
import os
import platform
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from narnat_agent.atomic import write_atomic
from narnat_agent.config.defaults import BASE_PROMPT, DEFAULTS, IRON_LAWS

CONFIG_NAME = "narnat.json"
SEARCH_URLS = {  # environment variables that point a search engine elsewhere (a mirror or a proxy)
    "baidu": "NARNAT_BAIDU_URL",
    "bing": "NARNAT_BING_URL",
    "duckduckgo": "NARNAT_DDG_URL",
    "duckduckgo-lite": "NARNAT_DDG_LITE_URL",
}
INSTRUCTIONS_NAME = "narnat.md"

# Runtime data and secrets that must stay out of the project's git history.
GITIGNORE = """\
# Narnat: secrets and runtime data
narnat.json
sessions/
logs/
spills/
history
last_session_summary.md
"""


class ConfigError(Exception):
    """A configuration problem, worded as one sentence for the user."""


class MissingApiKey(ConfigError):
    """No API key anywhere: interactive starts offer the setup questions."""


@dataclass(frozen=True)
class Config:
    api_key: str
    base_url: str
    model: str
    context_window: int
    warn_turns: tuple[int, ...]
    compress_turns: int
    bash_timeout_ms: int
    pricing: Mapping[str, float]
    max_steps: int
    interrupt_key: str
    web_timeout_s: float
    stream_idle_timeout_s: float
    project: Path
    home: Path
    search_urls: Mapping[str, str] = field(default_factory=dict)  # engine -> address, when not the engine's own
    notices: tuple[str, ...] = field(default=(), compare=False)

    @property
    def state_dir(self) -> Path:
        """The project's `.narnat/` folder."""
        return self.project / ".narnat"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# key -> (check, what the value must be)
CHECKS = {
    "api_key": (lambda v: isinstance(v, str), "a string"),
    "base_url": (lambda v: isinstance(v, str) and v.startswith(("http://", "https://")), "an http(s) URL"),
    "model": (lambda v: isinstance(v, str) and v.strip() != "", "a non-empty string"),
    "context_window": (lambda v: _is_int(v) and v > 0, "a positive integer"),
    "warn_turns": (
        lambda v: isinstance(v, list) and all(_is_int(x) and x > 0 for x in v),
        "a list of positive integers",
    ),
    "compress_turns": (lambda v: _is_int(v) and v > 0, "a positive integer"),
    "bash_timeout_ms": (lambda v: _is_int(v) and 0 < v <= 600000, "an integer from 1 to 600000"),
    "pricing": (
        lambda v: (
            isinstance(v, dict)
            and set(v) <= {"input", "output", "cached_input"}
            and all(_is_number(x) and x >= 0 for x in v.values())
        ),
        'an object like {"input": 0.27, "output": 1.1, "cached_input": 0.07}',
    ),
    "max_steps": (lambda v: _is_int(v) and v > 0, "a positive integer"),
    "interrupt_key": (lambda v: v in ("escape", "escape-twice", "ctrl-c"), '"escape", "escape-twice" or "ctrl-c"'),
    "web_timeout_s": (lambda v: _is_number(v) and 0 < v <= 120, "a number of seconds from 1 to 120"),
    "stream_idle_timeout_s": (lambda v: _is_number(v) and 1 <= v <= 3600, "a number of seconds from 1 to 3600"),
}


def _read_file(path: Path, notices: list[str]) -> dict:
    """The validated settings of one narnat.json, or {} when it does not exist."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot be read ({e}).") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}.") from None
    if not isinstance(data, dict):
        raise ConfigError(f'{path}: must hold a JSON object like {{"model": "..."}}.')
    settings = {}
    for key, value in data.items():
        if key not in CHECKS:
            notices.append(f"{path}: unknown key '{key}' ignored (known keys: {', '.join(CHECKS)}).")
            continue
        check, expected = CHECKS[key]
        if not check(value):
            raise ConfigError(f"{path}: '{key}' must be {expected}, not {json.dumps(value)}.")
        settings[key] = value
    return settings


def _from_environment(env: Mapping[str, str], have_key: bool) -> dict:
    settings = {}
    for key in ("api_key", "base_url", "model"):
        value = env.get(f"NARNAT_{key.upper()}")
        if value:
            settings[key] = value
    if not have_key and "api_key" not in settings and env.get("OPENAI_API_KEY"):
        settings["api_key"] = env["OPENAI_API_KEY"]
        if env.get("OPENAI_BASE_URL") and "base_url" not in settings:
            settings["base_url"] = env["OPENAI_BASE_URL"]
    for key, value in settings.items():
        check, expected = CHECKS[key]
        if not check(value):
            raise ConfigError(f"environment: {key} must be {expected}, not {value!r}.")
    return settings


def load_config(project: Path, home: Path, env: Mapping[str, str] = os.environ, model: str | None = None) -> Config:
    """Merge defaults < ~/.narnat < ./.narnat < environment < flags, key by key."""
    notices: list[str] = []
    merged = dict(DEFAULTS)
    for path in (home / ".narnat" / CONFIG_NAME, project / ".narnat" / CONFIG_NAME):
        merged.update(_read_file(path, notices))
    merged.update(_from_environment(env, have_key=bool(merged["api_key"])))
    if model:
        merged["model"] = model
    if not merged["api_key"]:
        raise MissingApiKey(
            'No API key: set NARNAT_API_KEY or add "api_key" to .narnat/narnat.json (run narnat once to be asked).'
        )
    base_url = str(merged["base_url"]).rstrip("/")
    if base_url.endswith("/anthropic"):
        base_url = base_url.removesuffix("/anthropic")
        notices.append(f"base_url ends in /anthropic (an Anthropic-format endpoint); using {base_url} instead.")
    return Config(
        api_key=merged["api_key"],
        base_url=base_url,
        model=merged["model"],
        context_window=merged["context_window"],
        warn_turns=tuple(sorted(merged["warn_turns"])),
        compress_turns=merged["compress_turns"],
        bash_timeout_ms=merged["bash_timeout_ms"],
        pricing=dict(merged["pricing"]),
        max_steps=merged["max_steps"],
        interrupt_key=merged["interrupt_key"],
        web_timeout_s=merged["web_timeout_s"],
        stream_idle_timeout_s=merged["stream_idle_timeout_s"],
        search_urls={engine: env[name] for engine, name in SEARCH_URLS.items() if env.get(name)},
        project=project,
        home=home,
        notices=tuple(notices),
    )


def write_project_config(project: Path, settings: dict) -> Path:
    """Save settings to ./.narnat/narnat.json (mode 0600) and keep secrets out of git."""
    state = project / ".narnat"
    path = state / CONFIG_NAME
    existing = _read_file(path, [])
    data = json.dumps({**existing, **settings}, indent=2, ensure_ascii=False) + "\n"
    write_atomic(path, data.encode(), mode=0o600)
    gitignore = state / ".gitignore"
    if not gitignore.exists():
        write_atomic(gitignore, GITIGNORE.encode())
    return path


HEADLESS = (
    "- Mode: headless (one request from a script, a CI job or another agent): nobody reads questions or can answer "
    "them during this run, so do not end with one; finish the task on your own and end with the result. "
)
CONFIRMATION = {
    False: "Commands that need the user's confirmation (deleting files) will be refused.\n",
    True: "Commands that would need the user's confirmation (deleting files) are allowed in this run (--yes).\n",
}
ENVIRONMENT = re.compile(r"^# Environment\n(?:- .*\n)*", re.MULTILINE)


def _environment_block(project: Path, headless: bool, yes: bool) -> str:
    git = any((d / ".git").exists() for d in (project, *project.parents))
    return (
        "# Environment\n"
        f"- Working directory: {project}\n"
        f"- Platform: {platform.system()} {platform.release()} ({platform.machine()})\n"
        f"- Shell: {os.environ.get('SHELL', '/bin/sh')} (the Bash tool runs bash)\n"
        f"- Date: {date.today().isoformat()}\n"
        f"- Git repository: {'yes' if git else 'no'}\n"
    ) + (HEADLESS + CONFIRMATION[yes] if headless else "")


def with_environment(saved_prompt: str, system_prompt: str) -> str:
    """A saved conversation's system prompt with this run's environment block (date, mode) in place of its own."""
    block = ENVIRONMENT.findall(system_prompt)[0]  # the first: instructions quoted after it may look alike
    return ENVIRONMENT.sub(lambda _: block, saved_prompt, count=1)


def build_system_prompt(config: Config, headless: bool = False, yes: bool = False) -> str:
    """Base prompt + iron laws + environment (headless or not) + user instructions, computed once per run."""
    parts = [BASE_PROMPT.replace("{model}", config.model), IRON_LAWS, _environment_block(config.project, headless, yes)]
    sources = (
        ("User instructions (~/.narnat/narnat.md)", config.home / ".narnat" / INSTRUCTIONS_NAME),
        ("Project instructions (.narnat/narnat.md)", config.project / ".narnat" / INSTRUCTIONS_NAME),
        ("Project instructions (AGENTS.md)", config.project / "AGENTS.md"),
    )
    for title, path in sources:
        try:
            text = path.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            continue
        if text:
            parts.append(f"# {title}\n{text}\n")
    return "\n".join(parts)
