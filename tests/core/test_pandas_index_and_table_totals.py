"""Black-box B13 #4 and #5: pandas' index column, and a table's totals row.

#4: pandas' ``DataFrame.to_csv()`` and ``to_excel()`` write the frame's index by default
(index=True): a first column under an empty header cell holding the row numbers 0, 1, 2, …;
with a MultiIndex over the columns, ``to_excel`` writes two header rows and an empty row for
the index's name before the data. A row of the frame left empty reads ``1,,`` and was "the
phone number is empty", not blank (the tester's 40-row file: invalid 8 / blank 0 against the
same data's invalid 6 / blank 2 written without the index). pandas is not in the venv: the
tests write what it writes (the tester's /tmp/s21/b13/repro/R10_pandas_index_blank_row.csv and
.xlsx, out/py/pd_*_index.* and pd_*_multihdr.xlsx) with csv text and openpyxl.

#5: a table's totals row, as ExcelJS's ``addTable({totalsRow: true})`` and XlsxWriter's
``add_table(..., {"total_row": True})`` write it (repro/R11_exceljs_table_totals.xlsx,
R11b_xlsxwriter_table_totals.xlsx): the label "Total" and ``=SUBTOTAL(103,T[Country Code])``
with no saved result. The row said "cell B4 holds a formula … with no saved result … open and
save the file in Excel". The tests write such a table with openpyxl, which saves formulas with
no result as those libraries do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.worksheet.table import Table, TableColumn

from app.cli.main import main
from tests.conftest import TOKEN

PANDAS_NOTE = "row numbers 0, 1, 2, … that pandas writes"
NO_RESULT = "with no saved result"
TOTAL_LINE = "a report's total line, not a row of the table"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _dry_run(
    capsys: pytest.CaptureFixture[str], path: Path
) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The --json summary of a global dry run of ``path``, and its report's rows by source row."""
    report = path.with_suffix(".report.xlsx")
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    code = main([*argv, "--report", str(report), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    summary: dict[str, Any] = json.loads(out)
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        lines = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()  # a read-only workbook keeps its file open until closed (ResourceWarning)
    header = [str(h) for h in lines[0]]
    rows = {int(line[0]): dict(zip(header, line, strict=False)) for line in lines[1:] if line[0]}
    return summary, rows


def _counts(summary: dict[str, Any]) -> tuple[int, ...]:
    keys = ("rows", "valid", "invalid", "duplicates_in_file", "blank")
    return tuple(summary[k] for k in keys)


# The frame: rows 1 and 4 left empty (NaN everywhere), row 3 a number refused.
FRAME = [
    ["(303) 555-0101", "a"],
    [None, None],
    ["303-555-0103", "c"],
    ["555-01", "short"],
    [None, None],
    ["303-555-0106", "f"],
]


def _csv(with_index: bool) -> str:
    """``df.to_csv(path)`` (with_index) or ``df.to_csv(path, index=False)``: NaN as nothing."""
    lines = [",Phone,Reason" if with_index else "Phone,Reason"]
    for n, (phone, reason) in enumerate(FRAME):
        cells = [phone or "", reason or ""]
        lines.append(",".join([str(n), *cells] if with_index else cells))
    return "\n".join(lines) + "\n"


def test_pandas_index_column_leaves_an_empty_row_blank_as_without_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "plain.csv"
    plain.write_text(_csv(with_index=False), encoding="utf-8")
    indexed = tmp_path / "indexed.csv"
    indexed.write_text(_csv(with_index=True), encoding="utf-8")
    without, _ = _dry_run(capsys, plain)
    summary, rows = _dry_run(capsys, indexed)
    # The same frame, the same counts: the row numbers make no row a row of data.
    assert _counts(summary) == _counts(without)
    assert summary["blank"] == 2
    assert rows[3]["Outcome"] == rows[6]["Outcome"] == "blank"
    assert "empty" not in str(rows[3]["Message"])
    said = [w for w in summary["warnings"] if PANDAS_NOTE in w]
    assert len(said) == 1
    assert "Column A" in said[0] and "rows 3 and 6" in said[0]


def _indexed_sheet(path: Path, multi: bool) -> None:
    """``df.to_excel(path)`` as pandas' openpyxl and xlsxwriter engines write it: the index
    as numbers in column A under an empty cell; ``multi``: a MultiIndex header (two rows, the
    upper merged over its columns) and the empty row pandas writes for the index's name."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    if multi:
        sheet.append([None, "Contact", None, "Request"])
        sheet.merge_cells("B1:C1")
    sheet.append([None, "Phone", "Country Code", "Reason"])
    first = sheet.max_row + (2 if multi else 1)  # the index name's row left empty
    for n, (phone, reason) in enumerate(FRAME):
        values = [n, phone, None if phone is None else "1", reason]
        for column, value in enumerate(values, start=1):
            sheet.cell(first + n, column, value)
    book.save(path)


@pytest.mark.parametrize("multi", [False, True], ids=["one-header-row", "multiindex-header"])
def test_pandas_to_excel_index_column_leaves_an_empty_row_blank(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], multi: bool
) -> None:
    path = tmp_path / "frame.xlsx"
    _indexed_sheet(path, multi)
    summary, rows = _dry_run(capsys, path)
    assert summary["mapping"]["phone"] == "Phone (column B)"
    empty = [3, 6] if not multi else [5, 8]
    refused = 5 if not multi else 7
    assert [n for n, r in rows.items() if r["Outcome"] == "invalid"] == [refused]
    assert all(rows[n]["Outcome"] == "blank" for n in empty)
    assert summary["valid"] == 3
    assert summary["rows"] == sum(_counts(summary)[1:])
    said = [w for w in summary["warnings"] if PANDAS_NOTE in w]
    assert len(said) == 1 and f"rows {empty[0]} and {empty[1]}" in said[0]


@pytest.mark.parametrize(
    ("first", "why"),
    [
        (["101", "102", "103", "104"], "an id column, not a counter"),
        (["1", "2", "3", "4"], "counted from 1, not pandas' 0"),
        (["0", "1", "7", "3"], "the counter broken before the row"),
        (["0", "01", "2", "3"], "text, not a number pandas writes"),
    ],
)
def test_a_first_column_that_is_not_pandas_index_is_not_passed_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], first: list[str], why: str
) -> None:
    """Strict: a row holding only a value in an unnamed column A stays a row with no number
    unless column A is pandas' counter from the top."""
    phones = ["303-555-0101", "303-555-0102", "303-555-0103", ""]
    lines = [",Phone,Reason"] + [
        f"{n},{p},{'r' if p else ''}" for n, p in zip(first, phones, strict=True)
    ]
    path = tmp_path / "ids.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    summary, rows = _dry_run(capsys, path)
    assert rows[5]["Outcome"] == "invalid", why
    assert "the phone number is empty" in str(rows[5]["Message"])
    assert summary["blank"] == 0
    assert not [w for w in summary["warnings"] if PANDAS_NOTE in w]


def _table_with_totals(path: Path, label_column: int, *, formula: str | None = None) -> None:
    """A table with a totals row as ExcelJS (totalsRow) and XlsxWriter (total_row) write it:
    a label, and SUBTOTAL formulas over the table's columns with no saved result (openpyxl
    saves a formula's text alone, as they do). ``label_column`` 0: "Total" under Phone, the
    count under Country Code; 1: a Name column first, "Total" under it, the phone numbers
    counted."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Opt-outs"
    if label_column == 0:
        names = ["Phone", "Country Code", "Reason"]
        sheet.append(names)
        sheet.append(["303-555-0101", "1", "a"])
        sheet.append(["303-555-0102", "1", "b"])
        sheet.append(["Total", formula or "=SUBTOTAL(103,T[Country Code])", None])
        columns = [
            TableColumn(id=1, name="Phone", totalsRowLabel="Total"),
            TableColumn(id=2, name="Country Code", totalsRowFunction="count"),
            TableColumn(id=3, name="Reason"),
        ]
    else:
        names = ["Name", "Phone", "Reason"]
        sheet.append(names)
        sheet.append(["Ann Lee", "303-555-0101", "a"])
        sheet.append(["Bo Kim", "303-555-0102", "b"])
        sheet.append(["Total", formula or "=SUBTOTAL(103,T[Phone])", None])
        columns = [
            TableColumn(id=1, name="Name", totalsRowLabel="Total"),
            TableColumn(id=2, name="Phone", totalsRowFunction="count"),
            TableColumn(id=3, name="Reason"),
        ]
    table = Table(displayName="T", ref="A1:C4", totalsRowCount=1)
    table._initialise_columns()
    table.tableColumns = columns
    sheet.add_table(table)
    book.save(path)


@pytest.mark.parametrize("label_column", [0, 1], ids=["count-of-codes", "count-of-phones"])
def test_a_tables_totals_row_of_uncalculated_subtotals_is_a_total_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], label_column: int
) -> None:
    path = tmp_path / "table.xlsx"
    _table_with_totals(path, label_column)
    summary, rows = _dry_run(capsys, path)
    total = rows[4]
    assert total["Outcome"] == "invalid"
    assert TOTAL_LINE in str(total["Message"]) and "'Total' (column A)" in str(total["Message"])
    assert "open and save" not in str(total["Message"])
    # The formula read as empty is named, as nothing to correct.
    counted = "Country Code" if label_column == 0 else "Phone"
    assert f"cell B4 (=SUBTOTAL(103,T[{counted}])) is the table's total" in str(total["Message"])
    assert (summary["valid"], summary["invalid"], summary["blank"]) == (2, 1, 0)
    assert summary["rows"] == sum(_counts(summary)[1:])
    # Nothing to calculate: no advice to open and save the file.
    assert not [w for w in summary["warnings"] if "no saved value" in w]


def test_a_formula_beside_total_that_sums_nothing_still_wants_calculating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only formulas summing up a column make a totals row: "Total" beside a joined number
    is a row whose number was never calculated."""
    path = tmp_path / "table.xlsx"
    _table_with_totals(path, 1, formula='="303-555-"&"0107"')
    _, rows = _dry_run(capsys, path)
    assert NO_RESULT in str(rows[4]["Message"])
    assert "open and save the file" in str(rows[4]["Message"])


def test_a_totals_row_with_its_saved_count_is_a_total_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same table once Excel calculated it, saved as CSV: the count 2 under Country Code
    was "not a country code"; it is the total line's count."""
    path = tmp_path / "table.csv"
    path.write_text(
        "Phone,Country Code,Reason\n303-555-0101,1,a\n303-555-0102,1,b\nTotal,2,\n",
        encoding="utf-8",
    )
    summary, rows = _dry_run(capsys, path)
    message = str(rows[4]["Message"])
    assert rows[4]["Outcome"] == "invalid"
    assert TOTAL_LINE in message and "phone_code" not in message
    assert (summary["valid"], summary["invalid"]) == (2, 1)
