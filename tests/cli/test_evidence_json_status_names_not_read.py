"""``dnc-desk evidence`` through a service whose status search fails for one status code (B36
F1's failure mode): the pack names the code and why in its Summary ("Status names not read"),
and ``--json`` said nothing of it, so a script read its leads' status names as known. It now
has ``status_names_not_read`` (code: why), and the printed summary names the code. The service
is the sandbox behind a small loopback proxy failing that code's /status/search."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.test_status_query_evidence import NUMBER, _leads
from tests.loopback_proxy import Answer, Forward, proxies


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.fixture
def failing_status() -> Iterator[Callable[[str, str], str]]:
    """``make(sandbox_url, code)``: the base URL of a loopback proxy of the sandbox whose
    /status/search of ``code`` answers HTTP 500, every other request forwarded."""
    with proxies() as serve:

        def make(target: str, code: str) -> str:
            def answer(path: str, params: dict[str, list[str]], forward: Forward) -> Answer:
                if path.endswith("/status/search") and params.get("query", [""])[0] == code:
                    content = json.dumps({"success": False, "error": "Internal error"}).encode()
                    return 500, "application/json", content
                return forward()

            return serve(target, answer)

        yield make


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
