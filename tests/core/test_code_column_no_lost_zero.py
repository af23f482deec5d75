"""A number cell read under its row's own code (a Country Code or Country column) whose digits
are the number as a list keeps it lost no trunk 0 (black-box B5 #5: DNC Desk's export writes
7924934233 beside 44; LibreOffice re-saving it as xlsx made those cells numbers, and the import
of the re-saved file counted 98 UK, Australian and French rows as "phone cells damaged … lost
its leading 0", though nothing was lost and each was read exactly). The note stays where a 0
may matter: under the default code or --phone-code alone, a cell valid only with a 0 put back,
Italy's 0 that is part of a number, a number cut short by a scientific display."""

from __future__ import annotations

import pytest

from app.core import phones
from app.core.phones import PhoneResult
from app.core.sheet_damage import CUT_SHORT, ZERO_IN_NUMBER, describe_damage
from app.core.sheet_types import CellValue

# As the export writes them (rows of /tmp/bbY/b5/A_dnc_v2.csv), each as a re-saved file's number
# cell, and as a pandas float column writes it.
AS_KEPT = [
    (7924934233, "44", "07924934233 in United Kingdom"),
    (7905062445.0, "44", "07905062445 in United Kingdom"),
    (2079460012, "44", "02079460012 in United Kingdom"),
    (432472451, "61", "0432472451 in Australia"),
    (612345678, "33", "0612345678 in France"),
    ("7924934233.0", "44", "07924934233 in United Kingdom"),
]


def _read(raw: CellValue, code: str) -> PhoneResult:
    result = phones.normalize(raw, code)
    assert result.ok
    return result


@pytest.mark.parametrize(("raw", "code", "written"), AS_KEPT)
def test_a_number_as_kept_beside_its_code_lost_nothing(
    raw: CellValue, code: str, written: str
) -> None:
    assert describe_damage(raw, _read(raw, code), code_from_cell=True) == ""


@pytest.mark.parametrize(("raw", "code", "written"), AS_KEPT)
def test_under_the_default_code_it_is_still_a_lost_zero(
    raw: CellValue, code: str, written: str
) -> None:
    # --phone-code 44 with no code column: nothing says the row's digits were kept so.
    note = describe_damage(raw, _read(raw, code))
    assert f"lost its leading 0 (written {written})" in note


def test_italy_s_zero_in_the_number_is_still_said_beside_its_code() -> None:
    # The Bergamo landline 035 1234567 or the mobile 351 234567: Italy's list keeps the 0 in
    # the number, so a cell without it is two numbers whatever column gave the code.
    note = describe_damage(351234567, _read(351234567, "39"), code_from_cell=True)
    assert ZERO_IN_NUMBER in note
    assert "0351234567 is +39 035 123 4567" in note


def test_a_cell_valid_only_with_its_zero_is_still_said_beside_its_code() -> None:
    # Rome's 06 6982 3456 without its 0 is no number: the file must say which was meant.
    result = phones.normalize(669823456, "39")
    assert not result.ok
    note = describe_damage(669823456, result, code_from_cell=True)
    assert "may have lost a leading 0: 0669823456 would be the valid number" in note


def test_a_cut_short_number_beside_its_code_is_still_cut_short() -> None:
    result = _read(7924000000, "44")
    note = describe_damage(7924000000, result, code_from_cell=True)
    assert CUT_SHORT in note
    assert "lost its leading 0" not in note
    assert "lost its leading 0 too" in describe_damage(7924000000, result)


def test_digits_with_the_code_before_them_are_no_damage() -> None:
    # 447924934233 beside 44: Excel keeps its 15 digits exactly; only a narrow column shows
    # it as 4.47925E+11 (black-box B26 F2: it was noted and counted as damaged).
    note = describe_damage(447924934233, _read(447924934233, "44"), code_from_cell=True)
    assert note == ""
