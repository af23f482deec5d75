"""Review RV3 F3: a purpose named in a Scope cell ("purpose:Sur\\x00veys") kept its control
characters and was staged to be sent so, though a Purpose cell holding the same text loses them
(with a note). With both cells holding the same damaged text the row was refused with a
self-contradicting message."""

import datetime as dt

from app.core.sheet_check import CheckedRow, CheckOptions, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import CellValue

OPTS = CheckOptions(insertion_date=dt.date(2026, 11, 24))
MAPPING = ColumnMapping(
    phone=0, scope=1, purpose=2, headers=("Phone", "Scope", "Purpose"), header_row=1
)


def _check(scope_cell: str, purpose_cell: str | None) -> CheckedRow:
    header: list[CellValue] = ["Phone", "Scope", "Purpose"]
    row: list[CellValue] = ["3035550123", scope_cell, purpose_cell]
    rows = [(1, header), (2, row)]
    checked, _ = check_all(rows, MAPPING, OPTS)
    return checked[0]


def test_a_scope_cells_purpose_loses_control_characters_too() -> None:
    c = _check("purpose:Sur\x00veys", None)
    # as a Purpose cell 'Sur\x00veys' is: the purpose 'Surveys', with a note naming the NUL
    assert c.outcome is Outcome.VALID
    assert c.purpose == "Surveys" and str(c.scope) == "purpose:Surveys"  # fails: 'Sur\x00veys'


def test_the_same_damaged_text_in_both_cells_is_no_contradiction() -> None:
    c = _check("purpose:Sur\x01veys", "Sur\x01veys")
    # fails: invalid, "the row says 'Surveys' but the scope is purpose:Sur\x01veys"
    assert c.outcome is Outcome.VALID, c.message
    assert "control characters were left out of the scope" in c.message


def test_the_note_names_the_scope_cell() -> None:
    c = _check("purpose:Sur\x00veys", None)
    assert "scope: cell B2 holds" in c.message and "a sign of a damaged file" in c.message
