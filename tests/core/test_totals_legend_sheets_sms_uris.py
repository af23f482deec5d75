"""Black-box S1: Excel's Data > Subtotal lines and other languages' totals are named as total
lines (#1); a "Legend" (or "Glossary", "Help", "Start here"…) sheet before the data is passed
over as front matter (#2); sms:, smsto:, mms:, imessage: and tel: URIs with "//", ";" parameters,
a percent-encoded "+" or an opt-out message are read (#3); "(310) 1246" is worded as an area
code and 4 digits, not as a local number wanting its area code (#4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow
from app.core.sheet_worker import front_matter_sheet
from tests.core.sheet_factory import write_sheets

TOTAL = "a report's total line, not a row of the table"
SUBTOTAL = "a report's subtotal line, not a row of the table"


def _rows(path: Path, tmp_path: Path) -> tuple[dict[int, JobRow], dict[str, object]]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    rows = {r.row_number: r for r in store.rows()}
    meta = store.meta()
    store.close()
    return rows, meta


def test_excel_subtotal_lines_and_other_languages_totals(tmp_path: Path) -> None:
    # The shape of the finding's T1_grouped_totals.xlsx.
    rows: list[list[object]] = [
        ["DNC requests by campaign"],
        ["Total records: 8"],
        ["Group", "Phone", "Date Received", "Agent"],
    ]
    rows += [["Spring", f"303-555-241{i}", "11/16/2026", "ann"] for i in range(4)]
    rows += [["Spring Total", None, None, 4]]
    rows += [["Fall", f"303-555-251{i}", "11/17/2026", "bob"] for i in range(4)]
    rows += [["Fall Total", None, None, 4], ["Grand Total", None, None, 8]]
    rows += [[None, "Totals", None, 8], ["Gesamtsumme", None, None, 8]]
    rows += [["Total général", None, None, 8], ["Sous-total", None, None, 8]]
    rows += [["Suma", None, None, 8], ["Summe", None, None, 8]]
    path = write_sheets(tmp_path / "grouped.xlsx", {"Report": rows})
    got, _ = _rows(path, tmp_path)
    assert [n for n, r in got.items() if r.outcome != "invalid"] == [4, 5, 6, 7, 9, 10, 11, 12]
    assert got[8].message == (
        f"row 8: phone: the row holds only 'Spring Total' (column A) and 4 (column D): {SUBTOTAL}"
    )
    assert got[13].message.endswith(f"'Fall Total' (column A) and 4 (column D): {SUBTOTAL}")
    assert got[15].message == (
        f"row 15: phone: the row holds only 'Totals' (column B) and 8 (column D): {TOTAL}"
    )
    for number, label in [(16, "Gesamtsumme"), (17, "Total général"), (19, "Suma")]:
        assert got[number].message.endswith(f"{label!r} (column A) and 8 (column D): {TOTAL}")
    assert got[18].message.endswith(f"'Sous-total' (column A) and 8 (column D): {SUBTOTAL}")
    assert got[20].message.endswith(f"'Summe' (column A) and 8 (column D): {TOTAL}")


def test_total_lines_in_the_phone_column_one_with_no_count(tmp_path: Path) -> None:
    # The finding's T2_total_count_in_phone.csv: the count beside "Sum" is no date either.
    path = tmp_path / "totals.csv"
    path.write_text(
        "Phone,Request Date\n303-555-2611,2026-11-16\n303-555-2612,2026-11-16\n"
        "Total,\nRecord Count: 2,\nSum,2\n",
        encoding="utf-8",
    )
    got, _ = _rows(path, tmp_path)
    assert got[4].outcome == "invalid"
    assert got[4].message == f"row 4: phone: the row holds only 'Total' (column A): {TOTAL}"
    # Black-box B2 #6: a count in the phone column's label is a total line's too.
    assert got[5].message == (
        f"row 5: phone: the row holds only 'Record Count: 2' (column A): {TOTAL}"
    )
    assert got[6].message == (
        f"row 6: phone: the row holds only 'Sum' (column A) and '2' (column B): {TOTAL}"
    )
    assert got[6].damage == ""  # was "'2' is not a date"


@pytest.mark.parametrize("cells", [["Spring Fitness", None, None, 4], ["Total Fitness", None, 4]])
def test_names_ending_or_starting_like_a_total_are_not_one(
    tmp_path: Path, cells: list[object]
) -> None:
    rows: list[list[object]] = [["Name", "Phone", "Date", "Count"], cells]
    rows += [["Bo", "303-555-0100", "11/16/2026", 1]]
    got, _ = _rows(write_sheets(tmp_path / "book.xlsx", {"Data": rows}), tmp_path)
    assert got[2].message.startswith("row 2: phone: the phone number is empty")
    assert "total line" not in got[2].message


@pytest.mark.parametrize(
    "name",
    [
        "Legend",
        "Key",
        "Glossary",
        "Definitions",
        "Help",
        "How to use",
        "Overview",
        "Introduction",
        "Intro",
        "Start here",
        "Read first",
        "Terms",
        "Disclaimer",
        "Changelog",
        "Change log",
        "Version history",
    ],
)
def test_more_names_of_front_matter(name: str) -> None:
    assert front_matter_sheet(name)


@pytest.mark.parametrize("name", ["Contacts", "Key accounts", "Help desk calls", "Week 1"])
def test_names_of_lists(name: str) -> None:
    assert not front_matter_sheet(name)


def test_a_legend_sheet_first_is_passed_over(tmp_path: Path) -> None:
    # The shape of the finding's S3_legend_two_data.xlsx.
    legend: list[list[object]] = [
        ["How to read this workbook: one sheet per week."],
        ["Role", "Phone"],
        ["Account manager", "(312) 555-0190"],
        ["Account manager", "(312) 555-0191"],
    ]
    weeks = {
        f"Week {w}": [["Phone", "Date Received"]]
        + [[f"(206) 555-6{w}{i:02d}", "11/16/2026"] for i in range(15)]
        for w in (1, 2)
    }
    path = write_sheets(tmp_path / "legend.xlsx", {"Legend": legend, **weeks})
    got, meta = _rows(path, tmp_path)
    assert meta["sheet"] == "Week 1"
    assert sorted(r.national for r in got.values()) == [f"20655561{i:02d}" for i in range(15)]
    assert any("Sheet 'Legend'" in str(w) and "passed over" in str(w) for w in meta["warnings"])


def test_sms_uris_are_read(tmp_path: Path) -> None:
    # The finding's U1_sms_uris.csv, and a message that is no opt-out.
    cells = [
        "sms:+13035552911?body=STOP",
        "sms://+13035552914",
        "sms:+13035552916,+13035552917",
        "sms:+13035552918;?&body=STOP",
        "sms:%2B13035552921",
        "imessage:+13035552922",
        "sms:+13035552924?body=Hello%20there",
        "tel:+1-303-555-2925;ext=12",
    ]
    path = tmp_path / "uris.csv"
    path.write_text("Phone\n" + "".join(f'"{c}"\n' for c in cells), encoding="utf-8")
    got, _ = _rows(path, tmp_path)
    read = {n: (r.national, r.message) for n, r in got.items() if r.outcome != "invalid"}
    assert read == {
        2: ("3035552911", "row 2: the opt-out keyword 'STOP' was left out"),
        3: ("3035552914", "row 3: the label 'sms' was left out"),
        5: ("3035552918", "row 5: the opt-out keyword 'STOP' was left out"),
        6: ("3035552921", "row 6: the label 'sms' was left out"),
        7: ("3035552922", "row 7: the label 'imessage' was left out"),
    }
    assert got[4].message.startswith("row 4: phone: two phone numbers in one cell")
    assert got[8].message == (
        "row 8: phone: 'sms:+13035552924?body=Hello%20there' is a link to text the number with "
        "the message 'Hello there', not an opt-out keyword; if it is the number to stop "
        "texting, enter the number alone"
    )
    assert got[9].message.startswith("row 9: phone: the number has an extension (ext. 12)")


def test_an_area_code_and_four_digits_is_said_so(tmp_path: Path) -> None:
    path = tmp_path / "local7.txt"
    path.write_bytes(b"310-1241\t11/16/2026\r\n(310) 1246\t11/16/2026\r\n")
    got, _ = _rows(path, tmp_path)
    assert "7 digits is a local number without the area code" in got[1].message
    assert got[2].message == (
        "row 2: phone: too short for a US number: the area code (310) and only 4 digits (1246) "
        "after it, 3 too few for a whole number; expected 10 digits"
    )


def test_a_removal_refuses_an_sms_uri_whose_message_is_stop(tmp_path: Path) -> None:
    """An sms: link with body=STOP is an opt-out, as "STOP 303…" is: a removal file holding
    one does not take the number off the list (re-test S1 #3's leftover)."""
    from app.core.removal_job import stage_removal

    path = tmp_path / "remove.csv"
    path.write_text(
        'Phone\n"sms:+13035552911?body=STOP"\n"smsto:+13035552912?body=Unsubscribe"\n'
        '"sms:+13035552913"\n'
    )
    store, _ = stage_removal(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    rows = {r.row_number: r for r in store.rows()}
    store.close()
    assert rows[2].outcome == "invalid"
    assert rows[2].message == (
        "row 2: phone: 'sms:+13035552911?body=STOP' says STOP, an opt-out: a removal does not "
        "take it off the list; if the number is to be removed, enter it without the keyword"
    )
    assert rows[3].outcome == "invalid"
    assert "says Unsubscribe, an opt-out" in rows[3].message
    assert rows[4].outcome != "invalid"
    assert rows[4].message == "row 4: the label 'sms' was left out"
