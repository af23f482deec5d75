"""Review RV3 F4: a phone cell written as ="+44 …" (CSV exporters' way to force Excel to keep
text, unwrapped by the check) beside a Country cell holding an error value as text ("#N/A") was
refused, while the same number written plainly is read under its own code with a note
(black-box M1 #10): the check tested the cell with its =" wrapper, not the value it reads."""

import datetime as dt

from app.core.sheet_check import CheckOptions, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping


def test_forced_text_number_with_its_own_code_is_read_beside_an_error_country() -> None:
    rows = [
        (1, ["Phone", "Country"]),
        (2, ["+442079460958", "#N/A"]),
        (3, ['="+442079460959"', "#N/A"]),
    ]
    mapping = ColumnMapping(phone=0, phone_code=1, headers=("Phone", "Country"), header_row=1)
    plain, forced = check_all(rows, mapping, CheckOptions(insertion_date=dt.date(2026, 11, 24)))[0]
    assert plain.outcome is Outcome.VALID and plain.phone_code == "44"
    # fails: invalid, "'#N/A' is an error value from a spreadsheet, not a country code"
    assert (forced.outcome, forced.phone_code, forced.national) == (
        Outcome.VALID,
        "44",
        "2079460959",
    ), forced.message
