"""The working modes in a real pseudo-terminal: Shift-Tab's plan mode, a message and a command sent while the agent
works, /diff of a command's changes, and a goal."""

import sys

import pexpect
import pytest

from narnat_agent.prompts.texts import STEERED
from tests.fake_llm import text_reply, tool_reply
from tests.ui.test_pty import prompt, screen, text
from tests.ui.test_screen import spawn

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
WAIT = "while [ ! -f go ]; do sleep 0.05; done; echo went"  # runs until the test says go


@pytest.mark.slow
def test_plan_key_steering_diff_and_goal(project, fake_llm):
    fake_llm.add(
        tool_reply(("Bash", {"command": WAIT})),
        text_reply("Went, and hi."),
        tool_reply(("Write", {"file_path": "ok.txt", "content": "ok\n"})),
        text_reply("Done."),
    )
    child = spawn(project, fake_llm)
    try:
        prompt(child)
        child.send("draft")
        child.send("\x1b[Z")  # Shift-Tab
        child.expect("Plan mode on")
        child.expect("draft")  # what was typed waits on the line
        child.send("\x15\x1b[Z")  # Ctrl-U clears it; Shift-Tab again
        child.expect("Plan mode off")
        prompt(child)

        child.send("wait for go\r")
        child.expect("Running Bash")
        child.send("/jobs\r")
        child.expect("No background commands.")  # run at once, while the command runs
        child.send("and say hi\r")
        child.expect("Queued, to be delivered at the next tool result")
        (project / "go").write_text("")
        child.expect("delivered while the agent worked")
        child.expect("Went, and hi.")
        prompt(child)
        second = fake_llm.requests[1]["messages"]
        assert second[-1] == {
            "role": "user",
            "content": f"and say hi\n\n<system-reminder>\n{STEERED}\n</system-reminder>",
        }
        assert second[-2]["role"] == "tool" and "went" in second[-2]["content"]
        assert [m["content"] for m in second if m["role"] == "user"][0] == "wait for go" and len(fake_llm.requests) == 2

        child.send("/diff\r")
        child.expect("go \\(created, \\+0\\)")  # what the command changed: the file the test created meanwhile
        prompt(child)
        child.send("/goal write ok.txt --until 'test -f ok.txt'\r")
        child.expect("Goal met: test -f ok.txt passed after 1 turn.")
        prompt(child)
        child.sendeof()
        child.expect(pexpect.EOF)
        lines = [text(row) for row in screen(child.logfile_read.getvalue())]
        assert "❯ and say hi  delivered while the agent worked" in lines
        assert "● Check(test -f ok.txt)" in lines and any("goal check test -f ok.txt: passed" in line for line in lines)
    finally:
        child.close(force=True)
