"""The prompt through prompt_toolkit pipe input; completers called directly."""

import io

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from narnat_agent.ui.keys import CommandCompleter, PathCompleter
from narnat_agent.ui.ui_design import TerminalUI

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


def test_a_question_given_back_is_prefilled(terminal):
    ui, keys = terminal
    ui.give_back("the held question")
    keys.send_text(" again\r")
    assert ui.read_input() == "the held question again"


def test_confirmation_defaults_to_no(terminal):
    ui, keys = terminal
    keys.send_text("y\r")
    assert ui.confirm("rm -rf build", "rm deletes files: build") is True
    keys.send_text("\r")
    assert ui.confirm("rm x", "rm deletes files: x") is False
    keys.send_text("n\r")
    assert ui.confirm("rm x", "rm deletes files: x") is False
    text = ui.console.export_text()
    assert "rm deletes files: build" in text and "rm -rf build" in text and "Declined" in text


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
