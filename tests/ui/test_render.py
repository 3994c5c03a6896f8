"""Formatters on a fixed-width recorded console."""

import io

import pytest
from rich.console import Console

from narnat_agent.core.turn import TurnStats
from narnat_agent.tools.base import Output
from narnat_agent.tools.files.diffs import compact_diff
from narnat_agent.ui import render


def shown(renderable, width=80) -> str:
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text(styles=False).rstrip("\n")


def test_tool_header_and_result_lines():
    assert shown(render.header("Edit(src/app.py)", 80)) == "● Edit(src/app.py)"
    assert shown(render.result("3 lines changed", False)) == "  ⎿  3 lines changed"
    line = render.result("exit 1 · 40 lines", True)
    assert shown(line) == "  ⎿  exit 1 · 40 lines" and line.body.style == "red"


@pytest.mark.parametrize("width", [30, 40, 80])
def test_long_and_wide_headers_are_cut_visibly_by_display_width(width):
    text = shown(render.header("Bash(" + "构建" * 40 + ")", width), width)
    assert "…" in text and Console().measure(text).maximum <= width
    kept = text.split("(", 1)[1].split("…")[0]
    assert text.endswith(f" +{80 - len(kept)} chars)")


@pytest.mark.parametrize("width", [40, 80, 120])
def test_a_long_command_shows_its_first_line_and_how_much_more_there_is(width):
    command = "git stash push -m wip && pytest -q tests/test_app.py -k 'save and not slow' && git stash pop"
    text = shown(render.header(f"Bash({command}\ngit status\ngit diff)", width), width)
    assert text.startswith("● Bash(git stash p") and text.endswith("+2 lines)")
    assert Console().measure(text).maximum <= width
    if width < 110:
        hidden = int(text.split("… +")[1].split(" chars")[0])
        assert text.split("(", 1)[1].split("…")[0] + command[-hidden:] == command
    else:
        assert command in text


def test_wrapped_results_continue_under_the_result_text():
    text = shown(render.result("the user declined to run it (rm deletes files: build). Do not delete these files "
                               "another way; ask the user what they want.", True), 50)  # fmt: skip
    lines = text.splitlines()
    assert lines[0].startswith("  ⎿  the user") and len(lines) > 1
    assert all(line.startswith("     ") and line[5] != " " for line in lines[1:])


@pytest.mark.parametrize("width", [40, 80])
def test_command_output_shows_its_last_lines_and_what_the_model_saw(width):
    output = Output(tuple(f"line {n}" for n in range(785, 793)) + ("FAILED test_x - AssertionError",), 793, 328)
    text = shown(render.result("exit 1 · 793 lines", True, output), width)
    assert text.replace("\n     ", " ") == "  ⎿  exit 1 · 793 lines (328 shown to the model)"
    tail = shown(render.output_tail(output, failed=True), width).splitlines()
    assert tail[0] == "     … +787 lines above"
    assert tail[1:] == [f"     line {n}" for n in range(788, 793)] + ["     FAILED test_x - AssertionError"]
    ok = shown(render.output_tail(Output(("a", "b", "c", "d", ""), 5, 5), failed=False), width).splitlines()
    assert ok == ["     … +2 lines above", "     b", "     c", "     d"]
    assert shown(render.result("exit 0 · 5 lines", False, Output(("x",), 5, 5))) == "  ⎿  exit 0 · 5 lines"


def test_long_output_lines_wrap_under_the_output():
    text = shown(render.output_tail(Output(("x" * 100,), 1, 1), failed=True), 40).splitlines()
    assert len(text) == 3 and all(line.startswith("     x") for line in text)


def test_diff_has_line_numbers_markers_and_folds_long_changes():
    before = "".join(f"line {n}\n" for n in range(1, 11))
    after = before.replace("line 5\n", "line five\nline 5b\n")
    text = shown(render.diff(compact_diff(before, after, "f.py")[0]))
    assert text.splitlines() == [
        "         4  line 4",
        "         5 -line 5",
        "         5 +line five",
        "         6 +line 5b",
        "         7  line 6",
    ]
    many = compact_diff("", "".join(f"row {n}\n" for n in range(100)), "f.py")[0]
    assert shown(render.diff(many)).splitlines()[-1] == "     … +61 lines"


def test_todo_checklist_wraps_under_each_task():
    items = [
        {"content": "Read", "activeForm": "Reading", "status": "completed"},
        {"content": "Fix", "activeForm": "Fixing", "status": "in_progress"},
        {"content": "Test", "activeForm": "Testing", "status": "pending"},
    ]
    assert shown(render.todos(items)).splitlines() == ["     ✔ Read", "     ◼ Fix", "     ◻ Test"]
    long = [{"content": "Fix the failing save test " * 3, "activeForm": "Fixing", "status": "pending"}]
    second = shown(render.todos(long), 40).splitlines()[1]
    assert second.startswith("       ") and second[7] != " "


def test_footer_shows_the_context_against_the_window_and_the_turns_totals():
    stats = TurnStats(
        context=19800,
        context_window=128000,
        sent=266725,
        cached=250100,
        completion=1200,
        requests=17,
        estimated=False,
        cost=0.042,
        session_cost=0.31,
        started=1000.0,
        ended=1013.2,
    )
    assert shown(render.footer(stats), 120) == (
        "── ctx 19.8k/128k · sent 266.7k (250.1k cached) · out 1.2k · 17 requests · cost 0.0420 (session 0.3100)"
        " · 13.2s ──"
    )
    stats.cost, stats.estimated, stats.requests, stats.cached = None, True, 1, 0
    assert shown(render.footer(stats)) == "── ctx ~19.8k/128k · sent ~266.7k · out ~1.2k · 13.2s ──"


@pytest.mark.parametrize("width", [30, 80])
def test_separator_spans_the_width(width):
    text = shown(render.separator("new conversation", width), width)
    assert text.startswith("── new conversation ──") and Console().measure(text).maximum == width
