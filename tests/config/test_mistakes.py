"""A settings mistake is one sentence that names the file or the variable, the key, what it must be and the value
(cut short when long); and every source of settings reaches the run as it should."""

import json

import pytest

from narnat_agent import state
from narnat_agent.config.loader import ConfigError, MissingApiKey, load_config, write_setup
from narnat_agent.config.settings import BY_NAME, DEFAULT_BASE_URL

pytestmark = pytest.mark.windows


@pytest.fixture
def dirs(tmp_path):
    return tmp_path / "project", tmp_path / "home"


def settings_file(project, data) -> object:
    path = project / ".narnat/narnat.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode() if isinstance(data, str) else
                     json.dumps(data).encode())  # fmt: skip
    return path


def refused(dirs, env=None, **flags) -> str:
    with pytest.raises(ConfigError) as raised:
        load_config(*dirs, env=env or {}, **flags)
    return str(raised.value)


def test_a_wrong_value_in_the_environment_names_the_variable_what_it_must_be_and_the_value(dirs):
    assert refused(dirs, {"NARNAT_API_KEY": "k", "NARNAT_BASE_URL": "api.example.com"}) == (
        "environment: base_url must be an http(s) URL, not 'api.example.com'."
    )
    long = "x" * 300
    assert refused(dirs, {"NARNAT_API_KEY": "k", "NARNAT_BASE_URL": long}) == (
        f"environment: base_url must be an http(s) URL, not '{'x' * 199}… (302 characters)."
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"a": }', "invalid JSON at line 1, column 7: Expecting value."),
        ("[" * 100000, "nested too deeply to be a settings file."),
        ("[1, 2]", 'must hold a JSON object like {"model": "..."}.'),
        (b"\xff{}", "cannot be read ('utf-8' codec can't decode byte 0xff in position 0: invalid start byte)."),
        ('{"api_key": "k", "max_steps": 0}', "'max_steps' must be a positive integer, not 0."),
    ],
)
def test_a_broken_settings_file_is_one_sentence_that_names_it(dirs, text, said):
    path = settings_file(dirs[0], text)
    assert refused(dirs) == f"{path}: {said}"


def test_a_settings_file_that_is_a_folder_is_named(dirs):
    path = dirs[0] / ".narnat/narnat.json"
    path.mkdir(parents=True)
    assert refused(dirs) == f"{path}: is not a regular file; remove it or replace it with one."


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:1/v1 x", "http://127.0.0.1/v1\x1b]0;t\x07", "http://[::1", "http://a:b:c/", "http://x/\x00",
     "http://127.0.0.1:99999/v1", "https:///v1"],
)  # fmt: skip
def test_a_base_url_the_client_cannot_send_to_is_one_sentence_not_a_python_error(dirs, url):
    # each was a traceback at the first request (http.client.InvalidURL, ValueError: Invalid IPv6 URL, …)
    path = settings_file(dirs[0], {"api_key": "k", "base_url": url})
    assert refused(dirs) == f"{path}: 'base_url' must be an http(s) URL, not {json.dumps(url)}."
    path.unlink()
    assert refused(dirs, {"NARNAT_API_KEY": "k", "NARNAT_BASE_URL": url}).startswith("environment: base_url must be")


@pytest.mark.parametrize(
    ("length", "shown"), [(198, '"' + "a" * 198 + '"'), (199, '"' + "a" * 199 + "… (201 characters)")]
)
def test_a_long_wrong_value_is_cut_past_two_hundred_characters(dirs, length, shown):
    path = settings_file(dirs[0], {"api_key": "k", "base_url": "a" * length})
    assert refused(dirs) == f"{path}: 'base_url' must be an http(s) URL, not {shown}."


def test_a_known_key_after_an_unknown_one_is_read_and_the_notice_lists_the_known_keys(dirs):
    path = settings_file(dirs[0], {"temprature": 0.2, "api_key": "k", "model": "m"})
    config = load_config(*dirs, env={})
    assert config.model == "m"
    assert [str(n) for n in config.notices] == [
        f"{path}: unknown key 'temprature' ignored (known keys: {', '.join(BY_NAME)})."
    ]


@pytest.mark.parametrize(("length", "shown"), [(40, "k" * 40), (41, "k" * 40 + "… (41 characters)")])
def test_an_unknown_key_is_named_up_to_forty_characters(dirs, length, shown):
    path = settings_file(dirs[0], {"api_key": "k", "k" * length: 1})
    [notice] = load_config(*dirs, env={}).notices
    assert str(notice).startswith(f"{path}: unknown key '{shown}' ignored")


def test_five_unknown_keys_are_all_named_and_none_more(dirs):
    path = settings_file(dirs[0], {"api_key": "k", **{f"k{n}": n for n in range(5)}})
    [notice] = load_config(*dirs, env={}).notices
    assert str(notice).startswith(f"{path}: unknown keys 'k0', 'k1', 'k2', 'k3', 'k4' ignored (known keys: ")


def test_a_cost_budget_needs_prices_and_the_flag_sets_it(dirs):
    assert refused(dirs, {"NARNAT_API_KEY": "k"}, max_cost=1.5) == (
        'A cost budget needs prices: add "pricing" to .narnat/narnat.json, or limit tokens with "max_tokens_sent" '
        "instead."
    )
    settings_file(dirs[0], {"api_key": "k", "pricing": {"input": 1}})
    assert load_config(*dirs, env={}, max_cost=1.5).max_cost == 1.5
    assert load_config(*dirs, env={}).max_cost is None


def test_no_key_anywhere_says_where_to_put_one(dirs):
    with pytest.raises(MissingApiKey) as raised:
        load_config(*dirs, env={"NARNAT_API_KEY": "  "})
    assert str(raised.value) == (
        'No API key: set NARNAT_API_KEY or add "api_key" to .narnat/narnat.json (run narnat once to be asked).'
    )


@pytest.mark.parametrize(
    ("url", "used", "noticed"),
    [
        ("https://api.example.com/v1/", "https://api.example.com/v1", False),
        ("https://api.example.com/anthropic/", "https://api.example.com", True),
        ("https://api.example.com/v1", "https://api.example.com/v1", False),
        ("https://api.example.com/XX", "https://api.example.com/XX", False),
    ],
)
def test_the_base_url_loses_its_trailing_slash_and_an_anthropic_suffix(dirs, url, used, noticed):
    config = load_config(*dirs, env={"NARNAT_API_KEY": "k", "NARNAT_BASE_URL": url})
    assert config.base_url == used
    said = [str(n) for n in config.notices]
    assert said == ([f"base_url ends in /anthropic (an Anthropic-format endpoint); using {used} instead."] if noticed
                    else [])  # fmt: skip


def test_openai_variables_name_the_endpoint_only_with_their_key(dirs):
    assert load_config(*dirs, env={"OPENAI_API_KEY": "k"}).base_url == DEFAULT_BASE_URL
    both = {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "https://openai.example", "NARNAT_BASE_URL": "https://n.example"}
    assert load_config(*dirs, env=both).base_url == "https://n.example"
    assert load_config(*dirs, env={**both, "NARNAT_BASE_URL": ""}).base_url == "https://openai.example"


def test_a_key_may_hold_every_printable_ascii_character(dirs):
    key = "!" + "".join(chr(c) for c in range(0x22, 0x7E)) + "~"
    assert load_config(*dirs, env={"NARNAT_API_KEY": key}).api_key == key


def test_the_run_knows_its_search_addresses_its_state_folder_and_whether_a_file_set_the_context_window(dirs):
    env = {"NARNAT_API_KEY": "k", "NARNAT_BING_URL": "https://bing.example", "NARNAT_DDG_URL": ""}
    config = load_config(*dirs, env=env)
    assert config.search_urls == {"bing": "https://bing.example"}
    assert config.state_dir == state.project_folder(dirs[0]) and not config.context_window_set
    settings_file(dirs[0], {"context_window": 64000})
    assert load_config(*dirs, env=env).context_window_set


def test_the_setup_answers_are_saved_readable_beside_what_the_file_held(dirs):
    project, home = dirs
    user = state.user_folder(home) / state.CONFIG
    user.parent.mkdir(parents=True)
    user.write_text(json.dumps({"temprature": 0.2, "model": "old"}))
    settings_file(project, {"model": "m", "unknown": 1})
    assert write_setup(project, home, {"api_key": "k", "model": "模型"}) == user
    # a misspelt key stays for the person to fix (each start names it): a save loses nothing they wrote
    assert user.read_text(encoding="utf-8") == '{\n  "temprature": 0.2,\n  "model": "模型",\n  "api_key": "k"\n}\n'


def test_setup_answers_that_cannot_be_saved_say_so_and_name_the_variable(dirs):
    project, home = dirs
    home.mkdir()
    (home / ".narnat").write_text("a file where the folder should be")
    path = state.user_folder(home) / state.CONFIG
    with pytest.raises(ConfigError) as raised:
        write_setup(project, home, {"api_key": "k"})
    said = str(raised.value)
    assert said.startswith(f"Cannot save {path} (") and said.endswith("); set NARNAT_API_KEY instead.")
    assert said[len(f"Cannot save {path} (") : -len("); set NARNAT_API_KEY instead.")] not in ("", "None")
