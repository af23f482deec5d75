"""Black-box pass L1 #9: what the row check reads, and what it says.

A code cell "1876" names Jamaica's area code for a 7-digit number under it; a number cell
whose leading 0 was lost says what it was read as once; "3.035.559.633,00" (a German Excel's
number) is read and flagged as damage; digits starting with 1 under Mexico that are a +1
number name the Mexican number whose "01" lost its 0 before the US one, and never offer the
US reading alone as the fix.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.scope import Scope
from app.core import phones
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import CheckOptions, CheckSummary, Outcome, check_all, check_rows
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import CellValue, Row
from tests.core.test_sheet_check import code_cells, phone_cells, reason_cells


def _staged(path: Path) -> dict[int, tuple[str, str, str, str]]:
    """Row number -> (outcome, E.164 digits, message, damage) of a staged import of ``path``."""
    store, _ = stage_import(
        JobSettings(path, Scope.global_()), path.parent / "jobs", connection=None
    )
    try:
        return {
            r.row_number: (r.outcome or "valid", r.phone_code + r.national, r.message, r.damage)
            for r in store.rows()
        }
    finally:
        store.close()


def test_the_l1_files_rows_read_as_the_findings_ask(tmp_path: Path) -> None:
    # The black-box files' rows, as Excel keeps them: number cells where they were numbers.
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Country Code", "Country"])
    sheet.append(["876-555-1234", "1-876", "Jamaica"])  # t1_cc_numeric row 6
    sheet.append(["5551235", "1876", "Jamaica"])  # t1_cc_numeric row 7, another number
    sheet.append([2079460012, None, "UK"])  # h_numformats row 6
    sheet.append([15512345685, None, "MX"])  # p_raw row 6
    sheet.append([3035550101, 1, "US"])
    path = tmp_path / "l1.xlsx"
    book.save(path)
    rows = _staged(path)
    assert rows[2][:2] == ("valid", "18765551234")
    assert rows[3][:2] == ("valid", "18765551235")
    assert "the area code 876 is the 'Country Code' cell's '1876' (column B)" in rows[3][2]
    assert rows[4][:2] == ("valid", "442079460012")
    assert rows[4][2].count("read as") == 1, rows[4][2]
    outcome, _, message, _ = rows[5]
    assert outcome == "invalid"
    assert "015512345685 is the Mexico number +52 55 1234 5685" in message, message
    assert "if its '+' was lost" not in message

    csv = tmp_path / "k4.csv"
    csv.write_text("Telefon;Name\n3035559632;Bo\n3.035.559.633,00;Cy\n", encoding="utf-8")
    rows = _staged(csv)
    assert rows[3][:2] == ("valid", "13035559633")
    assert rows[3][3] == (
        "cell '3.035.559.633,00' was written as a decimal number with dots between its "
        "thousands and a decimal comma; read as +1 303-555-9633"
    )


# The cells of this pass's findings, beside the general check's own sample cells.
l1_phones = st.one_of(
    phone_cells,
    st.sampled_from(["5551234", "555-1234", 5551234, "3.035.559.633,00", 15512345685, 2079460012]),
)
l1_codes = st.one_of(code_cells, st.sampled_from(["1876", "1-876", 1876, "+1 876", "MX", "UK"]))


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.tuples(l1_phones, l1_codes, reason_cells), max_size=30))
def test_the_plain_path_gives_the_general_check_s_verdicts(
    rows: list[tuple[CellValue, CellValue, CellValue]],
) -> None:
    from app.core.sheet_check import _Checker

    mapping = ColumnMapping(phone=0, phone_code=1, reason=2, default_reason="requested")
    numbered: list[Row] = [(i, list(r)) for i, r in enumerate(rows, 1)]
    general = _Checker(mapping, CheckOptions())
    assert general.plain_rows_possible()
    expected = [general.check(n, list(c)) for n, c in numbered]
    phones.clear_cache()
    summary = CheckSummary()
    assert list(check_rows(numbered, mapping, CheckOptions(), summary)) == expected
    again = CheckSummary()
    for row in expected:
        again.add(row)
    assert summary == again


@pytest.mark.parametrize("code", ["1876", "1-876", 1876, "+1 876"])
def test_a_seven_digit_number_under_a_code_with_an_area_code_is_that_area_s(
    code: CellValue,
) -> None:
    mapping = ColumnMapping(header_row=1, headers=("Phone", "Country Code"), phone=0, phone_code=1)
    checked, summary = check_all([(2, ["5551234", code])], mapping, CheckOptions())
    (row,) = checked
    assert row.outcome is Outcome.VALID, row.message
    assert (row.phone_code, row.national) == ("1", "8765551234")
    assert row.message == (
        "row 2: read as +1 876 555-1234: the number is written without its area code, and the "
        f"area code 876 is the 'Country Code' cell's {str(code)!r} (column B)"
    )
    assert summary.valid == 1


def test_a_ten_digit_number_under_a_code_with_an_area_code_reads_as_written() -> None:
    # As before: the calling code is the 1 alone; a whole number keeps its own area code.
    mapping = ColumnMapping(phone=0, phone_code=1)
    rows: list[Row] = [(1, ["876-555-1234", "1-876"]), (2, ["3035551234", "1-876"])]
    checked, _ = check_all(rows, mapping, CheckOptions())
    assert [(c.outcome, c.national, c.message) for c in checked] == [
        (Outcome.VALID, "8765551234", ""),
        (Outcome.VALID, "3035551234", ""),
    ]


def test_a_seven_digit_number_under_a_plain_one_is_still_too_short() -> None:
    checked, _ = check_all([(1, ["5551234", "1"])], ColumnMapping(phone=0, phone_code=1))
    assert checked[0].outcome is Outcome.INVALID
    assert "too short for a US number" in checked[0].message


def test_a_number_that_lost_its_zero_says_what_it_was_read_as_once() -> None:
    mapping = ColumnMapping(header_row=1, headers=("Phone", "Country"), phone=0, phone_code=1)
    checked, _ = check_all([(6, [2079460012, "UK"])], mapping, CheckOptions())
    (row,) = checked
    assert row.outcome is Outcome.VALID
    assert row.message.count("read as") == 1, row.message
    assert row.message == (
        "row 6: read as +44 20 7946 0012 (United Kingdom) under the 'Country' cell's 'UK' "
        "(column B); as written it is also the US number +1 207 946 0012, so check the row if "
        "the consumer only lives there"
    )
    # The row's own code reads the digits exactly: no 0 was lost (black-box B5 #5).
    assert row.damage == ""


def test_a_number_shown_with_dot_thousands_and_a_decimal_comma_is_flagged_damage() -> None:
    rows: list[Row] = [(2, ["3.035.559.633,00"]), (3, ["+1 303.555.9634,00"])]
    checked, summary = check_all(rows, ColumnMapping(phone=0), CheckOptions())
    row = checked[0]
    assert row.outcome is Outcome.VALID and row.national == "3035559633"
    note = (
        "cell '3.035.559.633,00' was written as a decimal number with dots between its "
        "thousands and a decimal comma; read as +1 303-555-9633"
    )
    assert row.damage == note
    assert row.message == f"row 2: {note}"  # said once
    assert summary.damaged == 1
    # Dots that are no thousands grouping are not such a number.
    assert checked[1].outcome is Outcome.INVALID


def test_a_mexican_number_that_lost_its_zero_is_named_before_the_us_one() -> None:
    mapping = ColumnMapping(header_row=1, headers=("Phone", "Country"), phone=0, phone_code=1)
    checked, _ = check_all([(6, [15512345685, "MX"])], mapping, CheckOptions())
    (row,) = checked
    assert row.outcome is Outcome.INVALID
    assert row.message == (
        "row 6: phone: too long for a Mexico number: 11 digits, expected 10 digits; it may have "
        "lost a leading 0: 015512345685 is the Mexico number +52 55 1234 5685 (01 was Mexico's "
        "long-distance prefix until 2019); with a '+' before it, it is the US number "
        "+1 551-234-5685: write the one meant with its '+' and country code"
    )


def test_no_us_fix_offered_when_the_own_country_reading_is_no_number_either() -> None:
    result = phones.normalize("12025550123", "44")
    assert not result.ok
    assert "write +1" not in result.reason and "if its '+' was lost" not in result.reason
    assert result.reason == (
        "too long for a United Kingdom number: 11 digits, expected 7, 9 or 10 digits; with a "
        "'+' before it, it would be the US number +1 202-555-0123, but it is read as a United "
        "Kingdom number: check it against the source"
    )
    # Under +1 itself the lost-plus hint is unchanged.
    assert (
        "if its '+' was lost, write +44 7911 123456" in phones.normalize("447911123456", "1").reason
    )
