"""The conversation at hand in a real pseudo-terminal: /model, a command of the user's own completed by Tab,
/context against the status line, the bell, /compact stopped by Esc and then done."""

import io
import json
import sys

import pexpect
import pytest

from narnat_agent.prompts.texts import COMPRESSION_PROMPT
from tests.fake_llm import SSE, chunk, counted_as, text_reply, tool_reply, usage
from tests.launch import NARNAT, scrubbed_environment
from tests.ui.test_pty import prompt, screen, text

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def spawn(project, fake_llm):
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url,
               TERM="xterm-256color", COLUMNS="100", LINES="30", PROMPT_TOOLKIT_NO_CPR="1")  # fmt: skip
    return pexpect.spawn(
        NARNAT[0], NARNAT[1:], cwd=str(project), env=env, dimensions=(30, 100), encoding="utf-8", timeout=20
    )


def answers():
    """The provider's side: the first summary streams slowly (Esc stops it), the second at once."""
    script = [
        counted_as(text_reply("reviewed"), 4_000),
        tool_reply(("Bash", {"command": "rm junk.txt"})),
        text_reply("kept it"),
    ]
    slow = SSE([chunk({"content": "## Summary "}) for _ in range(400)] + [chunk(finish="stop"), usage()], delay=0.02)
    summaries = [slow, text_reply("## Summary\nReviewed app.py.")]

    def respond(request: dict):
        compressing = request["messages"][-1]["content"].startswith(COMPRESSION_PROMPT)
        return (summaries if compressing else script).pop(0)

    return respond


@pytest.mark.slow
def test_steering_the_conversation_as_a_person_types_it(project, fake_llm):
    (project / ".narnat" / "commands").mkdir(parents=True)
    (project / ".narnat" / "commands" / "review.md").write_text("Review $ARGUMENTS please.\n")
    (project / ".narnat" / "narnat.json").write_text(json.dumps({"bell_after_s": 0}))
    (project / "junk.txt").write_text("x")
    fake_llm.models = ["deepseek-v4-pro", "glm-4.6"]
    fake_llm.respond = answers()
    child = spawn(project, fake_llm)
    child.logfile_read = transcript = io.StringIO()
    try:
        prompt(child)
        child.send("/model\r")
        child.expect("● deepseek-v4-pro")
        prompt(child)
        child.send("/model glm-4.6\r")
        child.expect("glm-4.6 answers from turn 1 on")
        prompt(child)
        child.send("/help\r")
        child.expect_exact("/review [arguments]")
        prompt(child)
        child.send("/rev")
        child.send("\t")
        child.expect("/review")
        child.send(" app.py\r")
        child.expect("reviewed")
        child.expect("glm-4.6 from turn 1")  # the footer
        prompt(child)
        child.send("/context\r")
        child.expect(r"ctx 4k/128k · ~\d+ added since · 124k left")
        prompt(child)

        child.send("clean up\r")
        child.expect(r"Run it\? \[y/n\]")
        child.send("n")
        child.expect("kept it")
        prompt(child)

        child.send("/compact\r")
        child.expect("Compressing the conversation")
        child.send("\x1b")
        child.expect("Compression failed")
        prompt(child)
        child.send("/compact keep the review\r")
        child.expect("Compressed: the old conversation is saved as")
        prompt(child)
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    requests = fake_llm.requests
    assert requests[0]["model"] == "glm-4.6" and requests[0]["messages"][-1]["content"] == "Review app.py please."
    assert requests[-1]["messages"][-1]["content"].endswith("keep the review")
    raw = transcript.getvalue()
    assert f"\x1b]0;narnat · {project.name} · done\x07\a" in raw  # a turn ended (bell_after_s 0: every turn)
    assert f"\x1b]0;narnat · {project.name} · waiting for you\x07\a" in raw  # a confirmation waits
    lines = [text(row) for row in screen(raw)]
    assert "Compression failed: no complete summary came back; the conversation is unchanged." in "\n".join(lines)
