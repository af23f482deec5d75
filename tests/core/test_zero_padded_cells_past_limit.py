"""S21 F3: past the most number cells of a zero-padding format the reader keeps
(``sheet_worker.MAX_PLACEHOLDERS``, 2,000,000), the rest read as the plain numbers they hold
(0351234568 as 351234568, another number). The user was not told; now the worker names the
first such cell, the reader keeps it in ``SheetNotes.padded_cut``, and staging warns (the job's
warnings: CLI notes, ``--json`` ``warnings``, the report's Summary) naming the sheet, the row
and what to do.

The worker is run in this process to lower the limit (xlsx, .ods, .xls), and once for real
through the CLI on a workbook of more than 2,000,000 such cells."""

from __future__ import annotations

import json
import struct
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.cli.main import main
from app.core import sheet_reader, sheet_worker
from app.core.sheet_mapping import column_letter
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import PaddedCut
from app.core.sheet_worker import XlsScan
from app.core.staging_notes import padded_cut_sentence
from tests.core.test_sheet_ods_xls_error_cells import biff
from tests.core.test_zero_padded_formats_limits import (
    _CONTENT_TYPES,
    _RELS,
    _STYLES,
    _WORKBOOK,
    _WORKBOOK_RELS,
    _messages,
    _xlsx,
)
from tests.core.test_zero_padded_number_formats import _float, _ods, _string


def _before_rows(messages: list[tuple[Any, ...]], kind: str) -> list[tuple[Any, ...]]:
    """The messages of ``kind`` sent before the first rows (the reader's notes must hold
    them by the time the rows are handed out)."""
    first = next(i for i, m in enumerate(messages) if m[0] == "rows")
    assert [m for m in messages if m[0] == "error"] == []
    found = [m for m in messages if m[0] == kind]
    assert found == [m for m in messages[:first] if m[0] == kind]
    return found


def test_xlsx_names_the_first_cell_read_as_a_plain_number(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """300 padded numbers in column A (rows 2-301), the limit 100: A102 is the first read
    as the number it holds."""
    monkeypatch.setattr(sheet_worker, "MAX_PLACEHOLDERS", 100)
    messages = _messages(_xlsx(tmp_path / "many.xlsx", 300))
    assert _before_rows(messages, "padded") == [("padded", 102, 0, 100)]
    rows = {n: cells for m in messages if m[0] == "rows" for n, cells in m[1]}
    assert rows[101][0] == "02079460101"
    assert rows[102][0] == 2079460102


def test_xlsx_within_the_limit_says_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sheet_worker, "MAX_PLACEHOLDERS", 300)
    assert _before_rows(_messages(_xlsx(tmp_path / "all.xlsx", 300)), "padded") == []


def test_ods_names_the_first_cell_read_as_a_plain_number(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Column A's default style pads to 10 digits; 30 numbers from row 2, the limit 10."""
    monkeypatch.setattr(sheet_worker, "MAX_PLACEHOLDERS", 10)
    row = "<table:table-row>{}</table:table-row>"
    body = [row.format(_string("Phone"))]
    body += [row.format(_float(351234500 + n)) for n in range(30)]
    messages = _messages(_ods(tmp_path / "many.ods", body))
    assert _before_rows(messages, "padded") == [("padded", 12, 0, 10)]
    rows = {n: cells for m in messages if m[0] == "rows" for n, cells in m[1]}
    assert rows[11][0] == "0351234509"
    assert int(rows[12][0]) == 351234510


def test_xls_scan_names_the_first_cell_read_as_a_plain_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """BIFF8 NUMBER cells in the padding format in rows 1-20 of column A, the limit 5."""
    monkeypatch.setattr(sheet_worker, "MAX_PLACEHOLDERS", 5)
    code = b"00000000000"
    head = biff(0x0809, struct.pack("<HH", 0x0600, 0x0005) + bytes(12))
    formats = biff(0x041E, struct.pack("<HHB", 164, len(code), 0) + code)
    xfs = b"".join(biff(0x00E0, struct.pack("<HH", 0, 0) + bytes(16)) for _ in range(16))
    xfs += biff(0x00E0, struct.pack("<HH", 0, 164) + bytes(16))
    name = b"Sheet1"

    def globals_at(offset: int) -> bytes:
        sheet = biff(0x0085, struct.pack("<IBBBB", offset, 0, 0, len(name), 0) + name)
        return head + formats + xfs + sheet + biff(0x000A, b"")

    offset = len(globals_at(0))
    cells = b"".join(
        biff(0x0203, struct.pack("<HHH", r, 0, 16) + struct.pack("<d", 351234568.0))
        for r in range(20)
    )
    stream = (
        globals_at(offset)
        + biff(0x0809, struct.pack("<HH", 0x0600, 0x0010) + bytes(12))
        + cells
        + biff(0x000A, b"")
    )
    scan = XlsScan("unused.xls", "Sheet1")
    scan._cells(stream, scan._sheet_offset(stream))
    assert len(scan.padded) == 5
    assert scan.padded_cut == (6, 0)  # 1-based rows: the sixth cell, A6


# -- through the CLI: the job's warnings and its report ---------------------------------------


def _worker_limited_to(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    """The reader's real worker, started as the reader starts it, its limit lowered in the
    child (the test's only hold on it: the constant is the worker's own)."""
    boot = sheet_reader._WORKER_BOOT.replace(
        "sys.exit(", f"module.MAX_PLACEHOLDERS = {limit}; sys.exit("
    )
    assert boot != sheet_reader._WORKER_BOOT
    command = [sys.executable, "-I", "-c", boot, sheet_worker.__file__]
    monkeypatch.setattr(sheet_reader, "worker_command", lambda: command)


def _said(kind: str, row: int, kept: str = "100", file: str = "uk.xlsx") -> str:
    again = "run the removal again" if kind == "removal" else "import it again"
    return (
        f"Only the first {kept} number cells formatted with leading zeros in sheet 'Sheet1' "
        f"of {file} are read as the sheet shows them: from row {row} on (cell A{row} first) "
        "such numbers are read without their leading zeros (0351234568 as 351234568, another "
        f"number), so split the file into smaller ones, or format those cells as text, and "
        f"{again}."
    )


def test_import_warns_when_padded_cells_pass_the_limit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """300 UK numbers padded to 11 digits, the limit 100: row 102's number reads without its
    0, and the dry run's JSON warnings and its report's Summary say so once."""
    _worker_limited_to(monkeypatch, 100)
    path = _xlsx(tmp_path / "uk.xlsx", 300)
    report = tmp_path / "dry.xlsx"
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--phone-code", "44"]
    assert main([*argv, "--dry-run", "--report", str(report), "--json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["warnings"]
    assert [w for w in warnings if "leading zeros" in w] == [_said("import", 102)]
    workbook = CalamineWorkbook.from_path(str(report))
    summary = workbook.get_sheet_by_name("Summary").to_python()
    assert sum(_said("import", 102) in [str(c) for c in row] for row in summary) == 1
    rows = workbook.get_sheet_by_name("Rows").to_python()
    header = [str(h) for h in rows[0]]
    at, original = header.index("Source row"), header.index("Original value")
    values = {int(r[at]): str(r[original]) for r in rows[1:] if r and r[0] != ""}
    assert values[101] == "02079460101"
    assert values[102] == "2079460102"


def test_removal_dry_run_says_it_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _worker_limited_to(monkeypatch, 100)
    path = _xlsx(tmp_path / "uk.xlsx", 150)
    argv = ["remove", str(path), "--scope", "global", "--phone-code", "44"]
    main([*argv, "--dry-run", "--json"])
    captured = capsys.readouterr()
    assert _said("removal", 102) in captured.out + captured.err


# -- for real: more than 2,000,000 padded number cells, through the reader -------------------

_COLUMNS = 1000
_ROWS = 2001  # after the header: 2,001,000 cells, A2002 the 2,000,001st


def _big_xlsx(path: Path) -> Path:
    """Column A: phone numbers (2079460000 + row) in the format "00000000000", as a UK list
    keeps its leading 0; columns B-ALL: small numbers in it. Written a row at a time."""
    letters = [column_letter(c) for c in range(_COLUMNS)]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT_TYPES)
        zf.writestr("_rels/.rels", _RELS)
        zf.writestr("xl/workbook.xml", _WORKBOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        zf.writestr("xl/styles.xml", _STYLES)
        with zf.open("xl/worksheets/sheet1.xml", "w") as fh:
            fh.write(
                b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.'
                b'openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1"'
                b' t="inlineStr"><is><t>Phone</t></is></c></row>'
            )
            for r in range(2, _ROWS + 2):
                cells = "".join(
                    f'<c r="{letters[c]}{r}" s="1"><v>{c}</v></c>' for c in range(1, _COLUMNS)
                )
                phone = f'<c r="A{r}" s="1"><v>{2079460000 + r}</v></c>'
                fh.write(f'<row r="{r}">{phone}{cells}</row>'.encode())
            fh.write(b"</sheetData></worksheet>")
    return path


@pytest.mark.slow  # 2,000,000 cells: some 10 s on an idle machine
def test_the_real_limit_is_noted_through_the_reader(tmp_path: Path) -> None:
    """The worker as the app starts it, its own limit: the 2,000,001st padded cell, A2002,
    is the first read as a plain number, and the notes say so before the first row."""
    assert sheet_worker.MAX_PLACEHOLDERS == 2_000_000
    with open_sheet(_big_xlsx(tmp_path / "uk.xlsx")) as source:
        rows = source.iter_rows()
        number, cells = next(rows)
        assert (number, cells[0]) == (1, "Phone")
        assert source.notes.padded_cut == PaddedCut(2002, 0, 2_000_000)
        phones = {n: cells[0] for n, cells in rows if n in (2001, 2002)}
    assert phones == {2001: "02079462001", 2002: 2079462002}
    assert padded_cut_sentence(
        PaddedCut(2002, 0, 2_000_000), "sheet 'Sheet1' of uk.xlsx", "import"
    ) == _said("import", 2002, "2,000,000")
