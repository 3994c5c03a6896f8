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
