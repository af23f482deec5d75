"""Damage a spreadsheet did to a phone cell written out as text (a CSV or TSV export).

Three shapes of it: a number Excel cut to 15 significant digits ("30355501013035500000"), a
number written with a decimal comma on a German or French locale ("3035550533,0"), and a
spreadsheet error value where a formula failed ("#N/A"). Each is checked through
``phones.normalize`` (verdict, reason, note), ``describe_damage`` and the row check.
"""

from __future__ import annotations

import pytest

from app.core import phones
from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, Outcome, check_all
from app.core.sheet_damage import describe_damage
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import CellValue, Row


def run(
    cells: list[CellValue], mapping: ColumnMapping | None = None
) -> tuple[list[CheckedRow], CheckSummary]:
    rows: list[Row] = [(i, [cell]) for i, cell in enumerate(cells, 1)]
    return check_all(rows, mapping or ColumnMapping(phone=0))


# ---- more than 15 digits, as text -----------------------------------------------------

CUT_NOTE = (
    "cell '30355501013035500000' is a number of 20 digits, longer than the 15 significant "
    "digits Excel keeps, so its last digits are unreliable (Excel wrote zeros after the 15th)"
)


def test_text_cut_to_fifteen_digits_is_invalid_and_noted() -> None:
    result = phones.normalize("30355501013035500000", "1")
    assert not result.ok
    assert result.reason == "too long to be a phone number (20 digits)"
    assert result.note == ""
    assert describe_damage("30355501013035500000", result) == CUT_NOTE


@pytest.mark.parametrize(
    "cell", ["+30355501013035500000", "'30355501013035500000", " 30355501013035500000 "]
)
def test_text_cut_to_fifteen_digits_is_noted_with_a_plus_or_apostrophe(cell: str) -> None:
    result = phones.normalize(cell, "1")
    assert not result.ok
    assert result.reason == "too long to be a phone number (20 digits)"
    note = describe_damage(cell, result)
    assert note.startswith(f"cell {cell.strip()!r} is a number of 20 digits, longer than")


def test_text_of_sixteen_digits_cut_is_noted() -> None:
    result = phones.normalize("3035550101303550", "1")
    assert not result.ok
    assert "16 digits" in describe_damage("3035550101303550", result)


def test_text_cut_reuses_the_number_cells_wording() -> None:
    number = 30355501013035500000
    from_number = describe_damage(number, phones.normalize(number, "1"))
    from_text = describe_damage(str(number), phones.normalize(str(number), "1"))
    shared = "longer than the 15 significant digits Excel keeps, so its last digits are unreliable"
    assert shared in from_number and shared in from_text


def test_text_cut_to_fifteen_digits_through_the_row_check() -> None:
    checked, summary = run(["30355501013035500000"])
    row = checked[0]
    assert row.outcome is Outcome.INVALID
    assert row.damage == CUT_NOTE
    assert row.message == (f"row 1: phone: too long to be a phone number (20 digits) ({CUT_NOTE})")
    assert summary.damaged == 1


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        ("30355501013035512345", "too long to be a phone number (20 digits)"),
        # The cell's 16 digits counted, and the 15 phonenumbers counts (black-box X/B2 #5).
        (
            "1234567890123456",
            "too long for a US number: 16 digits, 15 once its leading 1 is taken as the "
            "country code, expected 10 digits",
        ),
        # Not a number Excel wrote: a number never has a leading zero.
        ("00303555010130350000", "number starts with +30 but the country code is 1"),
    ],
)
def test_long_text_not_ending_in_zeros_is_not_excel_damage(cell: str, reason: str) -> None:
    result = phones.normalize(cell, "1")
    assert (result.ok, result.reason, result.note) == (False, reason, "")
    assert describe_damage(cell, result) == ""
    checked, summary = run([cell])
    assert checked[0].outcome is Outcome.INVALID
    # The row check judges a number naming its own code under it (here +30: too long).
    assert checked[0].message == f"row 1: phone: {phones.normalize_with_default(cell).reason}"
    assert checked[0].damage == ""
    assert summary.damaged == 0


# ---- a decimal comma --------------------------------------------------------------------

COMMA_NOTE = (
    "cell '3035550533,0' was written as a decimal number with a decimal comma; "
    "read as +1 303-555-0533"
)


def test_decimal_comma_is_read_as_the_decimal_point() -> None:
    comma = phones.normalize("3035550533,0", "1")
    dot = phones.normalize("3035550533.0", "1")
    assert (comma.ok, comma.phone_code, comma.national, comma.reason) == (
        True,
        "1",
        "3035550533",
        "",
    )
    assert comma._replace(note="") == dot
    assert comma.note == COMMA_NOTE
    assert describe_damage("3035550533,0", comma) == COMMA_NOTE
    # A decimal point with every digit there is no damage (black-box B6 #7: a pandas float
    # column); a decimal comma is, as reading it is a guess between decimals and thousands.
    assert describe_damage("3035550533.0", dot) == ""


@pytest.mark.parametrize(
    ("comma", "code"),
    [
        ("3035550533,0", "1"),
        ("3035550533,00", "1"),
        ("'3035550533,0", "1"),
        (" 3035550533,000 ", "1"),
        ("13035550533,0", "1"),
        ("201555012,0", "1"),  # nine digits: invalid, as its decimal point form
        ("7700900123,0", "44"),
        ("07700900123,0", "44"),
        ("2079460958,0", "44"),
        ("3035550533,0", None),
        # Full-width digits and comma, as NFKC reads them.
        ("\uff13\uff10\uff13\uff15\uff15\uff15\uff10\uff15\uff13\uff13\uff0c\uff10", "1"),
    ],
)
def test_decimal_comma_verdict_equals_the_decimal_point_verdict(
    comma: str, code: str | None
) -> None:
    dot = phones.normalize(comma.replace(",", ".").replace("\uff0c", "\uff0e"), code)
    result = phones.normalize(comma, code)
    assert (result.ok, result.phone_code, result.national, result.reason) == (
        dot.ok,
        dot.phone_code,
        dot.national,
        dot.reason,
    )
    if result.ok:
        assert result.note == phones.decimal_comma_note(comma, result)
        if comma.isascii():  # describe_damage reads ASCII cells, as for the decimal point
            assert describe_damage(comma, result) == result.note
    else:
        assert result.note == "" and describe_damage(comma, result) == ""


def test_decimal_comma_after_a_plus_keeps_the_plus() -> None:
    result = phones.normalize("+13035550533,00", "1")
    assert (result.ok, result.phone_code, result.national) == (True, "1", "3035550533")
    note = (
        "cell '+13035550533,00' was written as a decimal number with a decimal comma; "
        "read as +1 303-555-0533"
    )
    assert result.note == note
    assert describe_damage("+13035550533,00", result) == note
    # Too short once ",0" is left out: refused, never read with the 0 as a digit.
    short = phones.normalize("+1303555053,0", "1")
    assert not short.ok and "9 digits" in short.reason


def test_decimal_comma_through_the_row_check() -> None:
    checked, summary = run(["3035550533,0", "+13035550533,00", "3035550534,0"])
    assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.DUPLICATE, Outcome.VALID]
    row = checked[0]
    assert (row.phone_code, row.national) == ("1", "3035550533")
    assert row.message == f"row 1: {COMMA_NOTE}"
    assert row.message.count("decimal comma") == 1
    # A spreadsheet damaged the cell: the row's damage note says so (once), and it counts.
    assert row.damage == COMMA_NOTE
    assert summary.damaged == 3  # the duplicate row too: any outcome
    assert checked[2].message == (
        "row 3: cell '3035550534,0' was written as a decimal number with a decimal comma; "
        "read as +1 303-555-0534"
    )
    assert summary.valid == 2


def test_decimal_comma_of_an_invalid_number_through_the_row_check() -> None:
    checked, _ = run(["201555012,0"])
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].message == (
        "row 1: phone: too short for a US number: 9 digits, expected 10 digits"
    )


@pytest.mark.parametrize(
    ("cell", "code", "national"),
    [
        ("3,035,550,533", "1", "3035550533"),
        ("3,035,550,533.0", "1", "3035550533"),
    ],
)
def test_thousands_are_not_a_decimal_comma(cell: str, code: str, national: str) -> None:
    result = phones.normalize(cell, code)
    assert (result.ok, result.national, result.note) == (True, national, "")
    # Every digit is there: thousands saved as shown are no damage (black-box B6 #7).
    assert describe_damage(cell, result) == ""
    checked, summary = run([cell], ColumnMapping(phone=0, default_phone_code=code))
    assert checked[0].outcome is Outcome.VALID
    assert checked[0].national == national
    assert checked[0].message == "" and checked[0].damage == ""
    assert summary.damaged == 0


def test_grouped_thousands_under_a_trunk_0_country_lost_the_0_as_their_number_cell() -> None:
    """Commas between thousands prove a number cell, which drops a leading 0: the note the
    number cell 303000 gets under 49 (black-box bb9 F2), read as thousands, not a decimal."""
    result = phones.normalize("303,000", "49")
    assert (result.ok, result.national, result.note) == (True, "303000", "")
    cell_note = describe_damage(303000, phones.normalize(303000, "49"))
    assert cell_note.endswith(
        "it lost its leading 0 (written 0303000 in Germany); read as +49 30 3000"
    )
    assert describe_damage("303,000", result) == (
        "cell '303,000' was written as a number with commas between its thousands, from a "
        "number cell, which lost its leading 0 (written 0303000 in Germany); read as +49 30 3000"
    )


def test_short_thousands_keep_their_reading() -> None:
    result = phones.normalize("1,000", "1")
    assert result.reason == "too short for a US number: 4 digits, expected 10 digits"


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        (
            "3035550533,3035550534",
            "two phone numbers in one cell ('3035550533' and '3035550534'); "
            "put each on its own row",
        ),
        (
            "3035550533,00,0",
            "the number contains characters that are not part of a phone number (',')",
        ),
        ("3035550533,", "the number contains characters that are not part of a phone number (',')"),
        (
            "3035550533,5",
            "the number contains characters that are not part of a phone number (',')",
        ),
    ],
)
def test_other_commas_keep_their_verdicts(cell: str, reason: str) -> None:
    result = phones.normalize(cell, "1")
    assert (result.ok, result.reason, result.note) == (False, reason, "")
    assert describe_damage(cell, result) == ""
    checked, _ = run([cell])
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].message == f"row 1: phone: {reason}"
    assert checked[0].damage == ""


def test_european_scientific_notation_keeps_its_handling() -> None:
    result = phones.normalize("3,03555E+09", "1")
    assert not result.ok
    assert result.reason == (
        "the value '3,03555E+09' was damaged by scientific notation in the spreadsheet: only 6 "
        "of its 10 digits survived, so the number cannot be recovered"
    )
    note = "cell '3,03555E+09' was in scientific notation and lost digits"
    assert describe_damage("3,03555E+09", result) == note
    checked, summary = run(["3,03555E+09", "3,035550533E+09"])
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].damage == note
    assert checked[1].outcome is Outcome.VALID
    assert checked[1].national == "3035550533"
    assert checked[1].damage.startswith("cell '3,035550533E+09' was in scientific notation")
    assert summary.damaged == 2


# ---- spreadsheet error values -----------------------------------------------------------

ERROR_VALUES = [
    "#N/A",
    "#ERROR!",
    "#NAME?",
    "#REF!",
    "#VALUE!",
    "#DIV/0!",
    "#NUM!",
    "#NULL!",
    "#SPILL!",
    "#CALC!",
    "Err:502",
]


def _error_reason(value: str) -> str:
    return (
        f"the cell holds the spreadsheet error value {value}, not a phone number: the formula "
        "that should have made it failed; correct it in the file and run the file again"
    )


@pytest.mark.parametrize("value", ERROR_VALUES)
def test_error_value_is_named(value: str) -> None:
    result = phones.normalize(value, "1")
    assert (result.ok, result.reason, result.note) == (False, _error_reason(value), "")
    assert describe_damage(value, result) == ""
    checked, summary = run([value])
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].message == f"row 1: phone: {_error_reason(value)}"
    assert checked[0].damage == ""
    assert summary.invalid == 1


def test_error_value_forced_to_text_or_without_a_country_code() -> None:
    assert phones.normalize("'#N/A", "1").reason == _error_reason("#N/A")
    assert phones.normalize(" #REF! ", None).reason == _error_reason("#REF!")


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        ("N/A", "'N/A' is not a phone number: it has no digits"),
        ("#", "'#' is not a phone number: it has no digits"),
        ("#NA", "'#NA' is not a phone number: it has no digits"),
    ],
)
def test_other_cells_without_digits_keep_their_reason(cell: str, reason: str) -> None:
    assert phones.normalize(cell, "1").reason == reason


def test_a_decimal_with_a_fraction_read_as_digits_is_flagged() -> None:
    # Black-box pass I2: "303555070.6" in a CSV was read as 3035550706 without a word, where
    # the same number in a workbook's cell is refused as not a whole number.
    result = phones.normalize("303555070.6", "1")
    assert (result.ok, result.national) == (True, "3035550706")
    assert describe_damage("303555070.6", result) == (
        "cell '303555070.6' is a decimal number with a fraction (a number cell divided or "
        "mistyped?); its digits read as +1 303-555-0706 — check it against the source"
    )
    # Dotted groups are how people write numbers: no note.
    dotted = phones.normalize("303.555.0706", "1")
    assert dotted.ok and describe_damage("303.555.0706", dotted) == ""
    # Through the check: the row is valid, counted as damaged, and its message says why.
    mapping = ColumnMapping(phone=0)
    checked, summary = check_all([(1, ["303555070.6"])], mapping, CheckOptions())
    assert checked[0].outcome is Outcome.VALID and summary.damaged == 1
    assert "decimal number with a fraction" in checked[0].damage
