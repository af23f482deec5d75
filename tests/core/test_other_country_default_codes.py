"""Black-box re-test U2: numbers of other countries than the US (#1, #3, #4, #6, #8).

#1: under --phone-code 39 or 52, "(312) 555-4801" and "312-555-4802" were read as Italian or
Mexican numbers with no word, where under 44 or 49 they read two ways: Italy and Mexico write
3-3-4 too, and that was taken for their own grouping. A North American grouping (an area code
in parentheses, 3-3-4 with dashes or dots) now reads two ways whatever the country; spaces as
the country writes its own ("312 555 4803"), and bare digits, are read under the country with a
note naming the US reading.
#3: the same beside a Country cell naming Italy.
#4: bare digits in a CSV (351234571 beside "Italia") lost Italy's 0 as a number cell does, and
were read as mobiles with no damage note; 669884573 was refused without the lost-0 hint.
#6: a valid US number refused under another country never said it is one.
#8: a 10-digit Italian mobile in a number cell was flagged because a 0 before it makes an
11-digit landline.
"""

from __future__ import annotations

import pytest

from app.core.sheet_check import ZERO_IN_NUMBER_REMOVAL, CheckOptions, check_all
from app.core.sheet_damage import ZERO_IN_NUMBER
from app.core.sheet_mapping import ColumnMapping


def _under_default(cells: list[object], code: str) -> list[tuple[str, str, str]]:
    mapping = ColumnMapping(header_row=1, headers=("Phone",), phone=0, default_phone_code=code)
    checked, _ = check_all([(n, [cell]) for n, cell in enumerate(cells, 2)], mapping)
    return [
        (c.outcome.value, f"+{c.phone_code} {c.national}" if c.national else "", c.message)
        for c in checked
    ]


def _beside(rows: list[tuple[object, str]], removal: bool = False) -> list[tuple[str, str, str]]:
    mapping = ColumnMapping(header_row=1, headers=("Phone", "Country"), phone=0, phone_code=1)
    checked, _ = check_all(
        [(n, [phone, country]) for n, (phone, country) in enumerate(rows, 2)],
        mapping,
        CheckOptions(removal=removal),
    )
    return [
        (c.outcome.value, f"+{c.phone_code} {c.national}" if c.national else "", c.message)
        for c in checked
    ]


# ---- #1: North American groupings under a default code ----------------------------------------


@pytest.mark.parametrize("code", ["39", "52"])
@pytest.mark.parametrize(
    "cell", ["(312) 555-4801", "312-555-4802", "312.555.4803", "(347) 555-4804", "312 555-4805"]
)
def test_a_north_american_grouping_reads_two_ways_under_italy_and_mexico(
    code: str, cell: str
) -> None:
    ((outcome, read, message),) = _under_default([cell], code)
    assert (outcome, read) == ("invalid", "")
    assert f"{cell!r} reads two ways: +1 " in message
    assert f"under the file's default country code {code}; write it with its own code" in message


@pytest.mark.parametrize("code", ["39", "52"])
def test_spaces_and_bare_digits_are_read_under_the_country_with_a_note(code: str) -> None:
    read = _under_default(["312 555 4806", "3125554807", 3125554808], code)
    assert [(outcome, number) for outcome, number, _ in read] == [
        ("valid", f"+{code} 3125554806"),
        ("valid", f"+{code} 3125554807"),
        ("valid", f"+{code} 3125554808"),
    ]
    for (_, _, message), digits in zip(read, ("4806", "4807", "4808"), strict=True):
        assert (
            f"under the file's default country code {code}; as written it is also the US number "
            f"+1 312 555 {digits}: if the row is American, write it with +1"
        ) in message


def test_a_number_only_the_country_has_carries_no_us_note() -> None:
    # 614 123…: the exchange 123 is no US one.
    assert _under_default(["614 123 1701", "614-123-1702"], "52") == [
        ("valid", "+52 6141231701", ""),
        ("valid", "+52 6141231702", ""),
    ]


# ---- #3: the same beside a Country cell -------------------------------------------------------


def test_beside_italy_a_north_american_grouping_reads_two_ways() -> None:
    read = _beside(
        [
            ("(347) 555-4701", "Italy"),
            ("347-555-4702", "Italy"),
            ("347.555.4703", "Italy"),
            ("(351) 234-4706", "Italy"),
            ("(312) 555-4707", "Italy"),
        ]
    )
    for outcome, number, message in read:
        assert (outcome, number) == ("invalid", "")
        assert "reads two ways: +1 " in message
        assert "under the 'Country' cell's 'Italy' (column B)" in message


def test_beside_italy_spaces_and_bare_digits_are_read_with_a_note() -> None:
    read = _beside([("347 555 4704", "Italy"), ("3475554705", "Italy")])
    assert [(outcome, number) for outcome, number, _ in read] == [
        ("valid", "+39 3475554704"),
        ("valid", "+39 3475554705"),
    ]
    assert "as written it is also the US number +1 347 555 4704" in read[0][2]
    assert "as written it is also the US number +1 347 555 4705" in read[1][2]


# ---- #6: a valid US number refused under another country --------------------------------------


def test_a_us_number_refused_under_another_default_code_says_it_is_one() -> None:
    ((outcome, _, message),) = _under_default(["(303) 555-1705"], "52")
    assert outcome == "invalid"
    assert message == (
        "row 2: phone: not a valid Mexico number: 3035551705 (10 digits) is in no number range "
        "in use; it is a valid US number (+1 303 555 1705): if the row is American, write it "
        "with +1"
    )


def test_a_us_number_refused_beside_a_country_cell_says_it_is_one() -> None:
    ((outcome, _, message),) = _beside([("(303) 555-4710", "Italy")])
    assert outcome == "invalid"
    assert message.endswith(
        "; it is a valid US number (+1 303 555 4710): if the row is American, write it with +1"
    )


def test_a_number_written_with_its_plus_one_gets_no_such_hint() -> None:
    ((outcome, _, message),) = _beside([("+1 303 555 5601", "44")])
    assert outcome == "invalid"
    assert "it is a valid US number" not in message


# ---- #4 and #8: Italy's leading 0 in a CSV's bare digits, and 10-digit mobiles -----------------


def test_bare_digits_in_text_valid_with_and_without_a_zero_are_damaged() -> None:
    read = _beside([("351234571", "Italia"), ("331234572", "Italia")])
    assert [(outcome, number) for outcome, number, _ in read] == [
        ("valid", "+39 351234571"),
        ("valid", "+39 331234572"),
    ]
    assert ZERO_IN_NUMBER in read[0][2]
    assert "cell '351234571' holds bare digits, as a CSV saved from a number cell" in read[0][2]
    assert "0351234571 is +39 035 123 4571" in read[0][2]


def test_a_removal_refuses_such_bare_digits() -> None:
    read = _beside([("351234571", "Italia"), ("0351234572", "Italia")], removal=True)
    assert read[0] == ("invalid", "+39 351234571", f"row 2: phone: {ZERO_IN_NUMBER_REMOVAL}")
    assert read[1][:2] == ("valid", "+39 0351234572")


def test_bare_digits_valid_only_with_a_zero_are_refused_with_the_hint() -> None:
    ((outcome, _, message),) = _beside([("669884573", "Italia")])
    assert outcome == "invalid"
    assert (
        "cell '669884573' may have lost a leading 0, as a spreadsheet drops it from a number "
        "cell (a CSV saved from one too): 0669884573 would be the valid number +39 06 6988 4573"
    ) in message


@pytest.mark.parametrize("cell", ["0351234573", "351 234573", "+39 351234573"])
def test_digits_written_otherwise_read_one_way(cell: str) -> None:
    ((outcome, _, message),) = _beside([(cell, "Italia")])
    assert outcome == "valid"
    assert ZERO_IN_NUMBER not in message


@pytest.mark.parametrize("cell", [3921234585.0, "3921234586"])
def test_a_ten_digit_mobile_is_not_flagged_for_an_eleven_digit_landline(cell: object) -> None:
    ((outcome, number, message),) = _beside([(cell, "Italia")])
    assert outcome == "valid" and number.startswith("+39 392123458")
    assert ZERO_IN_NUMBER not in message
