"""A proxy of the sandbox on loopback whose answers a test chooses: for faults of a real
service the sandbox cannot make (one search failing, pages cut short), while every other
request reaches the sandbox over HTTP as the app sends it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import httpx

# (HTTP status, content type, body)
Answer = tuple[int, str, bytes]
# The sandbox's answer to the request being proxied.
Forward = Callable[[], Answer]
# ``answer(path, form fields, forward)``: the answer to give.
Answering = Callable[[str, dict[str, list[str]], Forward], Answer]
_HOP_BY_HOP = ("host", "content-length", "connection")


@contextmanager
def proxies() -> Iterator[Callable[[str, Answering], str]]:
    """``serve(sandbox_url, answer)`` starts a proxy of that sandbox answering with ``answer``
    and returns its base URL; every proxy (and its client) is stopped on leaving."""
    servers: list[ThreadingHTTPServer] = []
    clients: list[httpx.Client] = []

    def serve(target: str, answer: Answering) -> str:
        http = httpx.Client(base_url=target, timeout=30)
        clients.append(http)

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP}

                def forward() -> Answer:
                    got = http.post(self.path, content=body, headers=headers)
                    return (
                        got.status_code,
                        got.headers.get("content-type", "text/plain"),
                        got.content,
                    )

                status, kind, content = answer(self.path, parse_qs(body.decode()), forward)
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, format: str, *args: Any) -> None:
                return  # the test's output is its assertions

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    try:
        yield serve
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
        for client in clients:
            client.close()
