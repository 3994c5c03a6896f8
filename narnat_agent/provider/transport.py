"""One request to an OpenAI-compatible endpoint and its server-sent events, failing as the openai SDK fails.

The openai package stays the protocol's reference; importing it builds some 680 model classes Narnat never uses
(0.4–0.6 s before the first request). This module sends the same request through the same HTTP client, httpx2 (the
SDK's own transport: the same proxies, trust store and kept-alive connections), with a body Narnat already holds, and
hands the chunks on as the dicts they are. Its errors carry what the SDK's carried: a status error its status, the
provider's body and the headers; a connection error "Connection error."; a timeout "Request timed out.".
"""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from narnat_agent import __version__

if TYPE_CHECKING:
    import httpx2

CONNECT_TIMEOUT = 15.0
MAX_LINE = 32 * 2**20  # bytes of one line of the stream: far past any event of an answer
MAX_ERROR_BODY = 2**20  # bytes of a refusal's body read: its message is in the first few hundred


class APIError(Exception):
    """A failure of the request; `message` and `body` as the SDK's APIError had them."""

    def __init__(self, message: str, body: object = None):
        super().__init__(message)
        self.message, self.body = message, body


class StatusError(APIError):
    """The provider answered 4xx or 5xx; `body` is its JSON's "error" (or the JSON, or the text)."""

    def __init__(self, message: str, body: object, status_code: int, headers: httpx2.Headers):
        super().__init__(message, body)
        self.status_code, self.headers = status_code, headers


class ConnectionFailed(APIError):
    """No answer could be had, or the stream broke; `__cause__` is the transport's own exception."""

    def __init__(self, message: str = "Connection error."):
        super().__init__(message)


class TimedOut(ConnectionFailed):
    def __init__(self) -> None:
        super().__init__("Request timed out.")

    @property
    def silent_server(self) -> bool:
        """The server accepted the connection and sent nothing within the read timeout."""
        import httpx2

        return isinstance(self.__cause__, httpx2.ReadTimeout)


class LineTooLong(ValueError):
    """The stream holds a line longer than any event of an answer: it is not read further."""


def _failures() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """The transport's timeouts, and its other request failures (a TLS failure it does not map included)."""
    import httpx2

    return (httpx2.TimeoutException,), (httpx2.RequestError, ssl.SSLError)


def status_error(response: httpx2.Response, read: bytes) -> StatusError:
    """The SDK's status error: the message names the code and the provider's message; the body is its "error"
    (`read`: as much of it as was read)."""
    message = f"Error code: {response.status_code}"
    text = read.decode(response.encoding or "utf-8", "replace").strip()
    body: object = text
    with contextlib.suppress(ValueError):
        body = json.loads(text)
        error = body.get("error", body) if isinstance(body, dict) else None
        said = error.get("message") if isinstance(error, dict) else None
        if isinstance(said, str) and said:
            message += f" - {said}"
    data = body.get("error", body) if isinstance(body, dict) else body
    return StatusError(message, data, response.status_code, response.headers)


class Events:
    """A 200 response's server-sent events, as the JSON objects their data holds, until [DONE] or the end."""

    def __init__(self, response: httpx2.Response):
        self.response = response

    def __iter__(self) -> Iterator[object]:
        timeouts, failures = _failures()
        events = 0
        try:
            for data in _data(self.response.iter_bytes()):
                events += 1
                if data.startswith("[DONE]"):
                    return
                value = json.loads(data)  # a line that is not JSON is the caller's to name
                if isinstance(value, dict) and value.get("error"):
                    error = value["error"]
                    said = error.get("message") if isinstance(error, dict) else None
                    raise APIError(said if isinstance(said, str) and said else "An error occurred during streaming",
                                   error)  # fmt: skip
                yield value
            kind = self.response.headers.get("content-type", "").split(";")[0].strip()
            if not events and kind and kind != "text/event-stream":  # a login page, a base_url missing its /v1
                raise APIError(f"it answered {kind}, not an event stream: check base_url")
        except timeouts as e:
            raise TimedOut from e
        except failures as e:
            raise ConnectionFailed from e

    def close(self) -> None:
        self.response.close()

    def hang_up(self) -> None:
        """End the stream from another thread: shutting its socket down wakes the read waiting on it."""
        network = self.response.extensions.get("network_stream")
        sock = network.get_extra_info("socket") if network is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def _lines(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """The stream's lines: they end at CR, LF or CRLF. A line split over many chunks is joined once, at its end; one
    longer than MAX_LINE is a broken provider (a compressed body that unpacks to gigabytes without a line end)."""
    pending = bytearray()
    for chunk in chunks:
        pending += chunk
        if b"\n" not in chunk and b"\r" not in chunk:
            if len(pending) > MAX_LINE:
                raise LineTooLong(f"a line of the stream is longer than {MAX_LINE // 2**20} MB")
            continue
        lines = bytes(pending).replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
        rest = lines.pop()
        if pending.endswith(b"\r"):  # maybe the first half of a CRLF: the line ends once the next byte is known
            rest = lines.pop() + b"\r"
        pending = bytearray(rest)
        yield from lines
    if pending.endswith(b"\r"):  # the stream ended: that CR ended a line
        yield bytes(pending[:-1])


def _data(chunks: Iterator[bytes]) -> Iterator[str]:
    """The data of each event (its data lines joined), as the SDK's decoder reads a stream: a blank line ends an
    event, a line starting with ':' is a comment (a keep-alive), fields other than these four are ignored."""
    data: list[str] = []
    pending = False
    for raw in _lines(chunks):
        line = raw.decode("utf-8")
        if not line:
            if pending:
                yield "\n".join(data)
            data, pending = [], False
        elif not line.startswith(":"):
            field, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if field == "data":
                data.append(value)
            pending = pending or field in ("data", "event", "id") or field == "retry" and value.isdigit()


class Transport:
    """The HTTP client of one endpoint, made once and kept (its connections are reused)."""

    def __init__(self, base_url: str, api_key: str, read_timeout: float):
        import httpx2

        self.base_url = base_url.rstrip("/")
        self.headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json",
                        "Accept": "application/json", "User-Agent": f"narnat/{__version__}"}  # fmt: skip
        # the read timeout is the longest silence allowed between two bytes of the stream
        self.http = httpx2.Client(timeout=httpx2.Timeout(read_timeout, connect=CONNECT_TIMEOUT), follow_redirects=True)
        self.sockets: list[socket.socket] = []  # of the connections made, for hang_up before an answer exists

    def stream(self, path: str, body: list[bytes]) -> Events:
        """POST the body (its pieces sent one after the other, none copied) and open the answer as events; a refusal
        is a StatusError, no answer a ConnectionFailed."""
        length = {"Content-Length": str(sum(len(piece) for piece in body))}  # else the pieces would go chunked
        request = self.http.build_request("POST", f"{self.base_url}{path}", content=body,
                                          headers={**self.headers, **length},
                                          extensions={"trace": self._trace})  # fmt: skip
        return Events(self._send(request, stream=True))

    def _trace(self, event: str, info: dict) -> None:
        """Keep each connection's socket as it is made (TLS wraps it in a new one)."""
        if event in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            sock = info["return_value"].get_extra_info("socket")
            self.sockets = [s for s in self.sockets if s.fileno() != -1]
            if sock is not None:
                self.sockets.append(sock)

    def hang_up(self) -> None:
        """End, from another thread, a request whose answer has not begun: a server that sends its headers a line at a
        time keeps every read within the read timeout. Every connection goes (the idle ones are made again)."""
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def get_json(self, path: str, timeout: float) -> object:
        """A page as JSON, whole within `timeout` (a server that drips it held /model, which nothing interrupts)."""
        timeouts, failures = _failures()
        request = self.http.build_request("GET", f"{self.base_url}{path}", headers=self.headers, timeout=timeout)
        response = self._send(request, stream=True)
        deadline, data = time.monotonic() + timeout, bytearray()
        try:
            for piece in response.iter_bytes():
                data += piece
                if time.monotonic() > deadline or len(data) > MAX_ERROR_BODY * 16:
                    raise TimedOut
        except timeouts as e:
            raise TimedOut from e
        except failures as e:
            raise ConnectionFailed from e
        finally:
            response.close()
        try:
            return json.loads(bytes(data))
        except ValueError as e:
            raise APIError(f"not JSON: {e}") from None

    def _send(self, request: httpx2.Request, stream: bool) -> httpx2.Response:
        timeouts, failures = _failures()
        try:
            response = self.http.send(request, stream=stream)
        except timeouts as e:
            raise TimedOut from e
        except failures as e:
            raise ConnectionFailed from e
        if response.status_code >= 400:
            data = bytearray()
            try:  # at most MAX_ERROR_BODY: a compressed body may unpack to gigabytes
                for piece in response.iter_bytes():
                    data += piece
                    if len(data) >= MAX_ERROR_BODY:
                        break
            except (*timeouts, *failures):
                pass  # the error says what it can without its body
            finally:
                response.close()
            raise status_error(response, bytes(data[:MAX_ERROR_BODY]))
        return response
