"""Black-box R3 #1: one cell of 120 MB of digits (phone120mb_rand.xlsx, 59 MB, 20 rows) took an
import 1 min 49 s and 1.26 GB, and its job file 126 MB: the whole text went from the reader to
the job file. No cell a spreadsheet program makes is longer than 32,767 characters (Excel's
limit), so the reader cuts a longer text to that where it is read, before it leaves the
reader's process, and notes the length it had (``notes.cut_cells``); and the scan of the
sheet's XML no longer carries such a text from chunk to chunk (it copied it again for every
megabyte of it). Sizes are small here: the scan's chunk and carry are parameters."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core import sheet_worker
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_reader import MAX_CELL_CHARS, open_sheet
from tests.core.sheet_factory import SHEET_HEAD, cell, write_raw_xlsx

LIMIT = 32_767


def _digits(count: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice("0123456789") for _ in range(count))


def _sheet(rows: list[str]) -> str:
    return SHEET_HEAD + "<sheetData>" + "".join(rows) + "</sheetData></worksheet>"


def _long_cells_xlsx(path: Path, long_phone: str, long_reason: str) -> Path:
    shared = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" '
        f'uniqueCount="1"><si><t>{long_reason}</t></si></sst>'
    )
    rows = [
        f'<row r="1">{cell("A1", "Phone")}{cell("B1", "Reason")}</row>',
        f'<row r="2">{cell("A2", "3035550100")}{cell("B2", "ok")}</row>',
        f'<row r="3">{cell("A3", long_phone)}{cell("B3", "huge")}</row>',
        # A shared string: the reason as long.
        f'<row r="4">{cell("A4", "3035550101")}<c r="B4" t="s"><v>0</v></c></row>',
        f'<row r="5">{cell("A5", "3035550102")}{cell("B5", "x" * LIMIT)}</row>',
    ]
    return write_raw_xlsx(path, _sheet(rows), shared)


def test_a_text_longer_than_any_cell_is_cut_where_it_is_read(tmp_path: Path) -> None:
    assert MAX_CELL_CHARS == LIMIT
    phone, reason = _digits(100_000, 1), "r" * 40_000
    path = _long_cells_xlsx(tmp_path / "long.xlsx", phone, reason)
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
        notes = source.notes
    assert rows[3] == [phone[:LIMIT], "huge"]
    assert rows[4] == ["3035550101", reason[:LIMIT]]
    assert rows[5] == ["3035550102", "x" * LIMIT]  # as long as a cell can be: kept whole
    assert notes.cut_cells == {(3, 0): 100_000, (4, 1): 40_000}


def test_the_job_file_holds_no_more_than_a_cell(tmp_path: Path) -> None:
    path = _long_cells_xlsx(tmp_path / "long.xlsx", _digits(300_000, 2), "why")
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        rows = {r.row_number: r for r in store.rows()}
        job_file = store.path
    assert rows[3].outcome == "invalid"
    assert len(rows[3].original) <= LIMIT
    assert summary.valid == 3
    assert job_file.stat().st_size < 200_000  # the 300,000 digits are not in it


def test_the_scan_does_not_carry_a_long_text_from_chunk_to_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sheet_worker, "SCAN_CHUNK", 4096)
    monkeypatch.setattr(sheet_worker, "MAX_SCAN_TAIL", 16_384)
    rows = [
        f'<row r="1">{cell("A1", "Phone")}</row>',
        f'<row r="2">{cell("A2", _digits(200_000, 3))}</row>',
        f'<row r="3" hidden="1">{cell("A3", "3035550100")}</row>',
        '<row r="4"><c r="A4" t="e"><v>#N/A</v></c></row>',
        f'<row r="5">{cell("A5", "3035550101")}</row>',
    ]
    path = write_raw_xlsx(tmp_path / "scan.xlsx", _sheet(rows))
    carried: list[int] = []
    chunk = sheet_worker.XmlScan._chunk

    def watched(self: Any, buf: bytes) -> None:
        carried.append(len(self._tail))
        chunk(self, buf)

    monkeypatch.setattr(sheet_worker.XmlScan, "_chunk", watched)
    scan = sheet_worker.open_scan(str(path), "Sheet1")
    assert isinstance(scan, sheet_worker.XmlScan)
    scan.read_to_end()
    assert len(carried) > 10  # the part was read a few chunks at a time
    assert max(carried) <= 16_384
    # What the scan is for is still found past the long cell.
    assert not scan.failed
    hidden, _formulas, errors = scan.advance(0)
    assert hidden == [3]
    assert errors == [(4, 0, "#N/A")]
