"""Formatters on a fixed-width recorded console."""

import io
import time

import pytest
from rich.console import Console

from narnat_agent.core.turn import TurnStats
from narnat_agent.tools.support.diffs import compact_diff
from narnat_agent.tools.workspace import Output
from narnat_agent.ui import render


def shown(renderable, width=80) -> str:
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text(styles=False).rstrip("\n")


def test_tool_header_and_result_lines():
    assert shown(render.header("Edit(src/app.py)", 80)) == "● Edit(src/app.py)"
    assert shown(render.result("3 lines changed", False)) == "  ⎿  3 lines changed"
    line = render.result("exit 1 · 40 lines", True)
    assert shown(line) == "  ⎿  exit 1 · 40 lines" and any("red" in str(s.style) for s in line.spans)


@pytest.mark.parametrize("width", [30, 40])
def test_long_and_wide_headers_are_cut_by_display_width(width):
    text = shown(render.header("Bash(" + "构建" * 40 + ")", width), width)
    assert text.endswith("…") and Console().measure(text).maximum <= width


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


def test_todo_checklist():
    items = [
        {"content": "Read", "activeForm": "Reading", "status": "completed"},
        {"content": "Fix", "activeForm": "Fixing", "status": "in_progress"},
        {"content": "Test", "activeForm": "Testing", "status": "pending"},
    ]
    assert shown(render.todos(items)).splitlines() == ["     ✔ Read", "     ◼ Fix", "     ◻ Test"]


def test_footer_tokens_cost_and_time():
    stats = TurnStats(context_window=128000, context=19800, sent=266700, cached=201300, completion=1200,
                      cost=0.042, session_cost=0.31, started=time.monotonic() - 8.2)  # fmt: skip
    assert shown(render.footer(stats)).replace("\n", "") == (
        "── ctx 19.8k/128.0k · sent 266.7k (201.3k cached) · out 1.2k · 0.0420 · session 0.3100 · 8.2s ──"
    )
    stats.cost, stats.estimated = None, True
    assert shown(render.footer(stats)).startswith("── ctx ~19.8k/128.0k · sent ~266.7k")


def test_failed_command_output_preview():
    assert shown(render.output_preview(Output(("", "", "FAILED test_x", "AssertionError"), 4, 4))).splitlines() == [
        "     FAILED test_x",
        "     AssertionError",
    ]
