import json
import os
import re

import pytest

from narnat_agent import state
from narnat_agent.config.loader import (
    Config,
    ConfigError,
    MissingApiKey,
    load_config,
    write_setup,
)
from narnat_agent.prompts.system_prompt import build_system_prompt
from narnat_agent.prompts.texts import BASE_PROMPT
from tests.platforms import NEEDS_GIT, NO_FIFOS, private

pytestmark = pytest.mark.windows  # these must pass on Windows too (docs/windows.md)


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data))


@pytest.fixture
def dirs(tmp_path):
    return tmp_path / "project", tmp_path / "home"


def test_the_keys_held_besides_the_one_in_use_are_known_to_be_masked(dirs):
    project, home = dirs
    write(home / ".narnat/narnat.json", {"api_key": "sk-home-provider-1"})
    write(project / ".narnat/narnat.json", {"api_key": "sk-project-key-22"})
    env = {"OPENAI_API_KEY": "sk-openai-env-333", "NARNAT_API_KEY": "sk-project-key-22"}
    config = load_config(project, home, env=env)
    assert config.api_key == "sk-project-key-22"
    assert config.other_keys == ("sk-openai-env-333", "sk-home-provider-1")
    write(project / ".narnat/narnat.json", {"api_key": "local"})  # too short to be a key: words are left alone
    assert load_config(project, home, env={}).other_keys == ("sk-home-provider-1",)


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
    assert any("unknown key 'temprature'" in str(n) for n in config.notices)


def test_many_unknown_keys_are_one_short_notice_per_file(dirs):
    project, home = dirs
    write(home / ".narnat/narnat.json", {"api_key": "k", **{f"key{n}": n for n in range(1000)}})
    write(project / ".narnat/narnat.json", {"modle": "x", "temprature": 0.2})
    user, local = (str(n) for n in load_config(project, home, env={}).notices)
    assert user.startswith(f"{home / '.narnat/narnat.json'}: unknown keys 'key0', 'key1', 'key2', 'key3', 'key4' and "
                           "995 more ignored (known keys: ") and len(user) < 1000  # fmt: skip
    assert local.startswith(f"{project / '.narnat/narnat.json'}: unknown keys 'modle', 'temprature' ignored")


def test_anthropic_suffix_is_stripped_with_a_notice(dirs):
    project, home = dirs
    write(project / ".narnat/narnat.json", {"api_key": "k", "base_url": "https://api.deepseek.com/anthropic"})
    config = load_config(project, home, env={})
    assert config.base_url == "https://api.deepseek.com"
    assert any("/anthropic" in str(n) for n in config.notices)


def test_the_example_file_is_valid_and_derived_from_the_settings(dirs):
    from pathlib import Path

    from narnat_agent.config.settings import example_file

    project, home = dirs
    example = Path(__file__).parents[2] / "narnat.json.example"
    assert example.read_text() == example_file(), "regenerate narnat.json.example from config/settings.py"
    write(project / ".narnat/narnat.json", example.read_text())
    assert load_config(project, home, env={}).notices == ()


def test_the_docs_table_of_settings_is_derived_from_the_settings():
    from pathlib import Path

    from narnat_agent.config.settings import settings_table

    assert settings_table() in (Path(__file__).parents[2] / "docs" / "configuration.md").read_text()


def test_every_setting_reaches_the_config_and_a_wrong_value_names_what_it_must_be(dirs):
    from dataclasses import fields

    from narnat_agent.config.settings import SETTINGS

    project, home = dirs
    assert {s.name for s in SETTINGS} <= {f.name for f in fields(Config)}
    for setting in SETTINGS:
        write(project / ".narnat/narnat.json", {"api_key": "k", setting.name: object.__name__})
        if setting.check("object"):
            continue
        with pytest.raises(ConfigError, match=f"'{setting.name}' must be {re.escape(setting.what_is_expected())}"):
            load_config(project, home, env={})


def test_setup_keeps_the_key_for_the_user_not_in_the_project(dirs):
    project, home = dirs
    path = write_setup(project, home, {"api_key": "k", "base_url": "http://127.0.0.1:1/v1", "model": "m"})
    assert path == home / ".narnat/narnat.json" and private(path)
    assert not (project / ".narnat").exists()
    assert load_config(project, home, env={}).model == "m"


def test_setup_writes_to_the_project_when_it_already_keeps_its_key_there(dirs):
    project, home = dirs
    write(project / ".narnat/narnat.json", {"api_key": "", "max_steps": 9})
    path = write_setup(project, home, {"api_key": "k", "base_url": "http://127.0.0.1:1/v1", "model": "m"})
    assert path == project / ".narnat/narnat.json" and private(path)
    assert json.loads(path.read_text())["max_steps"] == 9 and not (home / ".narnat").exists()
    ignored = (project / ".narnat/.gitignore").read_text().split()
    assert {"narnat.json", "sessions/", "logs/", "history", "last_session_summary.md"} <= set(ignored)


def test_setup_keeps_every_key_it_finds_a_misspelt_one_too(dirs):
    project, home = dirs
    write(home / ".narnat/narnat.json", {"max_step": 9, "theme": {"dark": True}, "model": "old"})
    path = write_setup(project, home, {"api_key": "k", "model": "m"})
    assert json.loads(path.read_text()) == {"max_step": 9, "theme": {"dark": True}, "model": "m", "api_key": "k"}


def test_a_start_that_writes_state_creates_the_gitignore(dirs):
    project, home = dirs
    project.mkdir()
    state_dir, notice = state.choose_folder(project, home, {})
    assert state_dir == project / ".narnat" and notice == ""
    assert "narnat.json" in (project / ".narnat/.gitignore").read_text().split()


def test_an_unwritable_state_folder_is_replaced_by_a_per_user_one_with_one_notice(dirs, tmp_path):
    project, home = dirs
    write(project / ".narnat", "a file where the folder should be")  # refused even to root
    state_dir, notice = state.choose_folder(project, home, {})
    assert state_dir.parent == home / ".local/state/narnat" and state_dir.is_dir()
    assert state_dir.name.startswith("project-") and "cannot be written" in notice
    other, _ = state.choose_folder(project, home, {"XDG_STATE_HOME": str(tmp_path)})
    assert other.parent == tmp_path / "narnat" and other.name == state_dir.name


@pytest.mark.parametrize("pasted", ["sk-abc123 ", "sk-abc123\n", "\tsk-abc123\u00a0", "\u3000sk-abc123\r\n"])
def test_whitespace_around_a_pasted_key_is_trimmed(dirs, pasted):
    project, home = dirs
    assert load_config(project, home, env={"NARNAT_API_KEY": pasted}).api_key == "sk-abc123"


@pytest.mark.parametrize(
    ("pasted", "named"),
    [
        ("sk-abc\u200b123", "U+200B ZERO WIDTH SPACE (character 7 of 10)"),
        ("\u201csk-abc123\u201d", "U+201C LEFT DOUBLE QUOTATION MARK (character 1 of 11)"),
        ("sk-abc 123", "U+0020 SPACE"),
        ("sk-abc\x07", "U+0007 control character"),
    ],
)
def test_a_character_no_key_has_is_named_without_showing_the_key(dirs, pasted, named):
    project, home = dirs
    with pytest.raises(ConfigError) as e:
        load_config(project, home, env={"NARNAT_API_KEY": pasted})
    assert str(e.value).startswith(f"The API key contains {named}") and "abc" not in str(e.value)


@NO_FIFOS
def test_a_settings_file_that_is_a_fifo_is_refused_without_blocking(dirs):
    project, home = dirs
    (project / ".narnat").mkdir(parents=True)
    os.mkfifo(project / ".narnat/narnat.json")
    with pytest.raises(ConfigError, match="is not a regular file"):
        load_config(project, home, env={"NARNAT_API_KEY": "k"})


def test_deep_nesting_and_huge_unknown_keys_are_one_short_sentence(dirs):
    project, home = dirs
    write(project / ".narnat/narnat.json", "[" * 100_000 + "]" * 100_000)
    with pytest.raises(ConfigError, match="nested too deeply"):
        load_config(project, home, env={"NARNAT_API_KEY": "k"})
    write(project / ".narnat/narnat.json", {"x" * 10_000_000: 1})
    [notice] = load_config(project, home, env={"NARNAT_API_KEY": "k"}).notices
    assert len(str(notice)) < 500 and "10,000,000 characters" in str(notice)


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


@NO_FIFOS
def test_instruction_files_are_capped_and_fifos_skipped(dirs):
    project, home = dirs
    write(project / "AGENTS.md", "RULE " * 3_000_000)
    (project / ".narnat").mkdir()
    os.mkfifo(project / ".narnat/narnat.md")
    notices = []
    config = load_config(project, home, env={"NARNAT_API_KEY": "k"})
    prompt = build_system_prompt(config, notices.append)
    assert len(prompt) < 50_000 and "The rest of AGENTS.md is left out" in prompt
    assert len(notices) == 1 and "AGENTS.md is longer than 32,000 characters" in notices[0]


def test_instruction_files_in_another_encoding_are_escaped_not_dropped(dirs):
    project, home = dirs
    write(project / "AGENTS.md", "")
    (project / "AGENTS.md").write_bytes("Use caf\u00e9 names".encode("latin-1"))
    prompt = build_system_prompt(load_config(project, home, env={"NARNAT_API_KEY": "k"}))
    assert "Use caf\\xe9 names" in prompt
    prompt.encode("utf-8")


@NEEDS_GIT
def test_git_status_does_not_show_the_state_folder_it_ignores(dirs):
    import subprocess

    project, home = dirs
    project.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / ".narnat").mkdir()
    (project / ".narnat/.gitignore").write_text(OLD_GITIGNORE)
    state.choose_folder(project, home, {})
    (project / ".narnat/history").write_text("a question\n")
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=project,
                            capture_output=True, text=True, check=True)  # fmt: skip
    assert status.stdout == ""


OLD_GITIGNORE = state.GITIGNORE.replace(".gitignore\n", "")  # as earlier versions wrote it, without naming itself


def test_the_config_holds_every_setting_and_only_the_runs_own_facts_besides():
    from dataclasses import fields

    from narnat_agent.config.settings import SETTINGS

    own = {"project", "home", "state_dir", "search_urls", "notices", "context_window_set", "other_keys"}
    assert [f.name for f in fields(Config) if f.name not in own] == [s.name for s in SETTINGS]
