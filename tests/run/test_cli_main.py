"""`narnat`'s command line in process: each mistake in the flags refused in one sentence, the help in the
interface's language, the -p text read from stdin in any of its encodings, the settings and flags a run starts with,
and the first start's questions."""

import io
import json
import os
import signal
import sys
from urllib.parse import urlsplit

import pytest

from narnat_agent import __version__, i18n
from narnat_agent.cli import _configuration, _parser, first_run_setup, main, read_prompt
from narnat_agent.config.settings import DEFAULT_BASE_URL, DEFAULTS
from narnat_agent.ui.cells import width
from narnat_agent.ui.plain import PlainUI
from tests.fake_llm import Status, text_reply, tool_reply
from tests.run.screens import Screen

KEY = "sk-test-key"


@pytest.fixture(autouse=True)
def english():
    """A run chooses the interface's language for the whole process: the tests after speak English again."""
    yield
    i18n.use("en")


@pytest.fixture
def narnat(project, fake_llm, monkeypatch, capsys):
    """`narnat ARGS` in this process, with the key and the fake server in the environment: exit code, stdout, stderr
    (a usage mistake's exit code is argparse's SystemExit)."""

    def run(*argv: str, key: str | None = KEY, lang: str = "C.UTF-8") -> tuple[int, str, str]:
        if key:
            monkeypatch.setenv("NARNAT_API_KEY", key)
        monkeypatch.setenv("NARNAT_BASE_URL", fake_llm.base_url)
        monkeypatch.setenv("LANG", lang)
        try:
            code = main(list(argv))
        except SystemExit as e:
            code = e.code
        out, err = capsys.readouterr()
        return code, out, err

    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    yield run
    for signum, handler in before.items():
        signal.signal(signum, handler)


def settings(project, **values) -> None:
    (project / ".narnat").mkdir(exist_ok=True)
    (project / ".narnat" / "narnat.json").write_text(json.dumps(values))


ACP = "--acp serves an editor, which opens and loads its own sessions: leave out -p, -c and --resume"
PLAN_AND_GOAL = "--plan and --until cannot go together: a plan changes nothing, a goal changes things"


@pytest.mark.parametrize(
    ("argv", "sentence"),
    [
        (["--output-format", "json"], "--output-format needs -p: the REPL writes for a person"),
        (["--acp", "-p", "x"], ACP),
        (["acp", "-c"], ACP),
        (["acp", "--resume", "a"], ACP),
        (["--until", "pytest"], '--until needs -p; in the REPL, /goal TEXT --until "COMMAND"'),
        (["--fork"], "--fork needs -c or --resume: it copies a saved conversation"),
        (["-p", "x", "--fork"], "--fork needs -c or --resume: it copies a saved conversation"),
        (["--plan"], "--plan needs -p; in the REPL, /plan or Shift-Tab"),
        (["-p", "x", "--plan", "--until", "pytest"], PLAN_AND_GOAL),
        (["-p", "x", "--until", "  "], "--until needs a command that checks the work, such as --until 'pytest -q'"),
        (["-p", "x", "--until", ""], "--until needs a command that checks the work, such as --until 'pytest -q'"),
        (["-p", "x", "--max-steps", "0"], "argument --max-steps: must be a positive whole number, not '0'"),
        (["-p", "x", "--max-turns", "-3"], "argument --max-turns: must be a positive whole number, not '-3'"),
        (["-p", "x", "--max-turns", "2.5"], "argument --max-turns: must be a positive whole number, not '2.5'"),
        (["-p", "x", "--max-cost", "0"], "argument --max-cost: must be a positive number, not '0'"),
        (["-p", "x", "--max-cost", "-1"], "argument --max-cost: must be a positive number, not '-1'"),
        (["-p", "x", "--max-cost", "inf"], "argument --max-cost: must be a positive number, not 'inf'"),
        (["-p", "x", "--max-cost", "nan"], "argument --max-cost: must be a positive number, not 'nan'"),
        (["-p", "x", "--max-cost", "ten"], "argument --max-cost: must be a positive number, not 'ten'"),
    ],
)
@pytest.mark.timeout(20)  # a mistake let through may start the editor's server on stdin, which waits: fail soon
def test_a_mistake_in_the_flags_is_one_sentence_and_exit_2(fake_llm, narnat, argv, sentence):
    code, out, err = narnat(*argv)
    assert code == 2 and out == "" and err.endswith(f"\nnarnat: error: {sentence}\n")
    assert err.startswith("usage: narnat") and not fake_llm.requests


@pytest.mark.parametrize(
    ("argv", "field", "value"),
    [
        (["--max-steps", "1"], "max_steps", 1),
        (["--max-steps", "12"], "max_steps", 12),
        (["--max-cost", "0.5"], "max_cost", 0.5),
        (["--max-cost", "1e-3"], "max_cost", 0.001),
    ],
)
def test_the_smallest_positive_values_are_taken(argv, field, value):
    assert getattr(_parser().parse_args(["-p", "x", *argv]), field) == value


def test_the_help_speaks_english_by_default(narnat):
    code, out, _ = narnat("--help")
    assert code == 0 and out.startswith("usage: narnat [-h]")
    assert "\noptions:\n" in out and "A terminal coding agent for OpenAI-compatible models." in out
    assert "  -h, --help            show this help and exit\n" in out


HELP = (
    "usage: narnat [-h] [-p PROMPT] [--output-format {text,json,stream-json}] [-c | --resume NAME] [--fork] "
    "[--model MODEL] [--max-steps N] [--max-cost AMOUNT] [--max-turns N] [--until COMMAND] [--plan] [--yes] [--acp] "
    "[--version]",
    "A terminal coding agent for OpenAI-compatible models. options:",
    "-h, --help show this help and exit",
    "--print PROMPT answer one request and exit; '-' reads it from stdin",
    "--output-format {text,json,stream-json} with -p: stdout is the answer (text, the default), one JSON object at "
    "the end (json) or one JSON event per line (stream-json)",
    "-c, --continue continue the most recent conversation of this project",
    "--resume NAME continue a saved session",
    "--fork with -c or --resume: go on in a copy under a new name; the saved one stays",
    "--model MODEL use this model instead of the configured one",
    "--max-steps N tool steps per turn for this run",
    "--max-cost AMOUNT stop a turn before a request that would take this run's cost over AMOUNT (in pricing's "
    "currency)",
    "--max-turns N turns a goal may take for this run",
    "--until COMMAND with -p: a goal; after each turn COMMAND runs, and the run ends when it passes (or at max_turns, "
    "the budget, or a stop)",
    "--plan with -p: plan mode; the agent investigates, proposes, changes nothing",
    "--yes with -p: run commands that would ask for confirmation",
    "--acp serve an editor over the Agent Client Protocol (also: narnat acp)",
    "--version show the version and exit",
)


def test_the_help_names_every_flag_and_what_it_does(narnat):
    code, out, _ = narnat("--help")
    words = " ".join(out.split())  # however the window wraps it
    assert code == 0 and [line for line in HELP if line not in words] == []


def test_the_help_speaks_the_locales_language_with_its_own_colons_and_widths(narnat, monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    code, out, _ = narnat("--help", lang="zh_CN.UTF-8")
    assert code == 0 and out.startswith("用法：narnat [-h]") and "\n选项：\n" in out and "：:" not in out
    # a Chinese help line wraps at the columns it takes, twice its length: none is wider than the window
    lines = out.splitlines()
    assert max(width(line) for line in lines) <= 60 and sum(width(line) > len(line) + 10 for line in lines) > 5


def test_version_is_the_packages(narnat, monkeypatch, capsys):
    code, out, _ = narnat("--version")
    assert (code, out) == (0, f"narnat {__version__}\n")
    monkeypatch.setattr(sys, "argv", ["narnat", "--version"])  # as `narnat` passes them: the process's own
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 0 and capsys.readouterr().out == f"narnat {__version__}\n"


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"caf\xc3\xa9 ok\n", "café ok\n"),
        ("café".encode("utf-16-le").join([b"\xff\xfe", b""]), "café"),
        (b"\xfe\xff" + "café".encode("utf-16-be"), "café"),
        (b"\xef\xbb\xbfcaf\xc3\xa9", "café"),
        (b"caf\xe9 \xff", "caf\\xe9 \\xff"),
        (b"\xff\xfeA\x00\xff", "A\\xff"),
        (b"\xef\xbb\xbfcaf\xe9", "caf\\xe9"),
        (b"", ""),
    ],
)
def test_the_prompt_on_stdin_is_read_in_its_encoding(data, text):
    assert read_prompt("-", io.BytesIO(data)) == text


def test_the_prompt_as_an_argument_is_taken_with_undecodable_bytes_escaped():
    assert read_prompt(None) is None
    assert read_prompt("fix caf\udce9.py", io.BytesIO(b"unused")) == "fix caf\\xe9.py"


def test_an_empty_prompt_is_refused_before_anything_is_sent(project, fake_llm, narnat):
    code, out, err = narnat("-p", "  \n")
    assert code == 2 and out == "" and not fake_llm.requests and not (project / ".narnat").exists()
    assert err == "✗ The prompt is empty: pass text after -p, or '-p -' with the prompt on stdin.\n"


def test_a_headless_run_without_a_key_says_how_to_set_one(project, fake_llm, narnat):
    code, out, err = narnat("-p", "hi", key=None)
    assert code == 2 and out == "" and not fake_llm.requests and not (project / ".narnat").exists()
    assert err.startswith("✗ No API key") and "NARNAT_API_KEY" in err


def test_a_mistake_in_the_settings_is_said_and_nothing_is_sent(project, fake_llm, narnat):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text("{not json")
    code, out, err = narnat("-p", "hi")
    assert code == 2 and out == "" and not fake_llm.requests and err.startswith("✗ ")
    assert str(project / ".narnat" / "narnat.json") in err


def test_the_key_is_gone_from_the_environment_once_read(fake_llm, narnat):
    fake_llm.add(text_reply("Hi."))
    code, _, _ = narnat("-p", "hi")
    assert code == 0 and "NARNAT_API_KEY" not in os.environ
    assert fake_llm.headers[0]["authorization"] == f"Bearer {KEY}"


def test_the_flags_win_over_the_settings_for_this_run(project, fake_llm, narnat):
    settings(project, max_steps=5, max_turns=4)
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), tool_reply(("Glob", {"pattern": "*.py"})))
    code, out, _ = narnat("-p", "look", "--max-steps", "1", "--output-format", "json")
    assert code == 3 and json.loads(out)["stop"] == "step_limit" and len(fake_llm.requests) == 1


def test_the_settings_steps_hold_without_the_flag(project, fake_llm, narnat):
    settings(project, max_steps=1)
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), tool_reply(("Glob", {"pattern": "*.py"})))
    code, out, _ = narnat("-p", "look", "--output-format", "json")
    assert code == 3 and json.loads(out)["stop"] == "step_limit"


def test_max_turns_from_the_flag_and_from_the_settings_bound_a_goal(project, fake_llm, narnat):
    settings(project, max_turns=5)
    fake_llm.add(text_reply("Fixed."), text_reply("Fixed again."))
    code, out, _ = narnat("-p", "fix", "--until", "test -f fixed", "--max-turns", "2", "--output-format", "json")
    assert (code, json.loads(out)["goal"]["rounds"], len(fake_llm.requests)) == (3, 2, 2)
    settings(project, max_turns=1)
    fake_llm.add(text_reply("Fixed."))
    code, out, _ = narnat("-p", "fix", "--until", "test -f fixed", "--output-format", "json")
    assert (code, json.loads(out)["goal"]["rounds"], len(fake_llm.requests)) == (3, 1, 3)


def test_the_max_cost_flag_bounds_the_run(project, fake_llm, narnat):
    settings(project, pricing={"input": 1.0, "output": 2.0})
    fake_llm.add(text_reply("Hi."))
    code, out, _ = narnat("-p", "hi", "--max-cost", "0.000001", "--output-format", "json")
    assert (code, json.loads(out)["stop"], fake_llm.requests) == (3, "budget", [])


def test_the_model_flag_names_the_model_asked(fake_llm, narnat):
    fake_llm.add(text_reply("Hi."))
    code, _, _ = narnat("-p", "hi", "--model", "other-model")
    assert code == 0 and fake_llm.requests[0]["model"] == "other-model"


def test_the_language_setting_words_the_settings_notices_and_the_run(project, fake_llm, narnat):
    settings(project, language="zh-CN", unknown_setting=1)
    fake_llm.add(text_reply("Hi."))
    code, _, err = narnat("-p", "hi")
    notice, footer = err.splitlines()
    path = project / ".narnat" / "narnat.json"
    assert code == 0 and notice.startswith(f"! {path}：已忽略未知的键「unknown_setting」")
    assert footer.startswith("  上下文 ") and "· 会话 " in footer


def test_a_settings_notice_is_said_in_a_headless_run(project, fake_llm, narnat):
    settings(project, unknown_setting=1)
    fake_llm.add(text_reply("Hi."))
    code, _, err = narnat("-p", "hi")
    assert code == 0 and err.startswith(f"! {project / '.narnat' / 'narnat.json'}: unknown key 'unknown_setting'")


def test_the_system_prompt_tells_the_model_it_is_headless_and_whether_commands_may_run(fake_llm, narnat):
    fake_llm.add(text_reply("Hi."), text_reply("Hi."))
    narnat("-p", "hi")
    narnat("-p", "hi", "--yes")
    asked, allowed = (r["messages"][0]["content"].split("# Environment\n")[1] for r in fake_llm.requests)
    assert "- Mode: headless" in asked and "destroying data) will be refused." in asked
    assert "- Mode: headless" in allowed and "destroying data) will be refused." not in allowed


def test_a_state_folder_that_cannot_be_written_moves_to_the_users_and_says_so(project, fake_llm, narnat):
    (project / ".narnat").write_text("a file where the folder should be")
    fake_llm.add(text_reply("Hi."))
    code, out, err = narnat("-p", "hi", "--output-format", "json")
    folder = project.parent / "home" / ".local" / "state" / "narnat"
    [moved] = folder.glob("project-*")
    assert err.startswith(f"! {project / '.narnat'} cannot be written; this project's sessions and logs go to {moved}.")
    assert code == 0 and (moved / "sessions" / f"{json.loads(out)['session']}.json").exists()


def test_leftovers_of_killed_writers_are_swept_at_start(project, fake_llm, narnat):
    leftover = project / "src" / ".narnat-tmp-4194303-abc"
    leftover.parent.mkdir()
    leftover.write_bytes(b"half")
    fake_llm.add(text_reply("Hi."))
    assert narnat("-p", "hi")[0] == 0 and not leftover.exists()


def test_a_character_the_terminal_cannot_show_is_escaped(fake_llm, narnat, monkeypatch):
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", stdout)
    fake_llm.add(text_reply("café"))
    code, _, _ = narnat("-p", "hi")
    stdout.flush()
    assert code == 0 and stdout.buffer.getvalue() == b"caf\\xe9\n"


MODELS = {"object": "list", "data": [{"id": "qwen3:8b", "object": "model"}]}


def setup(project, fake, answers: list[str], servers=None) -> tuple[str, str]:
    err = io.StringIO()
    ui = PlainUI(io.StringIO(), err, io.StringIO("".join(f"{a}\n" for a in answers)))
    port = urlsplit(fake.base_url).port
    first_run_setup(ui, project, project.parent / "home", servers=servers or (("Ollama", port),))
    return err.getvalue(), ui.out.getvalue()


def test_a_local_server_without_models_is_offered_by_its_address(project, fake_llm):
    fake_llm.pages = {"/v1/models": {"object": "list", "data": []}}
    fake_llm.add(text_reply("OK"))
    said, _ = setup(project, fake_llm, ["", "", "mine"])
    assert f"! Ollama answers on {fake_llm.base_url} (no models listed)\n" in said
    saved = json.loads((project.parent / "home" / ".narnat" / "narnat.json").read_text())
    assert saved == {"base_url": fake_llm.base_url, "api_key": "local", "model": "mine"}


def test_the_first_ten_models_are_offered(project, fake_llm):
    models = [f"m{i}" for i in range(12)]
    fake_llm.pages = {"/v1/models": {"object": "list", "data": [{"id": m} for m in models]}}
    fake_llm.add(text_reply("OK"))
    said, _ = setup(project, fake_llm, ["", "", ""])
    assert f"with: {', '.join(models[:10])}\n" in said


def test_without_a_local_server_the_defaults_are_asked_and_the_address_loses_its_slash(project, fake_llm):
    fake_llm.add(text_reply("OK"))
    said, _ = setup(project, fake_llm, [f"{fake_llm.base_url}/", "sk-mine-123456", "gpt-x"], servers=(("x", 1),))
    assert said.startswith("! No API key configured yet; three questions, saved to ~/.narnat/narnat.json.\n")
    assert said.split("\n")[1].startswith(
        f"Base URL [{DEFAULT_BASE_URL}]: API key (hidden): Model [{DEFAULTS['model']}]: "
    )
    path = project.parent / "home" / ".narnat" / "narnat.json"
    answers = {"base_url": fake_llm.base_url, "api_key": "sk-mine-123456", "model": "gpt-x"}
    assert json.loads(path.read_text()) == answers
    assert said.endswith(f"! Saved {path} (mode 0600).\n") and fake_llm.requests[0]["model"] == "gpt-x"


def test_a_project_that_keeps_its_own_key_gets_the_answers(project, fake_llm):
    settings(project, api_key="sk-old-123456")
    fake_llm.add(text_reply("OK"))
    said, _ = setup(project, fake_llm, [fake_llm.base_url, "sk-new-123456", "m"], servers=(("x", 1),))
    path = project / ".narnat" / "narnat.json"
    assert json.loads(path.read_text())["api_key"] == "sk-new-123456"
    assert said.endswith(f"! Saved {path} (mode 0600; .narnat/.gitignore keeps it out of git).\n")


def test_a_check_that_passes_on_the_second_try_saves_without_a_warning(project, fake_llm):
    fake_llm.add(Status(401, {"error": {"message": "invalid api key"}}), text_reply("OK"))
    said, _ = setup(project, fake_llm, [fake_llm.base_url, "sk-bad-123456", "m", "", "sk-good-123456", ""],
                    servers=(("x", 1),))  # fmt: skip
    assert said.count("refused the API key (401)") == 1 and "Saved anyway" not in said
    assert json.loads((project.parent / "home" / ".narnat" / "narnat.json").read_text())["api_key"] == "sk-good-123456"
    assert len(fake_llm.requests) == 2


def test_a_character_the_terminal_cannot_show_on_stderr_is_escaped_too(project, fake_llm, narnat, monkeypatch):
    stderr = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stderr", stderr)
    fake_llm.add(tool_reply(("Glob", {"pattern": "café*"})), text_reply("None."))
    code, _, _ = narnat("-p", "hi")
    stderr.flush()
    assert code == 0 and b"Glob(caf\\xe9*)" in stderr.buffer.getvalue()


def test_a_ctrl_c_before_the_conversation_starts_exits_130_quietly(project, fake_llm, narnat, monkeypatch):
    settings(project, unknown_setting=1)  # its notice is the first line written, before the run's conversation
    monkeypatch.setattr(sys, "stderr", Screen({"unknown_setting": KeyboardInterrupt()}))
    code, out, _ = narnat("-p", "hi")
    assert (code, out, fake_llm.requests) == (130, "", [])


def test_the_first_start_asks_when_there_is_no_key_and_a_person_can_answer(project, fake_llm, monkeypatch):
    monkeypatch.delenv("NARNAT_API_KEY", raising=False)
    fake_llm.add(text_reply("OK"))
    err = io.StringIO()
    answers = io.StringIO(f"{fake_llm.base_url}\nsk-first-123456\nfirst-model\n")
    ui = PlainUI(io.StringIO(), err, answers)
    config = _configuration(ui, project, project.parent / "home", _parser().parse_args([]), ask=True)
    assert (config.api_key, config.model, config.base_url) == ("sk-first-123456", "first-model", fake_llm.base_url)
    assert "No API key configured yet" in err.getvalue()


def test_without_anybody_to_ask_a_missing_key_is_one_sentence(project, fake_llm, monkeypatch):
    monkeypatch.delenv("NARNAT_API_KEY", raising=False)
    err = io.StringIO()
    ui = PlainUI(io.StringIO(), err, io.StringIO(f"{fake_llm.base_url}\nsk-first-123456\nfirst-model\n"))
    assert _configuration(ui, project, project.parent / "home", _parser().parse_args([]), ask=False) is None
    assert err.getvalue().startswith("✗ No API key") and err.getvalue().count("\n") == 1 and not fake_llm.requests


def test_the_model_flag_and_max_cost_win_after_the_first_start_too(project, fake_llm, monkeypatch):
    monkeypatch.delenv("NARNAT_API_KEY", raising=False)
    fake_llm.add(text_reply("OK"))
    ui = PlainUI(io.StringIO(), io.StringIO(), io.StringIO(f"{fake_llm.base_url}\nsk-first-123456\nfirst-model\n"))
    args = _parser().parse_args(["--model", "flag-model", "--max-cost", "2"])
    settings(project, pricing={"input": 1.0, "output": 2.0})
    config = _configuration(ui, project, project.parent / "home", args, ask=True)
    assert (config.model, config.max_cost) == ("flag-model", 2.0)


def test_the_repl_reads_the_persons_lines_from_stdin_and_saves_in_the_project(project, fake_llm, narnat, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"hello caf\xe9\n"), encoding="utf-8"))
    fake_llm.add(text_reply("Hi there."))
    monkeypatch.setenv("NARNAT_MODEL", "fake-model")
    code, out, err = narnat("--max-steps", "3")
    assert code == 0 and "Hi there." in out and err.startswith(f"narnat {__version__} · fake-model · 127.0.0.1:")
    assert fake_llm.requests[0]["messages"][-1]["content"] == "hello caf\\xe9"
    [session] = (project / ".narnat" / "sessions").glob("*.json")
    assert f"Saved this conversation as '{session.stem}'" in err
    system = fake_llm.requests[0]["messages"][0]["content"]
    assert "- Mode: headless" not in system and "# Environment\n" in system


def test_the_repl_in_a_project_that_cannot_be_written_saves_in_the_users_folder(project, fake_llm, narnat, monkeypatch):
    (project / ".narnat").write_text("a file where the folder should be")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"hello\n"), encoding="utf-8"))
    fake_llm.add(text_reply("Hi there."))
    code, _, err = narnat()
    [moved] = (project.parent / "home" / ".local" / "state" / "narnat").glob("project-*")
    assert code == 0 and f"this project's sessions and logs go to {moved}." in err
    assert len(list((moved / "sessions").glob("*.json"))) == 1


@pytest.mark.parametrize("which", [["-c"], ["--resume", "NAME"]])
def test_fork_goes_on_in_a_copy_of_the_conversation_either_flag_names(project, fake_llm, narnat, which):
    fake_llm.add(text_reply("Noted."), text_reply("It was 42."))
    first = json.loads(narnat("-p", "remember 42", "--output-format", "json")[1])["session"]
    flags = [first if flag == "NAME" else flag for flag in which]
    code, out, err = narnat(*flags, "--fork", "-p", "what was it?", "--output-format", "json")
    assert (code, json.loads(out)["session"]) == (0, f"{first}-fork"), err
    assert [m["content"] for m in fake_llm.requests[1]["messages"][1:]][:2] == ["remember 42", "Noted."]


def test_the_repl_without_a_key_and_without_a_terminal_asks_nothing(project, fake_llm, narnat, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(f"{fake_llm.base_url}\nk\nm\n".encode())))
    code, out, err = narnat(key=None)
    assert code == 2 and err.startswith("✗ No API key") and "Base URL" not in err + out and not fake_llm.requests


def test_an_address_is_saved_without_its_closing_slash_alone(project, fake_llm):
    fake_llm.add(text_reply("OK"))
    said, _ = setup(project, fake_llm, [f"{fake_llm.base_url}X/", "sk-mine-123456", "m"], servers=(("x", 1),))
    saved = json.loads((project.parent / "home" / ".narnat" / "narnat.json").read_text())
    assert saved["base_url"] == f"{fake_llm.base_url}X"


class Asking(PlainUI):
    """The plain UI, keeping which questions were asked with the answer hidden (a terminal's getpass)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.hidden: list[tuple[str, bool]] = []

    def ask(self, question: str, default: str = "", secret: bool = False) -> str:
        self.hidden.append((question, secret))
        return super().ask(question, default, secret)


def test_only_the_key_is_asked_with_the_answer_hidden(project, fake_llm):
    fake_llm.add(text_reply("OK"))
    ui = Asking(io.StringIO(), io.StringIO(), io.StringIO(f"{fake_llm.base_url}\nsk-mine-123456\nm\n"))
    first_run_setup(ui, project, project.parent / "home", servers=(("x", 1),))
    assert ui.hidden == [("Base URL", False), ("API key (hidden)", True), ("Model", False)]


def test_the_last_try_says_the_answers_are_saved_anyway(project, fake_llm):
    fake_llm.add(*[Status(401, {"error": {"message": "invalid api key"}})] * 3)
    said, _ = setup(project, fake_llm, [fake_llm.base_url, "sk-wrong-123456", "m"] + [""] * 6, servers=(("x", 1),))
    errors = [line[line.index("✗ ") :] for line in said.splitlines() if "✗ " in line]
    assert len(errors) == 3 and errors[0] == errors[1] and "Saved anyway" not in errors[0]
    assert errors[2] == f"{errors[0]} Saved anyway; edit the file to fix it."


def test_an_instruction_file_too_long_for_the_system_prompt_is_said(project, fake_llm, narnat):
    (project / "AGENTS.md").write_text("Be careful.\n" * 3000)
    fake_llm.add(text_reply("Hi."))
    code, _, err = narnat("-p", "hi")
    assert code == 0
    assert err.startswith(f"! {project / 'AGENTS.md'} is longer than 32,000 characters; only its beginning is in the ")
