"""Row verdicts: outcomes, duplicates, scopes, Excel damage and request dates."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.scope import Scope
from app.core.sheet_check import (
    CheckedRow,
    CheckOptions,
    CheckSummary,
    Outcome,
    Target,
    check_all,
    check_rows,
)
from app.core.sheet_dates import business_days_between, is_business_day, parse_request_date
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import CellValue, Row

INSERTED = dt.date(2026, 11, 20)
# What a cell that is not a date is told of the forms read (sheet_dates.READ_FORMS).
READ_AS_DATES = " (read as dates: 2026-11-02, 11/02/2026, 02.11.2026, 2 Nov 2026, a date cell)"


def run(
    rows: list[list[CellValue]],
    mapping: ColumnMapping | None = None,
    options: CheckOptions | None = None,
) -> tuple[list[CheckedRow], CheckSummary]:
    numbered: list[Row] = [(i, r) for i, r in enumerate(rows, 1)]
    return check_all(numbered, mapping or ColumnMapping(phone=0), options)


def test_every_row_has_one_outcome_and_a_message() -> None:
    checked, summary = run(
        [
            ["(202) 555-0123"],
            ["202555012"],
            [None],
            ["2025550123"],
            ["   "],
            ["+1 202 555 0124"],
        ]
    )
    assert [c.outcome for c in checked] == [
        Outcome.VALID,
        Outcome.INVALID,
        Outcome.BLANK,
        Outcome.DUPLICATE,
        Outcome.BLANK,
        Outcome.VALID,
    ]
    assert checked[1].message.startswith("row 2: phone: too short for a US number")
    assert checked[2].message == "row 3: blank row"
    assert checked[3].message == "row 4: duplicate of row 1"
    assert checked[3].duplicate_of == 1
    assert (checked[0].phone_code, checked[0].national) == ("1", "2025550123")
    assert summary.as_dict() == {
        "rows": 6,
        "valid": 2,
        "invalid": 1,
        "duplicates_in_file": 1,
        "blank": 2,
        "damaged": 0,
        "late_requests": 0,
        "ambiguous_dates": 0,
    }


def test_rows_at_and_above_the_header_are_not_data() -> None:
    mapping = ColumnMapping(header_row=2, phone=0)
    checked, summary = run([["Title"], ["Phone"], ["2025550123"]], mapping)
    assert [c.row for c in checked] == [3]
    assert summary.rows == 1


def test_row_with_other_cells_but_no_phone_is_invalid_not_blank() -> None:
    checked, _ = run([[None, "asked"]], ColumnMapping(phone=0, reason=1))
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].message == "row 1: phone: the phone number is empty"


def test_country_code_column_and_default() -> None:
    mapping = ColumnMapping(phone=0, phone_code=1, default_phone_code="44")
    checked, summary = run(
        [
            ["07400 123456", None],
            ["2025550123", "+1"],
            ["0412 345 678", 61.0],
            ["2025550123", "XX"],
            ["07400 123459", "  "],
        ],
        mapping,
    )
    assert (checked[4].outcome, checked[4].phone_code) == (Outcome.VALID, "44")
    assert [(c.phone_code, c.national) for c in checked[:3]] == [
        ("44", "7400123456"),
        ("1", "2025550123"),
        ("61", "412345678"),
    ]
    assert (
        checked[3].message
        == "row 4: country code: cell B4 'XX' is not a country name or code DNC Desk knows: "
        "give the country's calling code (as 49) or its two-letter code (DE)"
    )
    assert summary.invalid == 1


def test_numbers_with_their_own_country_code_override_the_default_only() -> None:
    mapping = ColumnMapping(phone=0, phone_code=1)
    checked, _ = run(
        [["+44 7400 123456", None], ["00447400123457", None], ["+44 7400 123458", 1]], mapping
    )
    assert [(c.phone_code, c.national) for c in checked[:2]] == [
        ("44", "7400123456"),
        ("44", "7400123457"),
    ]
    # The code cell's column and value are named (black-box pass F).
    assert checked[2].message == (
        "row 3: phone: the number starts with +44 (United Kingdom) but the column B cell is "
        "'1' (United States / Canada): make them agree, or empty the cell to use the number's "
        "own code"
    )


def test_excel_text_formula_wrapper_is_read_as_text() -> None:
    checked, _ = run([['="2025550123"'], ['="0"'], ["=SUM(A1:A2)"]])
    assert (checked[0].outcome, checked[0].national) == (Outcome.VALID, "2025550123")
    assert checked[0].original == '="2025550123"'
    assert [c.outcome for c in checked[1:]] == [Outcome.INVALID, Outcome.INVALID]


def test_reason_and_purpose_columns_and_defaults() -> None:
    mapping = ColumnMapping(phone=0, reason=1, purpose=2, default_reason="file import")
    checked, _ = run([["2025550123", "asked", "Collections"], ["2025550124", None, None]], mapping)
    assert (checked[0].reason, checked[0].purpose) == ("asked", "Collections")
    assert (checked[1].reason, checked[1].purpose) == ("file import", "")


def test_scope_per_row_and_duplicates_per_scope() -> None:
    mapping = ColumnMapping(phone=0, scope=1)
    options = CheckOptions(campaign_lookup={"Spring Promo": "1001"})
    checked, summary = run(
        [
            ["2025550123", "global"],
            ["2025550123", "campaign:1001"],
            ["2025550123", "Spring Promo"],
            ["2025550123", "purpose:Collections"],
            ["2025550123", "purpose:Sales"],
            ["2025550123", "0"],
            ["2025550123", "nonsense"],
            ["2025550123", None],
        ],
        mapping,
        options,
    )
    assert checked[0].scope == Scope.global_()
    assert checked[1].scope == Scope.campaign("1001")
    assert checked[2].message == "row 3: duplicate of row 2"
    assert checked[3].scope == Scope.purpose("Collections")
    assert checked[3].purpose == "Collections"
    assert checked[4].outcome is Outcome.VALID
    assert checked[5].message == "row 6: duplicate of row 1"
    assert checked[6].message.startswith("row 7: scope: 'nonsense' is not a scope")
    assert checked[7].duplicate_of == 1  # empty scope cell: the default, global
    assert (summary.valid, summary.duplicates_in_file, summary.invalid) == (4, 3, 1)


def test_campaign_column_by_id_or_name() -> None:
    mapping = ColumnMapping(phone=0, campaign=1)
    options = CheckOptions(campaign_lookup={"Spring Promo": "1001"})
    checked, _ = run(
        [["2025550123", 1001], ["2025550124", "spring promo"], ["2025550125", "Winter"]],
        mapping,
        options,
    )
    assert checked[0].scope == Scope.campaign("1001")
    assert checked[1].scope == Scope.campaign("1001")
    assert checked[2].message == "row 3: campaign: no campaign is named 'Winter'"


def test_sms_purpose_scope_needs_a_purpose() -> None:
    mapping = ColumnMapping(phone=0, purpose=1, default_scope=Scope.purpose(""))
    sms = CheckOptions(target=Target.SMS_OPT_OUT)
    checked, _ = run([["2025550123", "Collections"], ["2025550124", None]], mapping, sms)
    assert checked[0].scope == Scope.purpose("Collections")
    assert checked[1].message == (
        "row 2: purpose: a purpose scope on the SMS opt-out list needs a purpose"
    )
    # The service refuses a purpose-type DNC entry without its purpose too.
    dnc, _ = run([["2025550124", None]], mapping, CheckOptions(target=Target.DNC))
    assert dnc[0].message == "row 1: purpose: a purpose scope needs a purpose"


def test_same_number_with_different_purposes_is_not_a_duplicate() -> None:
    # Purposes are compared exactly, as the service does: "collections" is another purpose.
    mapping = ColumnMapping(phone=0, purpose=1, default_scope=Scope.purpose(""))
    checked, _ = run(
        [
            ["2025550123", "Collections"],
            ["2025550123", "Sales"],
            ["2025550123", "collections"],
            ["2025550123", "Collections\u200b"],
        ],
        mapping,
    )
    assert [c.outcome for c in checked] == [
        Outcome.VALID,
        Outcome.VALID,
        Outcome.VALID,
        Outcome.DUPLICATE,
    ]


# ---- Excel damage ---------------------------------------------------------------------


def test_scientific_notation_that_lost_digits_is_invalid_and_damaged() -> None:
    checked, summary = run([["2.02555E+09"]])
    assert checked[0].outcome is Outcome.INVALID
    assert "scientific notation" in checked[0].message
    assert checked[0].damage == "cell '2.02555E+09' was in scientific notation and lost digits"
    assert summary.damaged == 1


def test_exact_scientific_notation_is_valid_but_flagged() -> None:
    checked, summary = run([["2.025550123E+09"]])
    assert checked[0].outcome is Outcome.VALID
    assert checked[0].national == "2025550123"
    assert checked[0].damage.startswith("cell '2.025550123E+09' was in scientific notation")
    assert checked[0].message.startswith("row 1: cell '2.025550123E+09'")
    assert summary.damaged == 1


def test_float_written_as_text_is_no_damage() -> None:
    # Every digit is there (black-box B6 #7: a pandas float column); a lost 0 is damage.
    checked, _ = run([["2025550123.0"], [2025550124.0], [2025550125]])
    assert [c.damage for c in checked] == ["", "", ""]
    assert [c.outcome for c in checked] == [Outcome.VALID] * 3


def test_more_than_fifteen_digits_is_flagged() -> None:
    checked, summary = run([[1234567890123456789.0]])
    assert checked[0].outcome is Outcome.INVALID
    assert "15 significant digits" in checked[0].damage
    assert summary.damaged == 1


def test_number_that_lost_its_trunk_zero_is_flagged() -> None:
    mapping = ColumnMapping(phone=0, default_phone_code="44")
    checked, summary = run([[7400123456], ["07400 123457"], [447400123458]], mapping)
    assert checked[0].outcome is Outcome.VALID
    assert "lost its leading 0 (written 07400123456" in checked[0].damage
    assert checked[1].damage == ""
    # B26 F2: an intact international number is no damage; Excel keeps its 15 digits.
    assert checked[2].damage == ""
    assert summary.damaged == 1


def test_number_as_kept_beside_its_code_lost_no_zero() -> None:
    # Black-box B5 #5: DNC Desk's export writes 7400123456 beside 44; a spreadsheet's number
    # cell of it is read exactly, under the row's own code.
    mapping = ColumnMapping(phone=0, phone_code=1)
    checked, summary = run([[7400123456, 44], [447400123458, 44]], mapping)
    assert checked[0].outcome is Outcome.VALID and checked[0].damage == ""
    assert checked[1].damage == ""  # B26 F2: intact, only a narrow column shows 4.474E+11
    assert summary.damaged == 0


def test_leading_zero_that_was_part_of_the_number_is_not_guessed() -> None:
    checked, _ = run([[612345678]], ColumnMapping(phone=0, default_phone_code="39"))
    assert checked[0].outcome is Outcome.INVALID
    assert "0612345678 would be the valid number" in checked[0].damage


# ---- request dates --------------------------------------------------------------------


def test_business_days_skip_weekends_and_federal_holidays() -> None:
    # Nov 11 (Veterans Day) and the weekends are not counted; the day received is not either.
    assert business_days_between(dt.date(2026, 11, 2), dt.date(2026, 11, 16)) == 9
    assert business_days_between(dt.date(2026, 11, 20), dt.date(2026, 11, 30)) == 5
    assert business_days_between(dt.date(2026, 12, 24), dt.date(2026, 12, 28)) == 1
    assert business_days_between(dt.date(2026, 11, 20), dt.date(2026, 11, 20)) == 0
    assert business_days_between(dt.date(2026, 11, 23), dt.date(2026, 11, 20)) == -1


@settings(max_examples=300, deadline=None)
@given(
    received=st.dates(dt.date(1990, 1, 1), dt.date(2040, 12, 31)),
    span=st.integers(min_value=-60, max_value=400),
)
def test_business_days_match_counting_day_by_day(received: dt.date, span: int) -> None:
    inserted = received + dt.timedelta(days=span)
    low, high = min(received, inserted), max(received, inserted)
    by_day = sum(
        1 for n in range(1, (high - low).days + 1) if is_business_day(low + dt.timedelta(days=n))
    )
    assert business_days_between(received, inserted) == (by_day if span >= 0 else -by_day)


@pytest.mark.parametrize(
    ("value", "expected", "note"),
    [
        (dt.date(2026, 11, 2), dt.date(2026, 11, 2), ""),
        (dt.datetime(2026, 11, 2, 17, 5), dt.date(2026, 11, 2), ""),
        # A number, not a date cell: read as Excel's day number, which the note shows.
        (46328, dt.date(2026, 11, 2), "the number 46328 is read as a spreadsheet's day number"),
        (46328.75, dt.date(2026, 11, 2), "46328.75 is read as a spreadsheet's day number"),
        ("2026-11-02", dt.date(2026, 11, 2), ""),
        ("2026-11-02 14:30:00", dt.date(2026, 11, 2), ""),
        # Day.month as Europe writes it, but 2 Feb is a date too: the note says so.
        ("02.11.2026", dt.date(2026, 11, 2), "ambiguous"),
        ("13.11.2026", dt.date(2026, 11, 13), ""),
        ("11/02/2026", dt.date(2026, 11, 2), "ambiguous"),
        ("11/02/26", dt.date(2026, 11, 2), "ambiguous"),
        ("11/13/2026", dt.date(2026, 11, 13), ""),
        ("13/11/2026", dt.date(2026, 11, 13), "day/month"),
        ("20261102", dt.date(2026, 11, 2), ""),
        (20261102, dt.date(2026, 11, 2), ""),
        ("Nov 2, 2026", dt.date(2026, 11, 2), ""),
        ("November 2, 2026", dt.date(2026, 11, 2), ""),
        ("2 Nov 2026", dt.date(2026, 11, 2), ""),
        ("2-Nov-26", dt.date(2026, 11, 2), ""),
        # French, Spanish and German month names (black-box pass I2: not dates before).
        ("2 novembre 2026", dt.date(2026, 11, 2), ""),
        ("2 de noviembre de 2026", dt.date(2026, 11, 2), ""),
        ("2. März 2026", dt.date(2026, 3, 2), ""),
        ("le 2 févr. 2026", dt.date(2026, 2, 2), ""),
        ("1er octobre 2026", dt.date(2026, 10, 1), ""),
        ("1º de octubre de 2026", dt.date(2026, 10, 1), ""),
        ("lundi 2 novembre 2026", dt.date(2026, 11, 2), ""),
        ("lunes, 2 de noviembre de 2026", dt.date(2026, 11, 2), ""),
        ("3 days ago", None, "not a date"),
        ("2026-02-30", None, "not a date"),
        ("yesterday", None, "not a date"),
        (None, None, ""),
    ],
)
def test_parse_request_date(value: CellValue, expected: dt.date | None, note: str) -> None:
    parsed = parse_request_date(value)
    assert parsed.date == expected
    assert note in parsed.note
    assert bool(parsed.note) == bool(note)


def test_late_requests_are_flagged_and_counted() -> None:
    mapping = ColumnMapping(phone=0, request_date=1)
    options = CheckOptions(insertion_date=INSERTED)
    checked, summary = run(
        [
            ["2025550123", "2026-11-02"],  # 13 business days before Nov 20
            ["2025550124", "2026-11-05"],  # 10: on the limit, not late
            ["2025550125", "11/04/2026"],  # ambiguous, read as Nov 4: 11 days, late
            ["2025550126", "not a date"],
            ["2025550127", None],
            ["bad", "2026-11-01"],
        ],
        mapping,
        options,
    )
    assert [(c.business_days, c.late) for c in checked[:5]] == [
        (13, True),
        (10, False),
        (11, True),
        (None, False),
        (None, False),
    ]
    assert (
        f"13 business days before {options.insertion_date:%Y-%m-%d}, when the file was checked "
        "(limit 10)"
    ) in checked[0].message
    assert "ambiguous" in checked[2].date_note
    assert checked[3].date_note == f"'not a date' is not a date{READ_AS_DATES}"
    assert (summary.late_requests, summary.ambiguous_dates, summary.valid) == (2, 1, 5)


# ---- the invariant ---------------------------------------------------------------------

cells = st.one_of(
    st.none(),
    st.just(""),
    st.just("   "),
    st.sampled_from(["2025550123", "(202) 555-0124", "+44 7400 123456", "2.02555E+09", "n/a"]),
    st.integers(min_value=0, max_value=10**16),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.booleans(),
    st.dates(),
)
codes = st.one_of(st.none(), st.sampled_from(["1", "+44", 61, 61.0, "XX", "", "0"]))
scopes = st.one_of(
    st.none(),
    st.sampled_from(
        ["global", "campaign:1001", "purpose:X", "purpose", "bad", "7", "campaign", "'-1", "'0"]
    ),
)
rows_strategy = st.lists(st.tuples(cells, codes, scopes, cells), max_size=60)


@settings(max_examples=300, deadline=None)
@given(rows=rows_strategy, sms=st.booleans())
def test_every_row_is_accounted_for(
    rows: list[tuple[CellValue, CellValue, CellValue, CellValue]], sms: bool
) -> None:
    mapping = ColumnMapping(phone=0, phone_code=1, scope=2, request_date=3)
    options = CheckOptions(target=Target.SMS_OPT_OUT if sms else Target.DNC)
    numbered: list[Row] = [(i, list(r)) for i, r in enumerate(rows, 1)]
    summary = CheckSummary()
    checked = list(check_rows(numbered, mapping, options, summary))
    assert [c.row for c in checked] == [n for n, _ in numbered]
    assert summary.rows == len(rows)
    assert summary.rows == (
        summary.valid + summary.invalid + summary.duplicates_in_file + summary.blank
    )
    for c in checked:
        assert c.outcome in Outcome
        if c.outcome is Outcome.VALID:
            assert c.national and c.scope is not None
        if c.outcome is Outcome.DUPLICATE:
            assert c.duplicate_of is not None and c.duplicate_of < c.row
        if c.outcome in (Outcome.INVALID, Outcome.DUPLICATE, Outcome.BLANK):
            assert c.message.startswith(f"row {c.row}: ")


# ---- the inline path for plain rows gives the same verdicts as the general one --------------

phone_cells = st.one_of(
    cells,
    st.sampled_from(
        [
            " 2025550123 ",
            "+1 202 555 0125",
            "1-202-555-0126",
            '="2025550127"',
            "07400 123456",
            "02079460958",
            "5551234567",
            "2025550123",
            "+44 20 7946 000",
            "\u200b2025550152",
            "\u202a+1 202 555 0156\u202c",
            "\u0662\u0660\u0662\u0665\u0665\u0665\u0660\u0661\u0666\u0666",
            "2025550168 / 2025550169",
        ]
    ),
    st.sampled_from([2025550123, 2025550123.0, 2079460958.0, 7400123456, 12025550123, 5551234567]),
)
code_cells = st.one_of(
    codes,
    st.sampled_from([" 44 ", "UK", "us", 1, 1.0, 44.0, True, False, float("nan"), "   ", "+1"]),
)
reason_cells = st.one_of(
    st.none(),
    st.sampled_from([" verbal ", "", "  ", 3.0, 12, "email", "x" * 255, " " + "y" * 256 + " "]),
    # A CSV export's formula guard ("'=1+1"), undone on reading, and apostrophes that stay.
    st.sampled_from(
        ["'=1+1", "'+inj", "'-3+4", "'@cmd", "'\t x", "'til 5pm", "''=1+1", "'=café", "'\u200b=x"]
    ),
    st.sampled_from(["'" + "=" * 255, "'" + "y" * 255]),
    st.tuples(st.sampled_from(["'", "'=", "'+", " '-", "'\t"]), st.text(max_size=6)).map("".join),
)
plain_rows = st.lists(st.tuples(phone_cells, code_cells, reason_cells), max_size=40)


@settings(max_examples=400, deadline=None)
@given(
    rows=plain_rows,
    code_column=st.sampled_from(["code", "country", "none"]),
    with_reason=st.booleans(),
    default_code=st.sampled_from(["1", "44", "+61"]),
    default_reason=st.sampled_from(["requested", "z" * 256, "'=kept as typed"]),
)
def test_plain_row_path_matches_the_general_check(
    rows: list[tuple[CellValue, CellValue, CellValue]],
    code_column: str,
    with_reason: bool,
    default_code: str,
    default_reason: str,
) -> None:
    from app.core import phones
    from app.core.sheet_check import _Checker

    # Column 1 read as the code column, or as a Country column with no code column (review
    # RV3 F1: the inline path read no Country cell then, and took a GB row for a US number).
    mapping = ColumnMapping(
        phone=0,
        phone_code=1 if code_column == "code" else None,
        country=1 if code_column == "country" else None,
        reason=2 if with_reason else None,
        default_phone_code=default_code,
        default_reason=default_reason,
    )
    options = CheckOptions(insertion_date=INSERTED)
    numbered: list[Row] = [(i, list(r)) for i, r in enumerate(rows, 1)]
    general = _Checker(mapping, options)
    assert general.plain_rows_possible()
    expected = [general.check(n, list(c)) for n, c in numbered]
    phones.clear_cache()  # the inline path must not depend on what the general one cached
    summary = CheckSummary()
    assert list(check_rows(numbered, mapping, options, summary)) == expected
    again = CheckSummary()
    for row in expected:
        again.add(row)
    assert summary == again
