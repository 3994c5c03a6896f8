"""The protocol's lines in process: what `Lines` reads from a stream and writes to one, at the edges of its format
(a last line without its newline, a line over the limit, lines that are not messages)."""

import asyncio
import json
import subprocess
import sys

import pytest

from narnat_agent.acp.wire import LIMIT, Lines

KEY = "sk-test-key-0123456789"


class Written:
    """The writer's end: the bytes written, and whether it was drained and closed."""

    def __init__(self) -> None:
        self.data = b""
        self.drained = 0
        self.closed = False

    def write(self, data: bytes) -> None:
        self.data += data

    async def drain(self) -> None:
        self.drained += 1

    def close(self) -> None:
        self.closed = True

    def messages(self) -> list[dict]:
        lines = self.data.split(b"\n")
        assert lines[-1] == b"", self.data  # every message ends with its newline
        return [json.loads(line) for line in lines[:-1]]


def _read(data: bytes, limit: int = LIMIT, secrets: set[str] | None = None) -> tuple[list[dict], Written]:
    """Every message `receive` returns from data, then what it wrote back."""

    async def run() -> list[dict]:
        reader = asyncio.StreamReader(limit=limit)
        reader.feed_data(data)
        reader.feed_eof()
        lines = Lines(reader, written, set() if secrets is None else secrets)  # type: ignore[arg-type]
        received = []
        while (message := await lines.receive()) is not None:
            received.append(message)
        return received

    written = Written()
    return asyncio.run(run()), written


def _refusal(code: int, reason: str, message_id: object = None) -> dict:
    names = {-32700: "Parse error", -32600: "Invalid request"}
    return {"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": names[code],
                                                          "data": {"reason": reason}}}  # fmt: skip


def test_each_line_that_is_not_a_message_gets_its_error_and_the_next_is_read():
    lines = [
        b"[1, 2]",
        b'{"id": 1, "method": "initialize"}',
        b'{"jsonrpc": "1.0", "id": 2, "method": "initialize"}',
        b'{"jsonrpc": "2.0", "id": 3, "method": 7}',
        b'{"jsonrpc": "2.0", "result": {}}',
        b'{"jsonrpc": "2.0", "id": 4, "method": "initialize"}',
    ]
    received, written = _read(b"\n".join(lines) + b"\n")
    assert received == [{"jsonrpc": "2.0", "id": 4, "method": "initialize"}]
    assert written.messages() == [
        _refusal(-32600, "a message is a JSON object"),
        _refusal(-32600, 'a message carries "jsonrpc": "2.0"', 1),
        _refusal(-32600, 'a message carries "jsonrpc": "2.0"', 2),
        _refusal(-32600, "a method is a string", 3),
        _refusal(-32600, "a message has a method, or is the response to an id"),
    ]


def test_a_notification_and_a_response_are_messages():
    notification = {"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "s"}}
    response = {"jsonrpc": "2.0", "id": 0, "result": None}
    received, written = _read(json.dumps(notification).encode() + b"\n" + json.dumps(response).encode() + b"\n")
    assert received == [notification, response]
    assert written.data == b""


def test_a_line_that_is_not_json_is_refused_with_the_reason():
    received, written = _read(b'this is not JSON {\n{"jsonrpc": "2.0", "id": 1, "method": "m"}\n')
    assert received == [{"jsonrpc": "2.0", "id": 1, "method": "m"}]
    [refusal] = written.messages()
    assert refusal["id"] is None and refusal["error"]["code"] == -32700
    assert refusal["error"]["data"]["reason"] == "Expecting value: line 1 column 1 (char 0)"


def test_a_line_that_is_not_utf8_is_refused_as_no_json_and_the_next_is_read():
    # an editor that writes a file's name in its own encoding: one answer, and the connection goes on
    received, written = _read(b'{"jsonrpc": "2.0", "id": 1, "method": "m", "params": "caf\xe9"}\n'
                              b'{"jsonrpc": "2.0", "id": 2, "method": "m"}\n')  # fmt: skip
    assert received == [{"jsonrpc": "2.0", "id": 2, "method": "m"}]
    [refusal] = written.messages()
    assert refusal["id"] is None and refusal["error"]["code"] == -32700
    assert "utf-8" in refusal["error"]["data"]["reason"]


def test_blank_lines_are_skipped_and_the_last_line_needs_no_newline():
    message = {"jsonrpc": "2.0", "id": 1, "method": "m"}
    received, written = _read(b"\n   \n\r\n" + json.dumps(message).encode())
    assert received == [message] and written.data == b""


def test_the_end_of_input_after_blank_space_ends_the_messages():
    received, written = _read(b'{"jsonrpc": "2.0", "id": 1, "method": "m"}\n  \t')
    assert received == [{"jsonrpc": "2.0", "id": 1, "method": "m"}] and written.data == b""


def test_a_line_over_the_limit_is_refused_whole_and_the_next_is_read():
    big = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "m", "params": {"text": "x" * 200}}).encode()
    after = {"jsonrpc": "2.0", "id": 10, "method": "m"}
    received, written = _read(big + b"\n" + json.dumps(after).encode() + b"\n", limit=64)
    assert received == [after]  # nothing of the big line is read as a line of its own
    assert written.messages() == [_refusal(-32600, f"a message over {LIMIT} bytes")]


def test_a_line_over_the_limit_at_the_end_of_input_ends_the_messages():
    received, written = _read(b'{"jsonrpc": "2.0", "id": 9, "method": "' + b"x" * 200, limit=32)
    assert received == []
    assert written.messages() == [_refusal(-32600, f"a message over {LIMIT} bytes")]


def test_a_line_just_within_the_limit_is_read():
    message = {"jsonrpc": "2.0", "id": 1, "method": "m"}
    line = json.dumps(message, separators=(",", ":")).encode()
    received, written = _read(line + b"\n" + line + b"\n", limit=len(line) + 1)
    assert received == [message, message] and written.data == b""


def _send(*messages: dict, secrets: set[str]) -> Written:
    async def run() -> None:
        lines = Lines(asyncio.StreamReader(), written, secrets)  # type: ignore[arg-type]
        for message in messages:
            await lines.send(message)
        await lines.close()

    written = Written()
    asyncio.run(run())
    return written


def test_each_message_is_one_compact_line_in_utf8_with_every_key_masked():
    other = "sk-other-key-9876543210"
    written = _send({"jsonrpc": "2.0", "method": "m", "params": {"text": f"héllo {KEY} and {other}"}},
                    {"jsonrpc": "2.0", "id": 1, "result": None}, secrets={KEY, other})  # fmt: skip
    first, second = written.data.split(b"\n")[:2]
    assert first == '{"jsonrpc":"2.0","method":"m","params":{"text":"héllo [API key] and [API key]"}}'.encode()
    assert second == b'{"jsonrpc":"2.0","id":1,"result":null}'
    assert written.data.endswith(b"null}\n") and written.drained == 2 and written.closed


def test_a_lone_surrogate_is_written_escaped_not_refused():
    written = _send({"jsonrpc": "2.0", "method": "m", "params": {"text": "a\udc80b"}}, secrets=set())
    assert written.data == b'{"jsonrpc":"2.0","method":"m","params":{"text":"a\\udc80b"}}\n'


def test_c1_controls_line_separators_and_bidi_overrides_are_written_as_json_escapes():
    # an editor's log, or a terminal showing the stream, obeys none of them, and no line reader splits a message
    text = "a\x9b2J b\x85 c\u2028d\u2029 e\u202ef \x7f"
    written = _send({"jsonrpc": "2.0", "method": "m", "params": {"text": text}}, secrets=set())
    line = written.data.split(b"\n")[0]
    escaped = rb"a\u009b2J b\u0085 c\u2028d\u2029 e\u202ef \u007f"
    assert line == b'{"jsonrpc":"2.0","method":"m","params":{"text":"' + escaped + b'"}}'
    assert json.loads(line)["params"]["text"] == text


def test_a_line_over_the_limit_arriving_in_pieces_is_refused_whole_and_the_next_is_read():
    after = {"jsonrpc": "2.0", "id": 10, "method": "m"}
    pieces = [b'{"jsonrpc": "2.0", "id": 9, "method": "', b"x" * 100, b"y" * 100, b'"}\n' + json.dumps(after).encode()]

    async def run() -> list[dict]:
        reader = asyncio.StreamReader(limit=64)

        async def feed() -> None:
            for piece in pieces:  # each piece waits for the reader to take what came before it
                reader.feed_data(piece)
                for _ in range(5):
                    await asyncio.sleep(0)
            reader.feed_eof()

        feeding = asyncio.create_task(feed())
        lines = Lines(reader, written, set())  # type: ignore[arg-type]
        received = []
        while (message := await lines.receive()) is not None:
            received.append(message)
        await feeding
        return received

    written = Written()
    assert asyncio.run(run()) == [after]
    assert written.messages() == [_refusal(-32600, f"a message over {LIMIT} bytes")]


ECHO = """
import asyncio
from narnat_agent.acp.wire import Lines, stdio

async def main():
    reader, writer = await stdio(1)
    lines = Lines(reader, writer, set())
    while (message := await lines.receive()) is not None:
        await lines.send({"jsonrpc": "2.0", "id": message["id"], "result": len(message["params"]["text"])})

asyncio.run(main())
"""


@pytest.mark.slow  # a Python process of its own: stdio() reads the process's own stdin
def test_stdin_takes_a_prompt_with_a_whole_file_in_it():
    # asyncio's own limit of a line is 64 KB: a prompt carrying a file of a few thousand lines would be refused
    text = "x" * 200_000
    line = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "session/prompt", "params": {"text": text}}).encode()
    done = subprocess.run([sys.executable, "-c", ECHO], input=line + b"\n", capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [json.loads(reply) for reply in done.stdout.splitlines()] == [{"jsonrpc": "2.0", "id": 7, "result": 200_000}]
