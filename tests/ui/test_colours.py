"""Colours readable on light and dark terminal themes, and none at all under NO_COLOR."""

import io
import subprocess

import pyte
import pytest
from rich.console import Console

from narnat_agent.ui.markdown_stream import THEME, render_lines
from tests.launch import NARNAT, scrubbed_environment

ANSWER = """# Fix

Call `save()` **now** and read [the docs](https://example.com):

```python
@cached
def save(self, path: str = "out.txt") -> int:  # write it
    for n in range(10):
        raise ValueError(f"bad {n!r}") if n > 3 else None
    return 0x1F
```

> quoted

- one
- two

| a | b |
|---|---|
| 1 | 2 |
"""

# Two real palettes, as terminals ship them: the 8 ANSI colours, the default foreground and background.
NAMES = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]
DARK = dict(zip(NAMES, ["000000", "cd3131", "0dbc79", "e5e510", "2472c8", "bc3fbc", "11a8cd", "e5e5e5"], strict=True),
            default="cccccc", background="1e1e1e")  # fmt: skip
LIGHT = dict(zip(NAMES, ["000000", "cd3131", "00bc00", "949800", "0451a5", "bc05bc", "0598bc", "555555"], strict=True),
             default="000000", background="ffffff")  # fmt: skip


def luminance(hex_colour: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(hex_colour[i : i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def cells(ansi: str, width: int = 80):
    screen = pyte.Screen(width, 60)
    pyte.ByteStream(screen).feed(ansi.replace("\n", "\r\n").encode())
    return [screen.buffer[y][x] for y in range(60) for x in range(width) if screen.buffer[y][x].data.strip()]


@pytest.mark.parametrize("palette", [DARK, LIGHT], ids=["dark", "light"])
def test_answer_and_code_are_readable_on_light_and_dark_themes(palette):
    console = Console(file=io.StringIO(), width=80, color_system="truecolor", force_terminal=True, theme=THEME)
    drawn = cells("\n".join(render_lines(ANSWER, console)))
    assert drawn
    for cell in drawn:
        assert cell.bg == "default", cell  # no painted backgrounds: the terminal's own shows through
        assert cell.fg in NAMES or cell.fg == "default", cell  # the terminal's colours, not fixed ones
        fg = palette["default" if cell.fg == "default" else cell.fg]
        assert contrast(fg, palette["background"]) >= 3, cell


@pytest.mark.slow
def test_no_color_gives_no_colour_codes(project, fake_llm):
    import pexpect

    from tests.fake_llm import text_reply

    fake_llm.add(text_reply("Some `code` and **bold**:\n\n```python\nx = 1\n```\n"))
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url,
               TERM="xterm-256color", NO_COLOR="1", PROMPT_TOOLKIT_NO_CPR="1")  # fmt: skip
    child = pexpect.spawn(
        NARNAT[0], NARNAT[1:], cwd=str(project), env=env, dimensions=(30, 100), encoding="utf-8", timeout=20
    )
    try:
        child.expect("❯")
        child.send("go\r")
        child.expect("x = 1")
        child.expect("ctx ")
        child.expect("❯")
        seen = child.before
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    import re

    colours = re.findall(r"\x1b\[([0-9;]*)m", seen)
    assert not [c for c in colours if re.search(r"(^|;)(3[0-7]|38|9[0-7]|4[0-7]|48)(;|$)", c)], colours


@pytest.mark.slow
def test_plain_output_has_no_escape_codes(project, fake_llm):
    from tests.fake_llm import text_reply

    fake_llm.add(text_reply("Some **bold** answer"))
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url)
    done = subprocess.run([*NARNAT, "-p", "go"], cwd=project, env=env, capture_output=True, text=True, timeout=60)
    assert "bold" in done.stdout and "\x1b" not in done.stdout + done.stderr
