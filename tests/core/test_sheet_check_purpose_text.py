"""Purpose text in the check: a purpose scope needs it (import and removal rows), the whole
removal may name every purpose, and invisible characters are not part of any text cell."""

from __future__ import annotations

from app.api.scope import Scope
from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import CellValue, Row

IMPORT = CheckOptions()
REMOVAL = CheckOptions(removal=True)
EVERY_PURPOSE_HINT = "to remove every purpose, give the whole file --scope purpose"


def run(
    rows: list[list[CellValue]], mapping: ColumnMapping, options: CheckOptions = IMPORT
) -> tuple[list[CheckedRow], CheckSummary]:
    numbered: list[Row] = [(i, r) for i, r in enumerate(rows, 2)]
    return check_all(numbered, mapping, options)


def test_import_rows_in_purpose_scope_without_a_purpose_are_invalid() -> None:
    mapping = ColumnMapping(phone=0, scope=1, campaign=2, purpose=3)
    rows: list[list[CellValue]] = [
        ["2025554701", "purpose", None, None],
        ["2025554702", None, "-1", "  "],
        ["2025554703", None, -1, "\u200b"],  # only an invisible character
        ["2025554704", "purpose", None, "Surveys"],
    ]
    checked, summary = run(rows, mapping)
    assert [c.message for c in checked[:3]] == [
        f"row {n}: purpose: a purpose scope needs a purpose" for n in (2, 3, 4)
    ]
    assert checked[3].scope == Scope.purpose("Surveys")
    assert (summary.valid, summary.invalid) == (1, 3)
    # The same rows of a removal file: an empty cell must not widen the removal.
    checked, _ = run(rows, mapping, REMOVAL)
    assert [c.message for c in checked[:3]] == [
        f"row {n}: purpose: a purpose scope needs a purpose; {EVERY_PURPOSE_HINT}"
        for n in (2, 3, 4)
    ]


def test_a_default_purpose_scope_without_text_is_every_purpose_only_for_a_removal() -> None:
    mapping = ColumnMapping(phone=0, scope=1, purpose=2, default_scope=Scope.purpose(""))
    rows: list[list[CellValue]] = [
        ["2025554711", None, None],  # the job's scope: every purpose
        ["2025554712", None, "Surveys"],  # its own purpose
        ["2025554713", "purpose", None],  # its own scope cell, no purpose: invalid
    ]
    checked, _ = run(rows, mapping, REMOVAL)
    assert [(c.outcome, c.scope) for c in checked[:2]] == [
        (Outcome.VALID, Scope.purpose("")),
        (Outcome.VALID, Scope.purpose("Surveys")),
    ]
    assert checked[2].message == (
        f"row 4: purpose: a purpose scope needs a purpose; {EVERY_PURPOSE_HINT}"
    )
    checked, _ = run(rows, mapping)  # an import: the service would refuse it
    assert checked[0].message == "row 2: purpose: a purpose scope needs a purpose"


def test_a_default_purpose_of_only_invisible_characters_is_not_every_purpose() -> None:
    # Typed, but invisible: it was not left blank, so it does not mean every purpose.
    mapping = ColumnMapping(phone=0, default_scope=Scope.purpose("\u200b\u2060"))
    checked, _ = run([["2025554721"]], mapping, REMOVAL)
    assert checked[0].outcome is Outcome.INVALID


def test_invisible_characters_are_stripped_from_text_cells_and_defaults() -> None:
    mapping = ColumnMapping(
        phone=0,
        scope=1,
        campaign=2,
        purpose=3,
        reason=4,
        default_reason="\ufeffasked\u200b",
        default_purpose="\u202aSales\u202c",
    )
    checked, summary = run(
        [
            ["2025554601", "purpose", None, "Surveys\u200b", "web\u200b form "],
            ["2025554602", "\u2066purpose:Surveys\u2069", None, None, None],
            ["2025554603", None, "\u200e1001", None, None],
            ["2025554604", "purpose", None, None, None],
            ["2025554605", "global\u200b", None, None, "\u00adcall"],
        ],
        mapping,
        CheckOptions(campaign_lookup={"Spring": "1001"}),
    )
    assert summary.invalid == 0, [c.message for c in checked]
    got = [(c.scope, c.purpose, c.reason) for c in checked]
    assert got == [
        (Scope.purpose("Surveys"), "Surveys", "web form"),
        (Scope.purpose("Surveys"), "Surveys", "asked"),
        (Scope.campaign("1001"), "Sales", "asked"),
        (Scope.purpose("Sales"), "Sales", "asked"),
        (Scope.global_(), "Sales", "call"),
    ]


def test_the_plain_path_strips_invisible_characters_from_reasons_too() -> None:
    # No scope, purpose or date column: check_plain decides these rows.
    mapping = ColumnMapping(phone=0, reason=1, default_scope=Scope.global_())
    checked, _ = run(
        [["2025554611", "opt-out\u200b"], ["2025554612", "\u200b"], ["2025554613", " ok "]],
        mapping,
    )
    assert [c.reason for c in checked] == ["opt-out", "", "ok"]


def test_a_default_purpose_scope_is_cleaned_as_a_cell_is() -> None:
    mapping = ColumnMapping(phone=0, default_scope=Scope.purpose("Surveys\u200b"))
    checked, _ = run([["2025554621"]], mapping)
    assert (checked[0].scope, checked[0].purpose) == (Scope.purpose("Surveys"), "Surveys")
