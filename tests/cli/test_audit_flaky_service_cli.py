"""``dnc-desk audit`` on a flaky service (black-box bb7 #1): a number whose look-up the service
fails in every round leaves the audit not clean (exit 3, as for entries not read), the report is
still written and the output names the number and says to run the audit again; a read the audit
cannot go on without ends it with exit 1 and says what to do.

The sandbox is reached over loopback HTTP; the requests chosen are broken on the way, as the
flaky service broke them (the connection closed before the answer)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.cli.main import main
from tests.conftest import TOKEN

Chooses = Callable[[str, dict[str, list[str]]], bool]


@pytest.fixture
def breaks(monkeypatch: pytest.MonkeyPatch) -> Callable[[Chooses], None]:
    """``breaks(chooses)``: every request ``chooses`` picks has its connection broken, the
    client's waits between attempts shortened so the test stays quick."""
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    monkeypatch.setattr(RetryPolicy, "delay", lambda self, n, rng: 0.001)
    forward = httpx.HTTPTransport.handle_request

    def install(chooses: Chooses) -> None:
        def handle(self: httpx.HTTPTransport, request: httpx.Request) -> httpx.Response:
            if chooses(request.url.path, parse_qs(request.read().decode())):
                raise httpx.RemoteProtocolError("peer closed connection", request=request)
            return forward(self, request)

        monkeypatch.setattr(httpx.HTTPTransport, "handle_request", handle)

    return install


def _clean_campaign(sandbox: Any, api: ApiClient) -> str:
    camp = sandbox.seed_campaign("Clean campaign")
    list_id = api.insert_list("Clean list", camp)
    api.insert_lead(list_id, "2025550150")
    api.insert_lead(list_id, "2025550151")
    api.insert_dnc("2025550199", "1", Scope.global_())
    return str(camp)


def test_a_number_never_looked_up_exits_3_with_the_report(
    sandbox: Any,
    api: ApiClient,
    breaks: Callable[[Chooses], None],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    camp = _clean_campaign(sandbox, api)
    breaks(lambda path, params: params.get("phone_number") == ["2025550150"])
    out_path = tmp_path / "audit.xlsx"
    status = main(
        ["audit", "campaign", camp, "--base-url", sandbox.base_url, "--out", str(out_path),
         "--max-download-pages", "0"]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 3, err
    assert "NOT clean" in out
    assert "1 number not checked (the service failed their searches): run the audit again." in out
    assert "+1 2025550150" in out
    assert out_path.is_file() and f"Report: {out_path.resolve()}" in out


def test_a_campaign_whose_leads_cannot_be_read_says_what_to_do(
    sandbox: Any,
    api: ApiClient,
    breaks: Callable[[Chooses], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    camp = _clean_campaign(sandbox, api)
    breaks(lambda path, params: path.endswith("/leads/search"))
    status = main(["audit", "campaign", camp, "--base-url", sandbox.base_url])
    _, err = capsys.readouterr()
    assert status == 1
    assert "The audit could not finish" in err
    assert "run the audit again later, or with a lower --concurrency." in err


def test_json_counts_the_numbers_not_checked_with_exit_3(
    sandbox: Any,
    api: ApiClient,
    breaks: Callable[[Chooses], None],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """``--json`` has the count at its top level (it was only inside ``strategies[].why``),
    the same count the exit status 3 and the text's sentence stand for."""
    camp = _clean_campaign(sandbox, api)
    failing = {"2025550150", "2025550151"}
    breaks(lambda path, params: bool(failing & set(params.get("phone_number", []))))
    args = ["audit", "campaign", camp, "--base-url", sandbox.base_url,
            "--max-download-pages", "0"]  # fmt: skip
    status = main([*args, "--out", str(tmp_path / "a.xlsx"), "--json"])
    out, err = capsys.readouterr()
    assert status == 3, err
    found = json.loads(out)
    assert found["numbers_not_checked"] == 2
    assert found["clean"] is False and found["conflicts"] == 0
    status = main([*args, "--out", str(tmp_path / "b.xlsx")])
    out, _ = capsys.readouterr()
    assert status == 3
    assert "2 numbers not checked (the service failed their searches)" in out


def test_json_of_a_clean_audit_counts_no_number_not_checked(
    sandbox: Any, api: ApiClient, capsys: pytest.CaptureFixture[str], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    camp = _clean_campaign(sandbox, api)
    status = main(
        ["audit", "campaign", camp, "--base-url", sandbox.base_url, "--json",
         "--out", str(tmp_path / "a.xlsx"), "--max-download-pages", "0"]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 0, err
    found = json.loads(out)
    assert found["numbers_not_checked"] == 0 and found["clean"] is True
