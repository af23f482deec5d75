"""Black-box B24 F2: Italian mobile numbers written without a code under the default code 1
("3471234567" in a CSV) were refused as US numbers (right), but the hint offered only readings
with a leading 0 put back (UK +44 347 123 4567 first) and never the cell as written, a valid
Italian mobile (+39 347 123 4567): a user following it imported Italian consumers as UK ones.

A text cell now names its as-written readings first; a number cell, which can hold no leading
0, keeps the lost-0 reading first and names the as-written one after it. Verdicts are
unchanged.
"""

from __future__ import annotations

from app.core.sheet_check import check_all
from app.core.sheet_mapping import ColumnMapping

_ITALY = "an Italy / Vatican number, +39 347 123 4567"
_UK = "United Kingdom number, +44 347 123 4567"


def _checked(cell: object) -> tuple[str, str, str, str]:
    mapping = ColumnMapping(header_row=1, headers=("Phone",), phone=0, default_phone_code="1")
    ((row,), _) = check_all([(2, [cell])], mapping)
    return row.outcome.value, row.national, row.message, row.marks.other_country


def test_a_text_cell_names_its_italian_reading_as_written_before_any_lost_zero() -> None:
    outcome, national, message, country = _checked("3471234567")
    assert (outcome, national, country) == ("invalid", "", "44")  # verdict and marks as before
    assert (
        "'3471234567' reads, as written, as an Italy / Vatican number, +39 347 123 4567: if it "
        "is one, use --phone-code 39 or a Country column; or it may have lost a leading 0, as a "
        "spreadsheet drops it: 03471234567 reads as a United Kingdom number"
    ) in message
    assert message.index(_ITALY) < message.index(_UK)


def test_a_number_cell_names_the_lost_zero_first_and_the_italian_reading_too() -> None:
    outcome, national, message, country = _checked(3471234567)
    assert (outcome, national, country) == ("invalid", "", "44")
    assert message.index(_UK) < message.index(_ITALY)
    assert (
        "; as it stands, 3471234567 is also an Italy / Vatican number, +39 347 123 4567: if it "
        "is one, use --phone-code 39 or a Country column"
    ) in message


def test_a_uk_number_in_a_number_cell_keeps_its_uk_reading_first() -> None:
    # 1134960285 (Leeds 0113 496 0285, its 0 dropped) is no Italian or Spanish number as it
    # stands: the hint is the lost-0 one alone, UK first.
    _, _, message, country = _checked(1134960285)
    assert country == "44"
    assert "as written" not in message and "as it stands" not in message
    assert "may have lost a leading 0, as a spreadsheet drops it: 01134960285 reads as a " in (
        message
    )


def test_a_french_mobile_in_a_number_cell_keeps_its_lost_zero_reading_first() -> None:
    # 612345678 is a French mobile that lost its 0 (06 12 34 56 78) and, as it stands, a
    # Spanish one: a number cell cannot hold the 0, so the lost-0 readings come first.
    _, _, message, _ = _checked(612345678)
    assert message.index("+33 6 12 34 56 78") < message.index("+34 612 34 56 78")
    _, _, typed, _ = _checked("612345678")
    assert "'612345678' reads, as written, as a Spain number, +34 612 34 56 78" in typed
    assert typed.index("+34 612 34 56 78") < typed.index("+33 6 12 34 56 78")


def test_a_uk_mobile_as_text_is_not_offered_as_mexican() -> None:
    # Mexico's dense plan reads most ten digits (+52 791 112 3456): it is left out on purpose.
    _, _, message, _ = _checked("7911123456")
    assert "+52" not in message and "as written" not in message
    assert "'7911123456' may have lost a leading 0" in message
