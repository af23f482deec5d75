"""Numbers with their country code but no '+' stored as number cells (4915112345678 in an xlsx or
an .ods, as Excel and LibreOffice keep E.164 typed in) get the file's warning a CSV of the same
digits gets, not only each row's message (black-box bb13 F3); and, as a '+' typed into a number
cell is dropped again, it says to format the column as Text first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.session import Session
from tests.core.test_sheet_hidden_rows import ods_row, write_ods_xml

# Germany, France and India written as SMS platforms write E.164, then two US numbers.
NUMBERS = [4915112345678, 33612345678, 919876543210, 3035550100, 3035550101]
HEAD = (
    "3 rows of column A ('Phone') (rows 2, 3 and 4) hold numbers written with their country "
    "code but without the '+' before it, as SMS platforms write E.164 (row 2: 4915112345678 is "
    "+49 1511 2345678): read as numbers of the default code +1 (United States / Canada), they "
    "are not imported. "
)
TAIL = (
    "Write a '+' before each such number (+4915112345678) and run the file again (they are "
    "numbers of Germany (+49), France (+33) and India (+91)); each row's message shows its "
    "number."
)
AS_TEXT = (
    "Such cells are number cells: format column A ('Phone') as Text first, as a spreadsheet "
    "drops a '+' typed into a number cell. "
)


def _xlsx(tmp_path: Path, as_float: bool) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Notes"])
    for number in NUMBERS:
        ws.append([float(number) if as_float else number, "asked"])
    path = tmp_path / "intl.xlsx"
    wb.save(path)
    return path


def _ods(tmp_path: Path) -> Path:
    cells = "".join(
        "<table:table-row>"
        f'<table:table-cell office:value-type="float" office:value="{n}"><text:p>{n}</text:p>'
        "</table:table-cell></table:table-row>"
        for n in NUMBERS
    )
    return write_ods_xml(tmp_path / "intl.ods", {"DNC": ods_row(["Phone"]) + cells})


def _csv(tmp_path: Path) -> Path:
    path = tmp_path / "intl.csv"
    path.write_text("Phone\n" + "\n".join(str(n) for n in NUMBERS) + "\n", encoding="utf-8")
    return path


def _import(session: Session, path: Path, tmp_path: Path) -> tuple[list[str], dict[str, Any]]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    assert run_import(store, session) is JobStatus.FINISHED
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    summary = job_summary(store)
    store.close()
    return warnings, summary


@pytest.mark.parametrize(
    "make",
    [lambda p: _xlsx(p, as_float=False), lambda p: _xlsx(p, as_float=True), _ods],
    ids=["xlsx-int", "xlsx-float", "ods"],
)
def test_number_cells_without_their_plus_get_the_files_warning(
    make: Any, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    warnings, summary = _import(session, make(tmp_path), tmp_path)
    assert [w for w in warnings if "without the '+'" in w] == [HEAD + AS_TEXT + TAIL], warnings
    # Still refused row by row, the US numbers sent: nothing else changes.
    assert (summary["invalid"], summary["inserted"]) == (3, 2)
    assert len(sandbox.store.all("SELECT phone_number FROM dnc")) == 2


def test_a_csv_of_the_same_digits_says_no_word_of_number_cells(
    session: Session, tmp_path: Path
) -> None:
    warnings, _ = _import(session, _csv(tmp_path), tmp_path)
    assert [w for w in warnings if "without the '+'" in w] == [HEAD + TAIL], warnings
