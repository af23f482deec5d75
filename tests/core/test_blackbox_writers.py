"""Black-box findings in the xlsx writer: a report or export that cannot be saved (or is given
up) fails with an OSError only, leaving no ``.part`` file, no openpyxl temp file and none of the
"Exception ignored ... Traceback" noise that abandoned write-only sheets print when collected."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openpyxl.worksheet._writer import ALL_TEMP_FILES

from app.core.xlsx_safe import SafeWorkbook


@pytest.fixture
def unraisable(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    seen: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    yield seen


def _book(rows: int = 50) -> SafeWorkbook:
    book = SafeWorkbook()
    for title in ("Summary", "Rows"):
        sheet = book.add_sheet(title, (10, 20))
        for i in range(rows):
            sheet.append([i, f"+1202555{i:04d}"])
    return book


def test_save_into_a_missing_folder_fails_cleanly(tmp_path: Path, unraisable: list[Any]) -> None:
    before = set(ALL_TEMP_FILES)
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(OSError):
        _book().save(blocker / "report.xlsx")
    gc.collect()
    assert unraisable == []
    assert set(ALL_TEMP_FILES) <= before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_save_over_a_folder_fails_cleanly(tmp_path: Path, unraisable: list[Any]) -> None:
    target = tmp_path / "reports"
    target.mkdir()
    with pytest.raises(OSError):
        _book().save(target)
    gc.collect()
    assert unraisable == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]


def test_a_book_given_up_is_silent(unraisable: list[Any]) -> None:
    before = set(ALL_TEMP_FILES)
    book = _book()
    book.discard()
    del book
    gc.collect()
    assert unraisable == []
    assert set(ALL_TEMP_FILES) <= before


def test_save_still_works(tmp_path: Path, unraisable: list[Any]) -> None:
    import openpyxl

    out = tmp_path / "sub" / "r.xlsx"
    _book(3).save(out)
    gc.collect()
    assert unraisable == []
    wb = openpyxl.load_workbook(out, read_only=True)
    try:
        assert wb.sheetnames == ["Summary", "Rows"]
        assert [r[1] for r in wb["Rows"].iter_rows(values_only=True)] == [
            "'+12025550000",
            "'+12025550001",
            "'+12025550002",
        ]
    finally:
        wb.close()
    assert sorted(p.name for p in out.parent.iterdir()) == ["r.xlsx"]


def test_export_cancelled_mid_xlsx_is_silent(
    sandbox: Any, tmp_path: Path, unraisable: list[Any]
) -> None:
    import threading

    from app.api.client import ApiClient, DncQuery
    from app.api.paging import Cancelled
    from app.core.export_job import ExportJob, ListKind
    from tests.conftest import TOKEN

    sandbox.bulk_seed_dnc([(f"20255{i:05d}", "1", "0", "", "") for i in range(60)])
    cancel = threading.Event()
    before = set(ALL_TEMP_FILES)
    with ApiClient(sandbox.base_url, TOKEN) as api:
        job = ExportJob(
            api,
            ListKind.DNC,
            DncQuery(),
            tmp_path / "out.xlsx",
            progress=lambda p: cancel.set(),
            cancel=cancel,
            page_size=10,
        )
        with pytest.raises(Cancelled):
            job.run()
    del job
    gc.collect()
    assert unraisable == []
    assert set(ALL_TEMP_FILES) <= before
    assert list(tmp_path.glob("out.xlsx*")) == []
