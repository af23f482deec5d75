"""Header-row detection and column mapping proposals."""

from __future__ import annotations

import pytest

from app.api.scope import Scope
from app.core.sheet_header import detect_header, looks_like_phone
from app.core.sheet_mapping import (
    ColumnError,
    ColumnMapping,
    Role,
    column_letter,
    find_column,
    header_role,
    propose_from_preview,
    propose_mapping,
    resolve_column,
)
from app.core.sheet_types import CellValue, Row


def numbered(*rows: list[CellValue]) -> list[Row]:
    return [(i, row) for i, row in enumerate(rows, 1)]


def test_header_on_row_one() -> None:
    rows = numbered(["Phone", "Reason"], ["2025550123", "asked"])
    assert detect_header(rows) == 1


def test_header_below_title_notes_and_blank_rows() -> None:
    rows = numbered(
        ["Opt-out numbers received November", None, None],
        [None, None, None],
        ["Sent by Vendor X; call 800 number for questions", None, None],
        ["Mobile #", "Reason", "Date received"],
        [None, None, None],
        [2025550123, "asked", "2026-11-02"],
    )
    assert detect_header(rows) == 4


def test_title_naming_a_column_loses_to_the_header() -> None:
    rows = numbered(["Phone numbers"], ["Phone", "Reason"], ["2025550123", "x"])
    assert detect_header(rows) == 2


def test_no_header_when_data_starts_on_row_one() -> None:
    assert detect_header(numbered([2025550123], [2025550124])) is None
    assert detect_header(numbered(["(202) 555-0123", "x"])) is None


def test_header_without_known_names_above_numbers() -> None:
    assert detect_header(numbered(["a", "b", "c"], ["1", "2", "3"])) == 1
    assert detect_header(numbered(["Who", "What"], [2025550123, "x"])) == 1


def test_no_header_in_empty_or_label_only_rows() -> None:
    assert detect_header([]) is None
    assert detect_header(numbered(["hello"], ["world"])) is None


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("Phone", Role.PHONE),
        ("Phone Number", Role.PHONE),
        ("phone_number", Role.PHONE),
        ("Mobile #", Role.PHONE),
        ("Cell", Role.PHONE),
        ("Telephone", Role.PHONE),
        ("Tel.", Role.PHONE),
        ("MSISDN", Role.PHONE),
        ("Number", Role.PHONE),
        ("Opt-out number", Role.PHONE),
        ("Customer Phone Number", Role.PHONE),
        ("Country Code", Role.PHONE_CODE),
        ("Dial code", Role.PHONE_CODE),
        ("country_code", Role.PHONE_CODE),
        ("Reason", Role.REASON),
        ("Opt-Out Reason", Role.REASON),
        ("Comments", Role.REASON),
        ("Purpose", Role.PURPOSE),
        ("Campaign", Role.CAMPAIGN),
        ("Campaign ID", Role.CAMPAIGN),
        ("Campaign name", Role.CAMPAIGN),
        ("Scope", Role.SCOPE),
        ("Date received", Role.REQUEST_DATE),
        ("Request date", Role.REQUEST_DATE),
        ("Received On", Role.REQUEST_DATE),
        ("Phone Type", None),
        ("First name", None),
        ("", None),
    ],
)
def test_header_roles(text: str, role: Role | None) -> None:
    assert header_role(text) is role


def test_mapping_from_headers() -> None:
    header: list[CellValue] = ["First", "Mobile", "Country Code", "Reason", "Date received"]
    data = numbered(["Ann", "7400123456", 44, "asked", "2026-11-02"])
    mapping = propose_mapping(header, data)
    assert (mapping.phone, mapping.phone_code, mapping.reason, mapping.request_date) == (
        1,
        2,
        3,
        4,
    )
    assert mapping.purpose is None and mapping.scope is None and mapping.campaign is None
    assert mapping.describe()["phone"] == "Mobile (column B)"


def test_content_wins_over_a_misleading_number_header() -> None:
    header: list[CellValue] = ["Number", "Contact"]
    data = numbered(["A-1001", "(202) 555-0123"], ["A-1002", "202.555.0124"])
    assert propose_mapping(header, data).phone == 1


def test_headerless_single_column_of_numbers_just_works() -> None:
    preview = numbered([2025550123.0], [2025550124.0], ["(202) 555-0125"])
    mapping = propose_from_preview(preview)
    assert mapping.header_row is None
    assert mapping.phone == 0
    assert mapping.headers == ("",)
    assert mapping.describe() == {"phone": "column A"}


def test_unnamed_country_code_column_is_found_by_content() -> None:
    preview = numbered([7400123456, 44], [2025550123, 1], [412345678, "+61"])
    mapping = propose_from_preview(preview)
    assert (mapping.phone, mapping.phone_code) == (0, 1)


def test_defaults_for_missing_columns() -> None:
    mapping = ColumnMapping()
    assert mapping.default_phone_code == "1"
    assert mapping.default_scope == Scope.global_()
    assert (mapping.default_reason, mapping.default_purpose) == ("", "")


def test_find_column_by_name_or_letter() -> None:
    headers = ("Name", "Phone Number", "Reason")
    assert find_column(headers, "phone number") == 1
    assert find_column(headers, "  PHONE   number ") == 1
    assert find_column(headers, "C") == 2
    assert find_column(headers, "AA") is None
    assert find_column(("",) * 30, "AA") == 26
    assert find_column(headers, "Tel") is None
    assert find_column(headers, "does not exist") is None
    assert [column_letter(i) for i in (0, 25, 26, 701, 702)] == ["A", "Z", "AA", "ZZ", "AAA"]


@pytest.mark.parametrize("wanted", ["TEL", "Tel", "tel", " tel ", "TeL"])
def test_header_name_wins_over_column_letters(wanted: str) -> None:
    # 11,000 columns: TEL is also a column letter the sheet has (index 10,957), yet the
    # header named Tel is meant.
    headers = ("Name", "Tel", "Notes") + ("",) * 11_000
    assert resolve_column(headers, wanted) == 1


@pytest.mark.parametrize(
    ("wanted", "expected"),
    [("Ph", 2), ("CC", 3), ("No", 4), ("ph", 2), ("cc", 3)],
)
def test_short_header_names_are_not_letters(wanted: str, expected: int) -> None:
    # 500 columns, so PH (423), CC (80) and NO (378) all exist as letters.
    headers = ("Name", "Account", "Ph", "CC", "No") + ("",) * 495
    assert resolve_column(headers, wanted) == expected


def test_exact_spelling_beats_a_punctuation_blind_match() -> None:
    headers = ("Phone #", "Phone No", "Notes")
    assert resolve_column(headers, "phone no") == 1  # exact (case/space) match first
    assert resolve_column(headers, "Phone  #") == 0
    assert resolve_column(("Mobile #", "Reason"), "mobile no") == 0  # punctuation-blind next


@pytest.mark.parametrize(
    ("wanted", "expected"),
    [
        ("column:C", 2),
        ("Column: c", 2),
        ("col:B", 1),
        ("column:3", 2),
        ("#3", 2),
        ("# 1", 0),
        ("B", 1),  # a bare letter when no header is called B
    ],
)
def test_columns_by_position(wanted: str, expected: int) -> None:
    assert resolve_column(("Id", "Phone", "Notes"), wanted) == expected


def test_explicit_position_wins_over_a_header_with_that_letter() -> None:
    headers = ("C", "Phone", "Notes")  # a header literally named C
    assert resolve_column(headers, "C") == 0
    assert resolve_column(headers, "column:C") == 2
    assert resolve_column(headers, "#1") == 0


def test_missing_name_lists_the_headers_in_one_sentence() -> None:
    headers = ("Name", "Mobile", "Reason", "")
    with pytest.raises(ColumnError) as info:
        resolve_column(headers, "Tel", "vendor.xlsx")
    text = str(info.value)
    assert text == (
        "vendor.xlsx has no column headed 'Tel'; its headers are 'Name' (A), 'Mobile' (B), "
        "'Reason' (C) (a column can also be given by position, as column:A or #1)."
    )
    assert "\n" not in text


def test_many_headers_are_cut_short() -> None:
    headers = tuple(f"Field {i}" for i in range(45))
    with pytest.raises(ColumnError, match=r"'Field 19' \(T\) and 25 more"):
        resolve_column(headers, "Tel", "wide.csv")


def test_ambiguous_name_names_the_columns() -> None:
    headers = ("Phone", "Name", "phone ", "PHONE")
    with pytest.raises(ColumnError) as info:
        resolve_column(headers, "Phone", "dup.csv")
    assert str(info.value) == (
        "'Phone' heads 3 columns of dup.csv (A, C and D); choose one by letter, as "
        "column:A or column:C or column:D."
    )
    assert resolve_column(headers, "column:C") == 2


def test_position_beyond_the_sheet_and_no_header_row() -> None:
    with pytest.raises(ColumnError, match=r"^f.csv has no column Z; its columns are A to C "):
        resolve_column(("Name", "Phone", "Notes"), "column:Z", "f.csv")
    with pytest.raises(ColumnError, match=r"no column #9; its columns are A to C \(#1 to #3\)"):
        resolve_column(("Name", "Phone", "Notes"), "#9", "f.csv")
    with pytest.raises(ColumnError, match=r"#0"):
        resolve_column(("Name", "Phone"), "#0", "f.csv")
    with pytest.raises(ColumnError, match=r"^f.csv has no header row, so 'Tel' names no column"):
        resolve_column(("", "", ""), "Tel", "f.csv")
    assert resolve_column(("", "", ""), "b", "f.csv") == 1


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("(202) 555-0123", True),
        ("+44 7400 123456", True),
        (2025550123.0, True),
        ("'2025550123", True),
        ("2026-11-02", False),
        ("11/02/2026", False),
        ("Phone", False),
        ("12345", False),
        (True, False),
        (None, False),
    ],
)
def test_looks_like_phone(value: CellValue, expected: bool) -> None:
    assert looks_like_phone(value) is expected


def test_country_column_is_taken_for_codes_only_when_its_values_read_as_codes() -> None:
    header: list[CellValue] = ["Phone", "Country"]
    # Country names of supported codes read as codes (black-box finding 9)...
    assert propose_mapping(header, numbered(["2025550123", "Canada"])).phone_code == 1
    assert propose_mapping(header, numbered(["7911123470", "United Kingdom"])).phone_code == 1
    assert propose_mapping(header, numbered(["2025550123", "US"])).phone_code == 1
    # ...a column of names no code reads as would fail every row, so it is not taken.
    assert propose_mapping(header, numbered(["2025550123", "Atlantis"])).phone_code is None
    # Half of the non-empty values read as codes is enough: the others make their own rows
    # invalid instead of the whole column being dropped (black-box pass 3, finding 1).
    rows = numbered(["2079460123", "United Kingdom"], ["2025554012", "Narnia"], ["2025554013", ""])
    assert propose_mapping(header, rows).phone_code == 1
    rows = numbered(["2079460123", "Narnia"], ["2025554012", "Oz"], ["2025554013", "US"])
    assert propose_mapping(header, rows).phone_code is None


def test_valid_numbers_beat_ids_of_the_same_shape() -> None:
    preview = numbered([1234567890, 2025550123], [1234567891, 2025550124])
    assert propose_from_preview(preview).phone == 1
