"""A removal does not take the numbers of a phone column hidden in the file unasked: the column
found (none named) hidden is refused in one sentence naming it and the options, unless the
phone column is named or hidden rows and columns are included. An import warns only, as more
opt-outs are safe. The black-box finding: a hidden "Phone" column was read over a visible
"Phone (corrected)" one and its numbers removed with only a warning."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.job_staging import JobSettings, MappingError, open_mapped, stage
from app.core.job_store import JobStore
from app.core.sheet_check import Target
from tests.core.test_sheet_hidden_rows import outcomes, stage_dry, warnings

HIDDEN_WARNING = (
    "Column A ('Phone') is hidden in sheet 'Review' of {name}: its values were read all the "
    "same, as the phone numbers; unhide the column to see what was read."
)
HEAD = (
    "Column A ('Phone') of sheet 'Review' of {name}, the phone column found for this removal, "
    "is hidden in the file, so the removal could take off the list numbers nobody looking at "
    "the file has seen"
)


def corrected(path: Path, *, with_corrected: bool = True, hide: str = "A") -> Path:
    """The finding's file: the phone column A hidden, the corrected numbers in B."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Review"
    if with_corrected:
        ws.append(["Phone", "Phone (corrected)", "Name"])
        ws.append(["2025550101", "2025550201", "Ann"])
        ws.append(["2025550102", "2025550202", "Bob"])
    else:
        ws.append(["Phone", "Name"])
        ws.append(["2025550101", "Ann"])
        ws.append(["2025550102", "Bob"])
    ws.column_dimensions[hide].hidden = True
    wb.save(path)
    return path


def nationals(store: JobStore) -> list[str]:
    return [r.national for r in store.rows()]


def test_a_removal_from_a_hidden_phone_column_found_is_refused(tmp_path: Path) -> None:
    path = corrected(tmp_path / "review.xlsx")
    with pytest.raises(MappingError) as refused:
        stage_dry(path, tmp_path, kind="removal")
    head = HEAD.format(name="review.xlsx")
    assert refused.value.cli_text == (
        f"{head}; name the phone column with --phone-column, as column:B for column B "
        "('Phone (corrected)'), which is shown, or column:A for the hidden one; or include "
        "hidden rows and columns (--include-hidden)."
    )
    assert str(refused.value) == (
        f"{head}; unhide it if its numbers are the ones to remove (column B ('Phone "
        "(corrected)'), which is shown, holds phone numbers too), or include hidden rows and "
        "columns."
    )
    assert not list((tmp_path / "jobs").glob("*.dncjob"))  # nothing staged


def test_with_no_other_phone_column_the_refusal_names_the_hidden_one(tmp_path: Path) -> None:
    path = corrected(tmp_path / "plain.xlsx", with_corrected=False)
    with pytest.raises(MappingError) as refused:
        stage_dry(path, tmp_path, kind="removal")
    head = HEAD.format(name="plain.xlsx")
    assert refused.value.cli_text == (
        f"{head}; name it with --phone-column (column:A) to remove its numbers all the same, "
        "or include hidden rows and columns (--include-hidden)."
    )
    assert str(refused.value) == (
        f"{head}; unhide it if its numbers are the ones to remove, or include hidden rows and "
        "columns."
    )


@pytest.mark.parametrize("chosen", ["column:A", "Phone", "#1"])
def test_a_hidden_phone_column_named_is_removed_with_the_warning(
    tmp_path: Path, chosen: str
) -> None:
    path = corrected(tmp_path / "review.xlsx")
    store = stage_dry(path, tmp_path, kind="removal", phone_column=chosen)
    assert nationals(store) == ["2025550101", "2025550102"]
    assert warnings(store) == [HIDDEN_WARNING.format(name="review.xlsx")]


def test_the_shown_column_named_is_removed_without_a_word(tmp_path: Path) -> None:
    path = corrected(tmp_path / "review.xlsx")
    store = stage_dry(path, tmp_path, kind="removal", phone_column="column:B")
    assert nationals(store) == ["2025550201", "2025550202"]
    assert warnings(store) == []


def test_include_hidden_takes_the_hidden_phone_column_with_the_warning(tmp_path: Path) -> None:
    path = corrected(tmp_path / "review.xlsx")
    store = stage_dry(path, tmp_path, kind="removal", include_hidden=True)
    assert {o for o, _ in outcomes(store).values()} == {"pending"}
    assert nationals(store) == ["2025550101", "2025550102"]
    assert HIDDEN_WARNING.format(name="review.xlsx") in warnings(store)


def test_an_import_takes_a_hidden_phone_column_and_warns_only(tmp_path: Path) -> None:
    path = corrected(tmp_path / "review.xlsx")
    store = stage_dry(path, tmp_path)
    assert nationals(store) == ["2025550101", "2025550102"]
    assert HIDDEN_WARNING.format(name="review.xlsx") in warnings(store)


def test_a_mapping_chosen_by_a_person_is_used_as_given(tmp_path: Path) -> None:
    """The import wizard passes the mapping a person saw and chose: not refused."""
    path = corrected(tmp_path / "review.xlsx")
    settings = JobSettings(path, Scope.global_(), target=Target.DNC)
    source, mapping = open_mapped(path, settings)
    source.close()
    assert mapping.phone == 0
    store, _ = stage(settings, tmp_path / "jobs", kind="removal", connection=None, mapping=mapping)
    assert nationals(store) == ["2025550101", "2025550102"]


def test_a_hidden_column_that_is_not_the_phone_column_is_no_reason_to_refuse(
    tmp_path: Path,
) -> None:
    path = corrected(tmp_path / "review.xlsx", hide="C")  # Name: not read
    store = stage_dry(path, tmp_path, kind="removal", phone_column="column:A")
    assert nationals(store) == ["2025550101", "2025550102"]
    store = stage_dry(path, tmp_path, kind="removal")
    assert nationals(store) == ["2025550101", "2025550102"]
