"""Bad input from a client gets a protocol error, and the session loses nothing: lines written by hand to
`narnat acp`, and every line it writes read back (stdout carries JSON-RPC messages and nothing else)."""

import json
import os
import queue
import subprocess
import threading

import pytest

from tests.acp.editor import environment
from tests.fake_llm import text_reply
from tests.launch import NARNAT


class Pipe:
    """`narnat acp` with its stdin and stdout in the test's hands."""

    def __init__(self, project, base_url, **env: str):
        self.stderr = (project.parent / "acp-stderr").open("w")
        self.process = subprocess.Popen([*NARNAT, "acp"], cwd=project, env=environment(project, base_url) | env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)  # fmt: skip
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.read: list[dict] = []  # every message it wrote
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.process.stdout:  # type: ignore[union-attr]
            self.lines.put(line)
        self.lines.put(b"")

    def write(self, line: str | dict) -> None:
        text = line if isinstance(line, str) else json.dumps({"jsonrpc": "2.0", **line})
        self.process.stdin.write(text.encode() + b"\n")  # type: ignore[union-attr]
        self.process.stdin.flush()  # type: ignore[union-attr]

    def answer(self, request_id: object) -> dict:
        """The response to request_id (or to a line that had none); every line before it must be a message too."""
        while True:
            line = self.lines.get(timeout=60)
            assert line, "narnat acp ended"
            message = json.loads(line)  # nothing but protocol messages
            assert isinstance(message, dict) and message["jsonrpc"] == "2.0", line
            self.read.append(message)
            if "method" not in message and message.get("id") == request_id:
                return message

    def close(self) -> int:
        self.process.stdin.close()  # type: ignore[union-attr]
        code = self.process.wait(60)
        self.stderr.close()
        return code


def _prompt(request_id: int, session: str, text: str) -> dict:
    return {"id": request_id, "method": "session/prompt",
            "params": {"sessionId": session, "prompt": [{"type": "text", "text": text}]}}  # fmt: skip


@pytest.mark.slow
def test_bad_input_gets_a_protocol_error_and_the_session_loses_nothing(project, fake_llm):
    slow = text_reply("The first answer.")
    slow.gate = threading.Event()
    fake_llm.add(slow)
    narnat = Pipe(project, fake_llm.base_url)
    try:
        narnat.write("this is not JSON {")
        assert narnat.answer(None)["error"]["code"] == -32700
        narnat.write("[1, 2]")
        assert narnat.answer(None)["error"]["code"] == -32600
        narnat.write({"id": 1, "method": "initialize", "params": {"protocolVersion": 1}})
        assert narnat.answer(1)["result"]["agentCapabilities"]["loadSession"] is True
        narnat.write({"id": 2, "method": "session/fly", "params": {}})
        assert narnat.answer(2)["error"]["code"] == -32601
        narnat.write({"id": 3, "method": "session/new", "params": {"cwd": "project", "mcpServers": []}})
        refused = narnat.answer(3)["error"]
        assert refused["code"] == -32602 and "is not a folder" in refused["message"]
        narnat.write({"id": 4, "method": "session/new", "params": {"cwd": str(project), "mcpServers": []}})
        session = narnat.answer(4)["result"]["sessionId"]
        narnat.write(_prompt(5, session, "first question"))
        assert fake_llm.asked.wait(60)  # the first turn waits at the provider
        narnat.write(_prompt(6, session, "second question"))
        busy = narnat.answer(6)["error"]
        assert busy["code"] == -32600 and "already running" in busy["message"]
        narnat.write(_prompt(7, "no-such-session", "hello"))
        assert narnat.answer(7)["error"]["code"] == -32602
        narnat.write({"id": 8, "method": "session/prompt", "params": {"sessionId": session}})
        assert narnat.answer(8)["error"]["code"] == -32602
        narnat.write("\x00garbage")
        assert narnat.answer(None)["error"]["code"] == -32700
        slow.gate.set()
        assert narnat.answer(5)["result"] == {"stopReason": "end_turn"}
    finally:
        code = narnat.close()
    assert code == 0
    told = [m["params"]["update"] for m in narnat.read if m.get("method") == "session/update"]
    assert "".join(u["content"]["text"] for u in told if u["sessionUpdate"] == "agent_message_chunk") == (
        "The first answer."
    )
    assert len(fake_llm.requests) == 1
    saved = json.loads((project / ".narnat" / "sessions" / f"{session}.json").read_text())
    assert [m["content"] for m in saved["messages"][1:]] == ["first question", "The first answer."]


@pytest.mark.slow
def test_what_else_the_process_prints_goes_to_stderr_and_stdout_stays_the_protocols(project, fake_llm):
    # a library that prints to stdout (here one loaded at start that prints as the process ends) breaks no line
    site = project.parent / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text('import atexit\natexit.register(print, "a library printed this")\n')
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))  # and Narnat where it is
    narnat = Pipe(project, fake_llm.base_url, PYTHONPATH=path)
    narnat.write({"id": 1, "method": "initialize", "params": {"protocolVersion": 1}})
    assert narnat.answer(1)["result"]["protocolVersion"] == 1
    assert narnat.close() == 0
    rest = iter(narnat.lines.get, b"")  # what it wrote after its last answer, to the end of its stdout
    assert [line for line in rest if line.strip()] == []
    assert "a library printed this" in (project.parent / "acp-stderr").read_text()
