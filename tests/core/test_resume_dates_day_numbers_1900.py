"""A plain number in the request-date column of an .xlsx/.xlsm whose workbook part says the
1900 date system is read in that system alone: its note gave the 1904 reading as an
alternative, which such a workbook cannot mean (black-box B28 F5 leftover). The reader's flag
is three-valued: True (1904), False (1900), None (not known: a text file, an .xls, .xlsb or
.ods, whose flag is not read), and only None keeps both readings."""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from app.core.sheet_check import CheckOptions
from app.core.sheet_dates import parse_request_date
from app.core.sheet_reader import WorkbookSource, _date_system
from app.core.sheet_worker import date_system_1904

CHECKED = dt.date(2026, 11, 25)


def _book(path: Path, *, mac: bool) -> Path:
    book = openpyxl.Workbook()
    if mac:
        book.epoch = CALENDAR_MAC_1904
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Date received"])
    sheet.append(["3036193600", 44884])
    book.save(path)
    return path


def test_a_number_of_a_1900_workbook_has_its_reading_only() -> None:
    parsed = parse_request_date(44884, CHECKED, date1904=False)
    assert parsed.date == dt.date(2022, 11, 19)
    assert parsed.note == (
        "the number 44884 is read as a spreadsheet's day number, 2022-11-19 (the workbook's "
        "1900 date system)"
    )


def test_a_number_of_no_known_system_keeps_both_readings() -> None:
    for parsed in (
        parse_request_date(44884, CHECKED),
        parse_request_date(44884, CHECKED, date1904=None),
    ):
        assert parsed.date == dt.date(2022, 11, 19)
        assert parsed.note.endswith(
            "(the 1900 date system; in a workbook set to the 1904 date system it is 2026-11-20)"
        )
    # The check's options do not know it unless told.
    assert CheckOptions().date1904 is None


def test_the_flag_says_1900_of_an_xlsx_that_says_so(tmp_path: Path) -> None:
    assert date_system_1904(str(_book(tmp_path / "pc.xlsx", mac=False))) is False
    assert date_system_1904(str(_book(tmp_path / "mac.xlsx", mac=True))) is True


def test_the_flag_is_not_known_of_other_files(tmp_path: Path) -> None:
    csv = tmp_path / "plain.csv"
    csv.write_text("Phone,Date received\n3036193600,44884\n", encoding="utf-8")
    ods = tmp_path / "book.ods"
    with zipfile.ZipFile(ods, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("content.xml", "<office:document-content/>")
    xls = tmp_path / "book.xls"
    xls.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504))
    for path in (csv, ods, xls, tmp_path / "missing.xlsx"):
        assert date_system_1904(str(path)) is None, path


def test_a_workbook_part_without_workbook_pr_is_1900(tmp_path: Path) -> None:
    path = _book(tmp_path / "pc.xlsx", mac=False)
    bare = tmp_path / "bare.xlsx"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(bare, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "xl/workbook.xml":
                data = data.replace(b"<workbookPr/>", b"").replace(b"<workbookPr />", b"")
                assert re.search(rb"<workbookPr\b", data) is None
            dst.writestr(item, data)
    assert date_system_1904(str(bare)) is False


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (("meta", ["Sheet"], "Sheet"), None),
        (("meta", ["Sheet"], "Sheet", []), None),
        (("meta", ["Sheet"], "Sheet", [], None), None),
        (("meta", ["Sheet"], "Sheet", [], False), False),
        (("meta", ["Sheet"], "Sheet", [], True), True),
    ],
)
def test_the_reader_takes_every_form_of_the_meta_message(
    message: tuple[object, ...], expected: bool | None
) -> None:
    assert _date_system(message) is expected


@pytest.mark.parametrize("mac", [True, False])
def test_the_reader_keeps_the_workbook_s_system(tmp_path: Path, mac: bool) -> None:
    with WorkbookSource(_book(tmp_path / "book.xlsx", mac=mac), None, "xlsx") as source:
        list(source.iter_rows())
        assert source.date1904 is mac
