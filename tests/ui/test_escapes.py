"""Terminal sequences in anything a person sees reach the terminal inert, in every output: the full-screen REPL, the
plain REPL, `-p` as text and as JSON. The sources are those a model, a repository or an endpoint controls: the
model's reasoning and answer, a command in a Bash header, a file name in a Read header, a Glob pattern in its error
line, the model names an endpoint lists for /model, and the name of a command file of the user's own."""

import io
import json
import subprocess
import sys

import pexpect
import pyte
import pytest

from narnat_agent.inert import JSON_ESCAPES, inert, without_escapes
from tests.fake_llm import chunk, text_reply, tool_reply
from tests.launch import NARNAT, scrubbed_environment
from tests.ui.test_pty import prompt, screen, text

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

TITLE = "\x1b]0;pwned\x07"  # OSC 0: the window's title
CLIPBOARD = "\x1b]52;c;ZWNobyBwd25lZA==\x07"  # OSC 52: "echo pwned" written to the clipboard
ERASE = "\x9b2J"  # the 8-bit CSI: erase the screen
EVIL = TITLE + CLIPBOARD + ERASE
SHOWN = "␛]0;pwned␇␛]52;c;ZWNobyBwd25lZA==␇\\x9b2J"  # what a person sees instead
SOURCES = {  # what each source looks like on screen, the sequences shown
    "reasoning": f"thinking {SHOWN}",
    "answer": f"done {SHOWN}",
    "Bash header": f"Bash(echo '{SHOWN}'",
    "Read header": f"Read(notes{SHOWN}.txt)",
    "Glob error": f"[{SHOWN}",
}
REPL_SOURCES = {"model list": f"evil-{SHOWN}", "command file": f"x{SHOWN}.md", **SOURCES}


def script(fake_llm) -> None:
    """One turn that brings every source to the screen, and an endpoint whose model list holds the sequences."""
    calls = tool_reply(("Bash", {"command": f"echo '{EVIL}' > /dev/null"}), ("Read", {"file_path": f"notes{EVIL}.txt"}),
                       ("Glob", {"pattern": f"[{EVIL}"}))  # fmt: skip
    calls.chunks.insert(0, chunk({"role": "assistant", "reasoning_content": f"thinking {EVIL}\n"}))
    fake_llm.add(calls, text_reply(f"done {EVIL}"))
    fake_llm.models = ["fake-model", f"evil-{EVIL}"]


def command_file(project) -> None:
    (project / ".narnat" / "commands").mkdir(parents=True)
    (project / ".narnat" / "commands" / f"x{EVIL}.md").write_text("Review it.\n")


def assert_inert(raw: str) -> None:
    for sequence in ("\x1b]0;pwned", "\x1b]52", "\x9b", "pwned\x07"):
        assert sequence not in raw, f"{sequence!r} reached the terminal"


def environment(project, fake_llm, **extra) -> dict:
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="sk-test-key", NARNAT_BASE_URL=fake_llm.base_url,
               NARNAT_MODEL="fake-model", **extra)  # fmt: skip
    return env


def test_inert_shows_every_control_character_and_keeps_newlines_and_tabs():
    assert inert(f"a\tb\r\nc{EVIL}\x00\x7f\x85") == f"a\tb\nc{SHOWN}␀␡\\x85"
    assert inert("over\rwrite\x08") == "over␍write␈"
    assert inert(inert(EVIL)) == SHOWN  # shown twice, the same


def test_inert_shows_the_bidirectional_overrides_that_reorder_what_follows():
    # "invoice\u202efdp.exe" reads "invoiceexe.pdf" on a terminal; marks that only nudge a neutral stay
    assert inert("invoice\u202efdp.exe") == "invoice\\u202efdp.exe"
    assert inert("\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069") == "".join(
        f"\\u{code:04x}" for code in (0x202A, 0x202B, 0x202C, 0x202D, 0x2066, 0x2067, 0x2068, 0x2069)
    )
    assert inert("שלום \u200f abc") == "שלום \u200f abc"


def test_json_lines_escape_what_a_terminal_would_obey_or_a_reader_would_split_there():
    text = "one\u2028two\u2029three \x9b2J \x7f \u202eabc"
    line = json.dumps({"text": text}, ensure_ascii=False).translate(JSON_ESCAPES)
    assert line == '{"text": "one\\u2028two\\u2029three \\u009b2J \\u007f \\u202eabc"}'
    assert len(line.splitlines()) == 1 and json.loads(line)["text"] == text  # one record, the text exact


@pytest.mark.slow
def test_the_full_screen_repl_shows_every_source_inert(project, fake_llm):
    script(fake_llm)
    command_file(project)
    env = environment(project, fake_llm, TERM="xterm-256color", COLUMNS="160", LINES="40", PROMPT_TOOLKIT_NO_CPR="1")
    child = pexpect.spawn(NARNAT[0], NARNAT[1:], cwd=str(project), env=env, dimensions=(40, 160),
                          encoding="utf-8", timeout=20)  # fmt: skip
    child.logfile_read = transcript = io.StringIO()
    try:
        prompt(child)
        child.send("go\r")
        child.expect("done")
        prompt(child)
        child.send("/model\r")
        child.expect("evil-")
        prompt(child)
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    raw = transcript.getvalue()
    assert_inert(raw)
    terminal = pyte.Screen(160, 40)
    pyte.ByteStream(terminal).feed(raw.encode())
    assert terminal.title != "pwned"
    shown = "\n".join(text(row) for row in screen(raw, 160, 40))
    assert [name for name, seen in REPL_SOURCES.items() if seen not in shown] == [], shown


@pytest.mark.slow
def test_the_plain_repl_shows_every_source_inert(project, fake_llm):
    script(fake_llm)
    command_file(project)
    done = subprocess.run([*NARNAT], cwd=project, env=environment(project, fake_llm), input=b"go\n/model\n",
                          capture_output=True, timeout=60)  # fmt: skip
    raw = (done.stdout + done.stderr).decode()
    assert done.returncode == 0, raw
    assert_inert(raw)
    assert [name for name, seen in REPL_SOURCES.items() if seen not in raw] == [], raw


@pytest.mark.slow
def test_headless_text_shows_every_source_inert(project, fake_llm):
    script(fake_llm)
    done = subprocess.run([*NARNAT, "-p", "go"], cwd=project, env=environment(project, fake_llm),
                          capture_output=True, timeout=60)  # fmt: skip
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, err
    assert_inert(out + err)
    assert out == f"done {SHOWN}\n"
    assert [name for name, seen in SOURCES.items() if name != "answer" and seen not in err] == [], err


@pytest.mark.slow
@pytest.mark.parametrize("output", ["json", "stream-json"])
def test_headless_json_keeps_the_exact_text_escaped_and_its_stderr_inert(project, fake_llm, output):
    """JSON carries the model's text exactly, for programs; its own escapes (\\u001b, \\u009b) keep a terminal that
    shows it from obeying any."""
    script(fake_llm)
    done = subprocess.run([*NARNAT, "-p", "go", "--output-format", output], cwd=project,
                          env=environment(project, fake_llm), capture_output=True, timeout=60)  # fmt: skip
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, err
    assert_inert(out + err)
    assert "\x1b" not in out and "\x07" not in out
    events = [json.loads(line) for line in out.splitlines()]
    assert events[-1]["answer"] == f"done {EVIL}"
    if output == "stream-json":
        said = "".join(e["text"] for e in events if e["type"] == "reasoning")
        assert said == f"thinking {EVIL}\n"
        headers = [e["header"] for e in events if e["type"] == "tool_call"]
        assert headers[0] == f"Bash(echo '{EVIL}' > /dev/null)"
    assert [name for name, seen in SOURCES.items() if name != "answer" and seen not in err] == [], err


def test_the_model_reads_text_without_the_sequences_that_only_drive_a_terminal():
    coloured = "\x1b[1;32mPASSED\x1b[0m \x1b[2K\x1b]0;title\x07\x1b]8;;https://x.org\x1b\\link\x1b]8;;\x1b\\ \x1bMdone"
    assert without_escapes(coloured) == "PASSED link done"
    assert without_escapes("a [1m] b\x1b") == "a [1m] b\x1b"  # brackets are text; a lone ESC ends nothing
    # a progress tool hides the cursor (private mode, ?), sets its shape (an intermediate byte) and keyboard modes (>)
    assert without_escapes("\x1b[?25lbuilding\x1b[?25h \x1b[2 qok\x1b[>4;1m") == "building ok"


def test_a_sequence_ending_in_a_tilde_or_an_at_sign_leaves_the_model_s_text_whole():
    # a pasted text's marks (bracketed paste), the Delete key's code and an insertion of blanks end in ~ or @
    assert without_escapes("\x1b[200~pasted\x1b[201~ \x1b[3~x\x1b[4@y") == "pasted xy"
