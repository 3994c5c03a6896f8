"""The protocol's lines on the process's own stdin and stdout: newline-delimited JSON-RPC, each message whole.

The library's own stdio transport drops a line that is not JSON without a word, and a line that is JSON but not a
message (an array, a number) ends its receive loop; here each gets the error JSON-RPC prescribes and the connection
goes on. The key never leaves: every line is masked before it is written.
"""

import asyncio
import json
import os
from typing import Any

from acp import RequestError

from narnat_agent.inert import JSON_ESCAPES
from narnat_agent.keyguard import redact
from narnat_agent.logger import get_logger

LIMIT = 50 * 1024 * 1024  # one message: a prompt with a whole file in it fits (the library's own default)
log = get_logger("acp.wire")


def _problem(message: object) -> RequestError | None:
    """Why a parsed line is not a JSON-RPC 2.0 request, notification or response, if it is not one."""
    if not isinstance(message, dict):
        return RequestError.invalid_request({"reason": "a message is a JSON object"})
    if message.get("jsonrpc") != "2.0":
        return RequestError.invalid_request({"reason": 'a message carries "jsonrpc": "2.0"'})
    if "method" in message and not isinstance(message["method"], str):
        return RequestError.invalid_request({"reason": "a method is a string"})
    if "method" not in message and "id" not in message:
        return RequestError.invalid_request({"reason": "a message has a method, or is the response to an id"})
    return None


class Lines:
    """The connection's transport (acp's Transport protocol): messages in from `reader`, out through `writer`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, secrets: set[str]):
        self.reader, self.writer = reader, writer
        self.secrets = secrets  # the keys of every session opened so far
        self.lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        # written before any await: messages leave in the order they were sent, whichever task sent them
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).translate(JSON_ESCAPES)
        for secret in self.secrets:
            line = redact(line, secret)
        self.writer.write(line.encode("utf-8", "backslashreplace") + b"\n")
        async with self.lock:
            await self.writer.drain()

    async def receive(self) -> dict[str, Any] | None:
        """The next message; None at the end of input. A line that is not one is answered, and skipped."""
        while True:
            try:
                line = await self.reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as end:
                line = end.partial
                if not line.strip():
                    return None
            except asyncio.LimitOverrunError as over:  # the rest of the line is read and dropped
                await self._skip(over.consumed)
                await self._refuse(None, RequestError.invalid_request({"reason": f"a message over {LIMIT} bytes"}))
                continue
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError as e:
                log.warning("a line that is not JSON: %s", e)
                await self._refuse(None, RequestError.parse_error({"reason": str(e)}))
                continue
            if problem := _problem(message):
                await self._refuse(message.get("id") if isinstance(message, dict) else None, problem)
                continue
            return message

    async def _skip(self, consumed: int) -> None:
        await self.reader.readexactly(consumed)
        while True:
            try:
                await self.reader.readuntil(b"\n")
                return
            except asyncio.LimitOverrunError as over:
                await self.reader.readexactly(over.consumed)
            except asyncio.IncompleteReadError:
                return

    async def _refuse(self, message_id: object, error: RequestError) -> None:
        await self.send({"jsonrpc": "2.0", "id": message_id, "error": error.to_error_obj()})

    async def close(self) -> None:
        self.writer.close()


async def stdio(protocol_out: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Streams on stdin and on `protocol_out`, the stdout the process was given (fd 1 itself now goes to stderr)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(0, "rb", closefd=False))
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, os.fdopen(protocol_out, "wb"))
    return reader, asyncio.StreamWriter(transport, protocol, None, loop)
