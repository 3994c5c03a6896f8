"""The streaming renderer fed token by token ends with exactly the screen of a one-shot render."""

import io

import pyte
import pytest
from rich.console import Console
from rich.live import Live
from rich.text import Text

from narnat_agent.ui.markdown_stream import MarkdownStream, render_lines

DOCS = {
    "mixed": "# Plan\n\nHere is **the plan** for `app.py`:\n\n1. Read the file\n2. Fix the bug\n\n```python\n"
    "def hello():\n    return 'hi'\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nDone — 中文也可以。\n",
    "list_first": "- one\n- two\n\nA paragraph after.\n\n1. a\n2. b\n",
    "heading_without_gap": "# Title\nText right after the heading.\n## Sub\nMore text\n",
    "quote_and_rule": "> quoted line\n> more\n\n---\n\nAfter the rule.\n",
    "unclosed_fence": "Intro\n\n```js\nconst a = 1;\nconst b = 2;\n",
    "long_paragraph": " ".join(["word"] * 150) + "\n\nEnd.\n",
    "long_code": "```\n" + "\n".join(f"line {i}" for i in range(40)) + "\n```\n\nafter\n",
    "loose_list": "- a\n- b\n\n- c\n\nTail\n",
    "cjk": "中文段落，测试宽字符。" * 20 + "\n\n- 项目一\n- 项目二\n",
    "bold_split": "Some **bold text** and *emphasis* over `code` spans.\n\nNext.\n",
}


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 0.1
        return self.now


def screen_lines(data: str, width: int, height: int) -> list[str]:
    screen = pyte.HistoryScreen(width, height, history=100_000)
    pyte.ByteStream(screen).feed(data.replace("\n", "\r\n").encode())
    lines = [
        "".join(screen.buffer[y][x].data for x in range(width)) if isinstance(y, int) else y for y in range(height)
    ]
    history = ["".join(c.data for c in row.values()) for row in screen.history.top]
    shown = [line.rstrip() for line in history + lines]
    while shown and not shown[-1]:  # empty rows below the content: where the live region was
        shown.pop()
    return shown


def terminal(width: int, height: int) -> Console:
    return Console(file=io.StringIO(), width=width, height=height, force_terminal=True, color_system="truecolor",
                   legacy_windows=False, _environ={})  # fmt: skip


def streamed(source: str, width: int, height: int, step: int) -> str:
    console = terminal(width, height)
    live = Live(console=console, transient=True, auto_refresh=False, vertical_overflow="crop")
    live.start()

    def show(renderable):
        live.update(renderable if renderable is not None else "", refresh=True)

    stream = MarkdownStream(
        console, lambda lines: console.print(Text.from_ansi("\n".join(lines)), soft_wrap=True), show, clock=Clock()
    )
    for i in range(0, len(source), step):
        stream.feed(source[i : i + step])
    stream.finish()
    live.stop()
    return console.file.getvalue()


def one_shot(source: str, width: int, height: int) -> str:
    console = terminal(width, height)
    console.print(Text.from_ansi("\n".join(render_lines(source, console))), soft_wrap=True)
    return console.file.getvalue()


@pytest.mark.parametrize("name", sorted(DOCS))
@pytest.mark.parametrize(("width", "height"), [(80, 24), (40, 20)])
def test_token_by_token_screen_equals_one_shot(name, width, height):
    source = DOCS[name]
    want = [line for line in screen_lines(one_shot(source, width, height), width, height)]
    for step in (3, 11, 40):
        got = screen_lines(streamed(source, width, height, step), width, height)
        assert got == want, (name, step)


def test_rendered_lines_copy_cleanly():
    console = terminal(60, 20)
    lines = render_lines("Para\n\n```python\nx = 1\n    y = 2\n```\n", console)
    plain = [Text.from_ansi(line).plain for line in lines]
    assert "x = 1" in plain and "    y = 2" in plain
    assert not any(line.endswith(" ") for line in plain)


def flooded(source: str, cancel: bool = False) -> str:
    """An answer that arrives faster than it is drawn: every piece within one frame."""
    console = terminal(80, 24)
    stream = MarkdownStream(console, lambda lines: console.print(Text.from_ansi("\n".join(lines)), soft_wrap=True),
                            lambda renderable: None, clock=lambda: 0.0)  # fmt: skip
    for i in range(0, len(source), 500):
        stream.feed(source[i : i + 500])
    stream.finish(cancelled=cancel)
    return console.file.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["paragraphs", "one line", "one code block"])
def test_a_huge_answer_is_drawn_once_as_plain_text_past_the_limit(kind):
    source = {"paragraphs": "Some **bold** words here.\n\n" * 40_000, "one line": "word " * 200_000,
              "one code block": "```python\n" + "x = 1\n" * 150_000 + "```\n"}[kind]  # fmt: skip
    shown = flooded(source)
    plain = Text.from_ansi(shown).plain
    assert len(shown) < 1.2 * len(source)  # nothing drawn twice: the cost follows the answer's size
    assert plain.rstrip().endswith(source.rstrip()[-100_000:])  # the rest as the model wrote it


def test_after_a_cancel_a_flood_is_counted_not_drawn():
    shown = Text.from_ansi(flooded("Some words here.\n\n" * 100_000, cancel=True)).plain
    assert shown.strip() == "… 1,800,000 more characters of the interrupted answer are not shown"


def test_plain_text_cannot_drive_the_terminal():
    shown = flooded("x" * 20_000 + "\x1b[2J\x1b]0;title\x07 done\n")
    assert "\x1b[2J" not in shown and "\x07" not in shown and "done" in shown


class Recorded:
    """A stream on a terminal of the given size whose clock moves `tick` seconds at each reading; what it printed
    as markdown (each line's text), printed as plain text, and showed in the live region, in order."""

    def __init__(self, width: int = 40, height: int = 24, tick: float = 1.0) -> None:
        self.console = Console(file=io.StringIO(), width=width, height=height, force_terminal=True,
                               color_system=None, legacy_windows=False, _environ={})  # fmt: skip
        self.events: list[tuple[str, object]] = []
        self.now, self.tick = 0.0, tick
        self.stream = MarkdownStream(self.console, self.emit, self.show, clock=self.clock, emit_plain=self.plain)

    def clock(self) -> float:
        self.now += self.tick
        return self.now

    def emit(self, lines: list[str]) -> None:
        self.events.append(("emit", [Text.from_ansi(line).plain for line in lines]))

    def plain(self, text: str) -> None:
        self.events.append(("plain", text))

    def show(self, renderable: Text | None) -> None:
        self.events.append(("show", None if renderable is None else renderable.plain))

    def run(self, *pieces: str, cancelled: bool = False) -> list[tuple[str, object]]:
        for piece in pieces:
            self.stream.feed(piece)
        self.stream.finish(cancelled)
        return self.events


def test_a_code_block_taller_than_a_short_screen_scrolls_out_a_line_at_a_time():
    # 6 rows: the live region keeps 3 (the prompt and the status line need the others)
    assert Recorded(height=6).run("Intro\n\n```\n", "l1\nl2\n", "l3\nl4\nl5\n", "l6\n") == [
        ("emit", ["Intro"]),
        ("show", "\n"),
        ("show", "\nl1\nl2"),
        ("emit", ["", "l1", "l2"]),
        ("show", "l3\nl4\nl5"),
        ("emit", ["l3"]),
        ("show", "l4\nl5\nl6"),
        ("emit", ["l4", "l5", "l6"]),
        ("show", None),
    ]


def test_the_live_region_holds_six_lines_on_a_tall_screen():
    code = "".join(f"l{n}\n" for n in range(1, 9))
    assert Recorded(height=24).run("```\n", code) == [
        ("show", ""),
        ("emit", ["l1", "l2"]),
        ("show", "l3\nl4\nl5\nl6\nl7\nl8"),
        ("emit", ["l3", "l4", "l5", "l6", "l7", "l8"]),
        ("show", None),
    ]


def test_a_table_taller_than_the_screen_is_printed_only_once_closed():
    rows = "".join(f"| {n} |\n" for n in range(8))
    events = Recorded(height=6).run("| a |\n|---|\n", rows)
    assert [kind for kind, _ in events] == ["show", "show", "emit", "show"]  # a table's rows are not final early
    assert events[1][1].count("\n") == 2  # the last three rows it has so far


def test_pieces_within_one_frame_are_drawn_together():
    assert Recorded(tick=0.05).run("One ", "two ", "three", "\n\nNext") == [
        ("show", "One two"),
        ("emit", ["One two three"]),
        ("show", "\nNext"),
        ("emit", ["", "Next"]),
        ("show", None),
    ]


def test_past_the_limit_the_answer_goes_on_as_plain_text_after_the_last_whole_line():
    source = "".join(f"line {n:04}\n\n" for n in range(1500))  # 16,500 characters: past HUGE at once
    events = Recorded().run(source + "tail")
    (first, markdown), (second, plain), *rest = events
    assert first == "emit" and markdown == [line for n in range(1454) for line in (f"line {n:04}", "")][:-1]
    assert second == "plain" and plain == "".join(f"line {n:04}\n\n" for n in range(1454, 1500))[:-1]
    assert rest == [("show", "tail"), ("plain", "tail"), ("show", None), ("show", None)]


def test_one_huge_paragraph_goes_on_as_plain_text_from_a_word_end():
    events = Recorded().run("word " * 4000)
    (first, markdown), (second, plain), *rest = events
    assert first == "emit" and markdown == ["word " * 7 + "word"] * 400  # 16,000 characters at 40 columns
    assert second == "plain" and plain == "word " * 792  # none printed twice, none lost
    assert rest == [("show", "word " * 8), ("plain", "word " * 8), ("show", None), ("show", None)]


def test_a_plain_line_longer_than_the_live_region_is_printed_in_pieces():
    # no line end and no space in the first 16,000 characters: plain text from the start
    assert Recorded(width=40).run("x" * 16_001 + "\n" + "y" * 300, "z" * 10) == [
        ("plain", "x" * 16_001 + "\n" + "y" * 260),  # past the six lines of the live region: all but its last line
        ("show", "y" * 40),
        ("show", "y" * 40 + "z" * 10),
        ("plain", "y" * 40 + "z" * 10),
        ("show", None),
        ("show", None),
    ]


@pytest.mark.parametrize(("waiting", "counted"), [(16_000, False), (16_001, True)])
def test_after_a_cancel_only_what_is_past_the_limit_is_counted(waiting, counted):
    events = Recorded(tick=0.0).run("a" * waiting, cancelled=True)  # the clock never moves: nothing drawn before
    said = f"… {waiting:,} more characters of the interrupted answer are not shown"
    assert (events[0] == ("emit", [said])) is counted


def test_markdown_is_drawn_at_the_consoles_width_in_its_colours_with_code_as_written():
    source = (
        "# Title\n\nSee [docs](https://x.y) and `code`.\n\n"
        "```python\n    def f(): return 1  # a long comment that wraps\n```\n"
    )
    colours = Console(file=io.StringIO(), width=30, color_system="standard", force_terminal=True, _environ={})
    assert render_lines(source, colours) == [
        "\x1b[1;4mTitle\x1b[0m",  # at the left, not centred; no link escapes (OSC 8): they copy badly
        "",
        "See \x1b[34mdocs\x1b[0m (\x1b[4;34mhttps://x.y\x1b[0m) and",
        "\x1b[1;36mcode\x1b[0m.",
        "",
        "\x1b[49m    \x1b[0m\x1b[1;35;49mdef\x1b[0m\x1b[49m \x1b[0m\x1b[1;34;49mf\x1b[0m\x1b[49m(): \x1b[0m"
        "\x1b[1;35;49mreturn\x1b[0m\x1b[49m \x1b[0m\x1b[34;49m1\x1b[0m\x1b[49m  \x1b[0m\x1b[2;3;49m# a\x1b[0m",
        "\x1b[2;3;49mlong comment that wraps\x1b[0m",  # wrapped, not cut; the terminal's own background
    ]
    no_colour = Console(file=io.StringIO(), width=30, color_system="standard", no_color=True, _environ={})
    assert render_lines(source, no_colour)[2:4] == ["See docs (\x1b[4mhttps://x.y\x1b[0m) and", "\x1b[1mcode\x1b[0m."]


def test_plain_text_is_printed_line_by_line_where_no_other_printer_is_given():
    printed: list[list[str]] = []
    stream = MarkdownStream(terminal(40, 24), printed.append, lambda renderable: None, clock=lambda: 0.0)
    stream.feed("x" * 16_001 + "\nsome  words\ttabbed\n")
    stream.finish()
    assert printed == [["x" * 16_001, "some  words\ttabbed"]]


def shapes(events: list[tuple[str, object]]) -> list[tuple[str, object]]:
    """Events with long texts as their start and length, and long listings as their length."""
    return [(kind, f"{what[:6]}…{len(what)}" if isinstance(what, str) and len(what) > 60 else
             len(what) if isinstance(what, list) and len(what) > 8 else what) for kind, what in events]  # fmt: skip


def test_a_one_line_live_region_on_a_tiny_screen():
    assert Recorded(height=4).run("```\n", "l1\nl2\n", "l3\n") == [
        ("show", ""), ("emit", ["l1"]), ("show", "l2"), ("emit", ["l2"]), ("show", "l3"), ("emit", ["l3"]),
        ("show", None),
    ]  # fmt: skip


def test_every_block_but_the_last_is_printed_at_once():
    assert Recorded().run("A\n\nB\n\nC") == [("emit", ["A", "", "B"]), ("show", "\nC"), ("emit", ["", "C"]),
                                             ("show", None)]  # fmt: skip


def test_exactly_the_limit_waiting_is_still_drawn_as_markdown():
    assert shapes(Recorded().run("a" * 16_000)) == [
        ("emit", 394), ("show", "aaaaaa…245"), ("emit", ["a" * 40] * 6), ("show", None)
    ]  # fmt: skip


def test_what_was_printed_before_does_not_count_towards_the_limit():
    first = "A" * 9000 + "\n\nB"
    events = Recorded().run(first, "B" * 7999, cancelled=True)  # 9,000 printed, then 8,000 waiting: still markdown
    assert shapes(events) == [
        ("emit", 225), ("show", "\nB"), ("emit", 195), ("show", "BBBBBB…245"), ("emit", ["B" * 40] * 6), ("show", None)
    ]  # fmt: skip


def test_plain_text_that_ends_its_line_leaves_the_live_region_empty():
    assert shapes(Recorded().run("x" * 16_001 + "\nline\n")) == [
        ("plain", "xxxxxx…16006"), ("show", None), ("show", None), ("show", None)
    ]  # fmt: skip


def test_a_partial_plain_line_exactly_as_long_as_the_live_region_waits_in_it():
    events = Recorded().run("x" * 16_001 + "\n", "y" * 240)
    assert events[1:3] == [("show", None), ("show", "y" * 240)]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("\n" + "word " * 4000, [("emit", 400), ("plain", "word w…3965"), ("show", "word " * 8)]),  # a blank first
        ("a\n" + "word " * 4000, [("emit", ["a"]), ("plain", "word w…19960"), ("show", "word " * 8)]),
        (" " + "x" * 16_001, [("plain", " xxxxx…15962"), ("show", "x" * 40)]),  # no character lost
    ],
)
def test_the_markdown_ends_at_the_last_line_end_or_space_before_the_limit(source, expected):
    assert shapes(Recorded().run(source))[: len(expected)] == expected


def test_the_first_piece_is_drawn_one_frame_after_the_stream_began():
    recorded = Recorded(tick=0.08)
    recorded.stream.feed("Hello")
    assert recorded.events == [("show", "Hello")]
