"""Each setting's check, through the settings file a person writes: the edges of its range, the JSON values that look
like numbers and are not; the example file and the docs' table written from the settings themselves."""

import json

import pytest

from narnat_agent import i18n
from narnat_agent.config.loader import ConfigError, load_config
from narnat_agent.config.settings import SETTINGS, Notice, example_file, settings_table
from narnat_agent.i18n import N_, languages

pytestmark = pytest.mark.windows


def loaded(tmp_path, **settings):
    (tmp_path / "project/.narnat").mkdir(parents=True, exist_ok=True)
    (tmp_path / "project/.narnat/narnat.json").write_text(json.dumps({"api_key": "k", **settings}))
    return load_config(tmp_path / "project", tmp_path / "home", env={})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("max_steps", 1),
        ("context_window", 1),
        ("warn_turns", [1, 3]),
        ("warn_turns", []),
        ("max_tokens_sent", 1),
        ("web_timeout_s", 0.5),
        ("web_timeout_s", 120),
        ("bash_timeout_ms", 1),
        ("bash_timeout_ms", 600000),
        ("stream_idle_timeout_s", 3600),
        ("request_timeout_s", 86400),
        ("bell_after_s", 0),
        ("pricing", {"input": 0, "output": 1.5, "cached_input": 0}),
        ("pricing", {}),
        ("max_cost", 0.01),
    ],
)
def test_a_value_at_the_edge_of_its_range_is_taken(tmp_path, key, value):
    config = loaded(tmp_path, **{key: value}, **({"pricing": {"input": 1}} if key == "max_cost" else {}))
    got = getattr(config, key)
    assert (list(got) if key == "warn_turns" else dict(got) if key == "pricing" else got) == value


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("max_steps", 0),
        ("max_steps", -1),
        ("max_steps", True),
        ("max_steps", 2.0),
        ("context_window", False),
        ("warn_turns", [0]),
        ("warn_turns", [True]),
        ("max_tokens_sent", 0),
        ("web_timeout_s", True),
        ("web_timeout_s", 120.5),
        ("bash_timeout_ms", 0),
        ("bash_timeout_ms", 600001),
        ("stream_idle_timeout_s", 3601),
        ("request_timeout_s", 0.5),
        ("bell_after_s", -0.1),
        ("bell_after_s", False),
        ("pricing", {"input": -1}),
        ("pricing", {"input": True}),
        ("pricing", {"input": 1, "cache": 0}),
        ("pricing", [1, 2]),
        ("pricing", {"output": "1"}),
        ("model", ""),
        ("model", "  "),  # every request would name no model
        ("max_cost", 0),  # every turn would stop before its first request
        ("base_url", "http://:8080/v1"),  # a port and no host: the first request would fail
        ("base_url", "http://localhost:80a/v1"),  # a port that is not a number: the first request would fail
    ],
)
def test_a_value_past_its_range_or_only_like_a_number_is_refused_naming_the_key(tmp_path, key, value):
    with pytest.raises(ConfigError, match=f"'{key}' must be "):
        loaded(tmp_path, **{key: value})


def test_the_language_setting_names_the_languages_narnat_speaks(tmp_path):
    [setting] = [s for s in SETTINGS if s.name == "language"]
    named = ", ".join(f'"{name}"' for name in languages())
    assert "{languages}" in setting.expected and named in setting.what_is_expected()
    with pytest.raises(ConfigError, match=f"'language' must be .*{named}"):
        loaded(tmp_path, language="klingon")


def test_a_notice_is_worded_with_its_values():
    notice = Notice(N_("{path}: unknown key '{key}' ignored (known keys: {known})."),
                    {"path": "p", "key": "k", "known": "a, b"})  # fmt: skip
    assert str(notice) == "p: unknown key 'k' ignored (known keys: a, b)."


def test_a_notice_of_the_settings_is_said_in_the_language_they_choose(tmp_path):
    config = loaded(tmp_path, language="zh-CN", modle="x")
    i18n.use(config.language)
    try:
        [notice] = config.notices
        path = tmp_path / "project/.narnat/narnat.json"
        assert str(notice).startswith(f"{path}：已忽略未知的键「modle」（可用的键：")
    finally:
        i18n.use("en")


def test_narnat_json_example_shows_every_setting_with_its_default_or_example():
    text = example_file()
    assert text.startswith('{\n  "api_key": ') and text.endswith("\n}\n")
    shown = json.loads(text)
    assert list(shown) == [s.name for s in SETTINGS]
    assert all(shown[s.name] == (s.default if s.example is None else s.example) for s in SETTINGS)
    assert any(s.example is not None and s.example != s.default for s in SETTINGS)


def test_the_settings_table_has_a_row_per_setting_and_never_a_key():
    rows = settings_table().splitlines()
    assert rows[:2] == ["| key | default | meaning |", "|---|---|---|"] and len(rows) == len(SETTINGS) + 2
    key, model = rows[2], next(r for r in rows if r.startswith("| `model`"))
    assert key.startswith("| `api_key` | — | ")
    [setting] = [s for s in SETTINGS if s.name == "model"]
    assert model == f"| `model` | `{json.dumps(setting.default)}` | {setting.meaning} |"
