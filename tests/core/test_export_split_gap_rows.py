"""Black-box B15 #1 and #6: rows a split leaves out are read through the narrowest searches
that still hold them, and the About sheet names the every-purpose search as typed.

A global list held 60,000 code-1 blank-reason rows of 2026, 60,000 more dated 2012 (older than
the days the split searches), 5,000 with phone code '' and 5,000 with code '0044' and a
reason. The export wrote 101,000 rows and called 30,010 unreachable, but 5,812 of them come
back from ordinary searches: ``global + reason not blank`` holds every '0044' row and is under
the cap, ``global + code 1 + blank`` reaches further into the old rows than the plain search
of the whole list the export read instead. The same list is made here with a cap of 1,000 rows
a search (``SMALL_CAP``, ``page_size=500``), on a real sandbox.
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
from app.core import export_job, snapshots
from app.core.audit_types import ListKind as SnapshotKind
from app.core.export_job import ExportJob, ExportResult, Gap, ListKind, unreachable_warning
from app.core.snapshots import fetch_list
from tests.conftest import TOKEN

SMALL_CAP = PageLimits("/dnc/search", 100, 1000, max_offset=500)
DAYS = 30


class _Searches(httpx.BaseTransport):
    """Forwards to the sandbox, counting the searches sent."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self._lock = threading.Lock()
        self.count = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/search"):
            with self._lock:
                self.count += 1
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def searches() -> _Searches:
    return _Searches()


@pytest.fixture
def client(sandbox: Any, searches: _Searches) -> Iterator[ApiClient]:
    with ApiClient(sandbox.base_url, TOKEN, http_transport=searches) as api:
        yield api


def _seed(sandbox: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """ids 1-600: code 1, blank, over the last ten days; 601-1,200: code 1, blank, 400 days
    back (outside the DAYS searched); 1,201-1,250: code '', blank, three days back;
    1,251-1,300: code '0044', reason 'x'; 1,301-1,305: purpose entries."""
    monkeypatch.setattr(export_job, "MAX_SPLIT_DAYS", DAYS)
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(1_200))
    sandbox.bulk_seed_dnc((f"4{i:09d}", "", "0", "", "") for i in range(50))
    sandbox.bulk_seed_dnc((f"20794{i:05d}", "0044", "0", "x", "") for i in range(50))
    sandbox.bulk_seed_dnc((f"5{i:09d}", "1", "-1", "", "+Sales") for i in range(5))
    today = dt.date.today()
    for back in range(10):
        day = (today - dt.timedelta(days=back)).isoformat()
        sandbox.store.execute(
            f"UPDATE dnc SET insert_date = '{day} 10:00:00' WHERE id <= 600 AND id % 10 = {back}"
        )
    old = (today - dt.timedelta(days=400)).isoformat()
    sandbox.store.execute(
        f"UPDATE dnc SET insert_date = '{old} 10:00:00' WHERE id > 600 AND id <= 1200"
    )
    three = (today - dt.timedelta(days=3)).isoformat()
    sandbox.store.execute(
        f"UPDATE dnc SET insert_date = '{three} 09:00:00' WHERE id > 1200 AND id <= 1250"
    )


def _export(client: ApiClient, path: Path) -> ExportResult:
    job = ExportJob(client, ListKind.DNC, DncQuery(), path, page_size=500)
    job.limits = SMALL_CAP
    return job.run()


def test_rows_a_split_left_out_are_read_by_the_narrowest_searches_holding_them(
    sandbox: Any,
    client: ApiClient,
    searches: _Searches,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _seed(sandbox, monkeypatch)
    out = tmp_path / "all.xlsx"
    result = _export(client, out)
    book = openpyxl.load_workbook(out)
    ids = {int(row[8]) for row in book["Entries"].iter_rows(min_row=2, values_only=True)}
    # Only the old rows past what `global + code 1 + blank` reaches (its first 1,000: ids
    # 1-1,000) are out of every search's reach. Old code: 1,005 rows, 300 "unreachable", none
    # of the 100 rows with code '' or '0044' in the file.
    assert set(range(1, 1_306)) - ids == set(range(1_001, 1_201))
    assert (result.total, result.rows, result.unreachable) == (1_305, 1_105, 200)
    assert not result.list_changed
    # Every row of a phone code that is no country's was read: only the day cause is left,
    # said of no more rows than are unreached.
    assert result.gaps == {Gap.DAYS: 600}
    warning = unreachable_warning(result)
    assert warning.startswith("200 matching rows could not be reached (one search of the ")
    assert "they are on no insert day of the 30 days searched" in warning
    assert "phone code" not in warning
    parts = result.parts
    assert "scope=global, reason=-NOTBLANK-" in parts
    assert "scope=global, phone_code=1, reason=-BLANK- (as far as paging reaches)" in parts
    three = (dt.date.today() - dt.timedelta(days=3)).isoformat()
    assert f"scope=global, insert_date={three}, reason=-BLANK-" in parts
    # The plain search of the whole list, which reaches fewer of them, is not read.
    assert "all (as far as paging reaches)" not in parts
    about = dict(book["About"].iter_rows(values_only=True))
    assert about["Rows that could not be reached"] == 200
    assert about["Warning"] == warning
    # The searches stay few: the split's counts (the list, its scopes, each country code,
    # the reasons, the 30 days) and, for the rows it left out, two reasons and the days of
    # `global + blank` only until the code-'' rows were read (265 measured; 255 before the
    # fix; 288 with every day of that search counted), and the pages read (29 measured).
    assert result.counted <= len(export_job.SPLIT_PHONE_CODES) + DAYS + 25
    assert searches.count - result.counted <= 40


def test_the_about_sheet_names_the_every_purpose_search_as_typed(
    sandbox: Any, client: ApiClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _seed(sandbox, monkeypatch)
    out = tmp_path / "purpose.xlsx"
    _export(client, out)
    searched = [
        row[1]
        for row in openpyxl.load_workbook(out)["About"].iter_rows(values_only=True)
        if row[0] == "Search"
    ]
    assert "scope=purpose (every purpose)" in searched
    assert not [s for s in searched if "purpose:" in s]


def test_a_snapshot_reads_them_too(
    sandbox: Any, client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    _seed(sandbox, monkeypatch)
    monkeypatch.setattr(snapshots, "limits_of", lambda kind: SMALL_CAP)
    monkeypatch.setattr(snapshots, "PAGE_SIZE", 500)
    data = fetch_list(client, SnapshotKind.DNC)
    ids = {int(e.id) for e in data.entries}
    assert set(range(1, 1_306)) - ids == set(range(1_001, 1_201))
    assert (data.reported_total, data.unread) == (1_305, 200)
