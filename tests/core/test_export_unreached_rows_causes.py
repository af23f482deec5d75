"""Black-box pass N1 #1: rows older than the days the insert-day split searches were counted
exactly as unreachable, but blamed on a split "as fine as the service's filters allow" (the
biggest day held 60,000 rows, and ``--insert-date`` exported the 600 old ones in one search);
and the days before the oldest seen were counted one search after the other (3,760 of them,
four minutes).

The service's searches take one insert day each (no range, no order), so one count a day is
all the spec allows; the counts now run COUNT_WORKERS at a time. The cap is made small here
(a search reaching 1,000 rows) so the split runs on a few thousand rows of a real sandbox.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.limits import PageLimits
from app.core import export_job
from app.core.export_job import ExportJob, ExportResult, Gap, ListKind, unreachable_warning
from tests.conftest import TOKEN

SMALL_CAP = PageLimits("/dnc/search", 100, 1000, max_offset=500)


class _Overlap(httpx.BaseTransport):
    """Forwards to the sandbox, keeping the most searches it had on the wire at once."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self._lock = threading.Lock()
        self._now = 0
        self.most = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        with self._lock:
            self._now += 1
            self.most = max(self.most, self._now)
        try:
            response = self._http.handle_request(request)
            response.read()
            return response
        finally:
            with self._lock:
                self._now -= 1

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def wire() -> _Overlap:
    return _Overlap()


@pytest.fixture
def slow(make_sandbox: Any) -> Any:
    # Each search takes a little while, so searches sent together are on the wire together.
    return make_sandbox(latency_ms=40)


@pytest.fixture
def client(slow: Any, wire: _Overlap) -> Iterator[ApiClient]:
    with ApiClient(slow.base_url, TOKEN, http_transport=wire) as api:
        yield api


def _export(client: ApiClient, path: Path, query: DncQuery | None = None) -> ExportResult:
    job = ExportJob(client, ListKind.DNC, query or DncQuery(), path, page_size=500)
    job.limits = SMALL_CAP
    return job.run()


def test_rows_on_no_day_searched_are_said_to_be_so_with_how_to_export_them(
    slow: Any, client: ApiClient, wire: _Overlap, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export_job, "MAX_SPLIT_DAYS", 30)
    slow.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(1_800))
    old = (dt.date.today() - dt.timedelta(days=400)).isoformat()
    # Today's 1,000 rows (ids 1-1,000) are one day's, which one search reaches; the 800 after
    # them are of a day outside the 30 searched, past what plain paging reaches.
    slow.store.execute(f"UPDATE dnc SET insert_date = '{old} 10:00:00' WHERE id > 1000")
    result = _export(client, tmp_path / "o.xlsx")
    assert (result.total, result.rows, result.unreachable) == (1_800, 1_000, 800)
    assert (result.capped, result.gaps) == (0, {Gap.DAYS: 800})
    tomorrow = dt.date.today() + dt.timedelta(days=1)
    first = (tomorrow - dt.timedelta(days=29)).isoformat()
    assert result.days_searched == (first, tomorrow.isoformat())
    warning = unreachable_warning(result)
    assert warning == (
        "800 matching rows could not be reached (one search of the service reaches its first "
        "1,000 rows): they are on no insert day of the 30 days searched "
        f"({first} to {tomorrow.isoformat()}): inserted earlier, or without an insert date; "
        "--insert-date YYYY-MM-DD exports one day's entries, which one search reaches; they are "
        "on the list but not in this file."
    )
    about = dict(openpyxl.load_workbook(result.path)["About"].iter_rows(values_only=True))
    assert about["Warning"] == warning
    # The days before the oldest seen were counted several at a time.
    assert wire.most > 1
    # And as the sentence says, their day's search exports them all.
    day = _export(client, tmp_path / "d.csv", DncQuery(insert_date=old))
    assert (day.total, day.rows, day.unreachable) == (800, 800, 0)


def test_rows_of_one_day_too_many_for_a_search_keep_the_finest_split_reason(
    slow: Any, client: ApiClient, tmp_path: Path
) -> None:
    slow.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(1_500))
    result = _export(client, tmp_path / "c.csv")
    assert (result.total, result.rows, result.unreachable) == (1_500, 1_000, 500)
    assert (result.capped, result.gaps) == (500, {})
    assert unreachable_warning(result) == (
        "500 matching rows could not be reached (one search of the service reaches its first "
        "1,000 rows): they share one scope, country code, reason and insert day, more than one "
        "search reaches, and no filter of the service splits them further; they are on the "
        "list but not in this file."
    )


def test_several_causes_are_each_named_with_at_most_how_many_rows(tmp_path: Path) -> None:
    result = ExportResult(tmp_path / "x.csv", 10, 1_000, 990, reach=101_000)
    result.capped = 400
    result.gaps = {Gap.DAYS: 600, Gap.CODE: 5, Gap.SCOPE: 1}
    result.days_searched = ("2016-11-25", "2026-11-24")
    text = unreachable_warning(result)
    assert text.startswith(
        "990 matching rows could not be reached (one search of the service reaches its first "
        "101,000 rows): of them, up to 400 share one scope, country code, reason and insert day"
    )
    assert "; up to 600 are on no insert day of the 3,660 days searched (2016-11-25 to " in text
    assert "; up to 1 are in a campaign the service's campaign list does not name" in text
    assert "; up to 5 have a phone code that is no country's calling code" in text
    one = ExportResult(tmp_path / "x.csv", 0, 1, 1, gaps={Gap.CODE: 1})
    assert (
        "could not be reached (one search of the service reaches its first 101,000 rows): "
        "it has a phone code that is no country's calling code" in unreachable_warning(one)
    )
    assert unreachable_warning(one).endswith("; it is on the list but not in this file.")
