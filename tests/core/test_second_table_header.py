"""Black-box B10 #2: a second table with its own header further down the sheet.

Gnumeric's "Text (configurable)" export appends every sheet to one file, and people paste a
second batch with its own header below a first. The second table's header ("Name,Phone,Notes"
at row 24) and its rows were read under the first table's columns: row 25 was "phone_code:
'customer' is not a country name or code…" while its number sat in column B, never named, and
nothing said a new table started at row 24. Staged through the real staging (import and
removal), from the tester's file as a CSV and as an xlsx."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import openpyxl

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow
from app.core.removal_job import stage_removal
from app.core.sheet_check import CheckSummary

# The tester's file (/tmp/bbX/b10/out/g_utf8.csv), byte for byte as Gnumeric wrote it.
GNUMERIC = (
    '"ACME Contact Center — DNC requests, November 2026",,,,,,,\n'
    ",,,,,,,\n"
    'Phone,Country,"Country Code","Date Received",Reason,Campaign,"Campaign ID",Purpose\n'
    '3035550123,"United States",1,2026/11/20,"Customer asked — no más llamadas 🙏",,,\n'
    '"(303) 555-0124",US,,11/18/2026,"Résiliation demandée par écrit","Solar Savings Outreach",,\n'
    '"+1 303-555-0125",,,2026/11/23,"STOP 🛑 please",,1002,\n'
    '"020 7946 0009","United Kingdom",44,2026/11/02,"Opt-out per email — Zoë Brontë",,,\n'
    '7911123456,UK,44,2026-11-23,"Ligne mobile ✓",,,\n'
    '0668850100,Italy,39,23/11/2026,"Non chiamare più",,,\n'
    '"+49 30 36193603",Germany,,2026/11/24,"Bitte nicht mehr anrufen – Müller",,,Marketing\n'
    '3035550126,"United States",1,2026/11/19,"formula concat",,,\n'
    '3035550127,"United States",1,2026/11/19,"formula text",,,\n'
    ",,,,,,,\n"
    '303-555-0128,"United States",1,2026/11/10,"hidden row request",,,\n'
    '303-555-01,"United States",1,2026/11/10,"too short",,,\n'
    'N/A,"United States",1,2026/11/10,"no number",,,\n'
    '303.555.0123,"United States",1,2026/11/01,"duplicate of row 4, earlier",,,\n'
    '"01 23 45 67 89",France,33,24.11.2026,"Ne plus appeler — « merci »",,,\n'
    '5512345613,Mexico,52,2026/11/21,"Baja por favor 😊",,,\n'
    '"0412 345 678",Australia,61,"2026/11/22 14:30:00","don’t call – curly quote",,,\n'
    '3035550129,"United States",1,46345,"date as serial number",,1001,"Loan Offers"\n'
    '"+44 7700 900123","United States",,2026/11/20,"UK mobile, US resident",,,\n'
    '3035550130,,1,"Nov 20, 2026","text date spelled","Medicare Enrollment 2026",,\n'
    "Name,Phone,Notes\n"
    "Ana,303-555-0199,customer\n"
    "Bob,303-555-0198,prospect\n"
)
FIRST_TABLE_ROWS = 23  # the first table ends at row 23 (title, blank, header, 20 rows)

# Offline (no connection): "" is valid, to be sent.
OUTCOMES = {
    **{n: "" for n in range(4, 24)},
    5: "invalid",  # a campaign name, no names loaded offline
    13: "blank",
    15: "invalid",
    16: "invalid",
    17: "duplicate_in_file",
    22: "invalid",
    23: "invalid",
    24: "invalid",
    25: "invalid",
    26: "invalid",
}

HEADER_24 = (
    "row 24: phone: the row is the header of another table ('Name', 'Phone', 'Notes'), whose "
    "columns differ from the first table's (row 3): its phone numbers are in column B, not A, "
    "so its rows are not read; {verb} that table on its own"
)
UNDER = (
    "row {row}: phone: the row is under the second table's header (row 24), whose Phone "
    "column is B: {number} was not read; {verb} that table on its own"
)
WARNING = (
    "Rows 24–26 are a second table with a header of its own (row 24: 'Name', 'Phone', "
    "'Notes'), whose columns differ from the first table's (row 3): its phone numbers are in "
    "column B, not A. None of them was read under the first table's columns: its 2 rows were "
    "left invalid, each saying so. Copy rows 24–26 to a file of their own and {verb}."
)


def _staged(
    tmp_path: Path, path: Path, removal: bool = False
) -> tuple[dict[int, JobRow], list[str], CheckSummary]:
    stage = stage_removal if removal else stage_import
    store, summary = stage(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        rows = {r.row_number: r for r in store.rows()}
        return rows, list(store.meta().get("warnings", [])), summary


def _balanced(summary: CheckSummary, rows: dict[int, JobRow]) -> None:
    """Every row ends in one outcome, and the counts add up to the rows staged."""
    assert summary.rows == len(rows)
    assert summary.rows == (
        summary.valid + summary.invalid + summary.duplicates_in_file + summary.blank
    )


def _csv(tmp_path: Path, text: str, name: str = "g_utf8.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _xlsx(tmp_path: Path, text: str) -> Path:
    """The same rows in one sheet of an xlsx, bare digits as number cells (as a person typing
    them in gets), the second table's phone numbers among them."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for cells in csv.reader(io.StringIO(text)):
        row: list[object] = []
        for value in cells:
            digits = value.replace("-", "")
            if value and digits.isdigit() and len(digits) == 10 and value[0] != "0":
                row.append(int(digits))
            else:
                row.append(value or None)
        sheet.append(row)
    path = tmp_path / "g_xlsx.xlsx"
    book.save(path)
    return path


def _first_table_alone(tmp_path: Path) -> dict[int, JobRow]:
    lines = GNUMERIC.splitlines(keepends=True)[:FIRST_TABLE_ROWS]
    sub = tmp_path / "alone"
    sub.mkdir()
    rows, _, _ = _staged(sub, _csv(sub, "".join(lines), "first.csv"))
    return rows


def test_the_gnumeric_csv_sets_the_second_table_apart_and_says_how_to_read_it(
    tmp_path: Path,
) -> None:
    rows, warnings, summary = _staged(tmp_path, _csv(tmp_path, GNUMERIC))
    assert {n: r.outcome for n, r in rows.items()} == OUTCOMES
    _balanced(summary, rows)
    assert rows[24].message == HEADER_24.format(verb="import")
    assert rows[24].original == "Name"
    for number, phone in ((25, "303-555-0199"), (26, "303-555-0198")):
        assert rows[number].message == UNDER.format(row=number, number=phone, verb="import")
        assert rows[number].original == phone
        assert rows[number].national == ""
    assert WARNING.format(verb="import it") in warnings
    # The first table's rows are staged exactly as without the second table below them.
    alone = _first_table_alone(tmp_path)
    assert len(alone) == FIRST_TABLE_ROWS - 3
    for number, row in alone.items():
        assert (rows[number].outcome, rows[number].message) == (row.outcome, row.message)


def test_the_same_sheet_as_an_xlsx(tmp_path: Path) -> None:
    rows, warnings, summary = _staged(tmp_path, _xlsx(tmp_path, GNUMERIC))
    assert {n: r.outcome for n, r in rows.items() if n >= 24} == {
        24: "invalid",
        25: "invalid",
        26: "invalid",
    }
    _balanced(summary, rows)
    assert rows[24].message == HEADER_24.format(verb="import")
    # A number cell is named as the spreadsheet shows it.
    assert rows[25].message == UNDER.format(row=25, number="3035550199", verb="import")
    assert rows[26].message == UNDER.format(row=26, number="3035550198", verb="import")
    assert WARNING.format(verb="import it") in warnings
    assert all(rows[n].outcome != "invalid" or n in (5, 15, 16, 22, 23) for n in range(4, 24))


def test_a_removal_of_the_gnumeric_csv(tmp_path: Path) -> None:
    rows, warnings, summary = _staged(tmp_path, _csv(tmp_path, GNUMERIC), removal=True)
    _balanced(summary, rows)
    verb = "run the removal on"
    assert rows[24].outcome == rows[25].outcome == rows[26].outcome == "invalid"
    assert rows[24].message == HEADER_24.format(verb=verb)
    assert rows[25].message == UNDER.format(row=25, number="303-555-0199", verb=verb)
    assert rows[26].message == UNDER.format(row=26, number="303-555-0198", verb=verb)
    assert WARNING.format(verb="run the removal on it") in warnings


def test_a_second_header_naming_the_same_columns_otherwise_is_read_as_it_is(
    tmp_path: Path,
) -> None:
    text = (
        "Phone,Reason,Date Received\n"
        "303-555-0101,asked by phone,\n"
        "303-555-0102,web form,\n"
        "\n"
        "Telephone,Notes,Date\n"
        "303-555-0103,asked by email,\n"
        "303-555-0104,,\n"
    )
    rows, warnings, summary = _staged(tmp_path, _csv(tmp_path, text, "same.csv"))
    assert {n: r.outcome for n, r in rows.items()} == {
        2: "",
        3: "",
        4: "blank",
        5: "invalid",
        6: "",
        7: "",
    }
    _balanced(summary, rows)
    assert rows[5].message == (
        "row 5: phone: the row is the header of another table ('Telephone', 'Notes', 'Date'), "
        "whose columns are the first table's (row 1), only named otherwise: it holds no "
        "number, and the rows under it are read as the first table's"
    )
    assert rows[6].national == "3035550103" and rows[6].reason == "asked by email"
    assert not any("table" in w for w in warnings)


def test_a_second_table_ends_where_the_first_header_comes_back(tmp_path: Path) -> None:
    text = (
        "Phone,Reason\n"
        "303-555-0111,first\n"
        "Reason,Phone\n"
        "moved,303-555-0112\n"
        ",\n"
        "again,303-555-0113\n"
        "Phone,Reason\n"
        "303-555-0114,first again\n"
    )
    rows, warnings, summary = _staged(tmp_path, _csv(tmp_path, text, "back.csv"))
    assert {n: r.outcome for n, r in rows.items()} == {
        2: "",
        3: "invalid",
        4: "invalid",
        5: "blank",
        6: "invalid",
        7: "invalid",
        8: "",
    }
    _balanced(summary, rows)
    assert rows[3].message == (
        "row 3: phone: the row is the header of another table ('Reason', 'Phone'), whose "
        "columns differ from the first table's (row 1): its phone numbers are in column B, "
        "not A, so its rows are not read; import that table on its own"
    )
    assert rows[6].message == (
        "row 6: phone: the row is under the second table's header (row 3), whose Phone column "
        "is B: 303-555-0113 was not read; import that table on its own"
    )
    assert "the row repeats the header (row 1)" in rows[7].message
    assert rows[8].national == "3035550114"
    assert (
        "Rows 3–6 are a second table with a header of its own (row 3: 'Reason', 'Phone'), "
        "whose columns differ from the first table's (row 1): its phone numbers are in column "
        "B, not A. None of them was read under the first table's columns: its 2 rows were left "
        "invalid, each saying so. Copy rows 3–6 to a file of their own and import it."
    ) in warnings


def test_a_moved_reason_column_sets_the_rows_apart_naming_the_difference(
    tmp_path: Path,
) -> None:
    text = (
        "Phone,Reason,Campaign\n"
        "303-555-0121,asked,\n"
        "Phone,Campaign,Notes\n"
        "303-555-0122,,asked too\n"
        "303-555-0123,,\n"
    )
    rows, warnings, summary = _staged(tmp_path, _csv(tmp_path, text, "moved_reason.csv"))
    assert [rows[n].outcome for n in (2, 3, 4, 5)] == ["", "invalid", "invalid", "invalid"]
    _balanced(summary, rows)
    difference = "column B is 'Campaign', 'Reason' in the first table"
    assert difference in rows[3].message
    assert rows[4].message == (
        "row 4: phone: the row is under the second table's header (row 3), whose columns "
        f"differ from the first table's ({difference}): 303-555-0122 was not read; import "
        "that table on its own"
    )
    assert any(w.startswith("Rows 3–5 are a second table") for w in warnings)


def test_rows_of_text_that_name_no_table_are_read_as_before(tmp_path: Path) -> None:
    """A row whose phone cell is empty and whose words name columns ("cell", "Notes") is no
    header unless a phone number sits below a column it names as phone numbers."""
    text = (
        "Phone,Name,Reason\n"
        "303-555-0131,Ana,asked\n"
        ",Mobile,Notes\n"
        "303-555-0132,Bob,asked\n"
        "303-555-0133,Cy,asked\n"
        "303-555-0134,Di,asked\n"
    )
    rows, warnings, summary = _staged(tmp_path, _csv(tmp_path, text, "words.csv"))
    assert [rows[n].outcome for n in range(2, 7)] == ["", "invalid", "", "", ""]
    assert "table" not in rows[3].message
    _balanced(summary, rows)
    assert not any("table" in w for w in warnings)


def test_a_third_table_and_an_empty_phone_cell(tmp_path: Path) -> None:
    text = (
        "Phone,Reason\n"
        "303-555-0141,asked\n"
        "Name,Phone\n"
        "Ana,303-555-0142\n"
        "Cy,\n"
        "\n"
        "Name,Notes,Mobile\n"
        "Di,asked,303-555-0143\n"
    )
    rows, warnings, summary = _staged(tmp_path, _csv(tmp_path, text, "three.csv"))
    assert {n: r.outcome for n, r in rows.items()} == {
        2: "",
        3: "invalid",
        4: "invalid",
        5: "invalid",
        6: "blank",
        7: "invalid",
        8: "invalid",
    }
    _balanced(summary, rows)
    assert rows[5].message == (
        "row 5: phone: the row is under the second table's header (row 3), whose Phone column "
        "is B: cell B5 is empty; import that table on its own"
    )
    assert rows[7].message.startswith(
        "row 7: phone: the row is the header of another table ('Name', 'Notes', 'Mobile'), "
        "whose columns differ from the first table's (row 1): its phone numbers are in column "
        "C, not A"
    )
    assert rows[8].message == (
        "row 8: phone: the row is under the third table's header (row 7), whose Mobile column "
        "is C: 303-555-0143 was not read; import that table on its own"
    )
    assert [w[:40] for w in warnings if "with a header of its own" in w] == [
        "Rows 3–5 are a second table with a heade",
        "Rows 7–8 are a third table with a header",
    ]
    assert any("its 2 rows were left invalid" in w and w.startswith("Rows 3–5") for w in warnings)
    assert any("its row was left invalid" in w and w.startswith("Rows 7–8") for w in warnings)
