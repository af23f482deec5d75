"""Black-box findings on exports and the check's notes (round d).

1. An xlsx export's phone cells were text in the General number format: re-typed or edited in
   Excel or LibreOffice, "07700900123" became the number 7700900123 and "4930123456789"
   showed as 4.93012E+12. They now have the Text format "@" (the other columns keep General:
   see ``TEXT_COLUMNS``), and LibreOffice keeps both the format and the values.
2. The note on values right of the header's columns blamed a comma in an unquoted value even
   in an xlsx, xls or ods workbook, where there is no comma: a workbook's note now names the
   header's last named column, which nothing reads; a text file's names its own delimiter.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.export_job import COLUMNS, TEXT_COLUMNS, ExportJob, ListKind
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.removal_job import stage_removal
from app.core.sheet_check import check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.xlsx_safe import TEXT_FORMAT, SafeWorkbook
from tests.conftest import TOKEN
from tests.core.sheet_factory import write_csv, write_xlsx
from tests.core.test_export_job import LO_CSV, libreoffice_convert, needs_soffice
from tests.core.test_sheet_ods_xls_error_cells import convert

# -- 1. phone cells in the Text number format ---------------------------------------------------

NUMBERS = {
    "07700900123": "44",  # a leading zero Excel would drop
    "4930123456789": "49",  # 13 digits: 4.93012E+12 in General
    "+12025550199": "1",  # could start a formula: quote-prefixed, and Text as well
    "2025550100": "1",
}


@pytest.fixture
def client(sandbox: Any) -> Iterator[ApiClient]:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        yield api


def _export(sandbox: Any, client: ApiClient, out: Path) -> Path:
    sandbox.bulk_seed_dnc([(n, code, "0", "asked", "") for n, code in NUMBERS.items()])
    sandbox.bulk_seed_dnc((f"303555{i:04d}", "1", "0", "", "") for i in range(40))
    ExportJob(client, ListKind.DNC, DncQuery(), out).run()
    return out


def _entries(path: Path) -> list[tuple[Any, ...]]:
    wb = openpyxl.load_workbook(path)
    return list(wb["Entries"].iter_rows())


def test_the_phone_cells_of_an_xlsx_export_have_the_text_format(
    sandbox: Any, client: ApiClient, tmp_path: Path
) -> None:
    out = _export(sandbox, client, tmp_path / "dnc.xlsx")
    assert (COLUMNS.index("phone_number"),) == TEXT_COLUMNS
    rows = _entries(out)
    assert len(rows) == 1 + 44
    by_number = {row[0].value: row for row in rows[1:]}
    assert set(NUMBERS) <= set(by_number)
    for row in rows[1:]:
        phone = row[0]
        assert (phone.data_type, phone.number_format) == ("s", TEXT_FORMAT), phone.value
        # The other columns keep General: short codes and ids, a date, free text.
        assert {c.number_format for c in row[1:]} == {"General"}
    assert by_number["+12025550199"][0].quotePrefix
    assert not by_number["07700900123"][0].quotePrefix
    # Rows a person adds below the export are typed into a Text column too.
    wb = openpyxl.load_workbook(out)
    assert wb["Entries"].column_dimensions["A"].number_format == TEXT_FORMAT
    assert wb["Entries"].column_dimensions["B"].number_format == "General"


@needs_soffice
def test_libreoffice_keeps_the_text_format_and_the_values(
    sandbox: Any, client: ApiClient, tmp_path: Path
) -> None:
    out = _export(sandbox, client, tmp_path / "dnc.xlsx")
    ours = [[c.value for c in row] for row in _entries(out)]
    # Saved again by LibreOffice: it read the cells as Text, or it would write General.
    resaved = openpyxl.load_workbook(libreoffice_convert(out, "xlsx", tmp_path))["Entries"]
    rows = list(resaved.iter_rows())
    assert [[c.value for c in row] for row in rows] == ours
    assert all(row[0].number_format == TEXT_FORMAT for row in rows[1:])
    assert resaved.column_dimensions["A"].number_format == TEXT_FORMAT
    with libreoffice_convert(out, LO_CSV, tmp_path).open(encoding="utf-8", newline="") as fh:
        shown = {row[0] for row in csv.reader(fh)}
    assert set(NUMBERS) <= shown


def test_a_text_column_holds_each_rows_own_value(tmp_path: Path) -> None:
    # One cell object per text column is reused row after row: each row keeps its own text,
    # on the fast path, the slow one (a character XML cannot hold), quote-prefixed or empty.
    book = SafeWorkbook(quote_prefix=True)
    sheet = book.add_sheet("S", text_columns=(0, 2))
    sheet.append_text(["0201", "x", "0301"])
    sheet.append_text(["0202", "bad\x01char", "=0302"])
    sheet.append_text(["", "y", "0303"])
    sheet.append(["0204", 7, 8])
    sheet.append_text(["0205"])
    other = book.add_sheet("T", text_columns=(1,))
    other.append_text(["a", "0401"])
    plain = book.add_sheet("U")
    plain.append_text(["0501"])
    book.save(tmp_path / "t.xlsx")
    wb = openpyxl.load_workbook(tmp_path / "t.xlsx")
    s = wb["S"]
    values = [[c.value for c in row] for row in s.iter_rows()]
    assert values == [
        ["0201", "x", "0301"],
        ["0202", "bad\ufffdchar", "=0302"],
        [None, "y", "0303"],
        ["0204", 7, 8],
        ["0205", None, None],
    ]
    formats = [[c.number_format for c in row] for row in s.iter_rows()]
    assert formats == [
        ["@", "General", "@"],
        ["@", "General", "@"],
        ["General", "General", "@"],
        ["@", "General", "General"],  # a number in a text column is left a number
        ["@", "General", "General"],
    ]
    assert s["C2"].quotePrefix and s["C2"].data_type == "s"
    assert wb["T"]["B1"].number_format == "@" and wb["T"]["A1"].number_format == "General"
    assert wb["U"]["A1"].number_format == "General"


# -- 2. the note on values right of the header's columns ---------------------------------------

ROWS = [
    ["Name", "Phone"],
    ["Ann", "303-555-0411", "303-555-0412"],
    ["Smith", "John", "303-555-0413"],  # the phone cell holds text, the number is right of it
    ["Bo", "303-555-0414"],
]
WORKBOOK_ROW = (
    "row 2: '303-555-0412' (column C) right of the header's last named column ('Phone', "
    "column B), which nothing reads: check the row; put each number on its own row"
)


def _workbook_warning(done: str) -> str:
    return (
        "2 rows hold values in columns right of the header's last named column ('Phone', "
        "column B), which nothing reads (first: row 2; each row's message names them): a phone "
        f"number there is not {done}; put each number on its own row in the phone column and "
        "run the file again."
    )


def _staged(path: Path, tmp_path: Path, removal: bool = False) -> tuple[dict[int, str], list[str]]:
    settings = JobSettings(path, Scope.global_())
    jobs = tmp_path / "jobs"
    store, summary = (
        stage_removal(settings, jobs, connection=None)
        if removal
        else stage_import(settings, jobs, connection=None)
    )
    assert summary.beyond_header == (2, 2)
    messages = {r.row_number: r.message for r in store.rows()}
    warnings = list(store.meta().get("warnings") or [])
    store.close()
    return messages, warnings


def _no_delimiter_blamed(messages: dict[int, str], warnings: list[str]) -> None:
    said = " ".join([*messages.values(), *warnings]).lower()
    assert "comma" not in said and "unquoted" not in said and "csv" not in said


def test_an_xlsx_names_the_last_named_column_not_a_comma(tmp_path: Path) -> None:
    messages, warnings = _staged(write_xlsx(tmp_path / "ragged.xlsx", ROWS), tmp_path)
    assert messages[2] == WORKBOOK_ROW
    assert messages[3] == (
        "row 3: phone: 'John' is not a phone number: it has no digits; '303-555-0413' "
        "(column C) right of the header's last named column ('Phone', column B), which "
        "nothing reads: check the row; put each number on its own row"
    )
    assert messages[4] == ""
    assert _workbook_warning("imported") in warnings
    _no_delimiter_blamed(messages, warnings)


def test_a_removal_from_an_xlsx_says_the_number_is_not_removed(tmp_path: Path) -> None:
    messages, warnings = _staged(write_xlsx(tmp_path / "ragged.xlsx", ROWS), tmp_path, True)
    assert messages[2] == WORKBOOK_ROW
    assert _workbook_warning("removed") in warnings
    _no_delimiter_blamed(messages, warnings)


@needs_soffice
@pytest.mark.parametrize("ext", ["ods", "xls"])
def test_an_ods_or_xls_has_the_workbook_wording(tmp_path: Path, ext: str) -> None:
    path = convert(write_xlsx(tmp_path / "ragged.xlsx", ROWS), ext)
    messages, warnings = _staged(path, tmp_path)
    assert messages[2] == WORKBOOK_ROW
    assert _workbook_warning("imported") in warnings
    _no_delimiter_blamed(messages, warnings)


def test_a_csv_still_blames_a_comma(tmp_path: Path) -> None:
    messages, warnings = _staged(write_csv(tmp_path / "ragged.csv", ROWS), tmp_path)
    assert messages[2] == (
        "row 2: '303-555-0412' (column C) right of the header's columns, not read (in a CSV "
        "file, a comma in an unquoted value does this): check the row; put each number on "
        "its own row"
    )
    assert (
        "2 rows hold values right of the header's columns, which are not read (first: row 2; "
        "each row's message names them). In a CSV file a comma in an unquoted value does "
        "this: fix those lines and run the file again."
    ) in warnings


@pytest.mark.parametrize(
    ("name", "delimiter", "said"),
    [
        ("ragged.csv", ";", "a semicolon"),
        ("ragged.tsv", "\t", "a tab"),
        ("ragged.txt", "|", "a vertical bar"),
        # Tab-separated text under a workbook's name (a web app's "Export to Excel"): the
        # reader reads it as the text it is, and the note blames its tab.
        ("ragged.xls", "\t", "a tab"),
    ],
)
def test_a_text_file_names_its_own_delimiter(
    tmp_path: Path, name: str, delimiter: str, said: str
) -> None:
    path = write_csv(tmp_path / name, ROWS, delimiter=delimiter)
    messages, warnings = _staged(path, tmp_path)
    assert messages[2] == (
        "row 2: '303-555-0412' (column C) right of the header's columns, not read (in this "
        f"file, {said} in an unquoted value does this): check the row; put each number on "
        "its own row"
    )
    assert (
        "2 rows hold values right of the header's columns, which are not read (first: row 2; "
        f"each row's message names them). In this file {said} in an unquoted value does "
        "this: fix those lines and run the file again."
    ) in warnings
    assert "comma" not in " ".join([*messages.values(), *warnings])


def test_a_check_not_told_the_file_type_blames_no_delimiter() -> None:
    # The import wizard checks rows without saying where they come from: the note is the
    # workbook's, true of any file.
    mapping = ColumnMapping(header_row=1, headers=("Name", "Phone"), phone=1)
    checked, summary = check_all(
        [(1, ["Name", "Phone"]), (2, ["Ann", "303-555-0411", "303-555-0412"])], mapping
    )
    assert checked[0].message == WORKBOOK_ROW
    assert summary.beyond_header == (2, 1)
