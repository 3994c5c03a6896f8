"""What every run does around its conversation, in process: the conversation the flags choose (new, -c, --resume,
--fork) and what is said of it, the agent built on the settings, the autosave, the background commands stopped, and
the leftovers of killed writers swept at start."""

import dataclasses
import io
import json
import logging
import os
from argparse import Namespace

import pytest

from narnat_agent import state
from narnat_agent.atomic import TMP_PREFIX
from narnat_agent.config.loader import load_config
from narnat_agent.conversation import session as sessions
from narnat_agent.conversation import store
from narnat_agent.prompts.system_prompt import build_system_prompt
from narnat_agent.run.start import Opening, build_agent, save, stop_jobs, sweep_leftovers
from narnat_agent.ui.plain import PlainUI
from tests.fake_llm import Status, text_reply, tool_reply

KEY = "sk-test-0123456789"
DEAD = 4_194_303  # above any pid Linux hands out by default (pid_max 4194304 at most): no process has it


class Run:
    """A run's settings against the fake server, its plain UI's screen, and the agent build_agent gives it."""

    def __init__(self, project, fake, env: dict | None = None, **settings):
        if settings:
            (project / ".narnat").mkdir(exist_ok=True)
            (project / ".narnat" / "narnat.json").write_text(json.dumps(settings))
        env = {"NARNAT_API_KEY": KEY, "NARNAT_BASE_URL": fake.base_url, "NARNAT_MODEL": "fake-model", **(env or {})}
        self.config = load_config(project, project.parent / "home", env=env)
        self.prompt = build_system_prompt(self.config)
        self.err = io.StringIO()
        self.ui = PlainUI(io.StringIO(), self.err, io.StringIO())

    def agent(self, opening: Opening | None = None, prompt: str | None = None):
        return build_agent(self.config, self.ui, opening or Opening(), prompt or self.prompt, lambda c, r: False)

    @property
    def said(self) -> str:
        return self.err.getvalue()


@pytest.fixture
def run(project, fake_llm):
    def make(env: dict | None = None, **settings) -> Run:
        return Run(project, fake_llm, env, **settings)

    return make


def stored(project, *names: str, system: str = "the old system prompt") -> None:
    """Saved conversations, oldest first, each with one exchange."""
    for i, name in enumerate(names):
        talk = sessions.new_session(system, name=name)
        talk.conversation.add_user(f"question {i}")
        sessions.save(project / ".narnat", talk, "m")
        path = store.path_of(project / ".narnat", name)
        data = json.loads(path.read_text())
        data["updated"] = f"2026-01-0{i + 1}T00:00:00"
        path.write_text(json.dumps(data))


def test_the_openings_flags_are_read_from_the_command_line():
    assert Opening.of(Namespace(latest=True, resume=None, fork=False)) == Opening(True, None, False)
    assert Opening.of(Namespace(latest=False, resume="a", fork=True)) == Opening(False, "a", True)
    assert Opening.of(Namespace(latest=None, resume=None, fork=None)) == Opening()
    assert (Opening().saved, Opening(latest=True).saved, Opening(resume="").saved) == (False, True, True)


def test_a_new_run_gets_a_new_conversation_with_this_runs_system_prompt(project, run):
    stored(project, "old")
    agent = run().agent(prompt="this run's prompt")
    assert agent.session.name != "old" and agent.conversation.messages == [
        {"role": "system", "content": "this run's prompt"}
    ]
    assert run().said == ""


def test_continue_takes_the_most_recent_conversation_but_not_an_archive(project, run):
    stored(project, "older", "latest", f"{store.ARCHIVE}x")
    r = run()
    agent = r.agent(Opening(latest=True))
    assert agent.session.name == "latest" and agent.conversation.messages[1]["content"] == "question 1"
    assert r.said == ""


def test_a_resumed_conversation_goes_on_with_this_runs_environment(project, run):
    r = run()
    headless = build_system_prompt(r.config, headless=True)
    stored(project, "talk", system="Old instructions.\n\n" + headless)
    system = r.agent(Opening(resume="talk")).conversation.messages[0]["content"]
    assert "Mode: headless" in headless and "Mode: headless" not in system
    assert system == "Old instructions.\n\n" + r.prompt


def test_resuming_a_missing_name_says_where_and_names_the_three_most_recent(project, run):
    stored(project, "a", "b", "c", "d")
    r = run()
    assert r.agent(Opening(resume="nope")) is None
    where = state.sessions(project / ".narnat")
    assert r.said == f"✗ Cannot resume: there is no session named 'nope' in {where}; the most recent are d, c, b.\n"


def test_resuming_in_a_project_without_conversations_says_there_is_none_of_that_name(project, run):
    r = run()
    assert r.agent(Opening(resume="nope")) is None
    where = state.sessions(project / ".narnat")
    assert r.said == f"✗ Cannot resume: there is no session named 'nope' in {where}.\n"


def test_continuing_in_a_project_without_conversations_says_so(run):
    r = run()
    assert r.agent(Opening(latest=True)) is None
    assert r.said == "✗ Cannot continue: this project has no saved conversation yet.\n"


def test_a_name_that_is_no_session_name_is_refused_in_one_sentence(run):
    r = run()
    assert r.agent(Opening(resume="../x")) is None
    assert r.said == "✗ Cannot resume: '../x' is not a session name: use letters, digits, '-', '_' and '.'.\n"


def test_resuming_an_archive_goes_on_under_a_new_name_and_says_so(project, run):
    archive = f"{store.ARCHIVE}2026"
    stored(project, archive)
    r = run()
    agent = r.agent(Opening(resume=archive))
    assert agent.session.name != archive
    assert r.said == (
        f"! '{archive}' is the archive of a compacted conversation: it stays as it is, and this goes on as "
        f"'{agent.session.name}'.\n"
    )


def test_a_fork_goes_on_under_a_new_name_and_the_saved_one_stays(project, run):
    stored(project, "talk")
    r = run()
    agent = r.agent(Opening(resume="talk", fork=True))
    assert agent.session.name == "talk-fork" and agent.conversation.messages[1]["content"] == "question 0"
    archive = f"{store.ARCHIVE}2026"
    stored(project, archive)
    forked = r.agent(Opening(resume=archive, fork=True))
    assert forked.session.name.endswith("-fork") and not forked.session.name.startswith(archive)
    assert r.said == "" and store.exists(project / ".narnat", archive)


def test_a_new_conversation_inherits_the_summary_an_interrupted_compression_left(project, run):
    (project / ".narnat").mkdir()
    state.summary(project / ".narnat").write_text("We were fixing the parser.\n")
    r = run()
    agent = r.agent()
    assert "We were fixing the parser." in json.dumps(agent.conversation.messages)
    assert r.said == "! A summary left by an interrupted compression was inherited into this new conversation.\n"
    assert state.summary(project / ".narnat").read_text() == ""


def test_a_resumed_conversation_leaves_the_summary_for_a_new_one(project, run):
    stored(project, "talk")
    state.summary(project / ".narnat").write_text("We were fixing the parser.\n")
    agent = run().agent(Opening(resume="talk"))
    assert "fixing the parser" not in json.dumps(agent.conversation.messages)
    assert state.summary(project / ".narnat").read_text() == "We were fixing the parser.\n"


def test_the_workspace_is_built_on_the_settings(project, run):
    r = run({"NARNAT_BING_URL": "http://127.0.0.1:1"}, bash_timeout_ms=5000, job_output_limit_mb=7, shell="bash",
            web_timeout_s=3, sees_images=True)  # fmt: skip
    workspace = r.agent().workspace
    config = r.config
    assert (workspace.root, workspace.state_dir, workspace.bash_timeout_ms) == (project, config.state_dir, 5000)
    assert (workspace.jobs.limit, workspace.shell, workspace.secret) == (7 * 1024 * 1024, "bash", KEY)
    assert (workspace.web.urls, workspace.web.timeout) == ({"bing": "http://127.0.0.1:1"}, 3)
    assert workspace.sees_images is True and workspace.hidden == config.files
    assert workspace.confirm("rm x", "why") is False and not workspace.planning


def test_the_other_keys_the_settings_hold_are_masked_in_what_the_tools_give_the_model(project, fake_llm, run):
    other = "sk-other-key-0123456789"
    r = run(api_key=other)  # the project's settings hold a key; the environment's is the one used
    (project / "notes.txt").write_text(f"deploy with {other}\n")
    agent = r.agent()
    fake_llm.add(tool_reply(("Read", {"file_path": "notes.txt"})), text_reply("read"))
    agent.ask("read notes.txt")
    sent = json.dumps(fake_llm.requests[-1]["messages"])
    assert other not in sent and "deploy with [API key]" in sent


def test_a_run_logs_to_its_state_folder_with_the_key_masked(project, run):
    r = run()
    r.agent()
    logging.getLogger("narnat.run").warning("the key %s leaked", KEY)
    [log] = state.logs(project / ".narnat").glob("*.log")
    assert "the key *** leaked" in log.read_text() and KEY not in log.read_text()


def test_a_local_server_gives_its_context_window_unless_the_settings_name_one(project, fake_llm, run):
    fake_llm.pages = {"/props": {"default_generation_settings": {"n_ctx": 16384}}}
    assert run().agent().config.context_window == 16384
    assert run(context_window=50000).agent().config.context_window == 50000


def test_the_server_asked_for_its_context_is_sent_the_key(fake_llm, run):
    fake_llm.pages = {"/props": {"default_generation_settings": {"n_ctx": 16384}}}
    run().agent()
    assert [headers.get("authorization") for headers in fake_llm.probe_headers][-1] == f"Bearer {KEY}"


def test_a_request_larger_than_the_local_servers_context_is_said(fake_llm, run):
    fake_llm.pages = {"/props": {"default_generation_settings": {"n_ctx": 1000}}}
    fake_llm.add(text_reply("Hi."))
    r = run(context_window=50000)
    agent = r.agent()
    agent.ask("hello")
    said = r.said.split("\n")[0]
    assert said.startswith("! This request is about ") and "but llama.cpp runs fake-model with a 1,000-token" in said


def test_the_providers_hiccup_is_told_to_the_person(fake_llm, run):
    fake_llm.add(Status(503, {"error": {"message": "overloaded"}}, {"retry-after": "0"}), text_reply("Hi."))
    r = run()
    assert r.agent().ask("hello").answer == "Hi."
    assert "The provider answered status 503 (overloaded)" in r.said


def test_a_log_that_cannot_be_written_is_said_once(project, run):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "logs").write_text("a file where the folder should be")
    r = run()
    r.agent()
    logging.getLogger("narnat.run").warning("one")
    logging.getLogger("narnat.run").warning("two")
    assert r.said.count("logging is off for this run.") == 1 and r.said.startswith("! Cannot write the log ")


def test_the_agent_keeps_this_runs_system_prompt_for_the_conversations_it_starts(run):
    r = run()
    assert r.agent(prompt="this run's prompt").system_prompt == "this run's prompt"


def test_a_server_that_says_nothing_of_its_context_leaves_the_default(run):
    r = run()
    assert r.agent().config.context_window == r.config.context_window


def test_save_names_the_conversation_unless_quiet(project, run):
    r = run()
    agent = r.agent()
    agent.conversation.add_user("hello")
    assert save(agent, r.ui, quiet=True) and r.said == ""
    assert save(agent, r.ui)
    name = agent.session.name
    assert r.said == f"! Saved this conversation as '{name}' (narnat --resume {name}).\n"
    assert json.loads(store.path_of(project / ".narnat", name).read_text())["messages"][1]["content"] == "hello"


def test_an_empty_conversation_is_not_saved_and_nothing_is_said(project, run):
    r = run()
    agent = r.agent()
    assert save(agent, r.ui) and r.said == ""
    assert not store.exists(project / ".narnat", agent.session.name)


def test_a_failed_save_is_one_sentence_and_false(project, run):
    r = run()
    agent = r.agent()
    agent.conversation.add_user("hello")
    (project / ".narnat" / "sessions").write_text("a file where the folder should be")
    assert save(agent, r.ui, quiet=True) is False
    assert r.said.startswith(f"✗ Cannot save '{agent.session.name}' in ") and r.said.count("\n") == 1


def background(fake, agent, *commands: str) -> None:
    """Background commands started by the model, as Bash starts them, in the run's jobs."""
    calls = [("Bash", {"command": f"sleep 30 # {c}", "run_in_background": True}) for c in commands]
    fake.add(tool_reply(*calls), text_reply("Started."))
    agent.ask("start them")


@pytest.mark.slow  # each starts and stops background commands: about a second
@pytest.mark.parametrize(
    ("commands", "said"),
    [
        ((), ""),
        (("a",), "! Stopped 1 background command: sleep 30 # a\n"),
        (("a", "b", "c"), "! Stopped 3 background commands: sleep 30 # a; sleep 30 # b; sleep 30 # c\n"),
        (
            ("a", "b", "c", "d", "e"),
            "! Stopped 5 background commands: sleep 30 # a; sleep 30 # b; sleep 30 # c; and 2 more\n",
        ),
    ],
)
def test_background_commands_are_stopped_in_one_line_naming_the_first_three(fake_llm, run, commands, said):
    r = run()
    agent = r.agent()
    if commands:
        background(fake_llm, agent, *commands)
    r.err.truncate(0)
    r.err.seek(0)
    stop_jobs(agent)
    assert r.said == said
    assert all(job.process.poll() is not None for job in agent.workspace.jobs.started)


def leftover(folder, pid: int):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{TMP_PREFIX}{pid}-abc"
    path.write_bytes(b"half")
    return path


def test_the_leftovers_of_killed_writers_are_swept_in_the_project_the_users_folder_and_an_outside_state_folder(
    project, run
):
    r = run()
    home = project.parent / "home"
    outside = project.parent / "state"
    dead = [leftover(project / "src", DEAD), leftover(state.user_folder(home), DEAD), leftover(outside / "x", DEAD)]
    alive = leftover(project / "src", os.getpid())
    sweep_leftovers(dataclasses.replace(r.config, state_dir=outside))
    assert [path.exists() for path in dead] == [False, False, False] and alive.exists()


def test_a_state_folder_inside_the_project_is_swept_with_it(project, run):
    r = run()
    inside = leftover(project / ".narnat" / "sessions", DEAD)
    sweep_leftovers(r.config)
    assert not inside.exists()


def test_the_first_request_of_a_built_agent_reaches_the_server(fake_llm, run):
    fake_llm.add(text_reply("Hi."))
    agent = run().agent()
    assert agent.ask("hello").answer == "Hi."
    assert fake_llm.requests[0]["model"] == "fake-model"
