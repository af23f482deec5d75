"""Black-box findings on exports (round d).

1. An xlsx export's phone cells were text in the General number format: re-typed or edited in
   Excel or LibreOffice, "07700900123" became the number 7700900123 and "4930123456789"
   showed as 4.93012E+12. They now have the Text format "@" (the other columns keep General:
   see ``TEXT_COLUMNS``), and LibreOffice keeps both the format and the values.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.core.export_job import COLUMNS, TEXT_COLUMNS, ExportJob, ListKind
from app.core.xlsx_safe import TEXT_FORMAT, SafeWorkbook
from tests.conftest import TOKEN
from tests.core.test_export_job import LO_CSV, libreoffice_convert, needs_soffice

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
