"""Black-box B32 F5: ``health`` counted insert dates in the future (2027-06-01, and tomorrow's
date when today was the same day on every clock) as "under 30 days", with no finding."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _dated(sandbox: Any, number: str, when: str) -> None:
    sandbox.store.execute("UPDATE dnc SET insert_date = ? WHERE phone_number = ?", (when, number))


def test_health_names_entries_dated_in_the_future(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two days ahead of UTC is ahead of every clock (UTC+14 the furthest), whatever the hour.
    ahead = (dt.datetime.now(dt.UTC) + dt.timedelta(days=2)).strftime("%Y-%m-%d")
    for number in ("2025550101", "2025550102", "2025550103"):
        api.insert_dnc(number, "1", Scope.global_(), reason="asked")
    _dated(sandbox, "2025550101", "2027-06-01 00:00:00")
    _dated(sandbox, "2025550102", ahead)

    status = main(["health", "--json", "--base-url", sandbox.base_url])
    out, err = capsys.readouterr()
    assert status == 3, err
    dnc = json.loads(out)["dnc"]
    future = dnc["findings"]["future_insert_date"]
    assert sorted(e["phone_number"] for e in future["entries"]) == ["2025550101", "2025550102"]
    assert {e["why"] for e in future["entries"]} == {
        "inserted 2027-06-01 00:00:00 by the service's clock",
        f"inserted {ahead} by the service's clock",
    }
    assert dnc["ages"]["in the future"] == 2
    assert dnc["ages"]["under 30 days"] == 1

    status = main(["health", "--base-url", sandbox.base_url])
    out, err = capsys.readouterr()
    assert status == 3, err
    assert "Entries dated in the future (by every time zone): 2" in out, out
    assert "2025550101 (global, id " in out and "inserted 2027-06-01 00:00:00" in out, out


def test_today_on_some_clock_is_not_the_future(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # Twelve hours ahead of UTC is today or earlier on a clock at UTC+14.
    soon = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=12)).strftime("%Y-%m-%d %H:%M:%S")
    api.insert_dnc("2025550101", "1", Scope.global_(), reason="asked")
    _dated(sandbox, "2025550101", soon)
    status = main(["health", "--json", "--base-url", sandbox.base_url])
    out, err = capsys.readouterr()
    assert status == 3, err  # a gap: on the DNC list, not the SMS opt-out list
    dnc = json.loads(out)["dnc"]
    assert dnc["findings"]["future_insert_date"]["count"] == 0
    assert dnc["ages"]["in the future"] == 0
