"""Secret redaction in strings and in every log path httpx/httpcore/uvicorn records take."""

from __future__ import annotations

import io
import logging
import threading
from collections.abc import Iterator

import pytest

from app.core import redaction
from app.core.redaction import (
    SECRETS,
    RedactingFilter,
    SecretRegistry,
    install_log_redaction,
)

TOKEN = "tok-log-9c8b7a6f5e4d"
B64_TOKEN = "AbC+/dEf=="


def test_registry_redacts_registered_secrets() -> None:
    reg = SecretRegistry()
    assert reg.redact(f"Bearer {TOKEN}") == f"Bearer {TOKEN}"
    reg.add(TOKEN)
    reg.add("abc")  # too short to redact safely: ignored
    assert reg.redact(f"Authorization: Bearer {TOKEN}; again {TOKEN}") == (
        "Authorization: Bearer ***; again ***"
    )
    assert reg.redact("abc") == "abc"
    assert TOKEN not in repr(reg) and len(reg) == 1
    reg.discard(TOKEN)
    assert reg.redact(TOKEN) == TOKEN


def test_registry_prefers_the_longest_secret() -> None:
    reg = SecretRegistry()
    reg.add("secret")
    reg.add("secret-extended")
    assert reg.redact("x secret-extended y") == "x *** y"


def test_registry_redacts_url_encoded_forms() -> None:
    reg = SecretRegistry()
    reg.add(B64_TOKEN)
    assert reg.redact("token=AbC%2B%2FdEf%3D%3D&x=1") == "token=***&x=1"
    assert reg.redact("q=AbC%2B%2FdEf%3D%3D") == "q=***"
    assert reg.redact(f"raw {B64_TOKEN}") == "raw ***"


def test_registry_redacts_the_secret_in_any_case() -> None:
    # Black-box B23 F2: a service quoting the token upper-cased gives it back to anyone who
    # lowers it; a log line or journal field holding it so is redacted too.
    reg = SecretRegistry()
    reg.add(TOKEN)
    reg.add(B64_TOKEN)
    assert reg.redact(f"token {TOKEN.upper()} rejected") == "token *** rejected"
    assert reg.redact(f"a {TOKEN.swapcase()} b {B64_TOKEN.lower()}") == "a *** b ***"
    assert reg.redact("q=abc%2b%2fdef%3d%3d") == "q=***"


def test_registry_is_thread_safe() -> None:
    reg = SecretRegistry()
    errors: list[BaseException] = []
    stop = threading.Event()

    def reader() -> None:
        try:
            while not stop.is_set():
                assert "fixed-secret-0" not in reg.redact("a fixed-secret-0 b") or len(reg) == 0
        except BaseException as exc:
            errors.append(exc)

    reg.add("fixed-secret-0")
    threads = [threading.Thread(target=reader) for _ in range(4)]
    for t in threads:
        t.start()
    for i in range(100):
        reg.add(f"rotating-secret-{i}")
        reg.discard(f"rotating-secret-{i - 1}")
    stop.set()
    for t in threads:
        t.join()
    assert not errors


@pytest.fixture
def redaction_installed() -> Iterator[None]:
    """Install log redaction for one test and undo it, so other tests see stock logging."""
    factory = logging.getLogRecordFactory()
    loggers = [logging.getLogger(n) for n in redaction.NOISY_LOGGERS]
    root_handlers = list(logging.getLogger().handlers)
    SECRETS.add(TOKEN)
    SECRETS.add(B64_TOKEN)
    install_log_redaction()
    install_log_redaction()  # idempotent
    try:
        yield
    finally:
        SECRETS.discard(TOKEN)
        SECRETS.discard(B64_TOKEN)
        logging.setLogRecordFactory(factory)
        redaction._installed_factory = None
        for filterer in [*loggers, *root_handlers]:
            for f in list(filterer.filters):
                if isinstance(f, RedactingFilter):
                    filterer.removeFilter(f)


def test_install_is_idempotent(redaction_installed: None) -> None:
    httpx_filters = [
        f for f in logging.getLogger("httpx").filters if isinstance(f, RedactingFilter)
    ]
    assert len(httpx_filters) == 1


def test_httpcore_debug_record_is_redacted(
    redaction_installed: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="httpcore")
    caplog.set_level(logging.DEBUG, logger="httpx")
    body = f"phone=%2B12025550123&token={TOKEN}".encode()
    logging.getLogger("httpcore.http11").debug("send_request_body.started request=%r", body)
    logging.getLogger("httpx").debug(
        "HTTP Request: %s %s", "POST", "https://api.example.com/v1/dnc?t=AbC%2B%2FdEf%3D%3D"
    )
    assert TOKEN not in caplog.text and "AbC%2B" not in caplog.text
    messages = [r.getMessage() for r in caplog.records]
    assert messages[0] == "send_request_body.started request=b'phone=%2B12025550123&token=***'"
    assert messages[1].endswith("/v1/dnc?t=***")


def test_handlers_added_later_and_child_loggers_are_covered(redaction_installed: None) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    child = logging.getLogger("uvicorn.access.deep.child")
    child.addHandler(handler)
    child.setLevel(logging.DEBUG)
    try:
        child.info('"GET /v1/dnc?token=%s HTTP/1.1" 200', TOKEN)
        try:
            raise ValueError(f"bad token {TOKEN}")
        except ValueError:
            child.exception("failed with %s", TOKEN, stack_info=True)
    finally:
        child.removeHandler(handler)
        child.setLevel(logging.NOTSET)
    output = stream.getvalue()
    assert "token=***" in output and "bad token ***" in output
    assert TOKEN not in output


def test_records_built_without_the_factory_are_filtered_by_handlers(
    redaction_installed: None,
) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        install_log_redaction()  # the app calls it after configuring its handlers
        record = logging.makeLogRecord(
            {"name": "httpcore.connection", "msg": "auth %s", "args": (TOKEN,), "levelno": 10}
        )
        root.handlers[-1].handle(record)
    finally:
        root.removeHandler(handler)
        handler.removeFilter(next(f for f in handler.filters if isinstance(f, RedactingFilter)))
    assert stream.getvalue() == "auth ***\n"


def test_filter_without_secrets_keeps_the_record() -> None:
    record = logging.makeLogRecord({"msg": "count=%d", "args": (3,)})
    assert RedactingFilter(SecretRegistry()).filter(record)
    assert record.msg == "count=%d" and record.args == (3,)


def test_uvicorn_access_formatter_still_gets_its_five_args(redaction_installed: None) -> None:
    from uvicorn.logging import AccessFormatter

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(
        AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s', use_colors=False)
    )
    access = logging.getLogger("uvicorn.access")
    access.addHandler(handler)
    old_level = access.level
    access.setLevel(logging.INFO)
    try:
        access.info(
            '%s - "%s %s HTTP/%s" %d',
            "127.0.0.1:5555",
            "GET",
            f"/v1/dnc/search?token={TOKEN}",
            "1.1",
            200,
        )
    finally:
        access.removeHandler(handler)
        access.setLevel(old_level)
    assert stream.getvalue() == '127.0.0.1:5555 - "GET /v1/dnc/search?token=*** HTTP/1.1" 200 OK\n'


def test_secret_in_the_format_string_is_redacted(redaction_installed: None) -> None:
    record = logging.getLogger("app.test").makeRecord(
        "app.test", logging.INFO, __file__, 1, f"token {TOKEN} used %d times", (2,), None
    )
    assert record.getMessage() == "token *** used 2 times"
    assert TOKEN not in str(record.msg) and not record.args


def test_real_httpx_request_logs_are_redacted(
    redaction_installed: None, caplog: pytest.LogCaptureFixture
) -> None:
    import http.server

    import httpx

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(401)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            logging.getLogger("uvicorn.error").info(format, *args)

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    caplog.set_level(logging.DEBUG)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{server.server_port}") as client:
            response = client.post(
                f"/v1/dnc/search?token={TOKEN}",
                headers={"Authorization": f"Bearer {TOKEN}"},
                data={"token": TOKEN, "phone": "+12025550123"},
            )
        assert response.status_code == 401
    finally:
        server.shutdown()
        server.server_close()
    logged = caplog.text
    assert "/v1/dnc/search?token=***" in logged  # the logs did see the URL
    assert TOKEN not in logged
