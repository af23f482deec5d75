"""Black-box B20 F7: an export (or snapshot) of a list a removal wrote to while the split was
counted left an entry that was on the list throughout out of the file and out of every count.
The rows no search of the split held were counted as the split search's count taken after the
removal less its parts' counts taken before it, so 200 rows removed from a part hid the one
entry dated outside the days searched: rows + unreachable + possibly_missing fell one short of
the entries on the list throughout.

The cap is made small (one search reaches 1,000 rows) so the split runs on a few thousand rows.
"""

from __future__ import annotations

import csv
import datetime as dt
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.limits import PageLimits
from app.core import export_job
from app.core.export_job import ExportJob, Gap, ListKind, SplitSearch
from tests.conftest import TOKEN

SMALL_CAP = PageLimits("/dnc/search", 100, 1000, max_offset=500)
PAGE = 500
TODAY = 1_500  # ids 1-1,500: one day's entries, 500 more than one search reaches
OLD_ID = TODAY + 1  # dated 400 days back, outside the 30 days searched


class _WhenOlderDaysCounted(httpx.BaseTransport):
    """Forwards to the sandbox; once, after the first count of a day before yesterday (the
    split hunting for the rows its days left out, after today's day was counted), runs
    ``then``."""

    def __init__(self, then: Callable[[], None] | None) -> None:
        self._http = httpx.HTTPTransport()
        self._then: Callable[[], None] | None = then
        self._lock = threading.Lock()
        self._before = (dt.date.today() - dt.timedelta(days=2)).isoformat()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._http.handle_request(request)
        params = parse_qs(request.read().decode()) or parse_qs(request.url.query.decode())
        day = (params.get("insert_date") or [""])[0]
        if day and day <= self._before:
            with self._lock:
                then, self._then = self._then, None
            if then is not None:
                response.read()
                then()
        return response

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def seeded(sandbox: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(export_job, "MAX_SPLIT_DAYS", 30)
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(OLD_ID))
    old = (dt.date.today() - dt.timedelta(days=400)).isoformat()
    sandbox.store.execute(f"UPDATE dnc SET insert_date = '{old} 10:00:00' WHERE id = {OLD_ID}")
    return sandbox


def _remove_200(sandbox: Any) -> Callable[[], None]:
    def remove() -> None:
        # A removal job taking 200 of today's entries while the split counts older days.
        sandbox.store.execute("DELETE FROM dnc WHERE id BETWEEN 1001 AND 1200")

    return remove


def _job(api: ApiClient, path: Path) -> ExportJob:
    job = ExportJob(api, ListKind.DNC, DncQuery(), path, page_size=PAGE)
    job.limits = SMALL_CAP
    return job


def _ids_written(path: Path) -> set[int]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return {int(row[8]) for row in list(csv.reader(fh))[1:]}


def test_an_entry_no_search_held_is_counted_when_a_removal_ran_meanwhile(
    seeded: Any, tmp_path: Path
) -> None:
    out = tmp_path / "changing.csv"
    with ApiClient(
        seeded.base_url, TOKEN, http_transport=_WhenOlderDaysCounted(_remove_200(seeded))
    ) as api:
        result = _job(api, out).run()
    on_list = {int(row["id"]) for row in seeded.store.all("SELECT id FROM dnc")}
    throughout = on_list  # the removal only took entries away
    written = _ids_written(out)
    assert result.list_changed and (result.total, result.total_at_end) == (1_501, 1_301)
    assert OLD_ID in throughout and OLD_ID not in written
    assert result.rows == len(written) == 1_000
    # Old code: unreachable 300 (the cap's), the old entry in no count (1,000 + 300 < 1,301).
    assert result.rows + result.unreachable + result.possibly_missing >= len(throughout)
    assert result.unreachable == 301
    assert result.gaps == {Gap.DAYS: 1}


def test_a_snapshots_split_counts_the_entry_no_search_held_too(seeded: Any) -> None:
    kept: list[str] = []
    with ApiClient(
        seeded.base_url, TOKEN, http_transport=_WhenOlderDaysCounted(_remove_200(seeded))
    ) as api:
        split = SplitSearch(api, ListKind.DNC, DncQuery(), page_size=PAGE)
        split.limits = SMALL_CAP
        total, leaves = split.plan()
        read = split.read(total, leaves, lambda _label, item: kept.append(item.id))
    assert read.list_changed and read.total_at_end == 1_301
    assert str(OLD_ID) not in kept
    # Old code: gap 0, the snapshot's "in no search of the split" part said nothing was missing.
    assert (read.gap, read.gap_missing) == (1, 1)
    assert read.rows + read.unreachable + read.possibly_missing >= 1_301


def test_an_unchanged_list_counts_the_same_entry_as_before(seeded: Any, tmp_path: Path) -> None:
    out = tmp_path / "same.csv"
    with ApiClient(seeded.base_url, TOKEN, http_transport=_WhenOlderDaysCounted(None)) as api:
        result = _job(api, out).run()
    assert not result.list_changed
    assert (result.total, result.rows, result.unreachable) == (1_501, 1_000, 501)
    assert result.gaps == {Gap.DAYS: 1}
