"""Slash commands on real session files (autosave and --resume through the real program: test_session_runs.py)."""

import json

import pytest

from narnat_agent.commands.dispatch import dispatch
from narnat_agent.conversation import store
from tests.fake_llm import text_reply, tool_reply
from tests.platforms import posix_only

pytestmark = pytest.mark.windows  # these must pass on Windows too (docs/windows.md)


@pytest.fixture
def talked(harness, fake_llm):
    """An agent with one answered question; `answers` are the user's replies to confirmations."""

    def make(answers: str = ""):
        h = harness(answers)
        fake_llm.add(text_reply("first answer"))
        h.agent.ask("the first question")
        return h

    return make


def sessions(project):
    return sorted(p.stem for p in (project / ".narnat" / "sessions").glob("*.json"))


def test_save_with_a_name_and_with_the_default_timestamp(talked, project):
    h = talked()
    assert dispatch(h.agent, "/save work")
    saved = json.loads((project / ".narnat/sessions/work.json").read_text())
    assert saved["turns"] == 1 and saved["messages"] == h.agent.conversation.messages and saved["todos"] == []
    assert saved["model"] == "fake-model" and saved["created"] and saved["updated"]
    dispatch(h.agent, "/save")
    assert len(sessions(project)) == 2


def test_save_asks_before_overwriting_another_session(talked, project):
    h = talked("n\ny\n")
    store.save(project / ".narnat", "taken", {"turns": 0, "messages": [{"role": "system", "content": "x"}]})
    dispatch(h.agent, "/save taken")
    assert "Not saved." in h.err.getvalue()
    assert json.loads((project / ".narnat/sessions/taken.json").read_text())["turns"] == 0
    dispatch(h.agent, "/save taken")
    assert json.loads((project / ".narnat/sessions/taken.json").read_text())["turns"] == 1


def test_save_declined_leaves_the_conversation_under_its_own_name(talked, project):
    h = talked("n\n")
    store.save(project / ".narnat", "taken", {"turns": 0, "messages": [{"role": "system", "content": "x"}]})
    own = h.agent.conversation.name
    dispatch(h.agent, "/save taken")
    assert "Not saved." in h.err.getvalue() and h.agent.conversation.name == own
    h.agent.save()  # the autosave on the way out
    assert sessions(project) == sorted(["taken", own])


def test_save_over_a_session_another_run_wrote_replaces_it_once_confirmed(talked, project):
    h = talked("y\n")
    other = {"format": "narnat-session", "name": "taken", "turns": 0, "messages": [{"role": "system", "content": "x"}]}
    (project / ".narnat" / "sessions").mkdir(parents=True)
    (project / ".narnat/sessions/taken.json").write_text(json.dumps(other))  # as another run saves it
    dispatch(h.agent, "/save taken")
    assert json.loads((project / ".narnat/sessions/taken.json").read_text())["turns"] == 1
    assert sessions(project) == ["taken"] and "Saved as 'taken'." in h.err.getvalue()


def test_bad_names_are_refused(talked, project):
    h = talked()
    for bad in ("../escape", "a/b", "..", "white space", "semi;colon"):
        dispatch(h.agent, f"/save {bad}")
        dispatch(h.agent, f"/enter {bad}")
    assert h.err.getvalue().count("is not a session name") >= 8
    assert not (project / ".narnat" / "escape.json").exists() and sessions(project) == []


def test_show_lists_newest_first_with_turns_and_the_first_question(talked, project, fake_llm):
    h = talked()
    dispatch(h.agent, "/save older")
    fake_llm.add(text_reply("x"))
    h.agent.ask("another")
    dispatch(h.agent, "/save newer")
    h.out.truncate(0)
    dispatch(h.agent, "/show")
    lines = h.out.getvalue().strip("\x00").splitlines()
    assert lines[0].split() == ["name", "turns", "last", "activity", "first", "question"]
    assert lines[1].startswith("newer") and " 2 " in lines[1] and lines[1].endswith("the first question")
    assert lines[2].startswith("older") and " 1 " in lines[2]


def test_show_gives_a_question_of_several_lines_one_row(harness, project, fake_llm):
    h = harness()
    fake_llm.add(text_reply("done"))
    h.agent.ask("fix the parser\n\nthen  run the tests")
    dispatch(h.agent, "/save multi")
    h.out.truncate(0)
    dispatch(h.agent, "/show")
    lines = h.out.getvalue().strip("\x00").splitlines()
    assert len(lines) == 2 and lines[1].startswith("multi") and lines[1].endswith("fix the parser then run the tests")


def test_enter_saves_the_current_conversation_then_loads(talked, project, fake_llm):
    h = talked()
    dispatch(h.agent, "/save first")
    dispatch(h.agent, "/clear")
    fake_llm.add(text_reply("other answer"))
    h.agent.ask("a different question")
    current = h.agent.conversation.name
    dispatch(h.agent, "/enter first")
    assert current in sessions(project)
    assert h.agent.conversation.name == "first" and h.agent.conversation.turns == 1
    fake_llm.add(text_reply("continued"))
    h.agent.ask("continue")
    assert fake_llm.requests[-1]["messages"][1]["content"] == "the first question"


def test_enter_a_corrupt_or_foreign_file_is_an_error_naming_it(talked, project):
    h = talked()
    folder = project / ".narnat" / "sessions"
    folder.mkdir(parents=True)
    (folder / "broken.json").write_text("{not json")
    (folder / "foreign.json").write_text(json.dumps({"hello": "world"}))
    before = list(h.agent.conversation.messages)
    dispatch(h.agent, "/enter broken")
    dispatch(h.agent, "/enter foreign")
    dispatch(h.agent, "/enter nowhere")
    err = h.err.getvalue()
    assert "broken.json is damaged" in err and "foreign.json is not a Narnat session file" in err
    assert "no session named 'nowhere'" in err and h.agent.conversation.messages == before
    dispatch(h.agent, "/show")
    assert "(unreadable:" in h.out.getvalue()


def test_delete_asks_and_default_is_no(talked, project):
    h = talked("\ny\n")
    dispatch(h.agent, "/save doomed")
    dispatch(h.agent, "/delete doomed")
    assert "doomed" in sessions(project) and "Not deleted." in h.err.getvalue()
    dispatch(h.agent, "/delete doomed")
    assert "doomed" not in sessions(project)
    dispatch(h.agent, "/delete doomed")
    assert "no session named 'doomed'" in h.err.getvalue()


def test_clear_saves_and_starts_fresh(talked, project):
    h = talked()
    old = h.agent.conversation.name
    dispatch(h.agent, "/clear")
    assert old in sessions(project)
    assert h.agent.conversation.turns == 0 and len(h.agent.conversation.messages) == 1


def test_help_exit_and_unknown_commands(talked):
    h = talked()
    dispatch(h.agent, "/help")
    for name in ("/save", "/show", "/enter", "/delete", "/clear", "/help", "/exit"):
        assert name in h.out.getvalue()
    assert dispatch(h.agent, "/exit") is False
    dispatch(h.agent, "/shwo")
    assert "Unknown command /shwo. Did you mean /show?" in h.err.getvalue()


def test_todos_are_saved_with_the_session(talked, project, fake_llm):
    h = talked()
    todo = {"content": "Fix", "activeForm": "Fixing", "status": "in_progress"}
    fake_llm.add(tool_reply(("TodoWrite", {"todos": [todo]})), text_reply("planned"))
    h.agent.ask("plan")
    dispatch(h.agent, "/save planned")
    dispatch(h.agent, "/clear")
    assert h.agent.workspace.todos == []
    dispatch(h.agent, "/enter planned")
    assert h.agent.workspace.todos == [todo]


def test_help_lists_keys_mentions_and_where_config_and_logs_are(talked, project):
    h = talked()
    dispatch(h.agent, "/help")
    shown = h.out.getvalue()
    for key in ("Enter", "Alt-Enter", "Ctrl-J", "Esc", "Ctrl-C", "Ctrl-D", "Tab", "@path"):
        assert key in shown, key
    assert "~/.narnat/narnat.json" in shown and str(project / ".narnat" / "narnat.json") in shown
    assert str(project / ".narnat" / "logs") in shown


def test_clear_draws_a_separator_and_enter_recaps_where_it_stopped(talked, project, fake_llm):
    h = talked()
    dispatch(h.agent, "/save first")
    dispatch(h.agent, "/clear")
    assert "── new conversation ──" in h.err.getvalue()
    dispatch(h.agent, "/enter first")
    err = h.err.getvalue()
    assert "── first · 1 turn ──" in err
    assert "you: the first question" in err and "model: first answer" in err


def test_enter_recaps_where_it_stopped_with_the_key_masked(harness, project):
    # the session keeps the answer as the provider sent it (its cache); /enter's recap never shows the key
    h = harness(api_key="sk-test-key-of-the-recap")
    messages = [{"role": "system", "content": "x"}, {"role": "user", "content": "is sk-test-key-of-the-recap mine?"},
                {"role": "assistant", "content": "Yes, sk-test-key-of-the-recap is the key."}]  # fmt: skip
    store.save(project / ".narnat", "keyed", {"turns": 1, "messages": messages})
    dispatch(h.agent, "/enter keyed")
    err = h.err.getvalue()
    assert "sk-test-key-of-the-recap" not in err
    assert "you: is [API key] mine?" in err and "model: Yes, [API key] is the key." in err


@posix_only("prompt_toolkit's Windows output needs a console, and the tests' output is a pipe")
def test_show_fits_a_narrow_terminal(talked, project, fake_llm):
    import io

    from rich.console import Console

    from narnat_agent.ui.terminal import TerminalUI

    h = talked()
    fake_llm.add(text_reply("x"))
    h.agent.ask("a very long first question " * 10)
    dispatch(h.agent, "/save long")
    console = Console(file=io.StringIO(), width=50, record=True)
    h.agent.ui = TerminalUI(console, project / ".narnat", project, {})
    dispatch(h.agent, "/show")
    lines = console.export_text().splitlines()
    assert len(lines) == 2 and all(len(line) <= 50 for line in lines) and lines[1].endswith("…")


def test_what_the_model_read_belongs_to_the_conversation(harness, fake_llm, project):
    (project / "a.txt").write_text("one\n")
    h = harness()
    fake_llm.add(tool_reply(("Read", {"file_path": "a.txt"})), text_reply("read it"))
    h.agent.ask("read a.txt")
    dispatch(h.agent, "/save with-read")
    dispatch(h.agent, "/clear")
    edit = {"file_path": "a.txt", "old_string": "one", "new_string": "two"}
    fake_llm.add(tool_reply(("Edit", edit)), text_reply("tried"))
    h.agent.ask("edit it without reading")
    assert "has not been read" in fake_llm.requests[-1]["messages"][-1]["content"]
    assert (project / "a.txt").read_text() == "one\n"
    dispatch(h.agent, "/enter with-read")
    fake_llm.add(tool_reply(("Edit", edit)), text_reply("edited"))
    h.agent.ask("now edit it")
    assert (project / "a.txt").read_text() == "two\n"


def test_saving_again_under_the_conversations_own_name_asks_nothing(talked, project, fake_llm):
    h = talked()  # no answers: a question would be answered no
    dispatch(h.agent, "/save work")
    fake_llm.add(text_reply("second answer"))
    h.agent.ask("the second question")
    dispatch(h.agent, "/save work")
    assert "? " not in h.err.getvalue() and h.err.getvalue().count("Saved as 'work'.") == 2
    assert json.loads((project / ".narnat/sessions/work.json").read_text())["turns"] == 2
