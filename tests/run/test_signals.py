"""SIGTERM and SIGHUP save the conversation like Ctrl-D does, in a real pseudo-terminal and a real headless run."""

import json
import os
import signal
import subprocess
import sys
import threading

import pexpect
import pytest

if os.name == "nt":
    why = "SIGHUP and pseudo-terminals (pexpect.spawn) are POSIX's; Wine delivers no console events (SIGBREAK)"
    pytest.skip(why, allow_module_level=True)

from tests.fake_llm import SSE, chunk, text_reply, usage
from tests.launch import NARNAT, scrubbed_environment

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals and a pseudo-terminal")


def environment(project, fake_llm) -> dict:
    env = scrubbed_environment()
    env.update(
        HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url, TERM="xterm-256color"
    )
    return env


def saved(project) -> list[dict]:
    return [json.loads(p.read_text()) for p in (project / ".narnat" / "sessions").glob("*.json")]


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_at_the_prompt_saves_and_exits_with_the_conventional_code(project, fake_llm, signum):
    fake_llm.add(text_reply("noted"))
    child = pexpect.spawn(NARNAT[0], NARNAT[1:], cwd=str(project), env=environment(project, fake_llm),
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


@pytest.mark.slow
def test_a_signal_while_the_answer_streams_keeps_what_arrived(project, fake_llm):
    words = [chunk({"content": f"w{n} "}) for n in range(200)]
    fake_llm.add(SSE([*words, chunk(finish="stop"), usage()], delay=0.05))
    child = pexpect.spawn(NARNAT[0], NARNAT[1:], cwd=str(project), env=environment(project, fake_llm),
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


def _headless_json(project, fake_llm) -> tuple[subprocess.Popen, threading.Event]:
    """A headless run whose request is at the provider, its answer held back."""
    gate = threading.Event()
    fake_llm.add(SSE([chunk({"role": "assistant", "content": "partial "}), chunk(finish="stop"), usage()], gate=gate))
    run = subprocess.Popen([*NARNAT, "-p", "hi", "--output-format", "json"],
                           cwd=project, env=environment(project, fake_llm), stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert fake_llm.asked.wait(30)
    return run, gate


def _assert_saved_with_result(project, run: subprocess.Popen, out: str, err: str, codes: set[int]) -> None:
    assert run.returncode in codes and "Traceback" not in err, err
    result = json.loads(out)
    assert result["exit_code"] == run.returncode and result["session"], out
    assert [s["name"] for s in saved(project)] == [result["session"]]


SIGNAL_PAIRS = [(signal.SIGTERM, signal.SIGTERM), (signal.SIGHUP, signal.SIGTERM), (signal.SIGTERM, signal.SIGHUP)]


@pytest.mark.slow
@pytest.mark.parametrize(("first", "second"), SIGNAL_PAIRS)
def test_two_signals_at_once_still_save_and_print_the_result(project, fake_llm, first, second):
    """Closing a terminal delivers several hangups: the second must not interrupt the stop, the save or the result.
    (Delivered together, the two are taken in the order of their numbers: either code may be the one kept.)"""
    run, gate = _headless_json(project, fake_llm)
    try:
        run.send_signal(first)
        run.send_signal(second)
        out, err = run.communicate(timeout=60)
    finally:
        gate.set()
    _assert_saved_with_result(project, run, out, err, {128 + first, 128 + second})


@pytest.mark.slow
@pytest.mark.parametrize(("first", "second"), SIGNAL_PAIRS)
def test_a_second_signal_during_the_exit_save_keeps_the_first_ones_code(project, fake_llm, first, second):
    run, gate = _headless_json(project, fake_llm)
    try:
        run.send_signal(first)
        while "Cancelled" not in run.stderr.readline():  # the turn has stopped: the exit save is next
            assert run.poll() is None
        run.send_signal(second)
        out, err = run.communicate(timeout=60)
    finally:
        gate.set()
    _assert_saved_with_result(project, run, out, err, {128 + first})


@pytest.mark.slow
@pytest.mark.parametrize(("first", "second"), SIGNAL_PAIRS)
def test_a_second_signal_after_the_result_keeps_the_first_ones_code(project, fake_llm, first, second):
    """Python puts the default actions back while it shuts down (which takes a while, collecting garbage): a signal
    then must not turn the exit into a death by it (-15) once the run has saved and reported."""
    run, gate = _headless_json(project, fake_llm)
    try:
        run.send_signal(first)
        result = run.stdout.readline()  # the last thing the run writes: what follows is the interpreter's exit
        run.send_signal(second)
        out, err = run.communicate(timeout=60)
    finally:
        gate.set()
    _assert_saved_with_result(project, run, result + out, err, {128 + first})
