"""Exports of a list that is written to meanwhile (a removal job deleting entries): every entry
on the list throughout comes out exactly once, no entry id is written twice, the change is
reported with the counts at the start and the end, and the paging cap is not blamed for it."""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.limits import PageLimits
from app.api.transport import RetryPolicy
from app.cli.main import main
from app.core import export_job
from app.core.export_job import ExportJob, ListKind
from tests.conftest import TOKEN

DNC_SEARCH = "/v1/dnc/search"
PAGE = 100


class DeletingWire(httpx.BaseTransport):
    """Forwards to the sandbox; after each answered ``/dnc/search`` page of ``page`` rows (not
    the one-row counts) calls ``after_page(offset, number)`` — numbered from 1 — which may
    change the sandbox's store as a job writing to the list would."""

    def __init__(self, after_page: Callable[[int, int], None], page: int = PAGE) -> None:
        self._http = httpx.HTTPTransport()
        self.after_page = after_page
        self.page = page
        self.pages = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._http.handle_request(request)
        if request.url.path == DNC_SEARCH:
            params = parse_qs(request.read().decode())
            if params.get("limit") == [str(self.page)]:
                response.read()
                self.pages += 1
                self.after_page(int(params.get("offset", ["0"])[0]), self.pages)
        return response

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def wired(sandbox: Any) -> Iterator[Callable[[DeletingWire], ApiClient]]:
    clients: list[ApiClient] = []

    def make(wire: DeletingWire) -> ApiClient:
        client = ApiClient(
            sandbox.base_url,
            TOKEN,
            http_transport=wire,
            retry=RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01),
        )
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


def _ids(sandbox: Any) -> set[str]:
    return {str(row["id"]) for row in sandbox.store.all("SELECT id FROM dnc")}


def _delete(sandbox: Any, ids: range) -> None:
    sandbox.store.execute(f"DELETE FROM dnc WHERE id BETWEEN {ids.start} AND {ids.stop - 1}")


def _csv_ids(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    return [row[8] for row in rows[1:]]


def _xlsx(path: Path) -> tuple[list[str], dict[Any, Any]]:
    book = openpyxl.load_workbook(path)
    ids = [str(row[8]) for row in book["Entries"].iter_rows(min_row=2, values_only=True)]
    return ids, dict(book["About"].iter_rows(values_only=True))


def _seed(sandbox: Any, count: int, first: int = 0, code: str = "1") -> None:
    sandbox.bulk_seed_dnc((f"3{first + i:09d}", code, "0", "", "") for i in range(count))


def test_entries_removed_during_export_do_not_hide_the_ones_that_stay(
    sandbox: Any, wired: Callable[[DeletingWire], ApiClient], tmp_path: Path
) -> None:
    _seed(sandbox, 1_000)
    before = _ids(sandbox)

    def remove(offset: int, number: int) -> None:
        if number == 1:
            # Entries already read (ids 1-50) and entries not read yet (ids 601-630) go: the
            # rows after the first page move back 50 places, so offset 100 starts at id 151.
            _delete(sandbox, range(1, 51))
            _delete(sandbox, range(601, 631))

    api = wired(DeletingWire(remove))
    out = tmp_path / "changing.xlsx"
    result = ExportJob(api, ListKind.DNC, DncQuery(), out, page_size=PAGE).run()

    ids, about = _xlsx(out)
    count = Counter(ids)
    assert not [i for i, n in count.items() if n > 1], "an entry id was written twice"
    stayed = before & _ids(sandbox)
    assert stayed <= set(ids), f"{len(stayed - set(ids))} entries on the list throughout missing"
    assert set(ids) <= before
    assert result.list_changed and result.rereads >= 1
    assert (result.total, result.total_at_end) == (1_000, 920)
    assert (result.unreachable, result.possibly_missing) == (0, 0)
    assert result.rows == len(ids)
    assert about["List changed during the export"] == "yes"
    assert about["Rows that could not be reached"] == 0
    assert about["Rows the service reported at the end"] == 920
    warning = about["Warning (list changed)"]
    assert warning == (
        "The list changed while it was exported (1,000 entries when it started, 920 when it "
        "ended); entries added or removed meanwhile may be missing or included: export again "
        "when no job is writing to it."
    )
    assert "Warning" not in about  # no paging-limit warning


def test_a_list_that_keeps_changing_is_reported_not_blamed_on_the_cap(
    sandbox: Any, wired: Callable[[DeletingWire], ApiClient], tmp_path: Path
) -> None:
    _seed(sandbox, 1_000)
    before = _ids(sandbox)
    removed: list[int] = []

    def remove(offset: int, number: int) -> None:
        # A removal job taking the 10 oldest entries after every page, through every re-read.
        low = int(sandbox.store.scalar("SELECT min(id) FROM dnc"))
        _delete(sandbox, range(low, low + 10))
        removed.append(low)

    api = wired(DeletingWire(remove))
    out = tmp_path / "changing.csv"
    result = ExportJob(api, ListKind.DNC, DncQuery(), out, page_size=PAGE).run()

    ids = _csv_ids(out)
    assert len(ids) == len(set(ids)) == result.rows
    assert set(ids) <= before
    assert result.list_changed
    assert result.rereads == export_job.MAX_REREADS
    assert result.unreachable == 0
    assert result.possibly_missing > 0
    assert result.total == 1_000 and result.total_at_end == 1_000 - 10 * len(removed)
    assert result.total_at_end == len(_ids(sandbox))


def test_cap_and_change_together_count_only_what_the_cap_hides(
    sandbox: Any, wired: Callable[[DeletingWire], ApiClient], tmp_path: Path
) -> None:
    # As in test_export_job: a cap of 500 lets one search reach 1,000 rows; the 1,800 global +1
    # rows of one day cannot be split further. 50 of them go while the export reads them.
    _seed(sandbox, 1_800)
    _seed(sandbox, 200, first=5_000, code="44")

    def remove(offset: int, number: int) -> None:
        if number == 1:
            _delete(sandbox, range(1, 51))

    api = wired(DeletingWire(remove, page=500))
    job = ExportJob(api, ListKind.DNC, DncQuery(), tmp_path / "x.xlsx", page_size=500)
    job.limits = PageLimits("/dnc/search", 100, 1000, max_offset=500)
    result = job.run()
    ids, about = _xlsx(result.path)
    assert len(ids) == len(set(ids)) == result.rows
    # Ids 1-1,050 were reachable at one time or another (the 50 removed ones were read first);
    # after the removal the search reaches ids 51-1,050, and every one of them is in the file.
    assert {str(i) for i in range(51, 1_051)} <= set(ids)
    assert sum(1 for i in ids if int(i) > 1_800) == 200
    assert result.list_changed and (result.total, result.total_at_end) == (2_000, 1_950)
    assert result.unreachable == 750  # 1,750 left in the part, 1,000 reachable
    assert about["Rows that could not be reached"] == 750
    assert "750 matching rows" in about["Warning"]
    assert "changed while it was exported" in about["Warning (list changed)"]


def test_unchanged_list_exports_as_before(
    sandbox: Any, wired: Callable[[DeletingWire], ApiClient], tmp_path: Path
) -> None:
    _seed(sandbox, 1_000)
    wire = DeletingWire(lambda offset, number: None)
    out = tmp_path / "same.xlsx"
    result = ExportJob(wired(wire), ListKind.DNC, DncQuery(), out, page_size=PAGE).run()
    ids, about = _xlsx(out)
    assert ids == [str(i) for i in range(1, 1_001)]
    assert wire.pages == 11  # read once (ten full pages and an empty one), no second pass
    assert (result.rows, result.total, result.total_at_end, result.unreachable) == (
        1_000,
        1_000,
        1_000,
        0,
    )
    assert not result.list_changed and (result.rereads, result.possibly_missing) == (0, 0)
    assert about["List changed during the export"] == "no"
    assert "Warning (list changed)" not in about and "Warning" not in about


def test_cli_reports_the_change_and_does_not_blame_the_paging_limit(
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _seed(sandbox, 3_000)
    before = _ids(sandbox)
    fetch = ExportJob._fetch
    state = {"done": False}

    def fetch_then_remove(self: ExportJob, query: DncQuery, offset: int, limit: int) -> Any:
        page = fetch(self, query, offset, limit)
        if limit > 1 and not state["done"]:
            state["done"] = True
            low = int(sandbox.store.scalar("SELECT min(id) FROM dnc"))
            _delete(sandbox, range(low, low + 200))
        return page

    monkeypatch.setattr(ExportJob, "_fetch", fetch_then_remove)
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    out = tmp_path / "f.csv"
    argv = ["export", "dnc", "--out", str(out), "--base-url", sandbox.base_url, "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["list_changed"] is True
    assert (data["total"], data["total_at_end"], data["unreachable"]) == (3_000, 2_800, 0)
    assert data["possibly_missing"] == 0
    assert "could not be reached" not in captured.err
    assert "the list changed while it was exported (3,000 entries" in captured.err
    ids = _csv_ids(out)
    assert len(ids) == len(set(ids)) == data["rows"]
    assert before & _ids(sandbox) <= set(ids)

    # Without --json the warning is on stdout beside the count.
    state["done"] = False
    out2 = tmp_path / "g.csv"
    assert main(["export", "dnc", "--out", str(out2), "--base-url", sandbox.base_url]) == 0
    captured = capsys.readouterr()
    assert "Warning: the list changed while it was exported (2,800 entries" in captured.out
    assert "could not be reached" not in captured.out + captured.err
