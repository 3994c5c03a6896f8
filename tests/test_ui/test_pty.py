"""A whole session in a real pseudo-terminal against the fake provider: keys in, screen and files out."""

import io
import os
import sys

import pexpect
import pytest

from tests.fake_llm import SSE, chunk, text_reply, tool_reply, usage

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def slow_answer(words: int, delay: float) -> SSE:
    return SSE([chunk({"content": f"word{n} "}) for n in range(words)] + [chunk(finish="stop"), usage()], delay=delay)


@pytest.fixture
def session(project, fake_llm):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NARNAT_", "OPENAI_", "NO_COLOR"))}
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url,
               TERM="xterm-256color", COLUMNS="100", LINES="30")  # fmt: skip
    child = pexpect.spawn(sys.executable, ["-m", "narnat_agent"], cwd=str(project), env=env, dimensions=(30, 100),
                          encoding="utf-8", timeout=20)  # fmt: skip
    yield child
    child.close(force=True)


def prompt(child):
    child.expect("❯")


def test_a_whole_session(session, fake_llm, project):
    child = session
    (project / "junk.txt").write_text("x")
    todo = [{"content": "Clean up", "activeForm": "Cleaning up", "status": "in_progress"},
            {"content": "Report", "activeForm": "Reporting", "status": "pending"}]  # fmt: skip
    fake_llm.add(
        text_reply("Hello **there**, streaming works."),
        slow_answer(400, 0.02),
        tool_reply(("TodoWrite", {"todos": todo})),
        tool_reply(("Bash", {"command": "rm junk.txt"})),
        tool_reply(("Bash", {"command": "rm junk.txt"})),
        text_reply("All done."),
    )
    prompt(child)
    child.send("say hello\r")
    child.expect("streaming works")
    child.expect("ctx .* · sent ")  # the footer
    prompt(child)

    child.send("write a lot\r")
    child.expect("word30")
    child.send("\x1b")
    child.expect("Interrupted by user")
    prompt(child)
    assert fake_llm.requests[1]["messages"][-1]["content"] == "write a lot"

    child.send("clean up\r")
    child.expect("◼ Clean up")
    child.expect("◻ Report")
    child.expect(r"Run it\? \[y/N\]")
    child.send("n\r")
    child.expect("Declined")
    child.expect(r"Run it\? \[y/N\]")
    assert (project / "junk.txt").exists()
    child.send("y\r")
    child.expect("All done")
    prompt(child)
    assert not (project / "junk.txt").exists()
    history = fake_llm.requests[-1]["messages"]
    interrupted = next(m["content"] for m in history if m["role"] == "assistant" and "word0" in (m["content"] or ""))
    assert "word399" not in interrupted  # the stream stopped at the key, long before its end (timing: bench/)
    interrupted = history[history.index({"role": "user", "content": "write a lot"}) + 1]
    assert interrupted["role"] == "assistant" and interrupted["content"].startswith("word0 word1")
    assert any("the user declined" in m["content"] for m in history if m["role"] == "tool")

    child.sendeof()
    child.expect("Saved this conversation as")
    child.expect(pexpect.EOF)
    assert list((project / ".narnat" / "sessions").glob("*.json"))


def test_arrow_keys_do_not_interrupt(session, fake_llm):
    child = session
    fake_llm.add(slow_answer(60, 0.03))
    prompt(child)
    child.send("go\r")
    child.expect("word5")
    child.send("\x1b[A")
    child.send("\x1b[B")
    child.expect("word59")
    child.expect("ctx .* · sent ")
    assert "Interrupted" not in child.before


def test_first_start_without_a_key_asks_and_saves_a_private_config(project, fake_llm):
    import json
    import stat

    env = {k: v for k, v in os.environ.items() if not k.startswith(("NARNAT_", "OPENAI_", "NO_COLOR"))}
    env.update(HOME=str(project.parent / "home"), TERM="xterm-256color")
    fake_llm.add(text_reply("configured and answering"))
    child = pexpect.spawn(sys.executable, ["-m", "narnat_agent"], cwd=str(project), env=env, dimensions=(30, 100),
                          encoding="utf-8", timeout=20)  # fmt: skip
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
    assert fake_llm.requests[0]["model"] == "my-model"


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
    questions = [m["content"] for m in fake_llm.requests[-1]["messages"] if m["role"] == "user"]
    assert [q.split("\n\n<system-reminder>")[0] for q in questions] == ["make x two"]  # sent again, alone
    prompt(child)
    child.sendeof()
    child.expect(pexpect.EOF)
