"""The plain UI in process: what a pipe, a dumb terminal or a headless run shows, stream by stream."""

import io

import pytest

from narnat_agent.core.turn import Stop, TurnOutcome, TurnStats
from narnat_agent.i18n import Said
from narnat_agent.provider.reply import ToolCall
from narnat_agent.tools.base import Diff, Output, Result, Todos
from narnat_agent.tools.verification import Verification
from narnat_agent.ui.plain import PlainUI, QuietSink, footer, is_yes, plain_title, tokens


class Plain:
    """A plain UI over buffers, with the moments it asked about recorded and the interrupt pressed at `stop_at`."""

    def __init__(self, answers: str = "", stop_at: str = "") -> None:
        self.out, self.err, self.asked = io.StringIO(), io.StringIO(), []
        self.ui = PlainUI(self.out, self.err, io.StringIO(answers), self.interrupts)
        self.stop_at = stop_at

    def interrupts(self, moment: str) -> bool:
        self.asked.append(moment)
        return moment == self.stop_at


def stats(**figures) -> TurnStats:
    return TurnStats(**{"context": 1200, "context_window": 8000, "sent": 3000, "completion": 40, "requests": 1,
                        "started": 100.0, "ended": 102.25} | figures)  # fmt: skip


@pytest.mark.parametrize(
    ("n", "shown"),
    [(0, "0"), (999, "999"), (1000, "1k"), (1234, "1.2k"), (1250, "1.2k"), (128_000, "128k"), (999_999, "1000k"),
     (1_000_000, "1M"), (1_500_000, "1.5M"), (12_340_000, "12.3M")],
)  # fmt: skip
def test_token_counts_read_at_a_glance(n, shown):
    assert tokens(n) == shown


def test_the_footer_of_a_one_request_turn_says_only_what_it_spent():
    assert footer(stats()) == "ctx 1.2k/8k · sent 3k · out 40 · 2.2s"


def test_the_footer_names_every_figure_a_turn_has():
    turn = stats(cached=2000, requests=2, cost=0.0123, session_cost=0.5, model="glm-4.6", model_from=3)
    turn.verified(Verification("pytest", 1))
    turn.verified(Verification("ruff", 0))
    turn.verified(Verification("pytest", 0))
    turn.check = Verification("make check", 2)
    turn.unproven = Verification("make check", 2)
    assert footer(turn) == (
        "ctx 1.2k/8k · sent 3k (2k cached) · out 40 · 2 requests · cost 0.0123 (session 0.5000) · glm-4.6 from turn 3"
        " · 2.2s · ruff: passed · pytest: passed · goal check make check: failed (exit 2)"
        " · ⚠ the answer claims success, but make check: failed (exit 2)"
    )


def test_estimated_figures_are_marked_and_a_free_turn_still_shows_its_cost():
    turn = stats(estimated=True, cost=0.0)
    assert footer(turn) == "ctx ~1.2k/8k · sent ~3k · out ~40 · cost 0.0000 (session 0.0000) · 2.2s"


@pytest.mark.parametrize(
    ("title", "shown"),
    [
        ("Read(src/app.py)", "Read(src/app.py)"),
        ("Bash(make\n  test\n  lint)", "Bash(make … +2 lines)"),
        ("Bash(cd a &&\nmake)", "Bash(cd a && … +1 line)"),
        ("Bash(echo (a))", "Bash(echo (a))"),
        ("Bash(ls\necho (a))", "Bash(ls … +1 line)"),
        ("TodoWrite", "TodoWrite"),
        ("Bash(unclosed", "Bash(unclosed)"),
    ],
)
def test_a_tool_header_shows_its_first_line_and_how_many_follow(title, shown):
    assert plain_title(title) == shown


@pytest.mark.parametrize(("answer", "yes"), [("y\n", True), (" Yes \n", True), ("是\n", True), ("n\n", False),
                                             ("\n", False), ("yess\n", False), ("", False)])  # fmt: skip
def test_only_a_yes_in_a_language_narnat_speaks_is_yes(answer, yes):
    assert is_yes(answer) is yes


def test_the_answer_streams_to_out_and_a_line_is_ended_before_the_footer():
    plain = Plain()
    view = plain.ui.turn_view()
    view.feed("Done: \x1b]52;c;aGk=\x07")
    view.feed("saved")
    view.finish(TurnOutcome(Stop.COMPLETED, stats=stats()))
    assert plain.out.getvalue() == "Done: ␛]52;c;aGk=␇saved\n"
    assert plain.err.getvalue() == "  ctx 1.2k/8k · sent 3k · out 40 · 2.2s\n"
    assert plain.asked == ["text", "text"]


def test_an_answer_ending_its_line_gets_no_blank_line_and_a_cancel_is_said():
    plain = Plain()
    view = plain.ui.turn_view()
    view.feed("one\n")
    view.end_block()
    view.finish(TurnOutcome(Stop.CANCELLED, stats=stats()))
    assert plain.out.getvalue() == "one\n"
    assert plain.err.getvalue() == "! Cancelled.\n  ctx 1.2k/8k · sent 3k · out 40 · 2.2s\n"


def test_a_stopped_turn_is_not_said_to_be_cancelled():
    plain = Plain()
    plain.ui.turn_view().finish(TurnOutcome(Stop.STEP_LIMIT, stats=stats()))
    assert plain.err.getvalue() == "  ctx 1.2k/8k · sent 3k · out 40 · 2.2s\n"
    assert plain.out.getvalue() == ""  # no answer: no line to end


def test_the_interrupt_key_stops_the_answer_where_it_was_pressed():
    plain = Plain(stop_at="text")
    view = plain.ui.turn_view()
    assert not view.cancelled
    view.feed("Hel")
    assert view.cancelled


def test_reasoning_streams_behind_the_gutter_and_the_answer_starts_on_a_line_of_its_own():
    plain = Plain()
    view = plain.ui.turn_view()
    view.feed_reasoning("Look at\nthe te")
    view.feed_reasoning("sts\x1b[2J first\n")
    view.feed_reasoning("Then")
    view.feed("Fixed.")
    assert plain.err.getvalue() == "│ Look at\n│ the tests␛[2J first\n│ Then\n"
    assert plain.out.getvalue() == "Fixed."


def test_a_line_said_after_reasoning_starts_on_a_line_of_its_own_and_only_once():
    plain = Plain()
    plain.ui.reason("thinking")
    plain.ui.notice("Saved.")
    plain.ui.end_reasoning()
    plain.ui.warning("Slow.")
    assert plain.err.getvalue() == "│ thinking\n! Saved.\n⚠ Slow.\n"


def test_a_tool_line_ends_the_answers_line_and_names_a_call_recovered_from_text():
    plain = Plain()
    view = plain.ui.turn_view()
    view.feed("Reading")
    call = ToolCall("c1", "Bash", "{}", recovered="Qwen")
    plain.ui.tool_start("Bash(make\ntest)", call)
    plain.ui.tool_start(Said("Read({path})", path="a.py"), ToolCall("c2", "Read", "{}"))
    assert plain.out.getvalue() == "Reading\n"
    assert plain.err.getvalue() == "● Bash(make … +1 line) · recovered from Qwen text\n● Read(a.py)\n"
    assert plain.asked == ["text", "tool", "tool"]


def test_the_interrupt_key_before_a_tool_stops_the_turn_as_ctrl_c_does():
    plain = Plain(stop_at="tool")
    with pytest.raises(KeyboardInterrupt):
        plain.ui.tool_start("Read(a.py)", ToolCall("c1", "Read", "{}"))
    assert plain.err.getvalue() == ""


def test_a_tool_line_before_any_answer_needs_no_stream():
    plain = Plain()
    plain.ui.tool_start("Read(a.py)", ToolCall("c1", "Read", "{}"))
    assert plain.err.getvalue() == "● Read(a.py)\n" and plain.out.getvalue() == ""


def test_results_say_errors_what_the_model_saw_todos_and_syntax_errors():
    plain = Plain()
    plain.ui.tool_end(Result("…", "exit 1", is_error=True, detail=Output(("x",), lines=500, shown_lines=328)))
    plain.ui.tool_end(Result("…", "12 lines", detail=Output(("x",), lines=12, shown_lines=12)))
    todos = ({"content": "Read", "status": "completed"}, {"content": "Fix", "status": "in_progress"},
             {"content": "Test", "status": "pending"})  # fmt: skip
    plain.ui.tool_end(Result("…", "3 tasks", detail=Todos(todos)))
    plain.ui.tool_end(Result("…", "1 line changed", detail=Diff("@@", "line 2: invalid syntax\n  x = (")))
    plain.ui.tool_end(Result("…", "2 lines changed", detail=Diff("@@")))
    assert plain.err.getvalue() == (
        "  ⎿ Error: exit 1 (328 shown to the model)\n"
        "  ⎿ 12 lines\n"
        "  ⎿ 3 tasks\n    ✔ Read\n    ◼ Fix\n    ◻ Test\n"
        "  ⎿ 1 line changed\n    line 2: invalid syntax\n      x = (\n"
        "  ⎿ 2 lines changed\n"
    )


def test_what_the_user_asked_for_goes_to_out_and_the_rest_to_err():
    plain = Plain()
    plain.ui.info("listing")
    plain.ui.review("a.py", "-old\n+new")
    plain.ui.review("b.py", "")
    plain.ui.error("No key.")
    plain.ui.separator("new")
    plain.ui.banner("m", ["narnat 1", "project"])
    plain.ui.delivered("and the docs")
    plain.ui.give_back("fix it")
    assert plain.out.getvalue() == "listing\na.py\n-old\n+new\nb.py\n"
    assert plain.err.getvalue() == (
        "✗ No key.\n── new ──\nnarnat 1\nproject\n❯ and the docs · delivered while the agent worked\n"
        "! Your question, to edit and send again:\nfix it\n"
    )


def test_a_table_lines_up_every_column_but_the_last():
    plain = Plain()
    plain.ui.table(["name", "turns", "question"], [["fix", "3", "why"], ["a-long-name", "12", "x"]])
    assert plain.out.getvalue() == "name         turns  question\nfix          3      why\na-long-name  12     x\n"


def test_the_prompt_reads_a_line_and_says_when_input_ends():
    plain = Plain("first  \nrename to X\nsecond")
    asked = [plain.ui.read_input() for _ in range(4)]
    assert asked == ["first  ", "rename to X", "second", None]
    assert plain.out.getvalue() == "> > > > "


def test_an_empty_enter_at_the_prompt_asks_again_and_only_the_end_of_input_ends():
    plain = Plain("\n\nfix it\n")
    assert [plain.ui.read_input() for _ in range(4)] == ["", "", "fix it", None]


class CtrlC(io.StringIO):
    def readline(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_at_the_prompt_clears_the_line_and_asks_again():
    out = io.StringIO()
    assert PlainUI(out, io.StringIO(), CtrlC()).read_input() == ""
    assert out.getvalue() == "> \n"


@pytest.mark.parametrize(("answer", "runs"), [("y\n", True), ("yes\n", True), ("n\n", False), ("\n", False)])
def test_a_deleting_command_runs_only_on_yes(answer, runs):
    plain = Plain(answer)
    assert plain.ui.confirm("rm -rf build\x1b[2J", Said("it deletes {what}", what="build")) is runs
    assert plain.err.getvalue() == "? it deletes build:\n    rm -rf build␛[2J\n  Run it? [y/N] "


def test_a_setup_question_shows_its_default_and_takes_it_for_an_empty_answer():
    plain = Plain("\n  qwen3  \n\n")
    assert plain.ui.ask("Model", "llama") == "llama"
    assert plain.ui.ask("Model", "llama") == "qwen3"
    assert plain.ui.ask("Key", secret=True) == ""
    assert plain.err.getvalue() == "Model [llama]: Model [llama]: Key: "


def test_compression_says_when_it_starts_and_ends_and_watches_the_interrupt_key():
    plain = Plain(stop_at="summary")
    sink = plain.ui.begin_compressing()
    sink.feed_reasoning("x")
    assert not sink.cancelled
    sink.feed("The user")
    plain.ui.end_compressing()
    assert sink.cancelled and plain.asked == ["summary"]
    assert plain.err.getvalue() == (
        "… Compressing the conversation (summarising it for a fresh context)…\n… Compression finished.\n"
    )
    quiet = QuietSink()
    quiet.feed("x")
    assert not quiet.cancelled


def test_a_plain_run_reads_nothing_while_the_agent_works():
    plain = Plain("typed\n")
    assert plain.ui.take_sent(lambda line: True) == []
    assert plain.ui.stop_reading() is False
    assert plain.ui.read_input() == "typed"


class Terminal(io.StringIO):
    """Standard input as a terminal gives it."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def typed_unseen(monkeypatch) -> list[tuple[str, object]]:
    """The key is typed where getpass reads it, from a terminal standing in for the user's: what it was asked."""
    monkeypatch.setattr("sys.stdin", Terminal("shown\n"))
    asked: list[tuple[str, object]] = []
    monkeypatch.setattr("getpass.getpass", lambda prompt, stream: asked.append((prompt, stream)) or "sk-unseen")
    return asked


def test_a_secret_typed_at_a_terminal_is_not_echoed(typed_unseen):
    import sys

    err = io.StringIO()
    ui = PlainUI(io.StringIO(), err, sys.stdin)
    assert ui.ask("API key", secret=True) == "sk-unseen"
    assert typed_unseen == [("", err)] and err.getvalue() == "API key: "
    assert ui.ask("Model", "qwen3") == "shown"  # only a secret is hidden


def test_a_secret_from_a_script_is_read_as_any_answer(typed_unseen):
    assert PlainUI(io.StringIO(), io.StringIO(), io.StringIO("sk-piped\n")).ask("API key", secret=True) == "sk-piped"
    assert typed_unseen == []
