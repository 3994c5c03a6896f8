"""A whole session in a real pseudo-terminal against the fake provider: keys in, screen and files out."""

import io
import sys

import pexpect
import pyte
import pytest

from tests.fake_llm import SSE, chunk, counted_as, raw_reply, text_reply, tool_reply, usage
from tests.launch import NARNAT, scrubbed_environment

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def slow_answer(words: int, delay: float) -> SSE:
    return SSE([chunk({"content": f"word{n} "}) for n in range(words)] + [chunk(finish="stop"), usage()], delay=delay)


@pytest.fixture
def session(project, fake_llm):
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url,
               TERM="xterm-256color", COLUMNS="100", LINES="30", PROMPT_TOOLKIT_NO_CPR="1")  # fmt: skip
    child = pexpect.spawn(
        NARNAT[0], NARNAT[1:], cwd=str(project), env=env, dimensions=(30, 100), encoding="utf-8", timeout=20
    )
    yield child
    child.close(force=True)


def prompt(child):
    child.expect("❯")


def screen(transcript: str, width: int = 100, height: int = 30) -> list[list]:
    """The terminal after the whole session, scrollback included: rows of pyte characters."""
    shown = pyte.HistoryScreen(width, height, history=10_000)
    pyte.ByteStream(shown).feed(transcript.encode())
    rows = [[row[x] for x in range(width)] for row in shown.history.top]
    return rows + [[shown.buffer[y][x] for x in range(width)] for y in range(height)]


def text(row) -> str:
    return "".join(c.data for c in row).rstrip()


@pytest.mark.slow
def test_a_whole_session(session, fake_llm, project):
    child = session
    child.logfile_read = transcript = io.StringIO()
    (project / "junk.txt").write_text("x")
    todo = [{"content": "Clean up", "activeForm": "Cleaning up", "status": "in_progress"},
            {"content": "Report", "activeForm": "Reporting", "status": "pending"}]  # fmt: skip
    long_command = "echo start; echo '" + "a" * 150 + "'\necho second line"
    failing = "printf 'l1\\nl2\\nl3\\nl4\\nl5\\nl6\\nl7\\nboom: it failed\\n'; exit 2"
    fake_llm.add(
        counted_as(text_reply("Hello **there**, streaming works."), 4_000),
        slow_answer(400, 0.02),
        tool_reply(("TodoWrite", {"todos": todo}), ("Bash", {"command": long_command}), ("Bash", {"command": failing})),
        tool_reply(("Bash", {"command": "rm junk.txt"})),
        tool_reply(("Bash", {"command": "rm junk.txt"})),
        text_reply("All done."),
    )
    prompt(child)
    child.send("say hello\r")
    child.expect("streaming works")
    child.expect("ctx 4k/128k")  # the footer
    prompt(child)

    child.send("write a lot\r")
    child.expect("word30")
    child.send("\x1b")
    child.expect("Interrupted by user")
    prompt(child)
    assert fake_llm.requests[1]["messages"][-1]["content"] == "write a lot"

    child.send("clean up\r")
    child.expect("Clean up")
    child.expect(r"Run it\? \[y/n\]")
    child.send("n")  # one key, no Enter
    child.expect(r"Run it\? \[y/n\] no")
    child.expect(r"Run it\? \[y/n\]")
    assert (project / "junk.txt").exists()
    child.send("y")
    child.expect("All done")
    prompt(child)
    assert not (project / "junk.txt").exists()
    history = fake_llm.requests[-1]["messages"]
    interrupted = next(m["content"] for m in history if m["role"] == "assistant" and "word0" in (m["content"] or ""))
    assert "word399" not in interrupted  # the stream stopped at the key, long before its end (timing: bench/)
    interrupted = history[history.index({"role": "user", "content": "write a lot"}) + 1]
    assert interrupted["content"].startswith("word0 word1") and interrupted["content"].endswith(
        "[interrupted by the user]"
    )

    child.send("half typed")
    child.expect("typed")
    child.send("\x03")
    prompt(child)  # the discarded line
    prompt(child)  # the next prompt
    child.send("\x03")
    child.expect("Ctrl-D or /exit leaves")
    prompt(child)
    child.sendeof()
    child.expect("Saved this conversation as")
    child.expect(pexpect.EOF)
    assert list((project / ".narnat" / "sessions").glob("*.json"))

    rows = screen(transcript.getvalue())
    lines = [text(row) for row in rows]
    assert lines[0].startswith("narnat ") and "· 127.0.0.1:" in lines[0]  # the start header
    assert lines[1].startswith(str(project)) and "new conversation · /help" in lines[1]
    assert any(line.startswith("── ctx 4k/128k · sent 4k · out 5 · ") for line in lines)  # the footer
    header = next(line for line in lines if line.startswith("● Bash(echo start"))
    assert header.endswith("chars, +1 line)") and "…" in header and len(header) <= 100  # a long command
    failed = lines.index(next(line for line in lines if line.startswith("  ⎿  exit 2 · 8 lines")))
    assert lines[failed + 1 : failed + 4] == ["     … +2 lines above", "     l3", "     l4"]  # the tail
    assert "     boom: it failed" in lines and "(exit code 2)" not in "\n".join(lines)
    declined = lines.index(next(line for line in lines if "the user declined" in line))
    assert lines[declined].startswith("  ⎿  the user declined") and lines[declined + 1].startswith("     ")
    assert lines[declined + 1].strip() and "Declined" not in lines  # a wrapped result, one line of refusal
    assert any(line.endswith("Run it? [y/n] no") for line in lines)
    assert any(line.endswith("Run it? [y/n] yes") for line in lines)
    discarded = next(row for row in rows if text(row).endswith("half typed"))
    assert all(c.strikethrough for c in discarded[2 : len(text(discarded))] if c.data != " ")


@pytest.mark.slow
def test_arrow_keys_do_not_interrupt(session, fake_llm):
    child = session
    fake_llm.add(slow_answer(60, 0.03))
    prompt(child)
    child.send("go\r")
    child.expect("word5")
    child.send("\x1b[A")
    child.send("\x1b[B")
    child.expect("word59")
    child.expect("ctx ")
    assert "Interrupted" not in child.before


@pytest.mark.slow
def test_first_start_without_a_key_asks_and_saves_a_private_config(project, fake_llm):
    import json
    import stat

    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), TERM="xterm-256color")
    fake_llm.add(text_reply("OK"), text_reply("configured and answering"))  # the setup's check, then the question
    child = pexpect.spawn(
        NARNAT[0], NARNAT[1:], cwd=str(project), env=env, dimensions=(30, 100), encoding="utf-8", timeout=20
    )
    child.logfile_read = screen = io.StringIO()  # everything the terminal showed, from the first byte
    try:
        child.expect("Base URL")
        child.send(fake_llm.base_url + "\r")
        child.expect("API key")
        child.send("sk-secret-typed\r")
        child.expect("Model")
        child.send("my-model\r")
        child.expect("❯")
        child.send("hello\r")
        child.expect("configured and answering")
        child.expect("❯")
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "my-model" in screen.getvalue() and "sk-secret-typed" not in screen.getvalue()
    path = project.parent / "home" / ".narnat" / "narnat.json"  # the key is the user's, not the project's
    assert not (project / ".narnat" / "narnat.json").exists()
    assert json.loads(path.read_text()) == {"base_url": fake_llm.base_url, "api_key": "sk-secret-typed",
                                            "model": "my-model"}  # fmt: skip
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "narnat.json" in (project / ".narnat" / ".gitignore").read_text()
    assert fake_llm.requests[0]["max_tokens"] == 1 and fake_llm.requests[1]["model"] == "my-model"


@pytest.mark.slow
def test_ctrl_d_always_leaves(project, fake_llm):
    """A stress run of what preceded Ctrl-D doing nothing: refused commands, keys typed while the agent was busy
    (an Enter, a space), and keys sent while a command is still printing its error, before the prompt is back."""
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url,
               TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1")  # fmt: skip
    for run in range(4):
        child = pexpect.spawn(
            NARNAT[0], NARNAT[1:], cwd=str(project), env=env, dimensions=(30, 100), encoding="utf-8", timeout=10
        )
        try:
            prompt(child)
            fake_llm.add(slow_answer(15, 0.02))
            child.send("hi\r")
            child.expect("word3")
            child.send(["", "\r ", " ", "\r"][run])  # typed while the answer streams
            child.expect("ctx ")  # the footer: the prompt is not back yet
            refused = 3 * (run % 2 == 0)
            child.send("/save ../../escape\r" * refused + "\x04")
            for _ in range(refused):
                child.expect("is not a session name")
            child.expect("Saved this conversation")
            child.expect(pexpect.EOF)
        finally:
            child.close(force=True)
        assert child.exitstatus == 0, run


@pytest.mark.slow
def test_rewind_redo_and_undo_in_a_real_terminal(session, fake_llm, project):
    child, app = session, project / "app.py"
    app.write_text("x = 1\n")
    fake_llm.add(tool_reply(("Read", {"file_path": "app.py"})),
                 tool_reply(("Edit", {"file_path": "app.py", "old_string": "x = 1", "new_string": "x = 2"})),
                 text_reply("Changed it."), text_reply("Asked again."))  # fmt: skip
    prompt(child)
    child.send("make x two\r")
    child.expect("Changed it")
    prompt(child)
    child.send("/rewind\r")
    child.expect(r"1 +\d\d:\d\d +1 +\+1 -1 +make x two")
    child.expect("Rewind to before turn")
    child.send("1\r")
    child.expect(r"Restore 1\) code and conversation")
    child.send("3\r")
    child.expect("Rewound to before turn 1: code. Restored 1 file: app.py.")
    assert app.read_text() == "x = 1\n"
    prompt(child)
    child.send("/redo\r")
    child.expect("Redone")
    assert app.read_text() == "x = 2\n"
    prompt(child)
    child.send("/undo\r")
    child.expect("Rewound to before turn 1: code and conversation.")
    child.expect("❯ make x two")  # the question is back on the input line
    assert app.read_text() == "x = 1\n"
    child.send("\r")
    child.expect("Asked again")
    asked = [m["content"] for m in fake_llm.requests[-1]["messages"] if m["role"] == "user"]
    # the code rewind's notice went with /redo, which made it untrue; after /undo the files are as the (empty)
    # conversation found them: nothing to tell
    assert len(asked) == 1 and asked[0].startswith("make x two") and "rewound" not in asked[0]
    prompt(child)
    child.sendeof()
    child.expect(pexpect.EOF)


@pytest.mark.slow
def test_esc_stops_a_huge_answer_and_the_prompt_is_usable_at_once(session, fake_llm):
    child = session
    child.searchwindowsize = 4000  # the answer is megabytes: look only at the newest output
    flood = [chunk({"content": "word " * 200 + "\n\n"}) for _ in range(5000)]  # 5 MB, paragraphs
    fake_llm.add(SSE([*flood, chunk(finish="stop"), usage()], delay=0.001), text_reply("next answer"))
    prompt(child)
    child.send("flood\r")
    child.expect("word word")
    child.send("\x1b")
    child.expect("Interrupted by user")
    prompt(child)
    child.send("typed after")
    child.expect("typed after")  # keys reach the prompt: no leftover watcher eats them
    child.expect(pexpect.TIMEOUT, timeout=0.5)
    assert "esc to interrupt" not in child.before  # no spinner left drawing over the prompt
    child.send("\r")
    child.expect("next answer")


def test_closing_the_terminal_prints_no_traceback(project, fake_llm):
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url,
               TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1")  # fmt: skip
    err = project.parent / "stderr.txt"
    child = pexpect.spawn("bash", ["-c", f"exec {sys.executable} -m narnat_agent 2>{err}"], cwd=str(project),
                          env=env, dimensions=(30, 100), encoding="utf-8", timeout=20)  # fmt: skip
    prompt(child)
    child.close()  # the window goes away: the terminal hangs up
    assert "Traceback" not in err.read_text() and "termios" not in err.read_text()


@pytest.mark.slow
def test_the_input_history_follows_the_state_folder_when_narnat_cannot_write_its_own(project, fake_llm):
    (project / ".narnat").write_text("a file where the folder should be")
    home = project.parent / "home"
    env = scrubbed_environment()
    env.update(HOME=str(home), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url, TERM="xterm-256color",
               PROMPT_TOOLKIT_NO_CPR="1")  # fmt: skip
    fake_llm.add(text_reply("noted"))
    child = pexpect.spawn(
        NARNAT[0], NARNAT[1:], cwd=str(project), env=env, dimensions=(30, 100), encoding="utf-8", timeout=20
    )
    try:
        prompt(child)
        child.send("remember this question\r")
        child.expect("noted")
        prompt(child)
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    [history] = (home / ".local/state/narnat").glob("project-*/history")
    assert "remember this question" in history.read_text()
    assert "cannot be used" not in child.before


@pytest.mark.slow
def test_a_call_written_as_text_shows_as_a_recovered_tool_line_not_as_markup(session, fake_llm, project):
    child = session
    child.logfile_read = transcript = io.StringIO()
    (project / "notes.txt").write_text("remember the milk\n")
    call = 'Let me look.\n<tool_call>\n{"name": "Read", "arguments": {"file_path": "notes.txt"}}\n</tool_call>'
    fake_llm.add(raw_reply(call, (15, 30, 60)), text_reply("It says to remember the milk."))
    prompt(child)
    child.send("what do my notes say?\r")
    child.expect("remember the milk")
    prompt(child)
    child.sendeof()
    child.expect(pexpect.EOF)
    rows = [text(row) for row in screen(transcript.getvalue())]
    assert any(row.startswith("● Read(notes.txt) · recovered from <tool_call> text") for row in rows), rows
    assert not any("tool_call" in row and not row.startswith("●") for row in rows)


@pytest.mark.slow
def test_with_the_bell_turned_off_a_turn_ends_without_the_bell_or_a_window_title(project, fake_llm):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text('{"bell": false, "bell_after_s": 0}')  # 0: every turn rings
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url,
               TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1")  # fmt: skip
    fake_llm.add(text_reply("Quiet."))
    child = pexpect.spawn(
        NARNAT[0], NARNAT[1:], cwd=str(project), env=env, dimensions=(30, 100), encoding="utf-8", timeout=20
    )
    child.logfile_read = transcript = io.StringIO()
    try:
        prompt(child)
        child.send("hi\r")
        child.expect("ctx ")  # the footer: the turn is over
        prompt(child)
        child.send("\x04")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "Quiet." in transcript.getvalue() and "\x1b]0;" not in transcript.getvalue()
