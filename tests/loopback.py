"""A threaded HTTP server on 127.0.0.1 for the test doubles at the boundary (the model, the web)."""

import threading
from http.server import ThreadingHTTPServer


class LoopbackServer:
    def __init__(self, handler: type) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
