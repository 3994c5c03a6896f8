"""A scripted OpenAI-compatible server on 127.0.0.1 that streams real SSE and records every request."""

import contextlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

from tests.loopback import LoopbackServer


@dataclass
class SSE:
    """A 200 event stream: each chunk is a dict (sent as JSON) or a raw string line."""

    chunks: list
    done: bool = True
    drop: bool = False  # close the connection after the chunks, without [DONE]
    headers: dict = field(default_factory=dict)
    delay: float = 0.0  # seconds between chunks, like a model generating
    gate: threading.Event | None = None  # the chunks wait for it: a test orders processes without timing
    trickle: str = ""  # sent again every `delay` seconds after the chunks, until the client hangs up (at most 60 s)
    chunked: bool = False  # framed as HTTP chunks, as hosted providers stream: a hang-up midway is a broken body


@dataclass
class Unanswered:
    """A server that accepts the request and never answers: it waits for the client to hang up."""


@dataclass
class Headers:
    """A server that answers with its status line, then one header line every `delay` seconds, never ending them,
    until the client hangs up (at most 60 s): each read gets its bytes within any read timeout."""

    delay: float = 0.05


@dataclass
class Status:
    """An HTTP error response."""

    code: int
    body: dict | str
    headers: dict = field(default_factory=dict)


@dataclass
class Raw:
    """Any response as bytes, headers and all: a compressed body, a page that is no event stream."""

    code: int
    body: bytes
    headers: dict = field(default_factory=dict)


def chunk(delta: dict | None = None, finish: str | None = None, **extra) -> dict:
    """One chat.completion.chunk with a single choice."""
    body = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "fake"}
    body["choices"] = [{"index": 0, "delta": delta or {}, "finish_reason": finish}]
    body.update(extra)
    return body


def usage(prompt: int | None = None, completion: int = 5, cached: int = 0) -> dict:
    """The final usage chunk, with empty choices. Without a prompt count the server counts the request it got, as
    a provider does (a token for every three characters of its JSON, a picture at a fixed price)."""
    return {
        "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "fake", "choices": [],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                  "total_tokens": None if prompt is None else prompt + completion,
                  "prompt_tokens_details": {"cached_tokens": cached}},
    }  # fmt: skip


def counted_as(reply: SSE, prompt: int, completion: int = 5) -> SSE:
    """The reply with the provider's count of its request given, so a test can show exact figures."""
    reply.chunks[-1] = usage(prompt, completion)
    return reply


def counted(item: dict | str, body: bytes) -> dict | str:
    """A usage chunk left to count, counted on the request's body: its text, and each picture at a fixed price."""
    if not isinstance(item, dict) or (item.get("usage") or {}).get("prompt_tokens", 0) is not None:
        return item
    text, pictures = re.subn(rb"data:image/[^\"]*", b"", body)
    prompt = len(text) // 3 + pictures * 1_000
    return {**item, "usage": {**item["usage"], "prompt_tokens": prompt,
                              "total_tokens": prompt + item["usage"]["completion_tokens"]}}  # fmt: skip


def text_reply(text: str, pieces: int = 3) -> SSE:
    """A plain answer split into a few content deltas, then stop and usage."""
    step = max(1, len(text) // pieces)
    parts = [text[i : i + step] for i in range(0, len(text), step)] or [""]
    chunks = [chunk({"role": "assistant", "content": ""})]
    chunks += [chunk({"content": p}) for p in parts]
    return SSE([*chunks, chunk(finish="stop"), usage()])


def raw_reply(text: str, cuts: tuple[int, ...] = (), finish: str = "stop") -> SSE:
    """A reply whose content is exactly `text`, streamed in pieces cut at the given positions, as a server sends
    what its parser did not recognise."""
    edges = [0, *cuts, len(text)]
    pieces = [text[a:b] for a, b in zip(edges, edges[1:], strict=False) if b > a]
    chunks = [chunk({"role": "assistant", "content": ""}), *(chunk({"content": p}) for p in pieces)]
    return SSE([*chunks, chunk(finish=finish), usage()])


def tool_reply(*calls: tuple[str, dict], text: str = "") -> SSE:
    """Tool calls in the OpenAI shape: id and name in the first fragment, arguments in two pieces."""
    chunks = [chunk({"role": "assistant", "content": text or None})]
    for i, (name, args) in enumerate(calls):
        raw = json.dumps(args)
        first = {"index": i, "id": f"call_{i}_{name}", "type": "function", "function": {"name": name, "arguments": ""}}
        chunks.append(chunk({"tool_calls": [first]}))
        half = len(raw) // 2
        for part in (raw[:half], raw[half:]):
            chunks.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": part}}]}))
    return SSE([*chunks, chunk(finish="tool_calls"), usage()])


class FakeLLM:
    def __init__(self) -> None:
        self.script: list = []
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.arrivals: list[float] = []  # time.perf_counter() when each request arrived
        self.answered: list[float] = []  # time.perf_counter() when each streamed answer had been sent whole
        self.asked = threading.Event()  # set when a request has arrived: a test waits for it instead of polling
        self.respond = None  # when set: the response chosen from each request's body, whatever the arrival order
        self.pages: dict[str, dict] = {}  # path -> JSON answered there (a server's own API, such as Ollama's)
        self.probes: list[tuple[str, dict | None]] = []  # (path, body) of each request to those pages
        self.probe_headers: list[dict] = []  # the headers of each of those requests, names in lower case
        self.models: list[str] | None = None  # what GET /v1/models lists; None: the endpoint has no such list
        self.loopback = LoopbackServer(self._handler())

    @property
    def base_url(self) -> str:
        return f"{self.loopback.root}/v1"

    def add(self, *responses) -> "FakeLLM":
        self.script.extend(responses)
        return self

    def close(self) -> None:
        self.loopback.close()

    def answer(self, request: dict):
        if self.respond:
            return self.respond(request)
        return self.script.pop(0) if self.script else Status(500, {"error": {"message": "no script"}})

    def page(self, path: str, body: dict | None) -> Status:
        """What a request outside chat completions gets: the model list, a page of the server's own API, or 404."""
        self.probes.append((path, body))
        if path.endswith("/models") and self.models is not None:
            listed = [{"id": name, "object": "model", "created": 0, "owned_by": "fake"} for name in self.models]
            return Status(200, {"object": "list", "data": listed})
        page = self.pages.get(path)
        return Status(200, page) if page is not None else Status(404, {"error": {"message": "not found"}})

    def _handler(self):
        return type("Handler", (_Handler,), {"fake": self})


class _Handler(BaseHTTPRequestHandler):
    fake: FakeLLM
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        self.fake.probe_headers.append({k.lower(): v for k, v in self.headers.items()})
        self._send(self.fake.page(self.path, None))

    def do_POST(self) -> None:
        fake = self.fake
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        arrived = time.perf_counter()  # before the body is parsed: a large one takes a while
        request = json.loads(body)
        if not self.path.endswith("/chat/completions"):
            fake.probe_headers.append({k.lower(): v for k, v in self.headers.items()})
            return self._send(fake.page(self.path, request))
        fake.arrivals.append(arrived)
        fake.requests.append(request)
        fake.headers.append({k.lower(): v for k, v in self.headers.items()})
        fake.asked.set()
        self._send(fake.answer(request), body)

    def _send(self, response, body: bytes = b"") -> None:
        if isinstance(response, Unanswered):
            self.connection.settimeout(60)
            self.rfile.read(1)  # returns when the client closes the connection
        elif isinstance(response, Headers):
            deadline = time.monotonic() + 60
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                while time.monotonic() < deadline:
                    self.wfile.write(b"X-Padding: a\r\n")
                    self.wfile.flush()
                    time.sleep(response.delay)
        elif isinstance(response, Raw):
            self.send_response(response.code)
            for k, v in {**response.headers, "Content-Length": str(len(response.body))}.items():
                self.send_header(k, v)
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client read what it wanted
                self.wfile.write(response.body)
        elif isinstance(response, Status):
            data = response.body if isinstance(response.body, str) else json.dumps(response.body)
            self.send_response(response.code)
            for k, v in {"Content-Type": "application/json", **response.headers}.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data.encode())))
            self.end_headers()
            self.wfile.write(data.encode())
        else:
            self._stream(response, body)

    def _stream(self, response: SSE, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        for k, v in response.headers.items():
            self.send_header(k, v)
        if response.chunked:
            self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        write = self._framed if response.chunked else self.wfile.write
        if response.gate:
            response.gate.wait(60)
        try:
            for item in response.chunks:
                item = counted(item, body)
                line = item if isinstance(item, str) else json.dumps(item)
                write(f"data: {line}\n\n".encode())
                self.wfile.flush()
                time.sleep(response.delay)
            self._trickle(response, write)
            if response.done and not response.drop and not response.trickle:
                write(b"data: [DONE]\n\n")
            if response.chunked and not response.drop and not response.trickle:
                self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            self.fake.answered.append(time.perf_counter())
        except (BrokenPipeError, ConnectionResetError):  # the client hung up: a cancel
            pass

    def _framed(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")

    def _trickle(self, response: SSE, write) -> None:
        deadline = time.monotonic() + 60
        while response.trickle and time.monotonic() < deadline:
            write(response.trickle.encode())
            self.wfile.flush()
            time.sleep(response.delay)
