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
from app.api.transport import NO_RETRY, TOKEN_WITHHELD

# A token with characters that URL, JSON and HTML encodings all change.
ODD_TOKEN = 'Tok+en/with=odd&chars%41"é<x>'
PLAIN_TOKEN = "SimpleTok123XYZ"
HEX_TOKEN = "f3a9c1d2e4b5Zq7mk5a6b7c8d9e0f1a2b3c4d5e6"
MARKUP_TOKEN = '<b>"Zq7mk2"</b>&amp;=='


def _pieces(token: str, size: int = 8) -> set[str]:
    """Every run of ``size`` characters of the token, and of its URL-encoded forms."""
    forms = {token, quote(token, safe=""), quote(quote(token, safe=""), safe="")}
    return {f[i : i + size] for f in forms for i in range(len(f) - size + 1)}


def _echo(body: str, form: str) -> str:
    fields = {k: v[0] for k, v in parse_qs(body).items()}
    if form == "body":
        return f"bad request: {body}"
    if form == "json":
        return f"bad request: {json.dumps(fields)}"
    if form == "decoded":
        return f"token {fields.get('auth_token', '')} is not allowed here"
    token = fields.get("auth_token", "")
    # Re-test J2: a quote cut short, the token encoded twice, the fields as a dict cut short.
    if form == "cut":
        return f"token {token[:-3]}... rejected"
    if form == "twice":
        return f"failed {quote(quote(token, safe=''), safe='')}"
    if form == "dict cut":
        return f"bad request: {str(fields)[:-6]}"
    # Black-box B23 F2: the token quoted in upper case (or cut short so) went whole into a
    # report, a job file and the journal; lowering it gives the token back.
    if form == "upper":
        return f"token {token.upper()} rejected"
    if form == "swapped cut":
        return f"token {token.swapcase()[:-3]}... rejected"
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
        """Quiet: http.server writes every request line to stderr otherwise."""


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


@pytest.mark.parametrize("token", [PLAIN_TOKEN, ODD_TOKEN, HEX_TOKEN, MARKUP_TOKEN])
@pytest.mark.parametrize("form", ["body", "json", "decoded", "cut", "twice", "dict cut"])
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
        # Nor any eight characters of it, as given or encoded (a quote cut short).
        assert not [p for p in _pieces(token) if p in text], (form, text)
    # The rest of the server's words are kept where the token could be taken out of them.
    if form in ("body", "json", "dict cut"):
        assert "3035550101" in exc.message
    assert "***" in exc.message or TOKEN_WITHHELD in exc.message


@pytest.mark.parametrize("token", [PLAIN_TOKEN, ODD_TOKEN, HEX_TOKEN, MARKUP_TOKEN])
@pytest.mark.parametrize("form", ["upper", "swapped cut"])
def test_the_token_quoted_in_another_case_is_not_shown(
    echo_server: tuple[str, type[_Echo]], token: str, form: str
) -> None:
    url, handler = echo_server
    handler.form = form
    with ApiClient(url, token, retry=NO_RETRY) as api, pytest.raises(ApiError) as caught:
        api.insert_dnc("3035550101", "1", Scope.global_())
    exc = caught.value
    for text in (str(exc), repr(exc), exc.describe(), exc.message, *map(str, exc.args)):
        folded = text.lower()
        assert not [p for p in _pieces(token) if p.lower() in folded], (form, text)
    assert "***" in exc.message or TOKEN_WITHHELD in exc.message
