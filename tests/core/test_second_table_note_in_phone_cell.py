"""Black-box bb2 F1: a note written in the phone cell ("wrong number", "no number", "cell")
beside a reason was taken for the header of a second table, the ordinary numbers below it in
the same column its "proof": every row after it was set apart, invalid (1,000 opt-outs in the
tester's file, "valid 1, invalid 1001", a real run exiting 0). Such a row is now one invalid row
and the rows after it are read; a real second table with its own header is still set apart.
Staged through the real staging, as a CSV and as an xlsx (number cells)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow
from app.core.sheet_check import CheckSummary

NOTES = (
    "wrong number",
    "no number",
    "bad number",
    "not a number",
    "number disconnected",
    "cell",
    "mobile",
    "landline",
    "home phone",
    "tel",
    "phone number unknown",
)
AFTER = 1000  # numbers after the note, as in the tester's t7.csv


def _table(note: str, reason: str = "Customer request") -> list[list[object]]:
    rows: list[list[object]] = [["Phone", "Reason"], [3035550121, reason], [note, reason]]
    rows += [[3035551000 + i, reason] for i in range(AFTER)]
    return rows


def _write(tmp_path: Path, rows: list[list[object]], fmt: str) -> Path:
    if fmt == "csv":
        path = tmp_path / "optouts.csv"
        text = "".join(",".join(str(v) for v in row) + "\n" for row in rows)
        path.write_text(text, encoding="utf-8")
        return path
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    path = tmp_path / "optouts.xlsx"
    book.save(path)
    return path


def _staged(tmp_path: Path, path: Path) -> tuple[dict[int, JobRow], list[str], CheckSummary]:
    settings = JobSettings(path, Scope.global_())
    store, summary = stage_import(settings, tmp_path / "jobs", connection=None)
    with store:
        rows = {r.row_number: r for r in store.rows()}
        return rows, list(store.meta().get("warnings", [])), summary


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("note", NOTES)
def test_a_note_in_the_phone_cell_is_one_invalid_row(tmp_path: Path, note: str, fmt: str) -> None:
    rows, warnings, summary = _staged(tmp_path, _write(tmp_path, _table(note), fmt))
    assert (summary.rows, summary.valid, summary.invalid) == (AFTER + 2, AFTER + 1, 1)
    assert rows[3].outcome == "invalid"
    assert "table" not in rows[3].message
    assert rows[3].original == note
    assert all(
        rows[n].outcome == "" and rows[n].reason == "Customer request" for n in rows if n != 3
    )
    assert rows[4].national == "3035551000"
    assert not any("table" in w for w in warnings)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize(
    ("note", "reason"),
    [
        ("wrong number", "Reason unknown"),
        ("no number", "Phone refused"),
        ("phone number unknown", "Notes lost"),
    ],
)
def test_a_note_beside_a_reason_naming_a_column_is_one_invalid_row(
    tmp_path: Path, note: str, reason: str, fmt: str
) -> None:
    """A reason that happens to hold a column's word is still a reason: the row's cells are
    phrases, not the names a header gives its columns. It was taken for a second table's
    header: 'Phone refused' set every row after it apart, 'Reason unknown' called its row one."""
    table = _table(note)
    table[2] = [note, reason]
    rows, warnings, summary = _staged(tmp_path, _write(tmp_path, table, fmt))
    assert (summary.rows, summary.valid, summary.invalid) == (AFTER + 2, AFTER + 1, 1)
    assert rows[3].outcome == "invalid"
    assert "table" not in rows[3].message
    assert all(rows[n].outcome == "" for n in rows if n != 3)
    assert rows[4].national == "3035551000" and rows[4].reason == "Customer request"
    assert not any("table" in w for w in warnings)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_note_beside_a_unique_reason_and_a_repeated_header_word(tmp_path: Path, fmt: str) -> None:
    """A reason that names a column ("Notes: call later") is still data when the row below
    holds it too; one that names none is data whatever the rows below hold."""
    table: list[list[object]] = [
        ["Phone", "Reason"],
        [3035550121, "asked"],
        ["wrong number", "said he never signed up"],
        [3035550123, "asked"],
        ["no number", "Notes: call later"],
        [3035550125, "Notes: call later"],
        [3035550126, "asked"],
    ]
    rows, warnings, summary = _staged(tmp_path, _write(tmp_path, table, fmt))
    assert [rows[n].outcome for n in range(2, 8)] == ["", "invalid", "", "invalid", "", ""]
    assert (summary.valid, summary.invalid) == (4, 2)
    assert not any("table" in w for w in warnings)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize(
    ("header", "moved"),
    [
        (["Mobile", "Reason"], False),
        (["Telephone", "Notes"], False),
        (["Phone", "Campaign", "Notes"], True),
        (["Telephone", "Name", "Notes"], True),
        (["Name", "Mobile"], True),
        (["Reason", "Telephone"], True),
        (["Home Phone", "Notes"], False),
        (["Telephone", "Reason unknown"], False),
        (["Home Phone", "Campaign", "Reason unknown"], True),
    ],
)
def test_a_real_second_table_is_still_told_apart(
    tmp_path: Path, header: list[str], moved: bool, fmt: str
) -> None:
    phone = next(
        i for i, h in enumerate(header) if h in ("Mobile", "Telephone", "Phone", "Home Phone")
    )
    below: list[list[object]] = []
    for n in range(3):
        row: list[object] = [
            "Ana" if header[i] == "Name" else "asked too" for i in range(len(header))
        ]
        row[phone] = 3035550130 + n
        below.append(row)
    table: list[list[object]] = [["Phone", "Reason"], [3035550121, "asked"], header, *below]
    rows, warnings, summary = _staged(tmp_path, _write(tmp_path, table, fmt))
    assert rows[2].outcome == ""
    assert rows[3].outcome == "invalid"
    assert "the header of another table" in rows[3].message
    if moved:
        assert [rows[n].outcome for n in (4, 5, 6)] == ["invalid"] * 3
        assert "table's header (row 3)" in rows[4].message
        assert any(w.startswith("Rows 3–6 are a second table") for w in warnings)
    else:
        assert [rows[n].outcome for n in (4, 5, 6)] == [""] * 3
        assert rows[4].national == "3035550130" and rows[4].reason == "asked too"
        assert not any("table" in w for w in warnings)
    assert summary.rows == summary.valid + summary.invalid
