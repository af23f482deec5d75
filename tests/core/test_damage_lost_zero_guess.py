"""Black-box bb4 #1 (session 31): a number cell only guessed to have lost a leading 0 is no
damage a spreadsheet certainly did.

A 52,000-row LibreOffice xlsx counted 3,003 ten-digit number cells that were simply invalid US
numbers (3556040791: area code 355 does not exist) as "damaged", and its warning said they were
damaged "by scientific notation, a dropped leading 0 …", though each row's note only said the
cell "may have lost a leading 0". Such rows are now counted apart from real damage, and a guess
is worded as one. Real workbooks written to tmp_path by openpyxl, staged as job_staging does.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.core.job_staging import _new_row
from app.core.job_store import NewRow
from app.core.sheet_check import CheckOptions, CheckSummary, check_rows
from app.core.sheet_damage import CUT_SHORT, MAY_HAVE_LOST_ZERO
from app.core.sheet_mapping import propose_from_preview
from app.core.sheet_reader import open_sheet
from app.core.staging_notes import Held, HiddenRows, damage_sentences, noted, watched

DAMAGED = "read from phone cells a spreadsheet had damaged"


def _workbook(path: Path, rows: list[list[object]]) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def _stage(path: Path) -> tuple[dict[int, NewRow], list[str], CheckSummary]:
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
        held, summary = Held(), CheckSummary()
        notes = source.notes
        rows = watched(source.iter_rows(), mapping, notes.formulas, held, notes.errors)
        checked = check_rows(rows, mapping, CheckOptions(), summary)
        hidden = HiddenRows("import", False)
        staged = list(noted(checked, notes, mapping.phone, hidden, summary, held, _new_row))
        warnings = damage_sentences(held, "import")
    return {r.row_number: r for r in staged}, warnings, summary


def test_an_invalid_us_number_cell_is_not_counted_damaged(tmp_path: Path) -> None:
    path = _workbook(
        tmp_path / "us.xlsx",
        [["Phone"], [3556040791], [2025550000], [2125551238]],
    )
    rows, warnings, summary = _stage(path)
    assert MAY_HAVE_LOST_ZERO in rows[2].damage  # the row's own note keeps the guess
    assert CUT_SHORT in rows[3].damage
    assert summary.damaged == 1  # the cut-short cell only
    damaged = [w for w in warnings if DAMAGED in w]
    assert len(damaged) == 1 and damaged[0].startswith(f"1 row was {DAMAGED} (row 3)")


def test_a_guessed_lost_zero_is_warned_of_as_a_guess(tmp_path: Path) -> None:
    path = _workbook(
        tmp_path / "it.xlsx",
        [
            ["Telefono", "Paese"],
            [312345678, "Italia"],  # 031 2345678 (Como) without its 0: no number as it stands
            [3471234518, "Italia"],
            [312345679, "Italia"],
        ],
    )
    rows, warnings, summary = _stage(path)
    assert MAY_HAVE_LOST_ZERO in rows[2].damage and MAY_HAVE_LOST_ZERO in rows[4].damage
    assert summary.damaged == 0
    assert not any(DAMAGED in w for w in warnings)
    (guess,) = [w for w in warnings if MAY_HAVE_LOST_ZERO in w]
    assert guess.startswith("2 rows' phone cells (rows 2 and 4) may have lost a leading 0")
    assert "none is a valid number as written, and each would be one with a 0" in guess
    assert "a guess, not a certainty" in guess
