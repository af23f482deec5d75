"""Row checks of the fields around the number (black-box findings 5, 9, 10, 11, 12, 13, 15):
over-long reason and purpose text, a purpose cell against a purpose scope, the service's own
campaign_id codes in a campaign column, scope "campaign" with a Campaign column, a number's own
country code under the default, and a Country column of names."""

from __future__ import annotations

import pytest

from app.api.models import Campaign
from app.api.scope import Scope
from app.core.sheet_check import (
    CheckedRow,
    CheckOptions,
    CheckSummary,
    Outcome,
    Target,
    check_all,
)
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_scope import CampaignDirectory
from app.core.sheet_types import CellValue, Row


def run(
    rows: list[list[CellValue]],
    mapping: ColumnMapping,
    options: CheckOptions | None = None,
) -> tuple[list[CheckedRow], CheckSummary]:
    # Row 1 is the header, as in a file.
    numbered: list[Row] = [(i, r) for i, r in enumerate(rows, 2)]
    return check_all(numbered, ColumnMapping(**{**vars_of(mapping), "header_row": 1}), options)


def vars_of(mapping: ColumnMapping) -> dict[str, object]:
    return {name: getattr(mapping, name) for name in mapping.__dataclass_fields__}


# ---- finding 5: reason and purpose over 255 characters ------------------------------------


@pytest.mark.parametrize("plain", [True, False])
def test_a_reason_over_255_characters_is_cut_and_said(plain: bool) -> None:
    # plain: the fast path of check_rows (no per-row scope); else the general one (a date column).
    mapping = ColumnMapping(phone=0, reason=1, request_date=None if plain else 2)
    checked, summary = run(
        [
            ["2025551001", "a" * 255, None],
            ["2025551002", "b" * 256, None],
            ["2025551003", "ok", None],
            ["2025551004", "  " + "c" * 300 + "  ", None],
        ],
        mapping,
    )
    assert [c.outcome for c in checked] == [Outcome.VALID] * 4
    assert (checked[0].reason, checked[0].message) == ("a" * 255, "")
    assert checked[1].reason == "b" * 255
    assert checked[1].message == "row 3: reason cut to 255 characters (it had 256)"
    assert checked[2].message == ""
    assert checked[3].reason == "c" * 255
    assert checked[3].message == "row 5: reason cut to 255 characters (it had 300)"
    # Counted as valid rows and nothing else.
    assert summary.as_dict() == {
        "rows": 4,
        "valid": 4,
        "invalid": 0,
        "duplicates_in_file": 0,
        "blank": 0,
        "damaged": 0,
        "late_requests": 0,
        "ambiguous_dates": 0,
    }


def test_a_long_default_reason_is_cut_on_every_row() -> None:
    mapping = ColumnMapping(phone=0, default_reason="r" * 300)
    checked, _ = run([["2025551001"], ["2025551002"]], mapping)
    assert [c.reason for c in checked] == ["r" * 255] * 2
    assert checked[1].message == "row 3: reason cut to 255 characters (it had 300)"


def test_the_cut_note_follows_the_other_notes() -> None:
    mapping = ColumnMapping(phone=0, reason=1)
    checked, _ = run([["2.025550123E+09", "d" * 256]], mapping)
    assert checked[0].outcome is Outcome.VALID
    assert checked[0].message.startswith("row 2: cell '2.025550123E+09' was in scientific")
    assert checked[0].message.endswith("; reason cut to 255 characters (it had 256)")


def test_a_purpose_over_255_characters_makes_the_row_invalid() -> None:
    mapping = ColumnMapping(phone=0, purpose=1, default_scope=Scope.purpose(""))
    checked, summary = run(
        [["2025551001", "p" * 255], ["2025551002", "q" * 256], ["2025551003", "P" * 300]],
        mapping,
        CheckOptions(target=Target.SMS_OPT_OUT),
    )
    assert checked[0].outcome is Outcome.VALID
    assert checked[1].message == "row 3: purpose: 256 characters, at most 255"
    assert checked[2].message == "row 4: purpose: 300 characters, at most 255"
    assert (summary.valid, summary.invalid) == (1, 2)


def test_a_long_purpose_in_the_scope_or_the_default_is_invalid_too() -> None:
    by_scope = ColumnMapping(phone=0, scope=1)
    checked, _ = run([["2025551001", "purpose:" + "s" * 256]], by_scope)
    assert checked[0].message == "row 2: purpose: 256 characters, at most 255"
    by_default = ColumnMapping(phone=0, default_purpose="d" * 256)
    checked, _ = run([["2025551001"]], by_default)
    assert checked[0].message == "row 2: purpose: 256 characters, at most 255"


# ---- finding 10: a purpose cell against a purpose scope ------------------------------------


def test_a_purpose_cell_that_contradicts_the_scope_is_invalid() -> None:
    mapping = ColumnMapping(phone=0, purpose=1, default_scope=Scope.purpose("Surveys"))
    checked, summary = run(
        [
            ["2025558401", "Marketing"],
            ["2025558402", None],
            ["2025558403", "surveys"],
            ["2025558404", " Surveys "],
        ],
        mapping,
    )
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].message == (
        "row 2: purpose: the row says 'Marketing' but the scope is purpose:Surveys"
    )
    assert [(c.outcome, c.purpose, c.scope) for c in checked[1:]] == [
        (Outcome.VALID, "Surveys", Scope.purpose("Surveys"))
    ] * 3
    assert (summary.valid, summary.invalid) == (3, 1)


def test_a_purpose_cell_that_contradicts_the_rows_scope_cell_is_invalid() -> None:
    mapping = ColumnMapping(phone=0, scope=1, purpose=2)
    checked, _ = run(
        [
            ["2025558401", "purpose:Surveys", "Marketing"],
            ["2025558402", "purpose", "Marketing"],
            ["2025558403", "purpose:Surveys", "SURVEYS"],
        ],
        mapping,
    )
    assert checked[0].message == (
        "row 2: purpose: the row says 'Marketing' but the scope is purpose:Surveys"
    )
    assert checked[1].scope == Scope.purpose("Marketing")
    assert checked[2].outcome is Outcome.VALID


def test_a_default_purpose_that_contradicts_the_default_scope_is_invalid() -> None:
    # --scope purpose:Surveys --purpose Marketing
    mapping = ColumnMapping(
        phone=0, scope=1, default_scope=Scope.purpose("Surveys"), default_purpose="Marketing"
    )
    checked, _ = run(
        [["2025558401", None], ["2025558402", "purpose:Collections"], ["2025558403", "purpose"]],
        mapping,
    )
    assert checked[0].message == (
        "row 2: purpose: the default purpose 'Marketing' is not the scope's purpose "
        "(purpose:Surveys)"
    )
    # The default purpose is for rows without one: a scope cell naming its own is not a clash.
    assert checked[1].scope == Scope.purpose("Collections")
    assert checked[2].scope == Scope.purpose("Marketing")


# ---- finding 11: the service's campaign_id codes in a campaign column --------------------


@pytest.mark.parametrize("lookup", [{"Spring Promo": "1001"}, None])
def test_campaign_cells_take_the_services_codes(lookup: dict[str, str] | None) -> None:
    directory = (
        CampaignDirectory([Campaign("1001", "Spring Promo", True, "", "")])
        if lookup is None
        else lookup
    )
    mapping = ColumnMapping(phone=0, campaign=1, purpose=2)
    checked, summary = run(
        [
            ["2025550101", "0", None],
            ["2025550102", "-1", "Surveys"],
            ["2025550103", "'-1", "Surveys"],
            ["2025550104", "'0", None],
            ["2025550105", -1.0, "Collections"],
            ["2025550106", 0, None],
            ["2025550107", "' 1001", None],
            ["2025550108", "1001", "ignored for a campaign"],
        ],
        mapping,
        CheckOptions(target=Target.SMS_OPT_OUT, campaign_lookup=directory),
    )
    assert summary.invalid == 0, [c.message for c in checked if c.message]
    assert [c.scope for c in checked] == [
        Scope.global_(),
        Scope.purpose("Surveys"),
        Scope.purpose("Surveys"),
        Scope.global_(),
        Scope.purpose("Collections"),
        Scope.global_(),
        Scope.campaign("1001"),
        Scope.campaign("1001"),
    ]


def test_a_purpose_code_without_a_purpose_on_the_sms_list_is_invalid() -> None:
    mapping = ColumnMapping(phone=0, campaign=1, purpose=2)
    checked, _ = run([["2025550101", "-1", None]], mapping, CheckOptions(target=Target.SMS_OPT_OUT))
    assert checked[0].message == (
        "row 2: purpose: a purpose scope on the SMS opt-out list needs a purpose"
    )


def test_scope_cells_with_an_apostrophe_read_as_the_number() -> None:
    mapping = ColumnMapping(phone=0, scope=1, purpose=2)
    checked, _ = run(
        [["2025550101", "'0", None], ["2025550102", "'-1", "Surveys"]],
        mapping,
        CheckOptions(campaign_lookup={"Spring Promo": "1001"}),
    )
    assert [c.scope for c in checked] == [Scope.global_(), Scope.purpose("Surveys")]


# ---- finding 15: scope "campaign" with a Campaign column ----------------------------------


def test_scope_campaign_takes_the_campaign_column() -> None:
    directory = CampaignDirectory([Campaign("1004", "Winter Push", True, "", "")])
    mapping = ColumnMapping(phone=0, scope=1, campaign=2, purpose=3)
    checked, summary = run(
        [
            ["2025550101", "campaign", "1004", None],
            ["2025550102", "Campaign", "winter push", None],
            ["2025550103", "campaign", "9999", None],
            ["2025550104", "campaign", None, None],
            ["2025550105", "campaign", "0", None],
            ["2025550106", "purpose", "1004", "Surveys"],
            ["2025550107", "global", "1004", None],
        ],
        mapping,
        CheckOptions(campaign_lookup=directory),
    )
    assert checked[0].scope == Scope.campaign("1004")
    assert checked[1].scope == Scope.campaign("1004")
    assert checked[2].message == "row 4: campaign: id 9999 does not exist on this connection"
    assert checked[3].message == (
        "row 5: scope: 'campaign' names no campaign: write campaign:ID or the campaign's "
        "name, or put its id or name in a Campaign column"
    )
    assert checked[4].message == (
        "row 6: campaign: the scope is 'campaign' but the campaign cell is '0' (Global), "
        "not a campaign"
    )
    # Other scope words decide an import's scope, and the row says the campaign was not used.
    assert checked[5].scope == Scope.purpose("Surveys")
    assert checked[5].message == (
        "row 7: the scope cell says Purpose but the campaign cell is '1004' (Campaign 1004); "
        "the scope cell's scope is used"
    )
    assert checked[6].scope == Scope.global_()
    assert checked[6].message == (
        "row 8: the scope cell says Global but the campaign cell is '1004' (Campaign 1004); "
        "the scope cell's scope is used"
    )
    assert (summary.valid, summary.invalid) == (4, 3)


def test_a_removal_row_whose_scope_and_campaign_cells_disagree_is_invalid() -> None:
    # Deleting the global entry of a number the file means for one campaign would let every
    # other campaign call it: a removal takes neither cell's word.
    directory = CampaignDirectory([Campaign("1004", "Winter Push", True, "", "")])
    mapping = ColumnMapping(phone=0, scope=1, campaign=2, purpose=3)
    checked, summary = run(
        [
            ["2025550101", "global", "1004", None],
            ["2025550102", "campaign:1004", "4000", None],
            ["2025550103", "purpose:Surveys", "Winter Push", None],
            ["2025550104", "global", "Nowhere", None],
            # These agree: the same campaign by name, the service's 0 and -1.
            ["2025550105", "campaign:1004", "winter push", None],
            ["2025550106", "global", "0", None],
            ["2025550107", "purpose:Surveys", "-1", None],
            ["2025550108", "campaign:1004", None, None],
        ],
        mapping,
        CheckOptions(campaign_lookup=directory, removal=True, scope_from_rows=True),
    )
    assert [c.outcome for c in checked] == [Outcome.INVALID] * 4 + [Outcome.VALID] * 4
    assert checked[0].message == (
        "row 2: scope: the scope cell says Global but the campaign cell is '1004' "
        "(Campaign 1004); make them agree or leave one empty"
    )
    assert "campaign cell is '4000'" in checked[1].message
    assert "says Purpose: Surveys" in checked[2].message
    assert "(no campaign is named 'Nowhere')" in checked[3].message
    assert [c.scope for c in checked[4:]] == [
        Scope.campaign("1004"),
        Scope.global_(),
        Scope.purpose("Surveys"),
        Scope.campaign("1004"),
    ]
    assert all(c.message == "" for c in checked[4:])
    assert (summary.valid, summary.invalid) == (4, 4)


# ---- finding 12: a number's own country code under the default -----------------------------


def test_an_invalid_number_with_its_own_code_is_judged_under_it() -> None:
    checked, _ = run(
        [["+44 20 7946 000"], ["+61 4123"], ["0049 30 1"], ["+44 7911 123456"]],
        ColumnMapping(phone=0),
    )
    assert checked[0].message == (
        "row 2: phone: not a valid United Kingdom number: 207946000 (9 digits) is in no "
        "number range in use"
    )
    assert checked[0].phone_code == "44"
    assert checked[1].message.startswith("row 3: phone: too short for an Australia number")
    assert checked[2].message.startswith("row 4: phone: too short for a Germany number")
    assert (checked[3].outcome, checked[3].phone_code) == (Outcome.VALID, "44")
    assert not any("but the country code is" in c.message for c in checked)


def test_a_code_cell_still_clashes_with_the_numbers_own_code() -> None:
    checked, _ = run([["+44 20 7946 000", "1"]], ColumnMapping(phone=0, phone_code=1))
    # The code cell's column and value are named (black-box pass F).
    assert checked[0].message.startswith(
        "row 2: phone: the number starts with +44 (United Kingdom) but the column B cell is "
        "'1' (United States / Canada)"
    )


# ---- findings 9 and 13 through the check ---------------------------------------------------


def test_a_country_column_of_names() -> None:
    mapping = ColumnMapping(phone=0, phone_code=1)
    checked, summary = run(
        [
            ["7911123470", "United Kingdom"],
            ["7911123471", "UK"],
            ["412345671", "Australia"],
            ["2025554041", "United States"],
            ["4165550123", "Canada"],
            ["2025554042", "Narnia"],
        ],
        mapping,
    )
    assert [c.phone_code for c in checked[:5]] == ["44", "44", "61", "1", "1"]
    assert (summary.valid, summary.invalid) == (5, 1)
    assert (
        checked[5].message
        == "row 7: country code: cell B7 'Narnia' is not a country name or code DNC Desk knows: "
        "give the country's calling code (as 49) or its two-letter code (DE)"
    )


def test_invisible_characters_and_two_numbers_in_a_row() -> None:
    checked, _ = run(
        [
            ["\u200b2025550152"],
            ["\u202a+1 202 555 0156\u202c"],
            ["+1 202 555 0168 / +1 202 555 0169"],
            ["\u0662\u0660\u0662\u0665\u0665\u0665\u0660\u0661\u0666\u0666"],
        ],
        ColumnMapping(phone=0),
    )
    assert [c.national for c in checked] == ["2025550152", "2025550156", "", "2025550166"]
    assert checked[2].message.startswith("row 4: phone: two phone numbers in one cell")


def test_a_country_column_of_names_is_proposed_as_the_code_column() -> None:
    # sheet_mapping already takes a "Country" header when its values read as codes; with
    # names read as codes, a column of country names now is one.
    from app.core.sheet_mapping import propose_mapping

    rows: list[Row] = [
        (2, ["7911123470", "United Kingdom"]),
        (3, ["7911123471", "UK"]),
        (4, ["412345671", "Australia"]),
        (5, ["2025554041", "United States"]),
    ]
    mapping = propose_mapping(["Phone", "Country"], rows)
    assert (mapping.phone, mapping.phone_code) == (0, 1)


# ---- black-box pass 3: a removal takes only the scope it was given -------------------------


def test_a_removal_row_naming_another_scope_than_the_jobs_is_invalid_unless_per_row() -> None:
    directory = CampaignDirectory([Campaign("1001", "Solar", True, "", "")])
    mapping = ColumnMapping(
        phone=0, scope=1, default_scope=Scope.campaign("1001"), headers=("Phone", "Scope")
    )
    rows: list[list[CellValue]] = [
        ["7205000016", "global"],
        ["7205000017", "campaign:1001"],
        ["7205000018", None],
    ]
    checked, _ = run(rows, mapping, CheckOptions(campaign_lookup=directory, removal=True))
    assert [c.outcome for c in checked] == [Outcome.INVALID, Outcome.VALID, Outcome.VALID]
    assert checked[0].message == (
        "row 2: scope: the file says Global but this removal is for Campaign 1001; a removal "
        "takes only the scope it was given (--per-row-scope takes each row's scope from the "
        "file)"
    )
    assert [c.scope for c in checked[1:]] == [Scope.campaign("1001")] * 2
    # Asked for by name, each row takes its own scope; a row naming none takes the job's.
    per_row = CheckOptions(campaign_lookup=directory, removal=True, scope_from_rows=True)
    checked, _ = run(rows, mapping, per_row)
    assert [c.scope for c in checked] == [Scope.global_()] + [Scope.campaign("1001")] * 2
    # An import still takes the file's scope, as before.
    checked, _ = run(rows, mapping, CheckOptions(campaign_lookup=directory))
    assert checked[0].scope == Scope.global_() and checked[0].outcome is Outcome.VALID


def test_a_removal_row_naming_a_purpose_its_scope_does_not_take_is_invalid() -> None:
    mapping = ColumnMapping(phone=0, purpose=1, headers=("Phone", "Purpose"))
    rows: list[list[CellValue]] = [["7204010003", "Marketing"], ["7204010004", None]]
    checked, _ = run(rows, mapping, CheckOptions(removal=True))
    assert [c.outcome for c in checked] == [Outcome.INVALID, Outcome.VALID]
    assert checked[0].message == (
        "row 2: purpose: the row names purpose 'Marketing' but its scope is Global: removing "
        "it would take that entry, not the 'Marketing' one; a removal with scope Global takes "
        "the number's Global entry whatever purpose it was written with: to remove that one, "
        "empty the row's purpose cell (or --ignore-column 'Purpose'); to remove the "
        "'Marketing' purpose entry, give the row the purpose scope (--scope "
        "'purpose:Marketing')"
    )
    # Under a purpose scope the cell names the purpose, as before.
    purpose = ColumnMapping(
        phone=0, purpose=1, headers=("Phone", "Purpose"), default_scope=Scope.purpose("")
    )
    checked, _ = run(rows[:1], purpose, CheckOptions(removal=True))
    assert checked[0].scope == Scope.purpose("Marketing")


def test_two_campaign_columns_must_agree() -> None:
    directory = CampaignDirectory(
        [
            Campaign("1001", "Solar Savings Outreach", True, "", ""),
            Campaign("1002", "Winter Push", True, "", ""),
        ]
    )
    mapping = ColumnMapping(phone=0, campaign=1, headers=("Phone", "Campaign Name", "Campaign ID"))
    rows: list[list[CellValue]] = [
        ["7204010001", "Solar Savings Outreach", "1002"],
        ["7204010002", "Solar Savings Outreach", "1001"],
        ["7204010005", "Winter Push", None],
    ]
    options = CheckOptions(campaign_lookup=directory, removal=True, scope_from_rows=True)
    checked, _ = run(rows, mapping, options)
    assert [c.outcome for c in checked] == [Outcome.INVALID, Outcome.VALID, Outcome.VALID]
    assert checked[0].message == (
        "row 2: campaign: the row's scope is Campaign 1001 but its 'Campaign ID' cell is "
        "'1002' (Campaign 1002)"
    )
    # An import keeps the mapped column's campaign and says the other one disagreed.
    checked, _ = run(rows, mapping, CheckOptions(campaign_lookup=directory))
    assert checked[0].scope == Scope.campaign("1001")
    assert checked[0].message == (
        "row 2: the row's scope is Campaign 1001 but its 'Campaign ID' cell is '1002' "
        "(Campaign 1002); the row's scope is used"
    )
