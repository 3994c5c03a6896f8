"""A session opened in process, as `narnat acp` opens one for session/new and session/load: the project folder's
agent against the scripted provider, the folder and the settings checked, the modes offered and chosen. The editor is
the protocol's client on a loop of its own (the boundary)."""

import asyncio
import dataclasses
import json
import subprocess
import sys
import threading
from argparse import Namespace
from collections.abc import Iterator

import pytest
from acp import RequestError
from acp.schema import ClientCapabilities

from narnat_agent import i18n
from narnat_agent.acp.sessions import Settings, choose_mode, modes, open_session
from narnat_agent.acp.ui import DEFAULT, PLAN, Buffers, EditorUI, Link
from tests.acp.editor import KEY, Editor, environment
from tests.fake_llm import text_reply


@pytest.fixture
def link() -> Iterator[Link]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    editor = Editor(buffers={})
    yield Link(loop, editor, editor.capabilities())  # type: ignore[arg-type]
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.close()


def settings(project, fake_llm, **flags) -> Settings:
    args = Namespace(**({"model": None, "max_cost": None, "max_steps": None} | flags))
    return Settings(args, environment(project, fake_llm.base_url), project.parent / "home")


def test_a_new_session_is_the_project_folders_agent_with_the_editors_buffers(project, fake_llm, link):
    ui = EditorUI(link)
    chosen = settings(project, fake_llm, model="other-model", max_steps=7)
    opened = open_session(str(project), None, ui, chosen, set())
    agent = opened.agent
    assert opened.id == agent.session.name == ui.session_id and opened.ui is ui and opened.user == {}
    assert agent.workspace.root == project and ui.workspace is agent.workspace
    assert agent.config.max_steps == 7 and agent.client.model == "other-model" and chosen.secrets == {KEY}
    assert isinstance(agent.workspace.editor, Buffers) and agent.workspace.editor.ui is ui
    assert agent.workspace.confirm is not ui.confirm  # /undo's word is added to each question, as in the REPL
    assert not opened.id.endswith("-1")  # no other session is open: its name is its own
    link.client.answers.append("reject")  # type: ignore[attr-defined]
    assert agent.workspace.confirm("rm -rf build", "rm deletes files: build") is False
    [asked] = link.client.asked  # type: ignore[attr-defined]
    assert asked.title.startswith("rm deletes files: build")


def test_an_editor_without_buffers_leaves_the_disk_the_only_copy(project, fake_llm, link):
    bare = Link(link.loop, link.client, ClientCapabilities())
    opened = open_session(str(project), None, EditorUI(bare), settings(project, fake_llm), set())
    assert opened.agent.workspace.editor is None and opened.agent.config.max_steps > 7


def test_two_sessions_opened_in_the_same_second_are_named_apart(project, fake_llm, link):
    first = open_session(str(project), None, EditorUI(link), settings(project, fake_llm), set())
    second = open_session(str(project), None, EditorUI(link), settings(project, fake_llm), {first.id, "another"})
    assert second.id not in (first.id, "another") and second.ui.session_id == second.id
    if second.id.startswith(f"{first.id}-"):  # the clock had not moved on: the session's name is made apart
        assert second.id == f"{first.id}-3"


def test_a_session_whose_name_is_taken_is_named_after_every_session_open(project, fake_llm, link):
    from datetime import datetime, timedelta

    from narnat_agent.conversation.store import stamp

    now = datetime.now()
    taken = {stamp(now + timedelta(seconds=s)) for s in range(-1, 30)} | {"another"}  # whatever second it opens in
    opened = open_session(str(project), None, EditorUI(link), settings(project, fake_llm), taken)
    name, __, number = opened.id.rpartition("-")
    assert name in taken and number == str(len(taken) + 1) and opened.ui.session_id == opened.id


@pytest.mark.parametrize("where", ["relative", "missing", "file"])
def test_a_working_folder_that_is_no_absolute_folder_is_refused(project, fake_llm, link, where):
    (project / "notes.txt").write_text("")
    cwd = {"relative": "project", "missing": str(project / "gone"), "file": str(project / "notes.txt")}[where]
    with pytest.raises(RequestError) as refused:
        open_session(cwd, None, EditorUI(link), settings(project, fake_llm), set())
    assert refused.value.code == -32602
    assert str(refused.value) == f"{cwd} is not a folder: the working folder is an absolute path to one."


def test_settings_that_cannot_be_read_refuse_the_session_with_their_sentence(project, fake_llm, link):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text(json.dumps({"max_steps": "many"}))
    with pytest.raises(RequestError) as refused:
        open_session(str(project), None, EditorUI(link), settings(project, fake_llm), set())
    assert refused.value.code == -32603 and "max_steps" in str(refused.value)


def test_a_saved_session_that_is_not_there_is_refused_with_why(project, fake_llm, link):
    ui = EditorUI(link)
    with pytest.raises(RequestError) as refused:
        open_session(str(project), "nothing-here", ui, settings(project, fake_llm), set())
    assert refused.value.code == -32602 and str(refused.value) == ui.errors[-1]
    assert str(refused.value).startswith("Cannot resume: ") and "nothing-here" in str(refused.value)


def test_the_users_commands_are_the_sessions_and_hold_the_key_masked(project, fake_llm, link):
    commands = project / ".narnat" / "commands"
    commands.mkdir(parents=True)
    (commands / "review.md").write_text("---\ndescription: Review the diff\n---\nReview $ARGUMENTS\n")
    (commands / "deploy.md").write_text(f"Deploy with the token {KEY} and say done.\n")
    (commands / "bad name.md").write_text("x\n")
    ui = EditorUI(link)
    opened = open_session(str(project), None, ui, settings(project, fake_llm), set())
    assert sorted(opened.user) == ["deploy", "review"] and opened.user["review"].description == "Review the diff"
    asked = opened.user["deploy"].question("")
    assert KEY not in asked and "Deploy with the token [API key] and say done." in asked
    bad = (
        "! .narnat/commands/bad name.md is not a command: a command's name has only letters, digits, '.', '-' and '_'."
    )
    assert ui.held == [bad]


def test_the_modes_offered_say_which_one_the_session_is_in(project, fake_llm, link):
    opened = open_session(str(project), None, EditorUI(link), settings(project, fake_llm), set())
    offered = modes(opened)
    assert offered.current_mode_id == DEFAULT == opened.ui.mode
    assert [(m.id, m.name, m.description) for m in offered.available_modes] == [
        ("default", "Default", "Ask before destructive actions"),
        ("plan", "Plan", "Investigate and propose; change nothing"),
    ]
    opened.agent.plan_mode(True)
    opened.ui.mode = DEFAULT
    assert modes(opened).current_mode_id == PLAN == opened.ui.mode


def test_a_mode_chosen_switches_plan_mode_and_an_unknown_one_changes_nothing(project, fake_llm, link):
    opened = open_session(str(project), None, EditorUI(link), settings(project, fake_llm), set())
    choose_mode(opened, PLAN)
    assert opened.agent.planning and opened.ui.mode == PLAN
    with pytest.raises(RequestError) as unknown:
        choose_mode(opened, "yolo")
    assert unknown.value.code == -32602 and str(unknown.value) == "There is no mode yolo: the modes are default, plan."
    assert opened.agent.planning and opened.ui.mode == PLAN
    choose_mode(opened, DEFAULT)
    assert not opened.agent.planning and opened.ui.mode == DEFAULT


OPEN_FIRST = """
import asyncio, os, sys
from argparse import Namespace
from pathlib import Path
from narnat_agent.acp.sessions import Settings, open_session
from narnat_agent.acp.ui import EditorUI, Link

project, home = Path(sys.argv[1]), Path(sys.argv[2])
ui = EditorUI(Link(asyncio.new_event_loop(), None, None))
flags = Namespace(model=None, max_cost=None, max_steps=None)
opened = open_session(str(project), None, ui, Settings(flags, dict(os.environ), home), set())
print(sorted(opened.user))
"""


@pytest.mark.slow
def test_a_file_named_as_a_built_in_command_is_left_out_of_the_first_session_too(project, fake_llm):
    """The first session of `narnat acp` opens before anything else has loaded the built-in commands."""
    commands = project / ".narnat" / "commands"
    commands.mkdir(parents=True)
    (commands / "undo.md").write_text("my own undo\n")
    (commands / "review.md").write_text("Review it\n")
    run = [sys.executable, "-c", OPEN_FIRST, str(project), str(project.parent / "home")]
    done = subprocess.run(run, env=environment(project, fake_llm.base_url), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["['review']"]
    assert ".narnat/commands/undo.md is not a command: /undo is a built-in command, which wins" in done.stderr


def test_the_editor_is_told_of_a_mode_only_when_it_did_not_choose_it(project, fake_llm, link):
    opened = open_session(str(project), None, EditorUI(link), settings(project, fake_llm), set())
    choose_mode(opened, PLAN)
    choose_mode(opened, DEFAULT)
    assert link.client.seen("current_mode_update") == []  # type: ignore[attr-defined]
    opened.agent.plan_mode(True)  # as /plan switches it, from inside the session
    [told] = link.client.seen("current_mode_update")  # type: ignore[attr-defined]
    assert told.current_mode_id == PLAN


def test_a_saved_conversation_is_loaded_under_its_own_name(project, fake_llm, link):
    fake_llm.add(text_reply("an answer"))
    first = open_session(str(project), None, EditorUI(link), settings(project, fake_llm), set())
    first.agent.ask("a question")
    assert first.agent.save() == first.id
    loaded = open_session(str(project), first.id, EditorUI(link), settings(project, fake_llm), {first.id})
    assert loaded.id == first.id and loaded.agent.conversation.messages == first.agent.conversation.messages


def test_the_budget_flag_and_the_settings_notices_reach_the_session(project, fake_llm, link):
    (project / ".narnat").mkdir()
    settings_file = {"pricing": {"input": 1.0, "output": 2.0}, "temprature": 0.2}
    (project / ".narnat" / "narnat.json").write_text(json.dumps(settings_file))
    ui = EditorUI(link)
    opened = open_session(str(project), None, ui, settings(project, fake_llm, max_cost=0.5), set())
    assert opened.agent.config.max_cost == 0.5 and opened.agent.budget.limited
    assert any("temprature" in held for held in ui.held), ui.held


def test_a_project_whose_narnat_folder_cannot_be_written_keeps_the_session_in_the_users_state_folder(
    project, fake_llm, link, monkeypatch
):
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    (project / ".narnat").write_text("")  # a file where the folder would be
    ui = EditorUI(link)
    run = dataclasses.replace(settings(project, fake_llm), home=project.parent / "run-home")  # the run's, not $HOME
    opened = open_session(str(project), None, ui, run, set())
    kept = opened.agent.config.state_dir
    assert kept.parent == project.parent / "run-home" / ".local" / "state" / "narnat"
    assert kept.name.startswith("project-")
    assert f"! {project / '.narnat'} cannot be written; this project's sessions and logs go to {kept}." in ui.held


def test_long_instructions_are_said_to_be_cut_when_the_session_opens(project, fake_llm, link):
    (project / "AGENTS.md").write_text("Be brief. " * 4000)
    ui = EditorUI(link)
    opened = open_session(str(project), None, ui, settings(project, fake_llm), set())
    said = f"! {project / 'AGENTS.md'} is longer than 32,000 characters; only its beginning is in the system prompt."
    assert said in ui.held and "[The rest of AGENTS.md is left out" in opened.agent.conversation.messages[0]["content"]


def test_the_language_the_settings_name_is_the_one_the_session_speaks(project, fake_llm, link):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text(json.dumps({"language": "zh-CN"}))
    (project / "AGENTS.md").write_text("Be brief. " * 4000)
    ui = EditorUI(link)
    try:
        open_session(str(project), None, ui, settings(project, fake_llm), set())
    finally:
        i18n.use("en")
    assert f"! {project / 'AGENTS.md'} 超过 32,000 个字符；系统提示词中只放入了它的开头部分。" in ui.held


def test_the_language_setting_is_the_sessions_language(project, fake_llm, link):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text(json.dumps({"language": "zh-CN", "temprature": 0.2}))
    ui = EditorUI(link)
    try:
        open_session(str(project), None, ui, settings(project, fake_llm), set())
    finally:
        i18n.use("en")
    assert any("已忽略未知的键「temprature」" in held for held in ui.held), ui.held
