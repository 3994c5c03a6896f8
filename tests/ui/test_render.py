"""Formatters on a fixed-width recorded console."""

import io

import pytest
from rich.console import Console

from narnat_agent.core.turn import TurnStats
from narnat_agent.tools.base import Output
from narnat_agent.tools.files.diffs import compact_diff
from narnat_agent.ui import render
from tests.ui.test_colours import DARK, LIGHT, contrast
from tests.ui.test_colours import cells as ansi_cells


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


def styled(renderable, width=80) -> str:
    """What the console draws, each run of one style marked [style]…[/] (no mark: the terminal's own colour)."""
    console = Console(file=io.StringIO(), width=width, color_system=None)
    runs: list[list[str]] = []
    for segment in console.render(renderable):
        style = str(segment.style or "").replace("none", "")
        if runs and runs[-1][1] == style:
            runs[-1][0] += segment.text
        elif segment.text:
            runs.append([segment.text, style])
    return "".join(f"[{style}]{text}[/]" if style else text for text, style in runs).rstrip("\n")


def test_a_tool_line_marks_its_bullet_name_note_and_origin_apart():
    line = styled(render.header("Bash(make\n  test)", 80, " · recovered from Qwen text"))
    assert line == "[green]● [/][bold]Bash(make[/][magenta] +1 line[/][bold])[/][dim] · recovered from Qwen text[/]"
    assert styled(render.header("TodoWrite", 80, " · recovered from Qwen text")) == (
        "[green]● [/][bold]TodoWrite[/][dim] · recovered from Qwen text[/]"
    )


def test_a_result_is_red_only_when_it_failed_on_every_line_it_wraps_to():
    assert styled(render.result("3 lines changed", False)) == "[dim]  ⎿  [/]3 lines changed"
    failed = styled(render.result("the user declined to run it: ask what they want", True), 30).splitlines()
    assert failed == ["[dim]  ⎿  [/][red]the user declined to run[/]", "     [red]it: ask what they want[/]"]
    cut = styled(render.result("exit 1", True, Output(("x",), 9, 4)))
    assert cut == "[dim]  ⎿  [/][red]exit 1[/][magenta] (4 shown to the model)[/]"


def test_a_failed_commands_last_lines_are_red_and_one_line_above_is_counted():
    output = Output(("a", "b", "c", "d"), 4, 4)
    assert styled(render.output_tail(output, failed=False)).splitlines() == [
        "[dim]     … +1 line above[/]", "     [dim]b[/]", "     [dim]c[/]", "     [dim]d[/]"
    ]  # fmt: skip
    assert styled(render.output_tail(output, failed=True)).splitlines() == [f"     [dim red]{c}[/]" for c in "abcd"]
    assert render.output_tail(Output(("", " "), 2, 2), failed=True) is None


def test_a_diff_numbers_each_hunk_from_its_header_and_marks_the_gap_between_hunks():
    text = "@@ -10,3 +12,2 @@\n-gone\n-also gone\n kept\n@@ -40 +41,2 @@\n+new\n same"
    assert styled(render.diff(text)).splitlines() == [
        "[red]        10 -gone[/]",
        "[red]        11 -also gone[/]",
        "[dim]        12  kept[/]",
        "[dim]       ⋮[/]",
        "[blue]        41 +new[/]",
        "[dim]        42  same[/]",
    ]


def test_a_diff_one_line_past_the_limit_says_so():
    text = "@@ -1,3 +1,3 @@\n a\n b\n c"
    assert shown(render.diff(text, limit=3)).splitlines() == ["         1  a", "         2  b", "     … +1 line"]
    assert styled(render.diff(text, limit=4)).splitlines()[-1] == "[dim]         3  c[/]"
    assert styled(render.diff(text, limit=2)).splitlines()[-1] == "[dim]     … +2 lines[/]"


def test_the_syntax_errors_an_edit_made_are_red_under_its_diff():
    finding = render.syntax_finding("line 3: invalid syntax\n  x = (")
    assert styled(finding).splitlines() == ["[red]     line 3: invalid syntax[/]", "[red]       x = ([/]"]


def test_each_task_is_styled_by_its_status_and_the_footer_and_rules_are_dim():
    items = [{"content": "Read", "status": "completed"}, {"content": "Fix", "status": "in_progress"},
             {"content": "Test", "status": "pending"}]  # fmt: skip
    assert styled(render.todos(items)).splitlines() == [
        "     ✔ [dim strike]Read[/]", "     ◼ [bold]Fix[/]", "     ◻ Test"
    ]  # fmt: skip
    assert styled(render.footer(TurnStats(started=1.0, ended=2.0))) == "[dim]── ctx 0/0 · sent 0 · out 0 · 1.0s ──[/]"
    assert styled(render.separator("new", 80)).startswith("[dim]── new ───")


def test_a_rule_too_wide_for_the_screen_keeps_three_dashes_after_its_title():
    assert render.separator("a conversation named at length", 20).plain == "── a conversation named at length ───"


@pytest.mark.parametrize(
    ("width", "line"),
    [
        (43, "● Bash(pytest -q tests/test_app.py +1 line)"),  # exactly the width: nothing cut
        (42, "● Bash(pytest -q test… +13 chars, +1 line)"),
    ],
)
def test_a_header_is_cut_only_past_the_width_and_counts_the_chars_and_lines_it_hides(width, line):
    assert shown(render.header("Bash(pytest -q tests/test_app.py\nmake test)", width), 60) == line


def test_a_header_never_claims_a_cut_of_nothing():
    # past the width, but the ten columns a target keeps at least hold it whole
    assert shown(render.header("Bash(make all\nmake test)", 23), 40) == "● Bash(make all +1 line)"


def test_a_header_on_a_narrow_screen_keeps_ten_columns_of_its_target():
    assert shown(render.header("Bash(abcdefghijk)", 12), 40) == "● Bash(abcdefghij… +1 char)"
    assert shown(render.header("Bash(abcdefghijklmnopqrstuvwxyz)", 12), 40) == "● Bash(abcdefghij… +16 chars)"
    assert shown(render.header("Bash(abcdefghijklmnopqrstuvwxyz\nls)", 12), 40) == (
        "● Bash(abcdefghij… +16 chars, +1 line)"
    )


def test_a_hanging_text_wraps_at_ten_columns_at_least():
    assert shown(render.result("abcde fghij", False), 12).splitlines() == ["  ⎿  abcde", "     fghij"]


@pytest.mark.parametrize("palette", [DARK, LIGHT], ids=["dark", "light"])
def test_tool_lines_are_readable_on_light_and_dark_themes(palette):
    console = Console(file=io.StringIO(), width=80, color_system="truecolor", force_terminal=True, record=True)
    for renderable in (
        render.header("Bash(make\n  test)", 80, " · recovered from Qwen text"),
        render.result("exit 1", True, Output(("x",), 9, 4)),
        render.output_tail(Output(("ok", "FAILED"), 2, 2), failed=True),
        render.diff("@@ -1,2 +1,2 @@\n-old\n+new\n same"),
        render.syntax_finding("line 1: invalid syntax"),
        render.todos([{"content": "Fix", "status": "in_progress"}]),
        render.footer(TurnStats(started=1.0, ended=2.0)),
    ):
        console.print(renderable)
    for cell in ansi_cells(console.export_text(styles=True)):
        fg = palette["default" if cell.fg == "default" else cell.fg]
        assert cell.data == "●" or contrast(fg, palette["background"]) >= 3, cell  # the bullet is a mark, not text
