"""The prompt through prompt_toolkit pipe input; completers called directly."""

import io
import os

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from narnat_agent.ui.keys import CommandCompleter, PathCompleter
from narnat_agent.ui.terminal import TerminalUI

COMMANDS = {"save": "save", "show": "list", "enter": "enter", "exit": "leave"}


@pytest.fixture
def terminal(project):
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        ui = TerminalUI(Console(file=io.StringIO(), width=80, record=True), project / ".narnat", project, COMMANDS)
        yield ui, keys


def test_enter_sends_and_alt_enter_inserts_a_newline(terminal):
    ui, keys = terminal
    keys.send_text("line one\x1b\rline two\r")
    assert ui.read_input() == "line one\nline two"
    keys.send_text("first\nsecond\r")  # Ctrl-J is a newline too
    assert ui.read_input() == "first\nsecond"


def test_pasted_text_stays_one_message(terminal):
    ui, keys = terminal
    keys.send_text("\x1b[200~a\rb\rc\x1b[201~\r")
    assert ui.read_input() == "a\nb\nc"


def test_history_is_kept_in_the_project(terminal, project):
    ui, keys = terminal
    keys.send_text("remember me\r")
    ui.read_input()
    assert "remember me" in (project / ".narnat" / "history").read_text()
    keys.send_text("\x1b[A\r")
    assert ui.read_input() == "remember me"


def test_ctrl_c_clears_and_ctrl_d_leaves(terminal):
    ui, keys = terminal
    keys.send_text("half typed\x03")
    assert ui.read_input() == ""
    keys.send_text("\x04")
    assert ui.read_input() is None


def test_ctrl_d_leaves_when_only_blanks_are_on_the_line(terminal):
    ui, keys = terminal
    ui.give_back("\n  ")  # e.g. an Enter typed while the agent was busy
    keys.send_text("\x04")
    assert ui.read_input() is None


def test_ctrl_c_at_an_empty_prompt_says_once_how_to_leave(terminal):
    ui, keys = terminal
    for _ in range(3):
        keys.send_text("\x03")
        assert ui.read_input() == ""
    keys.send_text("typed\x03")
    ui.read_input()
    assert ui.console.export_text().count("Ctrl-D or /exit leaves") == 1


@pytest.mark.parametrize("kind", ["directory", "read-only", "broken later"])
def test_history_that_cannot_be_written_is_skipped_with_one_notice(project, kind):
    history = project / ".narnat" / "history"
    history.parent.mkdir()
    if kind == "directory":
        history.mkdir()
    elif kind == "broken later":
        history.write_text("")
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes read-only files")
        history.write_text("")
        history.chmod(0o400)
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        ui = TerminalUI(Console(file=io.StringIO(), width=80, record=True), project / ".narnat", project, COMMANDS)
        for text in ("one", "two", "three"):
            if kind == "broken later" and text == "two":  # the file turns into something it cannot write to
                history.unlink()
                history.mkdir()
            keys.send_text(text + "\r")
            assert ui.read_input() == text
    shown = ui.console.export_text()
    assert shown.count("Input history is not kept") == 1 and "Traceback" not in shown


def test_a_question_given_back_is_prefilled(terminal):
    ui, keys = terminal
    ui.give_back("the held question")
    keys.send_text(" again\r")
    assert ui.read_input() == "the held question again"


def test_keys_typed_while_the_agent_worked_follow_the_question_given_back(terminal):
    ui, keys = terminal
    ui.watcher.working(True)
    ui.watcher.handle(list(" and the docs"))  # typed during the turn, without Enter
    ui.watcher.working(False)
    ui.give_back("fix the tests")
    keys.send_text("\r")
    assert ui.read_input() == "fix the tests and the docs"


def test_confirmation_takes_one_key(terminal):
    ui, keys = terminal
    keys.send_text("y")
    assert ui.confirm("rm -rf build", "rm deletes files: build") is True
    keys.send_text("n")
    assert ui.confirm("rm x", "rm deletes files: x") is False
    keys.send_text("\x1b")
    assert ui.confirm("rm x", "rm deletes files: x") is False
    keys.send_text("x\r q\x03")  # other keys, Enter included, keep asking; Ctrl-C is no
    assert ui.confirm("rm x", "rm deletes files: x") is False
    text = ui.console.export_text()
    assert "rm deletes files: build" in text and "rm -rf build" in text


def completions(completer, text):
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]


def test_slash_commands_complete():
    completer = CommandCompleter(COMMANDS)
    assert completions(completer, "/s") == ["/save", "/show"]
    assert completions(completer, "/show x") == [] and completions(completer, "hi /s") == []


def test_at_paths_complete_fuzzily_and_respect_gitignore(project):
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("")
    (project / "src" / "helpers.py").write_text("")
    (project / "build").mkdir()
    (project / "build" / "app.py").write_text("")
    (project / ".gitignore").write_text("build/\n")
    completer = PathCompleter(project)
    found = completions(completer, "look at @sapp")
    assert found[0] == "src/app.py" and "build/app.py" not in found
    assert "src/" in completions(completer, "@sr") and completions(completer, "no at sign") == []
