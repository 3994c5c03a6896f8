"""Configuration: one merge of defaults, user and project files, environment and flags."""

import json
import os
import stat
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from narnat_agent import state
from narnat_agent.atomic import write_atomic
from narnat_agent.config.settings import BY_NAME, DEFAULTS, Config, Notice
from narnat_agent.i18n import N_, _
from narnat_agent.keyguard import KEY_VARIABLES, can_be_key

SEARCH_URLS = {  # environment variables that point a search engine elsewhere (a mirror or a proxy)
    "baidu": "NARNAT_BAIDU_URL",
    "bing": "NARNAT_BING_URL",
    "duckduckgo": "NARNAT_DDG_URL",
    "duckduckgo-lite": "NARNAT_DDG_LITE_URL",
}


NAMED_KEYS = 5  # unknown keys a notice names; the others it counts


class ConfigError(Exception):
    """A configuration problem, worded as one sentence for the user."""


class MissingApiKey(ConfigError):
    """No API key anywhere: interactive starts offer the setup questions."""


def _short(text: str, limit: int = 40) -> str:
    return (
        text if len(text) <= limit else _("{start}… ({count:,} characters)").format(start=text[:limit], count=len(text))
    )


def _regular_text(path: Path) -> str | None:
    """The text of a regular file, None when there is none; a FIFO or device is never opened (it could block)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise ConfigError(_("{path}: is not a regular file; remove it or replace it with one.").format(path=path))
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(_("{path}: cannot be read ({error}).").format(path=path, error=e)) from None


def _object(path: Path) -> dict:
    """The JSON object one narnat.json holds, every key as written; {} when it does not exist."""
    text = _regular_text(path)
    if text is None:
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        invalid = _("{path}: invalid JSON at line {line}, column {column}: {problem}.")
        raise ConfigError(invalid.format(path=path, line=e.lineno, column=e.colno, problem=e.msg)) from None
    except RecursionError:
        raise ConfigError(_("{path}: nested too deeply to be a settings file.").format(path=path)) from None
    if not isinstance(data, dict):
        raise ConfigError(_('{path}: must hold a JSON object like {{"model": "..."}}.').format(path=path))
    return data


def _read_file(path: Path, notices: list[Notice]) -> dict:
    """The validated settings of one narnat.json, or {} when it does not exist."""
    data = _object(path)
    if unknown := [key for key in data if key not in BY_NAME]:
        notices.append(_unknown_keys(path, unknown))
    settings = {}
    for key, value in data.items():
        if key not in BY_NAME:
            continue
        if not BY_NAME[key].check(value):
            shown = _short(json.dumps(value), 200)
            wrong = _("{path}: '{key}' must be {expected}, not {value}.")
            raise ConfigError(wrong.format(path=path, key=key, expected=BY_NAME[key].what_is_expected(), value=shown))
        settings[key] = value
    return settings


def _unknown_keys(path: Path, keys: list[str]) -> Notice:
    """One notice for a file's unknown keys however many there are: the first few named, the others counted."""
    known = ", ".join(BY_NAME)
    if len(keys) == 1:
        return Notice(N_("{path}: unknown key '{key}' ignored (known keys: {known})."),
                      {"path": path, "key": _short(keys[0]), "known": known})  # fmt: skip
    named: object = ", ".join(f"'{_short(key)}'" for key in keys[:NAMED_KEYS])
    if len(keys) > NAMED_KEYS:
        named = Notice(N_("{keys} and {count:,} more"), {"keys": named, "count": len(keys) - NAMED_KEYS})
    return Notice(N_("{path}: unknown keys {keys} ignored (known keys: {known})."),
                  {"path": path, "keys": named, "known": known})  # fmt: skip


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
        if not BY_NAME[key].check(value):
            wrong = _("environment: {key} must be {expected}, not {value}.")
            shown = _short(repr(value), 200)
            raise ConfigError(wrong.format(key=key, expected=BY_NAME[key].what_is_expected(), value=shown))
    return settings


def _clean_key(key: str) -> str:
    """The key without the whitespace a copy-paste brings; a character no key has is named (the key never is)."""
    key = key.strip()
    for i, char in enumerate(key, 1):
        if not ("!" <= char <= "~"):
            what = f"U+{ord(char):04X} {unicodedata.name(char, 'control character')}"  # Unicode's own name
            bad = _("The API key contains {what} (character {i} of {length}), which no key has: copy the key again.")
            raise ConfigError(bad.format(what=what, i=i, length=len(key)))
    return key


def load_config(project: Path, home: Path, env: Mapping[str, str] = os.environ, model: str | None = None,
                max_cost: float | None = None) -> Config:  # fmt: skip
    """Merge defaults < ~/.narnat < ./.narnat < environment < flags, key by key."""
    notices: list[Notice] = []
    merged: dict[str, Any] = dict(DEFAULTS)  # every value is checked against its Setting as it is read
    named: set[str] = set()
    keys = [env.get(name, "") for name in KEY_VARIABLES]
    for path in state.settings_files(project, home):
        settings = _read_file(path, notices)
        merged.update(settings)
        named.update(settings)
        keys.append(settings.get("api_key", ""))
    merged.update(_from_environment(env, have_key=bool(merged["api_key"])))
    if model:
        merged["model"] = model
    if max_cost:
        merged["max_cost"] = max_cost
    if merged["max_cost"] and not merged["pricing"]:
        raise ConfigError(_('A cost budget needs prices: add "pricing" to .narnat/narnat.json, or limit tokens with '
                            '"max_tokens_sent" instead.'))  # fmt: skip
    if not merged["api_key"].strip():
        raise MissingApiKey(
            _('No API key: set NARNAT_API_KEY or add "api_key" to .narnat/narnat.json (run narnat once to be asked).')
        )
    base_url = str(merged["base_url"]).rstrip("/")
    if base_url.endswith("/anthropic"):
        base_url = base_url.removesuffix("/anthropic")
        anthropic = N_("base_url ends in /anthropic (an Anthropic-format endpoint); using {base_url} instead.")
        notices.append(Notice(anthropic, {"base_url": base_url}))
    values = {**merged, "api_key": _clean_key(merged["api_key"]), "base_url": base_url,
              "warn_turns": tuple(sorted(merged["warn_turns"])), "pricing": dict(merged["pricing"])}  # fmt: skip
    search_urls = {engine: env[name] for engine, name in SEARCH_URLS.items() if env.get(name)}
    others = tuple(dict.fromkeys(k.strip() for k in keys if can_be_key(k.strip()) and k.strip() != values["api_key"]))
    return Config(**values, search_urls=search_urls, project=project, home=home,
                  context_window_set="context_window" in named, other_keys=others,
                  state_dir=state.project_folder(project), notices=tuple(notices))  # fmt: skip


def write_setup(project: Path, home: Path, settings: dict) -> Path:
    """Save the first-start answers (mode 0600) for the user, ~/.narnat/, unless this project keeps its own key."""
    local = state.project_folder(project) / state.CONFIG
    path = local if "api_key" in _read_file(local, []) else state.user_folder(home) / state.CONFIG
    existing = _object(path)  # every key kept: a misspelt one is the person's to fix, not lost by a save
    data = json.dumps({**existing, **settings}, indent=2, ensure_ascii=False) + "\n"
    try:
        write_atomic(path, data.encode(), mode=0o600)
    except OSError as e:
        cannot = _("Cannot save {path} ({error}); set NARNAT_API_KEY instead.")
        raise ConfigError(cannot.format(path=path, error=e.strerror)) from None
    if path == local:
        state.ignore_runtime_files(local.parent)
    return path
