import json
import stat

import pytest

from narnat_agent.config.defaults import BASE_PROMPT
from narnat_agent.config.loader import (
    ConfigError,
    MissingApiKey,
    build_system_prompt,
    load_config,
    write_project_config,
)


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data))


@pytest.fixture
def dirs(tmp_path):
    return tmp_path / "project", tmp_path / "home"


def test_merge_order_is_defaults_home_project_environment_flags(dirs):
    project, home = dirs
    write(home / ".narnat/narnat.json", {"api_key": "home-key", "model": "home-model", "max_steps": 7})
    write(project / ".narnat/narnat.json", {"model": "project-model", "context_window": 1000})
    config = load_config(project, home, env={"NARNAT_BASE_URL": "http://127.0.0.1:9/v1"})
    assert (config.api_key, config.model, config.max_steps) == ("home-key", "project-model", 7)
    assert (config.context_window, config.base_url, config.compress_turns) == (1000, "http://127.0.0.1:9/v1", 120)
    assert load_config(project, home, env={"NARNAT_MODEL": "env-model"}).model == "env-model"
    assert load_config(project, home, env={"NARNAT_MODEL": "env-model"}, model="flag-model").model == "flag-model"


def test_openai_variables_are_a_fallback_only_without_any_narnat_key(dirs):
    project, home = dirs
    env = {"OPENAI_API_KEY": "oa", "OPENAI_BASE_URL": "https://api.openai.com/v1"}
    config = load_config(project, home, env=env)
    assert (config.api_key, config.base_url) == ("oa", "https://api.openai.com/v1")
    config = load_config(project, home, env={**env, "NARNAT_API_KEY": "nk"})
    assert (config.api_key, config.base_url) == ("nk", "https://api.deepseek.com")
    write(project / ".narnat/narnat.json", {"api_key": "file"})
    assert load_config(project, home, env=env).api_key == "file"


def test_missing_key_is_one_sentence_naming_the_fix(dirs):
    project, home = dirs
    with pytest.raises(MissingApiKey, match="NARNAT_API_KEY"):
        load_config(project, home, env={})


def test_invalid_json_names_file_line_and_column(dirs):
    project, home = dirs
    write(project / ".narnat/narnat.json", '{\n  "model": "x"\n  "api_key": "y"\n}')
    with pytest.raises(ConfigError, match=r"narnat\.json: invalid JSON at line 3, column 3"):
        load_config(project, home, env={})


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("context_window", "big", "positive integer"),
        ("context_window", True, "positive integer"),
        ("warn_turns", [50, "x"], "list of positive integers"),
        ("bash_timeout_ms", 900000, "1 to 600000"),
        ("pricing", {"input": "cheap"}, "object like"),
        ("base_url", "api.deepseek.com", "http"),
        ("model", "", "non-empty"),
    ],
)
def test_wrong_types_are_reported_with_the_key_and_the_value(dirs, key, value, expected):
    project, home = dirs
    write(project / ".narnat/narnat.json", {"api_key": "k", key: value})
    with pytest.raises(ConfigError, match=f"'{key}' must be .*{expected}"):
        load_config(project, home, env={})


def test_a_config_that_is_not_an_object_is_rejected(dirs):
    project, home = dirs
    write(home / ".narnat/narnat.json", "[1, 2]")
    with pytest.raises(ConfigError, match="must hold a JSON object"):
        load_config(project, home, env={})


def test_unknown_keys_are_warned_and_ignored(dirs):
    project, home = dirs
    write(project / ".narnat/narnat.json", {"api_key": "k", "temprature": 0.2})
    config = load_config(project, home, env={})
    assert any("unknown key 'temprature'" in n for n in config.notices)


def test_anthropic_suffix_is_stripped_with_a_notice(dirs):
    project, home = dirs
    write(project / ".narnat/narnat.json", {"api_key": "k", "base_url": "https://api.deepseek.com/anthropic"})
    config = load_config(project, home, env={})
    assert config.base_url == "https://api.deepseek.com"
    assert any("/anthropic" in n for n in config.notices)


def test_the_example_file_is_valid_and_documents_every_key(dirs):
    from pathlib import Path

    from narnat_agent.config.loader import CHECKS

    project, home = dirs
    example = Path(__file__).parents[2] / "narnat.json.example"
    write(project / ".narnat/narnat.json", example.read_text())
    config = load_config(project, home, env={})
    assert set(json.loads(example.read_text())) == set(CHECKS)
    assert config.notices == ()


def test_setup_writes_a_private_config_and_a_gitignore(dirs):
    project, home = dirs
    path = write_project_config(project, {"api_key": "k", "base_url": "http://127.0.0.1:1/v1", "model": "m"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    ignored = (project / ".narnat/.gitignore").read_text().split()
    assert {"narnat.json", "sessions/", "logs/", "history", "last_session_summary.md"} <= set(ignored)
    assert load_config(project, home, env={}).model == "m"


def test_system_prompt_layers_in_order_and_is_stable(dirs):
    project, home = dirs
    write(home / ".narnat/narnat.md", "USER RULES")
    write(project / ".narnat/narnat.md", "PROJECT RULES")
    write(project / "AGENTS.md", "AGENT RULES")
    (project / ".git").mkdir()
    config = load_config(project, home, env={"NARNAT_API_KEY": "k", "NARNAT_MODEL": "qwen3-coder"})
    prompt = build_system_prompt(config)
    assert prompt.startswith(BASE_PROMPT.replace("{model}", "qwen3-coder"))
    assert "Iron Laws" in prompt and f"Working directory: {project}" in prompt and "Git repository: yes" in prompt
    assert prompt.index("USER RULES") < prompt.index("PROJECT RULES") < prompt.index("AGENT RULES")
    assert build_system_prompt(config) == prompt
