"""Black-box B36 F2: a service whose /dnc/search takes ``insert_date`` as the spec writes it, a
moment (``YYYY-MM-DD hh:mm:ss``), matching a bare date as its midnight or refusing it (code
6008). ``export dnc --insert-date DAY`` gave such a service's midnight entries only (or failed),
and a DNC export or snapshot past the paging cap split its search by insert day, which found
nothing or failed. The app now asks the service once a run, by searching an entry's day, and
refuses the day filter (exit 2) or counts the rows the split cannot reach as unreachable.

A cap of 2,000 (3,000 entries reachable at 1,000 a page) stands in for the service's 100,000.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.api.limits import PageLimits
from app.cli.main import main
from tests.conftest import TOKEN

# Written out, not imported: the old code, which these tests must fail, has no such text.
NOT_BY_DAY = "this service's DNC search matches an insert date as an exact moment, not a day"

SMALL_DNC = PageLimits("/dnc/search", default_limit=100, max_limit=1000, max_offset=2000)
SMALL_SMS = PageLimits("/sms-opt-out/search", default_limit=1000, max_limit=1000, max_offset=2000)
DAY = "2026-11-20"
EARLIER = "2026-11-19"


@pytest.fixture(autouse=True)
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    monkeypatch.setattr("app.core.export_job.DNC_SEARCH", SMALL_DNC)
    monkeypatch.setattr("app.core.export_job.SMS_SEARCH", SMALL_SMS)
    monkeypatch.setattr(
        "app.core.snapshots.limits_of", lambda kind: SMALL_DNC if kind.value == "dnc" else SMALL_SMS
    )


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _dnc(server: Any, rows: int, dates: list[tuple[int, int, str]]) -> None:
    """``rows`` global +1 entries with blank reasons (no filter parts them), dated by id."""
    server.bulk_seed_dnc((f"303{i + 2_000_000:07d}", "1", "0", "", "") for i in range(rows))
    for first, last, moment in dates:
        server.store.execute(
            "UPDATE dnc SET insert_date = ? WHERE id BETWEEN ? AND ?", (moment, first, last)
        )


def _sms(server: Any, rows: int) -> None:
    half = rows // 2
    server.store.executemany(
        "INSERT INTO sms_opt_out(phone_number, phone_code, campaign_id, reason, purpose,"
        " insert_date) VALUES (?, '1', 0, '', '', ?)",
        (
            (f"303{i + 2_000_000:07d}", f"{EARLIER if i < half else DAY} 10:00:00")
            for i in range(rows)
        ),
    )


def _export(
    capsys: pytest.CaptureFixture[str], server: Any, out: Path, *extra: str, kind: str = "dnc"
) -> tuple[int, dict[str, Any], str]:
    status, stdout, err = _run(
        capsys, "export", kind, "--out", str(out), "--json", "--base-url", server.base_url, *extra
    )
    return status, json.loads(stdout), err


def _one_day(make_sandbox: Callable[..., Any], mode: str) -> Any:
    server = make_sandbox(dnc_insert_date=mode)
    # Five entries of the day during it, one at its midnight, two of the day before.
    _dnc(
        server,
        8,
        [(1, 2, f"{EARLIER} 09:00:00"), (3, 3, f"{DAY} 00:00:00"), (4, 8, f"{DAY} 14:15:16")],
    )
    return server


def test_insert_date_on_a_service_searching_days_exports_the_day(
    make_sandbox: Callable[..., Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    server = _one_day(make_sandbox, "day")
    status, data, err = _export(capsys, server, tmp_path / "d.csv", "--insert-date", DAY)
    assert status == 0, err
    assert (data["rows"], data["unreachable"]) == (6, 0)


@pytest.mark.parametrize("mode", ["moment", "strict"])
def test_insert_date_on_a_service_matching_moments_is_refused(
    make_sandbox: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    mode: str,
) -> None:
    server = _one_day(make_sandbox, mode)
    out = tmp_path / "d.csv"
    status, data, err = _export(capsys, server, out, "--insert-date", DAY)
    assert status == 2, err
    assert data["exit_status"] == 2
    if mode == "moment":
        assert data["error"].startswith(
            f"Export not started: {NOT_BY_DAY}: entry 1, inserted 2026-11-19 09:00:00, was not "
            "found by a search with insert_date=2026-11-19; so a search of 2026-11-20 would give "
            "only the entries inserted at 2026-11-20 00:00:00. Export without an insert date "
            "filter (--insert-date): the file's insert_date column gives each entry's day."
        )
    else:
        assert data["error"].startswith(
            f"Export not started: {NOT_BY_DAY}: it refused a search with insert_date=2026-11-19 "
            "(/dnc/search: code 6008"
        )
        assert "; so it cannot search one day's entries. Export without an" in data["error"]
    assert "Traceback" not in err
    assert not out.exists()


def test_a_day_filter_refused_with_no_entry_to_tell_is_said_so(
    make_sandbox: Callable[..., Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    server = make_sandbox(dnc_insert_date="strict")  # an empty list: no entry to search by day
    status, data, err = _export(capsys, server, tmp_path / "d.csv", "--insert-date", DAY)
    assert status == 2, err
    assert data["error"].startswith(
        f"Export not started: {NOT_BY_DAY}: it refused a search with insert_date={DAY} ("
    )
    assert "; so it cannot search one day's entries." in data["error"]


def _big(make_sandbox: Callable[..., Any], mode: str) -> Any:
    server = make_sandbox(dnc_insert_date=mode)
    # 3,500 rows no filter parts but the day, 1,750 a day: 500 past one search's 3,000.
    _dnc(server, 3_500, [(1, 1_750, f"{EARLIER} 10:00:00"), (1_751, 3_500, f"{DAY} 11:00:00")])
    return server


def test_past_the_cap_a_service_searching_days_is_split_by_day(
    make_sandbox: Callable[..., Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    server = _big(make_sandbox, "day")
    status, data, err = _export(capsys, server, tmp_path / "d.csv")
    assert status == 0, err
    assert (data["rows"], data["unreachable"]) == (3_500, 0)


@pytest.mark.parametrize("mode", ["moment", "strict"])
def test_past_the_cap_a_service_matching_moments_counts_what_no_search_reaches(
    make_sandbox: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    mode: str,
) -> None:
    server = _big(make_sandbox, mode)
    status, data, err = _export(capsys, server, tmp_path / "d.csv")
    assert status == 0, err
    assert (data["rows"], data["total"], data["unreachable"]) == (3_000, 3_500, 0 + 500)
    said = " ".join(err.split())
    assert "500 matching rows could not be reached (one search of the service reaches" in said
    assert f"cannot be parted by insert day: {NOT_BY_DAY} (" in said


@pytest.mark.parametrize("mode", ["moment", "strict"])
def test_a_snapshot_past_the_cap_is_incomplete_not_failed(
    make_sandbox: Callable[..., Any], capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    server = _big(make_sandbox, mode)
    status, out, err = _run(capsys, "snapshot", "dnc", "--json", "--base-url", server.base_url)
    assert status == 3, err
    data = json.loads(out)
    assert (data["entries"], data["reported_total"], data["unreachable"]) == (3_000, 3_500, 500)


def test_sms_exports_keep_their_day_split(
    make_sandbox: Callable[..., Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    server = make_sandbox(dnc_insert_date="strict")
    _sms(server, 3_500)
    status, data, err = _export(capsys, server, tmp_path / "s.csv", kind="sms-opt-out")
    assert status == 0, err
    assert (data["rows"], data["unreachable"]) == (3_500, 0)
