"""A number cell of a workbook set to the 1904 date system is read in that system (black-box
B28 F5: 46336 in such a workbook was read Nov 10, 2026, where the workbook means Nov 11, 2030):
the worker reads the flag from an xlsx/xlsm's workbook part, the reader keeps it, and
:func:`parse_request_date` counts a number from 1904 when told to."""

from __future__ import annotations

import datetime as dt
import marshal
import pickle
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils.datetime import CALENDAR_MAC_1904

from app.core.sheet_dates import parse_request_date
from app.core.sheet_reader import WorkbookSource, worker_command
from app.core.sheet_worker import date_system_1904

CHECKED = dt.date(2026, 11, 25)


def numbers_book(path: Path, *, mac: bool) -> Path:
    """A workbook whose request dates are plain numbers (General format), 1904-system or not."""
    book = openpyxl.Workbook()
    if mac:
        book.epoch = CALENDAR_MAC_1904
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Date received"])
    sheet.append(["3036193600", 44884])
    book.save(path)
    return path


def test_a_number_is_counted_from_1904_in_a_1904_workbook() -> None:
    parsed = parse_request_date(44884, CHECKED, date1904=True)
    assert parsed.date == dt.date(2026, 11, 20)
    assert parsed.note == (
        "the number 44884 is read as a spreadsheet's day number, 2026-11-20 (the workbook's "
        "1904 date system)"
    )


def test_a_number_of_no_known_system_keeps_both_readings() -> None:
    parsed = parse_request_date(44884, CHECKED)
    assert parsed.date == dt.date(2022, 11, 19)
    assert parsed.note.endswith(
        "(the 1900 date system; in a workbook set to the 1904 date system it is 2026-11-20)"
    )


def test_text_and_date_cells_are_not_moved_by_the_flag() -> None:
    # calamine reads a 1904 workbook's date cells itself, and text is no day number of its.
    day = dt.date(2026, 11, 20)
    assert parse_request_date(day, CHECKED, date1904=True).date == day
    assert parse_request_date("11/20/2026", CHECKED, date1904=True).date == day


def test_the_worker_reads_the_workbook_s_date_system(tmp_path: Path) -> None:
    assert date_system_1904(str(numbers_book(tmp_path / "mac.xlsx", mac=True)))
    assert not date_system_1904(str(numbers_book(tmp_path / "pc.xlsx", mac=False)))
    csv = tmp_path / "plain.csv"
    csv.write_text("Phone,Date\n3036193600,44884\n")
    assert not date_system_1904(str(csv))
    assert not date_system_1904(str(tmp_path / "missing.xlsx"))


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        (b"<x:workbookPr date1904='true' defaultThemeVersion='164011'/>", True),
        (b'<x:workbookPr date1904="0"/>', False),
        (b"<x:workbookPr/>", False),
    ],
)
def test_any_prefix_and_quote_is_read(tmp_path: Path, tag: bytes, expected: bool) -> None:
    path = tmp_path / "sdk.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(
            "xl/workbook.xml",
            b'<x:workbook xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            + tag
            + b"<x:sheets/></x:workbook>",
        )
    assert date_system_1904(str(path)) is expected


def test_the_worker_s_first_message_carries_the_flag(tmp_path: Path) -> None:
    # In a child, as the reader runs it: the worker limits its own process's memory.
    path = numbers_book(tmp_path / "mac.xlsx", mac=True)
    argv = [*worker_command(), str(path), "", str(1 << 31), "0", "xlsx"]
    done = subprocess.run(argv, capture_output=True, check=True, timeout=60)
    length = int.from_bytes(done.stdout[:4], "big")
    body = done.stdout[4 : 4 + length]
    # Our own worker's bytes, written just now.
    message = marshal.loads(body[1:]) if body[:1] == b"m" else pickle.loads(body[1:])
    assert message[0] == "meta" and message[4] is True


@pytest.mark.parametrize("mac", [True, False])
def test_the_reader_keeps_the_flag(tmp_path: Path, mac: bool) -> None:
    path = numbers_book(tmp_path / "book.xlsx", mac=mac)
    with WorkbookSource(path, None, "xlsx") as source:
        rows = list(source.iter_rows())
        assert source.date1904 is mac
    assert rows[1] == (2, ["3036193600", 44884.0])  # the number as it is: read as a date later
