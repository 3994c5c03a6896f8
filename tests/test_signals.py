"""SIGTERM and SIGHUP save the conversation like Ctrl-D does, in a real pseudo-terminal and a real headless run."""

import json
import os
import signal
import sys

import pexpect
import pytest

from tests.fake_llm import SSE, chunk, text_reply, usage

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals and a pseudo-terminal")


def environment(project, fake_llm) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NARNAT_", "OPENAI_", "NO_COLOR"))}
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url,
               TERM="xterm-256color")  # fmt: skip
    return env


def saved(project) -> list[dict]:
    return [json.loads(p.read_text()) for p in (project / ".narnat" / "sessions").glob("*.json")]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_at_the_prompt_saves_and_exits_with_the_conventional_code(project, fake_llm, signum):
    fake_llm.add(text_reply("noted"))
    child = pexpect.spawn(sys.executable, ["-m", "narnat_agent"], cwd=str(project), env=environment(project, fake_llm),
                          dimensions=(30, 100), encoding="utf-8", timeout=20)  # fmt: skip
    child.expect("❯")
    child.send("remember 42\r")
    child.expect("noted")
    child.expect("❯")
    child.kill(signum)
    child.expect(pexpect.EOF, timeout=60)  # saving and pruning checkpoints take a moment on a loaded machine
    child.close()
    assert child.exitstatus == 128 + signum and "Traceback" not in child.before
    [session] = saved(project)
    assert [m["content"] for m in session["messages"] if m["role"] == "user"] == ["remember 42"]


def test_a_signal_while_the_answer_streams_keeps_what_arrived(project, fake_llm):
    words = [chunk({"content": f"w{n} "}) for n in range(200)]
    fake_llm.add(SSE([*words, chunk(finish="stop"), usage()], delay=0.05))
    child = pexpect.spawn(sys.executable, ["-m", "narnat_agent"], cwd=str(project), env=environment(project, fake_llm),
                          dimensions=(30, 100), encoding="utf-8", timeout=20)  # fmt: skip
    child.expect("❯")
    child.send("write\r")
    child.expect("w10 ")
    child.kill(signal.SIGTERM)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 128 + signal.SIGTERM
    [session] = saved(project)
    assert session["messages"][-1]["role"] == "assistant" and session["messages"][-1]["content"].startswith("w0 w1")
