"""Every setting, declared once: its default, the check its value must pass, and what it means.

The defaults, the checks of the loader, the unknown-key notice, `narnat.json.example` and the settings table of
docs/configuration.md are all derived from `SETTINGS` (tests hold the last two to it).
"""

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from narnat_agent import state
from narnat_agent.i18n import N_, _, languages

DEFAULT_BASE_URL = "https://api.deepseek.com"


@dataclass(frozen=True)
class Setting:
    name: str
    default: Any
    check: Callable[[Any], bool]
    expected: str  # what a value must be, as the error for a wrong one says it (translated there)
    meaning: str  # the docs' words for it (Markdown)
    example: Any = None  # what narnat.json.example shows, when not the default

    def what_is_expected(self) -> str:
        """`expected` in the interface's language, naming the languages Narnat speaks where it mentions them."""
        return _(self.expected).replace("{languages}", ", ".join(f'"{name}"' for name in languages()))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _positive_int(value: object) -> bool:
    return _is_int(value) and value > 0  # type: ignore[operator]


def _pricing(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) <= {"input", "output", "cached_input"}
        and all(_is_number(x) and x >= 0 for x in value.values())
    )


SETTINGS = (
    Setting("api_key", "", lambda v: isinstance(v, str), N_("a string"),
            "required; never logged or printed", example="sk-your-key"),
    Setting("base_url", DEFAULT_BASE_URL, lambda v: isinstance(v, str) and _http_url(v),
            N_("an http(s) URL"), "OpenAI-compatible endpoint (a trailing `/anthropic` is stripped)"),
    Setting("model", "deepseek-v4-pro", lambda v: isinstance(v, str) and v.strip() != "", N_("a non-empty string"),
            "model name"),
    Setting("context_window", 128000, _positive_int, N_("a positive integer"),
            "tokens; used by the overflow safety net; unset, a local server's own figure "
            "(see [Local models](#local-models))"),
    Setting("warn_turns", [50, 100], lambda v: isinstance(v, list) and all(_positive_int(x) for x in v),
            N_("a list of positive integers"), "turn counts at which you are warned"),
    Setting("compress_turns", 120, _positive_int, N_("a positive integer"), "the forced-compression limit"),
    Setting("bash_timeout_ms", 120000, lambda v: _is_int(v) and 0 < v <= 600000, N_("an integer from 1 to 600000"),
            "default Bash timeout (a call may ask up to 600000)"),
    Setting("shell", "", lambda v: isinstance(v, str), N_("a string"),
            "Windows only: the shell the Bash tool runs, by its full path (a `bash.exe`, `pwsh.exe` or "
            "`powershell.exe`); `\"\"` finds Git Bash, else PowerShell 7, else Windows PowerShell 5.1 "
            "(see [Windows](windows.md#the-bash-tool-on-windows))"),
    Setting("job_output_limit_mb", 100, _positive_int, N_("a positive integer"),
            "megabytes a background command may print before it is stopped (its log keeps the first and the last "
            "megabyte); at most 32 run at once, and another is refused until one ends"),
    Setting("pricing", {}, _pricing, N_('an object like {"input": 0.27, "output": 1.1, "cached_input": 0.07}'),
            '`{"input": x, "output": y, "cached_input": z}` per million tokens, for the cost footer',
            example={"input": 0.27, "output": 1.10, "cached_input": 0.07}),
    Setting("max_steps", 200, _positive_int, N_("a positive integer"),
            "tool steps in one turn before Narnat stops and asks you to continue"),
    Setting("max_turns", 10, _positive_int, N_("a positive integer"),
            "turns a goal (`/goal … --until`, `-p … --until`) may take before it stops unproven (`--max-turns` sets "
            "it for one run)"),
    Setting("interrupt_key", "escape", lambda v: v in ("escape", "escape-twice", "ctrl-c"),
            N_('"escape", "escape-twice" or "ctrl-c"'),
            'what stops a turn besides Ctrl-C: `"escape"`, `"escape-twice"` (two presses within 1.5 s, for vi '
            'habits) or `"ctrl-c"` (ESC ignored)'),
    Setting("web_timeout_s", 10, lambda v: _is_number(v) and 0 < v <= 120, N_("a number of seconds from 1 to 120"),
            "seconds WebSearch and WebFetch wait for a web server; a whole page (or an engine's page of results) may "
            "take three times that, and is then given up (a page that streams without end)"),
    Setting("language", "", lambda v: v == "" or v in languages(), N_('"" (the locale\'s) or one of {languages}'),
            'the interface\'s language: `"zh-CN"` (简体中文) or `"en"`; `""` follows the locale (`LC_ALL`, '
            '`LC_MESSAGES`, `LANG`). What the model receives is the same in every language'),
    Setting("stream_idle_timeout_s", 120, lambda v: _is_number(v) and 1 <= v <= 3600,
            N_("a number of seconds from 1 to 3600"),
            "seconds a request may go without any part of the answer arriving (keep-alives do not count) before it "
            "is dropped (and asked again if nothing had arrived)"),
    Setting("request_timeout_s", 1800, lambda v: _is_number(v) and 1 <= v <= 86400,
            N_("a number of seconds from 1 to 86400"),
            "seconds one request to the provider may take in all, however steadily it streams, its headers included "
            "(a server that sends them a line at a time)"),
    Setting("sees_images", False, lambda v: isinstance(v, bool), N_("true or false"),
            "whether the model can see images: Read then sends a PNG, JPEG, GIF or WebP to it (scaled down to 1568 "
            "pixels on the longer side) in the message after the tool results; when false (DeepSeek's chat models "
            "are text-only), Read says in one line what the image is and its pixel size. A provider that refuses "
            "an image gets the text instead, for the rest of the run"),
    Setting("max_cost", None, lambda v: v is None or _is_number(v) and v > 0,
            N_("a positive number (in pricing's currency)"),
            "a budget per run in `pricing`'s currency (needs `pricing`; `--max-cost` sets it for one run): a turn "
            "stops before the request that would go over"),
    Setting("max_tokens_sent", None, lambda v: v is None or _positive_int(v), N_("a positive integer"),
            "the same budget in prompt tokens sent, for providers without `pricing`"),
    Setting("bell", True, lambda v: isinstance(v, bool), N_("true or false"),
            "ring the terminal bell and set the window title when a long turn ends or a confirmation waits (never "
            "when stdout is not a terminal)"),
    Setting("bell_after_s", 30, lambda v: _is_number(v) and v >= 0, N_("a number of seconds (0: every turn)"),
            "how long a turn must have taken for its end to ring (0: every turn)"),
)  # fmt: skip


@dataclass(frozen=True)
class Notice:
    """Something about the settings worth saying, in the language they choose: it is worded when shown."""

    message: str  # marked with N_
    values: Mapping[str, object]

    def __str__(self) -> str:
        return _(self.message).format(**self.values)


@dataclass(frozen=True)
class Config:
    """The settings of one run: every entry of SETTINGS by its name, then what the run itself decides."""

    api_key: str
    base_url: str
    model: str
    context_window: int
    warn_turns: tuple[int, ...]
    compress_turns: int
    bash_timeout_ms: int
    shell: str  # the shell Bash runs, when not the one found ("")
    job_output_limit_mb: int
    pricing: Mapping[str, float]
    max_steps: int
    max_turns: int  # turns of one goal
    interrupt_key: str
    web_timeout_s: float
    language: str
    stream_idle_timeout_s: float
    request_timeout_s: float
    sees_images: bool
    max_cost: float | None  # per run, in pricing's currency
    max_tokens_sent: int | None  # per run: prompt tokens over all requests
    bell: bool
    bell_after_s: float
    project: Path
    home: Path
    state_dir: Path  # the project's .narnat/, or the per-user folder that stands in for it (state.choose_folder)
    search_urls: Mapping[str, str] = field(default_factory=dict)  # engine -> address, when not the engine's own
    notices: tuple[Notice, ...] = field(default=(), compare=False)
    context_window_set: bool = False  # a settings file names it, so what the server reports does not replace it
    # the keys the settings files and the environment hold besides the one in use (your own provider's, when the
    # project names another): masked in what the tools return, as the key in use is
    other_keys: tuple[str, ...] = field(default=(), repr=False, compare=False)

    @property
    def files(self) -> tuple[Path, ...]:
        """The settings files, in the order they are read; either may hold the API key."""
        return state.settings_files(self.project, self.home)


def _http_url(value: str) -> bool:
    """An http(s) address the HTTP client can send to: a space or a control character pasted into it, brackets left
    open or a port that is not a number were Python errors at the first request."""
    if not value.startswith(("http://", "https://")) or any(c.isspace() or not c.isprintable() for c in value):
        return False
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - reading it checks it
    except ValueError:
        return False
    return bool(parts.hostname)


BY_NAME = {setting.name: setting for setting in SETTINGS}
DEFAULTS: dict[str, Any] = {setting.name: setting.default for setting in SETTINGS}


def example_file() -> str:
    """narnat.json.example: every setting with its default, or an example where the default says nothing."""
    lines = [f"  {json.dumps(s.name)}: {json.dumps(s.default if s.example is None else s.example)}" for s in SETTINGS]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def settings_table() -> str:
    """docs/configuration.md's table of settings."""
    rows = [
        f"| `{s.name}` | {'—' if s.name == 'api_key' else f'`{json.dumps(s.default)}`'} | {s.meaning} |"
        for s in SETTINGS
    ]
    return "\n".join(["| key | default | meaning |", "|---|---|---|", *rows]) + "\n"
