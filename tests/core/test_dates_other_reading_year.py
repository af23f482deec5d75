"""The other reading of an ambiguous date with a two-digit year is in the year its digits name,
as the reading taken is (black-box B6 #8: in a SheetJS CSV checked on Nov 24, 2026, ``11/4/26``
"could be Apr 11, 2026" while ``11/12/26`` "could be Dec 11, 1926", its other reading sent a
century back for being after the day checked). A reading after that day says so."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_dates import parse_request_date
from app.core.sheet_mapping import ColumnMapping
from tests.conftest import TOKEN

CHECKED = dt.date(2026, 11, 24)


def test_the_sheetjs_file_s_dates_read_the_other_way_keep_their_year() -> None:
    rows = [
        (1, ["Phone", "Opt-out date", "Reason"]),
        (2, ["3032700001", "2026-11-03", "stop 1"]),
        (3, ["(303) 270-0002", "11/4/26", "stop 2"]),
        (7, ["3032700006", "11/8/26", "stop 6"]),
        (11, ["(303) 270-0010", "11/12/26", "stop 10"]),
    ]
    mapping = ColumnMapping(header_row=1, phone=0, request_date=1)
    checked, _ = check_all(rows, mapping, CheckOptions(insertion_date=CHECKED))
    notes = {row.row: row.date_note for row in checked}
    assert notes[3].endswith("it could be Apr 11, 2026")
    assert notes[7].endswith("it could be Aug 11, 2026")
    assert notes[11] == (
        "'11/12/26' is ambiguous: read as Nov 12, 2026 (month/day); "
        "it could be Dec 11, 2026, though that is after Nov 24, 2026"
    )


def test_a_four_digit_year_s_other_reading_after_the_day_checked_says_so() -> None:
    # Re-test U4 F6: '03/12/2026' beside '11/12/26' said its other reading "could be Dec 03,
    # 2026" as if it were a possible request date, where the two-digit year's note said
    # "though that is after Nov 24, 2026". Dates are cached without the day checked, so the
    # same text checked on another day must say it only when it is so.
    rows = [
        (1, ["Phone", "Date received"]),
        (2, ["2025550147", "11/12/26"]),
        (3, ["2025550148", "03/12/2026"]),
        (4, ["2025550149", "03/11/2026"]),
    ]
    mapping = ColumnMapping(header_row=1, phone=0, request_date=1)
    checked, _ = check_all(rows, mapping, CheckOptions(insertion_date=CHECKED))
    notes = {row.row: row.date_note for row in checked}
    assert notes[3] == (
        "'03/12/2026' is ambiguous: read as Mar 12, 2026 (month/day); it could be Dec 03, "
        "2026, though that is after Nov 24, 2026"
    )
    assert "though" not in notes[4]  # Nov 03, 2026 is before the day checked
    later = parse_request_date("03/12/2026", dt.date(2026, 12, 10))
    assert later.note == (
        "'03/12/2026' is ambiguous: read as Mar 12, 2026 (month/day); it could be Dec 03, 2026"
    )


@pytest.mark.parametrize(
    ("text", "day_first", "note"),
    [
        # Day/month, as the column's other dates say: the reading taken, weeks after the day
        # checked, is in the year written (once Dec 11, 1926: black-box B28 F3), as the other is.
        (
            "11/12/26",
            True,
            "'11/12/26' is ambiguous: read as Dec 11, 2026 (day/month, as the column's dates "
            "that read only one way are); it could be Nov 12, 2026",
        ),
        # Month/day as the column's other dates say: so too.
        (
            "12/01/26",
            False,
            "'12/01/26' is ambiguous: read as Dec 01, 2026 (month/day); it could be Jan 12, 2026",
        ),
        # Over a year after the day checked: the reading taken goes a century back, and the
        # other is in the same year.
        (
            "11/12/28",
            True,
            "'11/12/28' is ambiguous: read as Dec 11, 1928 (day/month, as the column's dates "
            "that read only one way are); it could be Nov 12, 1928",
        ),
        # Dotted: day.month, the other reading in the same year.
        (
            "12.11.26",
            None,
            "'12.11.26' is ambiguous: read as Nov 12, 2026 (day.month, as dotted dates are "
            "usually written); it could be Dec 11, 2026, though that is after Nov 24, 2026",
        ),
        (
            "11.12.26",
            False,
            "'11.12.26' is ambiguous: read as Nov 12, 2026 (month.day, as the column's dates "
            "that read only one way are); it could be Dec 11, 2026, though that is after "
            "Nov 24, 2026",
        ),
        # A year of the last century: both readings in it.
        (
            "11/12/99",
            None,
            "'11/12/99' is ambiguous: read as Nov 12, 1999 (month/day); it could be Dec 11, 1999",
        ),
    ],
)
def test_the_other_reading_is_in_the_year_written(
    text: str, day_first: bool | None, note: str
) -> None:
    assert parse_request_date(text, CHECKED, day_first=day_first).note == note


def test_an_import_dry_run_gives_the_other_reading_in_the_year_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The dry run checks the file today: every ambiguous day and month of this year up to
    # today, whose other reading (after today for some, on any day but Jan 1 and Dec 11-31)
    # must keep this year.
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    today = dt.date.today()
    dates = [
        dt.date(today.year, month, day)
        for month in range(1, 13)
        for day in range(1, 13)
        if month != day and dt.date(today.year, month, day) <= today
    ]
    lines = ["Phone,Opt-out date"]
    lines += [f"303270{1000 + i},{d.month}/{d.day}/{d:%y}" for i, d in enumerate(dates)]
    src = tmp_path / "sjs.csv"
    src.write_text("\n".join(lines) + "\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)["report"]
    rows = list(openpyxl.load_workbook(report)["Rows"].iter_rows(values_only=True))
    message = rows[0].index("Message")
    said = [str(row[message]) for row in rows[1:]]
    assert len(said) == len(dates)
    for date, text in zip(dates, said, strict=True):
        other = dt.date(today.year, date.day, date.month)
        assert f"it could be {other:%b %d, %Y}" in text, text
