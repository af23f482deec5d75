"""``dnc-desk evidence`` through a service whose status search fails for one status code (B36
F1's failure mode): the pack names the code and why in its Summary ("Status names not read"),
and ``--json`` said nothing of it, so a script read its leads' status names as known. It now
has ``status_names_not_read`` (code: why), and the printed summary names the code. The service
is the sandbox behind a small loopback proxy failing that code's /status/search."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.test_status_query_evidence import NUMBER, _leads


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.fixture
def failing_status() -> Iterator[Callable[[str, str], str]]:
    """``make(sandbox_url, code)``: the base URL of a loopback proxy of the sandbox whose
    /status/search of ``code`` answers HTTP 500, every other request forwarded."""
    servers: list[ThreadingHTTPServer] = []
    clients: list[httpx.Client] = []

    def make(target: str, code: str) -> str:
        http = httpx.Client(base_url=target, timeout=30)
        clients.append(http)

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                query = parse_qs(body.decode()).get("query", [""])[0]
                if self.path.endswith("/status/search") and query == code:
                    status, kind = 500, "application/json"
                    content = json.dumps({"success": False, "error": "Internal error"}).encode()
                else:
                    headers = {
                        k: v
                        for k, v in self.headers.items()
                        if k.lower() not in ("host", "content-length", "connection")
                    }
                    answer = http.post(self.path, content=body, headers=headers)
                    status, content = answer.status_code, answer.content
                    kind = answer.headers.get("content-type", "text/plain")
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield make
    for server in servers:
        server.shutdown()
        server.server_close()
    for http in clients:
        http.close()


def test_evidence_json_names_the_status_codes_whose_names_were_not_read(
    sandbox: Any,
    api: ApiClient,
    failing_status: Callable[[str, str], str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    _leads(sandbox, api)
    url = ["--base-url", failing_status(sandbox.base_url, "REVW1")]
    assert main(["evidence", NUMBER, *url, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["status_names_not_read"]) == ["REVW1"]
    assert "/status/search" in data["status_names_not_read"]["REVW1"]
    assert main(["evidence", NUMBER, *url]) == 0
    out = capsys.readouterr().out
    assert "Status REVW1: its name could not be read (" in out
    assert "so the status name of its leads is not known." in out
    assert "Status DNC" not in out

    # A service whose status search answers: the key is there, empty, and nothing printed.
    assert main(["evidence", NUMBER, "--base-url", sandbox.base_url, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status_names_not_read"] == {}
