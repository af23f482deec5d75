"""Black-box pass Q2 #4: an export of a list written to meanwhile counted as unreachable every
row no part of its split held (76 rows dated outside the ten years searched), though the plain
search read last had written 26 of them: the About sheet said 76 rows "are on the list but not
in this file" where 50 were. Only rows really not written are counted now.

The cap is made small (one search reaches 1,000 rows) so the split runs on a few thousand rows.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.limits import PageLimits
from app.core import export_job
from app.core.export_job import ExportJob, Gap, ListKind
from tests.conftest import TOKEN

SMALL_CAP = PageLimits("/dnc/search", 100, 1000, max_offset=500)
PAGE = 500


class _AfterFirstPage(httpx.BaseTransport):
    """Forwards to the sandbox; once, after the first page of ``PAGE`` rows, runs ``then``."""

    def __init__(self, then: Callable[[], None]) -> None:
        self._http = httpx.HTTPTransport()
        self._then: Callable[[], None] | None = then

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._http.handle_request(request)
        params = parse_qs(request.read().decode())
        if self._then is not None and params.get("limit") == [str(PAGE)]:
            response.read()
            then, self._then = self._then, None
            then()
        return response

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def seeded(sandbox: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(export_job, "MAX_SPLIT_DAYS", 30)
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(1_800))
    old = (dt.date.today() - dt.timedelta(days=400)).isoformat()
    # Ids 1-1,200 are of a day outside the 30 searched; the plain search read last reaches the
    # first 1,000 of them, so 200 stay out. Today's 600 (ids 1,201-1,800) are one day's search.
    sandbox.store.execute(f"UPDATE dnc SET insert_date = '{old} 10:00:00' WHERE id <= 1200")
    return sandbox


def _export(sandbox: Any, path: Path, wire: httpx.BaseTransport) -> export_job.ExportResult:
    with ApiClient(sandbox.base_url, TOKEN, http_transport=wire) as api:
        job = ExportJob(api, ListKind.DNC, DncQuery(), path, page_size=PAGE)
        job.limits = SMALL_CAP
        return job.run()


def test_rows_the_plain_search_wrote_are_not_counted_unreachable_when_the_list_changed(
    seeded: Any, tmp_path: Path
) -> None:
    def remove() -> None:
        # A removal job taking six of today's entries not read yet, while the export runs.
        seeded.store.execute("DELETE FROM dnc WHERE id BETWEEN 1795 AND 1800")

    out = tmp_path / "changing.xlsx"
    result = _export(seeded, out, _AfterFirstPage(remove))
    book = openpyxl.load_workbook(out)
    ids = {int(row[8]) for row in book["Entries"].iter_rows(min_row=2, values_only=True)}
    on_list = {int(row["id"]) for row in seeded.store.all("SELECT id FROM dnc")}
    assert result.list_changed and (result.total, result.total_at_end) == (1_800, 1_794)
    assert ids <= on_list | set(range(1795, 1801))
    not_written = on_list - ids
    assert not_written == set(range(1_001, 1_201))
    assert result.rows == 1_594
    # Old code: min(1,200 rows no day held, 1,800 − 1,594) = 206, 6 of them removed ones.
    assert result.unreachable == len(not_written) == 200
    assert result.gaps == {Gap.DAYS: 1_200}
    about = dict(book["About"].iter_rows(values_only=True))
    assert about["Rows that could not be reached"] == 200
    assert about["Warning"].startswith("200 matching rows could not be reached")


def test_an_unchanged_list_still_counts_every_row_not_written(seeded: Any, tmp_path: Path) -> None:
    out = tmp_path / "same.csv"
    result = _export(seeded, out, httpx.HTTPTransport())
    with out.open(encoding="utf-8-sig", newline="") as fh:
        ids = {int(row[8]) for row in list(csv.reader(fh))[1:]}
    assert not result.list_changed
    assert (result.total, result.rows, result.unreachable) == (1_800, 1_600, 200)
    assert set(range(1, 1_801)) - ids == set(range(1_001, 1_201))
