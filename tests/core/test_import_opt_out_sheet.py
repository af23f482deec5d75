"""With no sheet named, an import reads a visible sheet whose name says it holds opt-outs
("DNC requests", "Opt-outs", "STOP") rather than a first sheet of other phone numbers
("Contacts"), and warns about the sheet it left (black-box pass F: a workbook's two company
numbers were imported into the DNC list and its five opt-outs were not). A first sheet with
an opt-out name stays the one read; a removal keeps the first sheet; a hidden opt-out sheet is
never chosen; an opt-out sheet with no phone column is passed over."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.removal_job import stage_removal

CONTACTS = ["3035550100", "3035550101"]
OPT_OUTS = [f"30355502{i:02d}" for i in range(5)]


def _workbook(
    path: Path, second: str, *, hidden: bool = False, phones: bool = True, first: str = "Contacts"
) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = first
    ws.append(["Company", "Phone"])
    for i, number in enumerate(CONTACTS):
        ws.append([f"Company {i}", number])
    other = wb.create_sheet(second)
    if phones:
        other.append(["Phone"])
        for number in OPT_OUTS:
            other.append([number])
    else:
        other.append(["Read me"])
        other.append(["Send opt-outs to compliance@example.com"])
    if hidden:
        other.sheet_state = "hidden"
    wb.save(path)
    return path


def _import(path: Path, tmp_path: Path) -> tuple[str, list[str], list[str]]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    meta = store.meta()
    numbers = [r.national for r in store.rows()]
    store.close()
    return str(meta["sheet"]), numbers, list(meta.get("warnings") or [])


@pytest.mark.parametrize(
    "name", ["DNC requests", "Do Not Call", "Opt-outs", "optout list", "STOP", "Unsubscribes"]
)
def test_an_opt_out_sheet_is_read_rather_than_a_first_sheet_of_contacts(
    tmp_path: Path, name: str
) -> None:
    sheet, numbers, warnings = _import(_workbook(tmp_path / "book.xlsx", name), tmp_path)
    assert (sheet, numbers) == (name, OPT_OUTS)
    assert any(
        w.startswith(
            "Sheet 'Contacts' of book.xlsx also has a column of phone numbers but is not imported"
        )
        for w in warnings
    ), warnings


def test_a_sheet_name_without_opt_out_words_leaves_the_first_sheet(tmp_path: Path) -> None:
    # "Stopwatch" and "Donotcallers" do not say opt-outs as a word: the first sheet is read.
    sheet, numbers, _ = _import(_workbook(tmp_path / "book.xlsx", "Stopwatch"), tmp_path)
    assert (sheet, numbers) == ("Contacts", CONTACTS)


def test_a_first_sheet_named_for_opt_outs_stays_the_one_read(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "book.xlsx", "DNC 2026", first="DNC 2025")
    sheet, numbers, _ = _import(path, tmp_path)
    assert (sheet, numbers) == ("DNC 2025", CONTACTS)


def test_a_hidden_opt_out_sheet_is_not_chosen(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "book.xlsx", "DNC", hidden=True)
    sheet, numbers, _ = _import(path, tmp_path)
    assert (sheet, numbers) == ("Contacts", CONTACTS)


def test_an_opt_out_sheet_without_phone_numbers_is_passed_over(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "book.xlsx", "Opt-out instructions", phones=False)
    sheet, numbers, _ = _import(path, tmp_path)
    assert (sheet, numbers) == ("Contacts", CONTACTS)


def test_a_removal_keeps_the_first_sheet(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "book.xlsx", "DNC")
    settings = JobSettings(path, Scope.global_(), note="court order")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    assert store.meta()["sheet"] == "Contacts"
    store.close()
