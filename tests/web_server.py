"""A local HTTP server that answers from a route table: saved real pages and crafted responses."""

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlparse

from tests.loopback import LoopbackServer

FIXTURES = Path(__file__).parent / "fixtures" / "web"


def fixture(relative: str) -> bytes:
    """A saved page; captures that start with HTTP headers are served from <!DOCTYPE on."""
    data = (FIXTURES / relative).read_bytes()
    start = data.find(b"<!DOCTYPE")
    return data[start:] if relative.endswith("with-http-headers.html") and start > 0 else data


@dataclass
class Page:
    body: bytes | str = b""
    status: int = 200
    headers: dict = field(default_factory=lambda: {"Content-Type": "text/html; charset=utf-8"})
    delay: float = 0.0
    on_request: Callable[[], object] | None = None  # what happens while the client waits for the answer


class WebServer:
    def __init__(self) -> None:
        self.routes: dict[str, Page] = {}
        self.requests: list[tuple[str, str, dict, bytes]] = []
        self.loopback = LoopbackServer(self._handler())

    @property
    def url(self) -> str:
        return self.loopback.root

    def route(self, path: str, page: Page) -> None:
        self.routes[path] = page

    def close(self) -> None:
        self.loopback.close()

    def _handler(self):
        web = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _answer(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
                web.requests.append((self.command, self.path, dict(self.headers), body))
                page = web.routes.get(self.path) or web.routes.get(urlparse(self.path).path)
                if page is None:
                    page = Page(b"not found", 404, {"Content-Type": "text/plain"})
                if page.on_request:
                    page.on_request()
                time.sleep(page.delay)
                data = page.body.encode() if isinstance(page.body, str) else page.body
                try:
                    self.send_response(page.status)
                    for key, value in page.headers.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = _answer

        return Handler
