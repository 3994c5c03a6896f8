"""Configuration: one merge of defaults, user and project files, environment and flags."""

import contextlib
import hashlib
import json
import os
import stat
import tempfile
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from narnat_agent.atomic import write_atomic
from narnat_agent.config.settings import DEFAULTS

CONFIG_NAME = "narnat.json"
SEARCH_URLS = {  # environment variables that point a search engine elsewhere (a mirror or a proxy)
    "baidu": "NARNAT_BAIDU_URL",
    "bing": "NARNAT_BING_URL",
    "duckduckgo": "NARNAT_DDG_URL",
    "duckduckgo-lite": "NARNAT_DDG_LITE_URL",
}

# Runtime data and secrets that must stay out of the project's git history.
GITIGNORE = """\
# Narnat: secrets and runtime data
narnat.json
sessions/
logs/
spills/
jobs/
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
    sees_images: bool
    project: Path
    home: Path
    search_urls: Mapping[str, str] = field(default_factory=dict)  # engine -> address, when not the engine's own
    notices: tuple[str, ...] = field(default=(), compare=False)
    elsewhere: Path | None = None  # where state goes when the project's .narnat/ cannot be written

    @property
    def state_dir(self) -> Path:
        """The project's `.narnat/` folder, or the per-user one that stands in for it."""
        return self.elsewhere or self.project / ".narnat"


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
    "sees_images": (lambda v: isinstance(v, bool), "true or false"),
}


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def _regular_text(path: Path) -> str | None:
    """The text of a regular file, None when there is none; a FIFO or device is never opened (it could block)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise ConfigError(f"{path}: is not a regular file; remove it or replace it with one.")
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot be read ({e}).") from None


def _read_file(path: Path, notices: list[str]) -> dict:
    """The validated settings of one narnat.json, or {} when it does not exist."""
    text = _regular_text(path)
    if text is None:
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}.") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply to be a settings file.") from None
    if not isinstance(data, dict):
        raise ConfigError(f'{path}: must hold a JSON object like {{"model": "..."}}.')
    settings = {}
    for key, value in data.items():
        if key not in CHECKS:
            notices.append(f"{path}: unknown key '{_short(key)}' ignored (known keys: {', '.join(CHECKS)}).")
            continue
        check, expected = CHECKS[key]
        if not check(value):
            raise ConfigError(f"{path}: '{key}' must be {expected}, not {_short(json.dumps(value), 200)}.")
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
            raise ConfigError(f"environment: {key} must be {expected}, not {_short(repr(value), 200)}.")
    return settings


def _clean_key(key: str) -> str:
    """The key without the whitespace a copy-paste brings; a character no key has is named (the key never is)."""
    key = key.strip()
    for i, char in enumerate(key, 1):
        if not ("!" <= char <= "~"):
            what = f"U+{ord(char):04X} {unicodedata.name(char, 'control character')}"
            raise ConfigError(
                f"The API key contains {what} (character {i} of {len(key)}), which no key has: copy the key again."
            )
    return key


def load_config(project: Path, home: Path, env: Mapping[str, str] = os.environ, model: str | None = None) -> Config:
    """Merge defaults < ~/.narnat < ./.narnat < environment < flags, key by key."""
    notices: list[str] = []
    merged: dict[str, Any] = dict(DEFAULTS)  # every value is checked against CHECKS as it is read
    for path in (home / ".narnat" / CONFIG_NAME, project / ".narnat" / CONFIG_NAME):
        merged.update(_read_file(path, notices))
    merged.update(_from_environment(env, have_key=bool(merged["api_key"])))
    if model:
        merged["model"] = model
    if not merged["api_key"].strip():
        raise MissingApiKey(
            'No API key: set NARNAT_API_KEY or add "api_key" to .narnat/narnat.json (run narnat once to be asked).'
        )
    base_url = str(merged["base_url"]).rstrip("/")
    if base_url.endswith("/anthropic"):
        base_url = base_url.removesuffix("/anthropic")
        notices.append(f"base_url ends in /anthropic (an Anthropic-format endpoint); using {base_url} instead.")
    return Config(
        api_key=_clean_key(merged["api_key"]),
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
        sees_images=merged["sees_images"],
        search_urls={engine: env[name] for engine, name in SEARCH_URLS.items() if env.get(name)},
        project=project,
        home=home,
        notices=tuple(notices),
    )


def write_setup(project: Path, home: Path, settings: dict) -> Path:
    """Save the first-start answers (mode 0600) for the user, ~/.narnat/, unless this project keeps its own key."""
    local = project / ".narnat" / CONFIG_NAME
    path = local if "api_key" in _read_file(local, []) else home / ".narnat" / CONFIG_NAME
    existing = _read_file(path, [])
    data = json.dumps({**existing, **settings}, indent=2, ensure_ascii=False) + "\n"
    try:
        write_atomic(path, data.encode(), mode=0o600)
    except OSError as e:
        raise ConfigError(f"Cannot save {path} ({e.strerror}); set NARNAT_API_KEY instead.") from None
    if path == local:
        ignore_runtime_files(local.parent)
    return path


def ignore_runtime_files(state: Path) -> None:
    """Keep secrets and runtime data out of the project's git history, once .narnat/ holds anything."""
    gitignore = state / ".gitignore"
    if not gitignore.exists():
        with contextlib.suppress(OSError):  # a full disk: the next start that can write it does
            write_atomic(gitignore, GITIGNORE.encode())


def _writable(folder: Path) -> bool:
    """Whether files can be made in folder (created if missing); tried, since root passes every permission check."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def with_state_dir(config: Config, env: Mapping[str, str] = os.environ) -> Config:
    """The config with a state folder this process can write: .narnat/, else one per user and project."""
    own = config.project / ".narnat"
    if _writable(own):
        ignore_runtime_files(own)
        return config
    base = Path(env.get("XDG_STATE_HOME") or config.home / ".local" / "state")
    project_id = hashlib.sha256(os.fsencode(config.project)).hexdigest()[:12]
    elsewhere = base / "narnat" / f"{config.project.name}-{project_id}"
    if _writable(elsewhere):
        notice = f"{own} cannot be written; this project's sessions and logs go to {elsewhere}."
    else:
        notice = f"Neither {own} nor {elsewhere} can be written; sessions and logs cannot be saved."
    return replace(config, elsewhere=elsewhere, notices=(*config.notices, notice))
