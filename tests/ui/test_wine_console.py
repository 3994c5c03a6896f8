"""The full-screen REPL of the Windows build, in Wine's console: keys in, the screen and files out.

Wine draws a console program on a Unix terminal with escape sequences and reads its keys from it, so the Windows
CPython under Wine runs here on a pseudo-terminal, driven as the POSIX REPL's tests drive theirs. This runs in the
Windows step (`.ci/windows/test`, after the tests marked `windows`, with the Wine prefix ready and this checkout
installed in it); anywhere else it is skipped."""

import io
import json
import os
import sys
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.fake_llm import SSE, chunk, text_reply
from tests.launch import scrubbed_environment

WRUN = Path(__file__).parents[2] / ".ci" / "windows" / "wrun"

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="drives Wine from a POSIX pseudo-terminal"),
    pytest.mark.skipif(
        os.environ.get("NARNAT_WINE_CONSOLE") != "1",
        reason="runs in the Windows step (.ci/windows/test), with the Wine prefix ready and this checkout in it",
    ),
    pytest.mark.slow,
]
WIDTH, HEIGHT = 100, 30


def windows(path: Path) -> str:
    """A Linux path as Wine's Z: drive shows it."""
    return "Z:" + str(path).replace("/", "\\")


def endless(words: int) -> SSE:
    """An answer of `words` words, then more every tenth of a second until the client hangs up: only a stop ends it."""
    chunks = [chunk({"role": "assistant", "content": ""})] + [chunk({"content": f"word{n} "}) for n in range(words)]
    return SSE(chunks, done=False, delay=0.1, trickle=f"data: {json.dumps(chunk({'content': 'more '}))}\n\n")


def screen(transcript: str) -> list[str]:
    """The terminal's lines after the whole session, scrollback included."""
    shown = pyte.HistoryScreen(WIDTH, HEIGHT, history=10_000)
    pyte.ByteStream(shown).feed(transcript.encode())
    rows = [[row[x] for x in range(WIDTH)] for row in shown.history.top]
    rows += [[shown.buffer[y][x] for x in range(WIDTH)] for y in range(HEIGHT)]
    return ["".join(c.data for c in row).rstrip() for row in rows]


def test_the_repl_in_wines_console(project, fake_llm):
    home = project.parent / "home"
    fake_llm.add(text_reply("Hello **there**, streaming works."), endless(40), text_reply("Still here."))
    env = scrubbed_environment()
    env.update(NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url, TERM="xterm-256color")
    # Wine sets USERPROFILE itself: cmd gives Narnat this test's home instead of the prefix's
    command = ["--tty", "-t", "240", "cmd", "/c", f"set USERPROFILE={windows(home)}&& narnat"]
    child = pexpect.spawn(str(WRUN), command, cwd=str(project), env=env, dimensions=(HEIGHT, WIDTH),
                          encoding="utf-8", timeout=90)  # fmt: skip
    child.logfile_read = transcript = io.StringIO()
    try:
        child.expect("❯")
        child.send("say hello\r")
        child.expect("streaming works")
        child.expect("ctx ")  # the footer
        child.expect("❯")

        child.send("write a lot\r")
        child.expect("word30")
        child.send("\x1b")  # ESC: Wine's console gives it as the virtual key alone
        child.expect("Interrupted by user")
        child.expect("❯")

        child.send("and now?\r")
        child.expect("Still here")
        child.expect("❯")

        child.send("/ex")
        child.expect("save and leave")  # /exit's line in the completion menu, shown while typing
        child.send("\t")  # Tab takes it: "/ex" alone is an unknown command, and only /exit leaves
        child.send("\r")
        child.expect("Saved this conversation as")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, transcript.getvalue()[-2000:]

    interrupted = fake_llm.requests[2]["messages"][-2]
    assert interrupted["role"] == "assistant" and interrupted["content"].startswith("word0 word1")
    assert interrupted["content"].endswith("[interrupted by the user]")
    [saved] = (project / ".narnat" / "sessions").glob("*.json")
    assert "Still here." in saved.read_text(encoding="utf-8")

    lines = screen(transcript.getvalue())
    assert lines[0].startswith("narnat ") and "· 127.0.0.1:" in lines[0]  # the start header
    assert lines[1].startswith(windows(project)) and "new conversation" in lines[1]
    assert "Hello there, streaming works." in lines  # the answer drawn as markdown, bold without its stars
    assert any(line.startswith("── ctx ") for line in lines)
    assert "  ⎿  Interrupted by user" in lines
    # Wine leaves a piece of the completion menu on the prompt's row (docs/windows.md): /exit is on it, further on
    assert any(line.endswith("❯ /exit") for line in lines)


# Under Wine's console: the keys read, as the key watcher reads them, until an "x" typed once the ESC before it was
# read; written to a file, as what Wine draws on the terminal is no place to read them from
KEYS = """import json, sys
from prompt_toolkit.input import create_input
from narnat_agent.platform.console import key_ready, read_keys
keyboard = create_input()
print("ready", flush=True)
keys = []
while "x" not in keys and key_ready(keyboard, 60):
    keys += [key.data for key in read_keys(keyboard)]
    print("got keys", flush=True)
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump(keys, out)
"""


def test_one_esc_pressed_in_wines_console_is_one_escape(tmp_path):
    """Wine's console gives an ESC as the virtual key alone, pressed then released: one key, not two."""
    (tmp_path / "keys.py").write_text(KEYS, encoding="utf-8")
    command = ["--tty", "-t", "120", "python", windows(tmp_path / "keys.py"), windows(tmp_path / "keys.json")]
    child = pexpect.spawn(str(WRUN), command, cwd=str(tmp_path), env=scrubbed_environment(),
                          dimensions=(HEIGHT, WIDTH), encoding="utf-8", timeout=90)  # fmt: skip
    try:
        child.expect("ready")
        child.send("\x1b")
        child.expect("got keys")  # apart, or Wine reads ESC x as Alt-x
        child.send("x")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.before
    assert json.loads((tmp_path / "keys.json").read_text(encoding="utf-8")) == ["\x1b", "x"]
