"""A service (or a gateway before it) that quotes the request in its error message must not put
the token into the app's messages (black-box pass I3: "/dnc/insert: bad request:
phone_number=…&auth_token=…" reached the report's Rows sheet and the job file).

The sandbox never echoes a request, so a small HTTP server on loopback does: it answers every
call with HTTP 400 and a JSON error quoting the request body in one of the forms such services
use (the form body itself, its fields as JSON, the token decoded).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, quote_plus

import pytest

from app.api.client import ApiClient
from app.api.errors import ApiError
from app.api.scope import Scope
from app.api.transport import NO_RETRY

# A token with characters that URL, JSON and HTML encodings all change.
ODD_TOKEN = 'Tok+en/with=odd&chars%41"é<x>'
PLAIN_TOKEN = "SimpleTok123XYZ"


def _echo(body: str, form: str) -> str:
    fields = {k: v[0] for k, v in parse_qs(body).items()}
    if form == "body":
        return f"bad request: {body}"
    if form == "json":
        return f"bad request: {json.dumps(fields)}"
    if form == "decoded":
        return f"token {fields.get('auth_token', '')} is not allowed here"
    raise AssertionError(form)


class _Echo(BaseHTTPRequestHandler):
    form = "body"

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode("utf-8")
        answer = json.dumps({"success": False, "error": _echo(body, self.form)}).encode()
        self.send_response(400)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def echo_server() -> Iterator[tuple[str, type[_Echo]]]:
    handler = type("Echo", (_Echo,), {})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("token", [PLAIN_TOKEN, ODD_TOKEN])
@pytest.mark.parametrize("form", ["body", "json", "decoded"])
def test_an_error_quoting_the_request_does_not_carry_the_token(
    echo_server: tuple[str, type[_Echo]], token: str, form: str
) -> None:
    url, handler = echo_server
    handler.form = form
    with ApiClient(url, token, retry=NO_RETRY) as api, pytest.raises(ApiError) as caught:
        api.insert_dnc("3035550101", "1", Scope.global_())
    exc = caught.value
    shown = [str(exc), repr(exc), exc.describe(), exc.message, *map(str, exc.args)]
    for text in shown:
        for leaked in {token, quote(token, safe=""), quote_plus(token), json.dumps(token)[1:-1]}:
            assert leaked not in text, (form, text)
    # The rest of the server's words are kept: they say what was wrong.
    assert "3035550101" in exc.message or form == "decoded"
    assert "***" in exc.message
