"""The terminal UI in process: what each call leaves on the screen, the status line and the window title."""

import io

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from narnat_agent.core.turn import Stop, TurnOutcome, TurnStats
from narnat_agent.provider.reply import ToolCall
from narnat_agent.tools.base import Diff, Output, Result, Todos
from narnat_agent.ui.plain import PlainUI
from narnat_agent.ui.terminal import TerminalUI, make_ui


@pytest.fixture
def terminal(project):
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        console = Console(
            file=io.StringIO(), width=100, record=True, color_system="standard", highlight=False
        )  # as make_ui
        ui = TerminalUI(console, project / ".narnat", project, {"save": "save it"})
        ui.keys = keys  # type: ignore[attr-defined]
        yield ui


def screen(ui: TerminalUI) -> str:
    return ui.console.export_text(clear=False)


def styled(ui: TerminalUI) -> str:
    return ui.console.export_text(styles=True, clear=False)


def test_notices_warnings_errors_and_listings_each_look_their_part(terminal):
    terminal.notice("Saved \x1b[2J.")
    terminal.warning("Slow.")
    terminal.error("No key.")
    terminal.info("[bold]listing[/bold]")
    terminal.banner("m", ["narnat 1.0", "project"])
    terminal.delivered("and docs")
    terminal.separator("new")
    assert screen(terminal).splitlines() == [
        "  Saved ␛[2J.", "⚠ Slow.", "✗ No key.", "[bold]listing[/bold]", "narnat 1.0", "project",
        "❯ and docs  delivered while the agent worked", "── new " + "─" * 93,
    ]  # fmt: skip
    assert styled(terminal).splitlines()[:3] == ["  \x1b[2mSaved ␛[2J.\x1b[0m", "\x1b[35m⚠ Slow.\x1b[0m",
                                                 "\x1b[31m✗ No key.\x1b[0m"]  # fmt: skip


def test_a_table_fits_the_width_and_cuts_only_its_last_column(terminal):
    question = "why does the save test fail on Windows only, and what else " * 2
    terminal.table(["name", "question"], [["fix-save", question]])
    assert [line.rstrip() for line in screen(terminal).splitlines()] == [
        "name      question",
        "fix-save  " + question[:89] + "…",
    ]


def test_a_review_shows_the_title_and_the_whole_diff(terminal):
    diff = "@@ -1,50 +1,50 @@\n" + "".join(f"-{n}\n+{n}x\n" for n in range(1, 51))
    terminal.review("a.py (+50 -50)", diff)
    terminal.review("b.bin (binary, 3 bytes)", "")
    lines = screen(terminal).splitlines()
    assert lines[0] == "● a.py (+50 -50)" and len(lines) == 1 + 100 + 1 and lines[-1] == "● b.bin (binary, 3 bytes)"


def test_a_review_shows_sequences_in_file_names_and_lines_never_obeyed(terminal):
    # /diff shows what a command or a cloned repository wrote: a file's name and its lines are not Narnat's
    terminal.review("g\x1b]0;FN\x07.txt (created, +1)", "@@ -0,0 +1 @@\n+evil \x1b]52;c;Zm9v\x07 \x9b2J")
    raw = terminal.console.export_text(styles=True, clear=False)
    assert "\x1b]" not in raw and "\x9b" not in raw
    assert "● g␛]0;FN␇.txt (created, +1)" in screen(terminal) and "evil ␛]52;c;Zm9v␇ \\x9b2J" in screen(terminal)


def test_the_status_line_names_the_mode_the_model_and_the_context(terminal):
    terminal.banner("glm-4.6", ["narnat"])
    assert terminal._toolbar() == "glm-4.6 · /help"
    terminal.status(TurnStats(context=1200, context_window=8000, model=""))
    assert terminal._toolbar() == "glm-4.6 · ctx 1.2k/8k · /help"
    terminal.status(TurnStats(context=1200, context_window=8000, model="kimi"))
    terminal.planning(True)
    assert terminal._toolbar() == "plan mode · shift-tab leaves · kimi · ctx 1.2k/8k · /help"
    terminal.planning(False)
    assert terminal._toolbar() == "kimi · ctx 1.2k/8k · /help"


def test_tool_results_show_todos_diffs_with_their_syntax_errors_and_output_tails(terminal):
    terminal.tool_start("Edit(a.py)", ToolCall("c1", "Edit", "{}"))
    terminal.tool_end(Result("…", "1 line changed", detail=Diff("@@ -1 +1 @@\n-a\n+b", "line 1: invalid syntax")))
    terminal.tool_end(Result("…", "2 tasks", detail=Todos(({"content": "Fix", "status": "pending"},))))
    terminal.tool_end(Result("…", "exit 1", True, Output(("ok", "FAILED x"), 2, 2)))
    terminal.tool_end(Result("…", "exit 0", False, Output(("", ""), 2, 2)))
    terminal.tool_end(Result("…", "no change", detail=Diff("")))
    assert screen(terminal).splitlines() == [
        "● Edit(a.py)", "  ⎿  1 line changed", "         1 -a", "         1 +b", "     line 1: invalid syntax",
        "  ⎿  2 tasks", "     ◻ Fix", "  ⎿  exit 1", "     ok", "     FAILED x", "  ⎿  exit 0", "  ⎿  no change",
    ]  # fmt: skip


def test_compression_spins_while_it_lasts_and_the_watcher_stops_with_it(terminal):
    sink = terminal.begin_compressing()
    assert terminal.compressing is not None and terminal.compressing.is_started and terminal.watcher.busy
    assert not sink.cancelled
    terminal.end_compressing()
    assert not terminal.compressing.is_started and not terminal.watcher.busy


def test_a_question_given_back_waits_on_the_input_line_and_says_so(terminal):
    terminal.give_back("fix it")
    assert terminal.pending == "fix it"
    assert screen(terminal) == "  Your question is back on the input line, to edit and send again.\n"


def test_a_setup_question_shows_its_default_and_takes_it_for_an_empty_answer(terminal):
    terminal.keys.send_text("\r")
    assert terminal.ask("Model", "qwen3") == "qwen3"
    terminal.keys.send_text("  llama \r")
    assert terminal.ask("Model", "qwen3") == "llama"
    terminal.keys.send_text("sk-1\r")
    assert terminal.ask("Key", secret=True) == "sk-1"


def test_questions_typed_while_the_agent_works_are_queued_and_said_and_commands_wait_for_the_turns_end(terminal):
    terminal.watcher.queued += ["and   the docs", "/context", " /save"]  # a command typed after a space too
    terminal.run_at_once(lambda line: line == "/context")
    for question in list(terminal.watcher.queued):
        terminal._queued(question)
    assert terminal.watcher.queued == ["and   the docs", " /save"]
    assert screen(terminal).splitlines() == [
        "  Queued, to be delivered at the next tool result or when this turn ends: and the docs",
        "  Queued, to run when this turn ends: /save",
    ]
    assert terminal.take_sent(lambda line: not line.strip().startswith("/")) == ["and   the docs"]
    assert terminal.read_input() == " /save"
    assert screen(terminal).endswith("❯  /save\n")


def test_the_window_title_says_what_narnat_waits_for_until_the_user_answers(project, terminal):
    out = io.StringIO()
    ui = TerminalUI(Console(file=out, force_terminal=True, width=60), project / ".narnat", project, {})
    ui.use_bell(0.0)
    ui.ring("done")
    assert out.getvalue() == f"\x1b]0;narnat · {project.name} · done\x07\a"
    terminal.keys.send_text("hi\r")
    assert ui.read_input() == "hi"
    assert out.getvalue().endswith(f"\x1b]0;narnat · {project.name}\x07")
    written = out.getvalue()
    terminal.keys.send_text("again\r")
    assert ui.read_input() == "again" and out.getvalue() == written  # the title is back already


def test_the_interrupt_key_and_user_commands_reach_the_watcher_and_completion(terminal):
    terminal.use_interrupt_key("escape-twice")
    assert terminal.watcher.key == "escape-twice"
    terminal.add_commands({"review": "review the diff", "save": "keep it"})
    assert terminal.commands.commands == {"save": "keep it", "review": "review the diff"}


def test_the_interrupt_key_cancels_the_turn_being_drawn(terminal):
    terminal.watcher.on_cancel()  # no turn yet: nothing to cancel
    view = terminal.turn_view()
    terminal.watcher.on_cancel()
    assert view.cancelled is True
    view.finish(TurnOutcome(Stop.CANCELLED, stats=TurnStats(started=0.0, ended=1.0)))


def test_a_stop_puts_what_was_queued_back_on_the_input_line_unsent(terminal):
    # sent when the stopped turn ended, a queued message had the agent working again right after Esc
    view = terminal.turn_view()
    terminal.watcher.queued += ["steer one", "/undo"]
    terminal.watcher.on_cancel()
    assert view.cancelled is True and terminal.watcher.queued == []
    assert terminal.pending == "steer one\n/undo"
    assert screen(terminal) == "  Stopped: what you queued is back on the input line, not sent.\n"
    view.finish(TurnOutcome(Stop.CANCELLED, stats=TurnStats(started=0.0, ended=1.0)))


def test_a_command_run_at_once_that_the_watcher_did_not_queue_is_not_looked_for(terminal):
    terminal.run_at_once(lambda line: True)
    terminal._queued("/jobs")
    assert terminal.watcher.queued == [] and screen(terminal) == ""


def test_lines_for_a_person_are_shown_as_written_without_markup_or_highlighting(terminal):
    terminal.banner("m", ["narnat 1.0 · 3 files"])
    terminal.warning("[b]12[/b] slow")
    terminal.error("[b]12[/b] failed")
    terminal.delivered("fix 3 files")
    terminal.review("a.py (+50 -50) [b]", "")
    assert styled(terminal).splitlines() == [
        "\x1b[2mnarnat 1.0 · 3 files\x1b[0m",
        "\x1b[35m⚠ [b]12[/b] slow\x1b[0m",
        "\x1b[31m✗ [b]12[/b] failed\x1b[0m",
        "❯ fix 3 files\x1b[2m  delivered while the agent worked\x1b[0m",
        "\x1b[1m● a.py (+50 -50) [b]\x1b[0m",
    ]


def test_compression_spins_with_what_it_does_and_leaves_nothing_behind(terminal):
    terminal.begin_compressing()
    live = terminal.compressing
    spinner = live.get_renderable()
    assert spinner.text.__rich__().plain == "Compressing the conversation… 0s · esc to interrupt"
    assert (live.console, live.transient) == (terminal.console, True)
    terminal.end_compressing()
    assert screen(terminal) == ""


def test_a_table_of_three_columns_has_a_dim_header_and_cuts_its_last_column_on_a_narrow_screen(project):
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        console = Console(file=io.StringIO(), width=30, record=True, color_system="standard")
        ui = TerminalUI(console, project / ".narnat", project, {})
        ui.table(["name", "turns", "question"], [["a-conversation-name", "12", "why"]])
        assert [line.rstrip() for line in console.export_text(clear=False).splitlines()] == [
            "name                 turns  q…", "a-conversation-name  12     w…"
        ]  # fmt: skip
        assert console.export_text(styles=True).startswith("\x1b[2mname")


def test_a_failed_commands_result_is_red_says_what_the_model_saw_and_shows_six_lines(terminal):
    view = terminal.turn_view()
    terminal.tool_start("Bash(echo (a))", ToolCall("c1", "Bash", "{}", recovered="Qwen"))
    spinner = view.live.get_renderable()
    assert spinner.text.__rich__().plain == "Running Bash… 0s · esc to interrupt"
    output = Output(tuple(f"line {n}" for n in range(1, 9)), 800, 300)
    terminal.tool_end(Result("…", "exit 1", True, output))
    view.finish(TurnOutcome(Stop.COMPLETED, stats=TurnStats(started=0.0, ended=1.0)))
    lines = screen(terminal).splitlines()
    assert lines[:9] == ["● Bash(echo (a)) · recovered from Qwen text", "  ⎿  exit 1 (300 shown to the model)",
                         "     … +794 lines above", *(f"     line {n}" for n in range(3, 9))]  # fmt: skip
    assert "\x1b[31mexit 1\x1b[0m" in styled(terminal)


@pytest.fixture
def prompted(project):
    """A terminal UI whose prompts are written, as plain text, where the test can read them."""
    from prompt_toolkit.output.plain_text import PlainTextOutput

    shown = io.StringIO()
    with create_pipe_input() as keys, create_app_session(input=keys, output=PlainTextOutput(shown)):
        console = Console(file=io.StringIO(), width=100, record=True, color_system="standard", highlight=False)
        ui = TerminalUI(console, project / ".narnat", project, {"save": "save it"})
        ui.keys = keys  # type: ignore[attr-defined]
        ui.shown = shown  # type: ignore[attr-defined]
        yield ui


def test_the_prompts_say_what_they_ask(prompted):
    prompted.keys.send_text("\r")
    assert prompted.ask("Key") == ""
    prompted.keys.send_text("\r")
    assert prompted.ask("Model", "qwen3") == "qwen3"
    prompted.keys.send_text("sk-unseen\r")
    assert prompted.ask("API key", secret=True) == "sk-unseen"
    prompted.keys.send_text("seen\r")
    assert prompted.ask("Name") == "seen"
    prompted.keys.send_text("hi\r")
    assert prompted.read_input() == "hi"
    prompted.keys.send_text("y")
    assert prompted.confirm("rm -rf build", "rm deletes files: build") is True
    shown = [line.strip() for line in prompted.shown.getvalue().replace("\r", "\n").split("\n")]
    assert {"Key:", "Model [qwen3]:", "❯ hi", "Run it? [y/n]"} <= set(shown)
    assert "     Run it? [y/n]" in prompted.shown.getvalue() and "Name: seen" in prompted.shown.getvalue()
    assert "sk-unseen" not in prompted.shown.getvalue() and "API key: *********" in prompted.shown.getvalue()
    assert styled(prompted).splitlines() == ["\x1b[35m  ⎿  ⚠ \x1b[0m\x1b[35mrm deletes files: build\x1b[0m",
                                            "\x1b[1m     rm -rf build\x1b[0m"]  # fmt: skip


def test_shift_tab_switches_plan_mode_and_keeps_what_was_typed_for_the_next_prompt(terminal):
    terminal.keys.send_text("fix it\x1b[Z")
    assert terminal.read_input() == "/plan"
    terminal.keys.send_text(" now\r")
    assert terminal.read_input() == "fix it now"


def test_ctrl_c_says_what_it_did(terminal):
    terminal.keys.send_text("draft\x03")
    assert terminal.read_input() == ""
    terminal.keys.send_text("\x03")
    assert terminal.read_input() == ""
    assert screen(terminal).splitlines() == [
        "  cleared, not sent", "  Ctrl-C clears the line; Ctrl-D or /exit leaves (the conversation is saved)."
    ]  # fmt: skip


def test_a_question_sent_while_the_agent_worked_is_shown_as_sent_as_written(terminal):
    terminal.watcher.queued.append("[b]3[/b] files")
    assert terminal.read_input() == "[b]3[/b] files"
    assert styled(terminal) == "❯ [b]3[/b] files\n"


def test_a_history_that_cannot_be_kept_is_named_with_why(project):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "history").mkdir()  # where the history file would be
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        console = Console(file=io.StringIO(), width=200, record=True)
        TerminalUI(console, project / ".narnat", project, {})
        said = console.export_text()
    assert said.startswith(f"  Input history is not kept this session: {project / '.narnat' / 'history'} cannot be")
    assert "IsADirectoryError" in said


def test_the_prompt_completes_commands_and_paths_and_shows_the_status_line(terminal, project):
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    (project / "app.py").write_text("")
    completer = terminal.session.completer
    assert [c.text for c in completer.get_completions(Document("/sa"), CompleteEvent())] == ["/save"]
    assert "app.py" in [c.text for c in completer.get_completions(Document("@app"), CompleteEvent())]
    terminal.banner("kimi", [])
    assert terminal.session.bottom_toolbar() == "kimi · /help"


def test_a_turn_lets_the_watcher_cancel_it(terminal):
    view = terminal.turn_view()
    assert terminal.watcher.busy
    view.finish(TurnOutcome(Stop.COMPLETED, stats=TurnStats(started=0.0, ended=1.0)))


def test_a_confirmation_rings_and_titles_the_window_while_it_waits(project):
    from prompt_toolkit.output.plain_text import PlainTextOutput

    with create_pipe_input() as keys, create_app_session(input=keys, output=PlainTextOutput(io.StringIO())):
        out = io.StringIO()
        ui = TerminalUI(Console(file=out, force_terminal=True, width=60), project / ".narnat", project, {})
        ui.use_bell(30.0)
        keys.send_text("n")
        assert ui.confirm("rm x", "rm deletes files: x") is False
        assert f"\x1b]0;narnat · {project.name} · waiting for you\x07\a" in out.getvalue()


def test_after_a_confirmation_the_turn_spins_again(terminal):
    view = terminal.turn_view()
    terminal.keys.send_text("n\r")
    assert terminal.confirm("rm x", "rm deletes files: x") is False
    assert view.live.is_started  # the spinner, and then the answer, are drawn again
    view.finish(TurnOutcome(Stop.COMPLETED, stats=TurnStats(started=0.0, ended=1.0)))
    assert not view.live.is_started


def test_a_tool_result_shows_the_sequences_a_command_printed_never_obeyed(terminal):
    terminal.tool_end(Result("…", "exit 1 \x1b]0;T\x07", True, Output(("ok \x1b[2J", "\x9b31m"), 2, 2)))
    todo = {"content": "Fix \x1b]52;c;Zm9v\x07", "status": "pending"}
    terminal.tool_end(Result("…", "1 task", detail=Todos((todo,))))
    terminal.tool_end(Result("…", "1 line changed", detail=Diff("@@ -1 +1 @@\n-a\n+b \x1b[8m", "line 1: \x1b[5m")))
    raw = styled(terminal)
    assert "\x1b]" not in raw and "\x9b" not in raw and "\x1b[2J" not in raw and "\x1b[8m" not in raw
    assert "\x1b[5m" not in raw
    assert screen(terminal).splitlines() == [
        "  ⎿  exit 1 ␛]0;T␇", "     ok ␛[2J", "     \\x9b31m", "  ⎿  1 task", "     ◻ Fix ␛]52;c;Zm9v␇",
        "  ⎿  1 line changed", "         1 -a", "         1 +b ␛[8m", "     line 1: ␛[5m",
    ]  # fmt: skip


def test_questions_sent_while_the_agent_worked_are_asked_in_the_order_they_were_sent(terminal):
    terminal.watcher.queued += ["first", "second", "third"]
    assert [terminal.read_input() for _ in range(3)] == ["first", "second", "third"]
    assert screen(terminal).splitlines() == ["❯ first", "❯ second", "❯ third"]


class _Stream(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("stdin", "stdout", "term"),
    [(False, True, "xterm"), (True, False, "xterm"), (True, True, "dumb"), (True, True, None)],
    ids=["input-piped", "output-piped", "dumb-terminal", "no-TERM"],
)
def test_plain_text_unless_both_ends_are_a_terminal_that_is_not_dumb(project, monkeypatch, stdin, stdout, term):
    streams = _Stream(stdin), _Stream(stdout), _Stream(False)
    monkeypatch.setattr("sys.stdin", streams[0])
    monkeypatch.setattr("sys.stdout", streams[1])
    monkeypatch.setattr("sys.stderr", streams[2])
    if term is None:
        monkeypatch.delenv("TERM", raising=False)
    else:
        monkeypatch.setenv("TERM", term)
    ui = make_ui(project, project / ".narnat", {})
    assert isinstance(ui, PlainUI) and (ui.inp, ui.out, ui.err) == streams
