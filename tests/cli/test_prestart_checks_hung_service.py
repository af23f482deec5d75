"""The checks before a job or an export starts, against a service that takes the requests and
never answers them (re-test R2 #1).

``import one.csv --base-url URL --json`` at a hung service (a proxy that reads requests and
never answers, a stopped sandbox) was silent for about four minutes: the campaign-list check
was sent 8 times, each waiting the whole 30 s timeout, then the import was refused with "the
service … cannot be reached", although it took every connection. Now the checks say on stderr
when the service has answered nothing for a while, as a running job does, give up after a few
unanswered tries, and say the service did not answer within how long; nothing is sent and no
job is made. A refused connection still "cannot be reached".

The service is a real socket server over loopback (:class:`Gateway`, before a sandbox); the
client's timeout and the notices' intervals are shortened here.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli import connection_args
from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN
from tests.core.test_job_hung_service_stop import Gateway

PHONE = "2025550142"


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    monkeypatch.setattr(connection_args, "REQUEST_TIMEOUT", 1.0)
    monkeypatch.setattr(connection_args, "CHECK_WAITING_AFTER", 0.4)
    monkeypatch.setattr(connection_args, "CHECK_WAITING_EVERY", 0.8)


@pytest.fixture
def gateway(sandbox: Any) -> Iterator[Gateway]:
    host, port = sandbox.base_url.split("//", 1)[1].rsplit(":", 1)
    proxy = Gateway((host, int(port.rstrip("/"))))
    yield proxy
    proxy.close()


def _one_csv(tmp_path: Path) -> Path:
    src = tmp_path / "one.csv"
    src.write_text(f"phone\n{PHONE}\n")
    return src


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any], str]:
    code = main(argv)
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1, captured.out
    return code, json.loads(lines[0]), captured.err


def _nothing_sent(sandbox: Any, gateway: Gateway) -> None:
    assert not any("insert" in p or "delete" in p for p in gateway.received), gateway.received
    with ApiClient(sandbox.base_url, TOKEN) as api:
        assert api.search_dnc(offset=0, limit=100).items == []
    jobs = AppPaths.default().jobs_dir
    assert not jobs.exists() or not any(jobs.iterdir())


def _said_silent(err: str, url: str) -> None:
    """The notice a running job gives, naming the request waited on (a loaded machine may
    also say so of a slow check answered before it)."""
    notices = [line for line in err.splitlines() if line.startswith("No answer from the service")]
    assert notices, err
    assert any(f"waiting on {url})" in notice for notice in notices), notices


def test_an_import_at_a_service_that_never_answers_says_so_and_gives_up(
    sandbox: Any, gateway: Gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gateway.hang.add("/v1/campaigns/search")
    argv = ["import", str(_one_csv(tmp_path)), "--into", "dnc", "--scope", "global"]
    code, out, err = _run(capsys, [*argv, "--base-url", gateway.base_url, "--json"])

    assert code == 1
    _said_silent(err, f"{gateway.base_url}/v1/campaigns/search")
    assert "still checking" in err
    assert "cannot be reached" not in err
    assert "Import of one.csv not started" in out["error"]
    assert "took the connection but did not answer within" in out["error"]
    # Fewer tries than the client's retries over the preflight's rounds (8).
    asked = gateway.received.count("/v1/campaigns/search")
    assert asked == connection_args.CHECK_TRIES, gateway.received
    _nothing_sent(sandbox, gateway)


def test_a_removal_whose_lead_status_check_is_never_answered_says_so_and_gives_up(
    sandbox: Any, gateway: Gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The campaign list and the purposes are answered; the lead status check is not.
    gateway.hang.add("/v1/status/search")
    argv = ["remove", str(_one_csv(tmp_path)), "--scope", "global", "--note", "x"]
    code, out, err = _run(
        capsys, [*argv, "--lead-status", "DNC", "--base-url", gateway.base_url, "--json"]
    )

    assert code == 1
    _said_silent(err, f"{gateway.base_url}/v1/status/search")
    assert "cannot be reached" not in err
    assert "Removal of one.csv not started" in out["error"]
    assert "did not answer within" in out["error"]
    assert gateway.received.count("/v1/status/search") == connection_args.CHECK_TRIES
    _nothing_sent(sandbox, gateway)


def test_an_export_naming_a_campaign_at_a_silent_service_says_so_and_gives_up(
    sandbox: Any, gateway: Gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gateway.hang.add("/v1/campaigns/search")
    out_file = tmp_path / "out.csv"
    argv = ["export", "dnc", "--out", str(out_file), "--scope", "campaign:1001"]
    code, out, err = _run(capsys, [*argv, "--base-url", gateway.base_url, "--json"])

    assert code == 1
    _said_silent(err, f"{gateway.base_url}/v1/campaigns/search")
    assert "Export not started" in out["error"]
    assert "did not answer within" in out["error"]
    assert not out_file.exists()


def test_a_refused_connection_is_still_said_to_be_unreachable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once left: connections to it are refused
    argv = ["import", str(_one_csv(tmp_path)), "--into", "dnc", "--scope", "global"]
    code, out, _ = _run(capsys, [*argv, "--base-url", f"http://127.0.0.1:{port}", "--json"])

    assert code == 1
    assert "cannot be reached" in out["error"]
    assert "did not answer" not in out["error"]


def test_a_check_closed_unanswered_a_few_times_is_asked_again(
    sandbox: Any, gateway: Gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Black-box B25-4: at a flaky service three campaign-list requests closed unanswered in a
    row ("asked 3 times in 1 s") refused a job the run itself would have ridden out."""
    gateway.drop["/v1/campaigns/search"] = connection_args.CHECK_TRIES_CLOSED - 1
    argv = ["import", str(_one_csv(tmp_path)), "--into", "dnc", "--scope", "global"]
    code, out, _ = _run(capsys, [*argv, "--base-url", gateway.base_url, "--json"])
    assert code == 0, out
    assert out["inserted"] == 1
    asked = gateway.received.count("/v1/campaigns/search")
    assert asked >= connection_args.CHECK_TRIES_CLOSED, gateway.received


def test_a_check_closed_unanswered_every_time_is_given_up(
    sandbox: Any, gateway: Gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gateway.drop["/v1/campaigns/search"] = 100
    argv = ["import", str(_one_csv(tmp_path)), "--into", "dnc", "--scope", "global"]
    code, out, _ = _run(capsys, [*argv, "--base-url", gateway.base_url, "--json"])
    assert code == 1
    assert "took the connection but closed it without an answer" in out["error"]
    asked = f"/campaigns/search asked {connection_args.CHECK_TRIES_CLOSED} times in"
    assert asked in out["error"]
    _nothing_sent(sandbox, gateway)
