"""One purpose spelled several ways by an import's rows, none of them on the list, is several
purposes on the service: the job warns, naming each spelling and its rows (black-box B7 #3,
moderate: Purpose cells 'Marketing', 'Marketing' + a no-break space, ' marketing', 'MARKETING',
'Loan  Offers' and 'Loan Offers' went in as five purposes with no note)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli import import_cmd
from app.core import job_staging
from app.core.connections import Connection
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, ListPurposes
from app.core.job_store import JobRow
from app.core.removal_job import stage_removal
from app.core.sheet_check import Target
from tests.conftest import TOKEN

# The black-box file's Purpose cells (Scope "purpose"), rows 2 to 8.
CELLS = ["Marketing", "Marketing\u00a0", " marketing", "MARKETING", "Marketing", "Loan  Offers"]
CELLS += ["Loan Offers"]

WANTED = (
    "The rows spell each of 2 purposes more than one way, which the service keeps as "
    "different purposes: 'Marketing' (rows 2, 3 and 6), 'marketing' (row 4) and 'MARKETING' "
    "(row 5); 'Loan  Offers' (row 7) and 'Loan Offers' (row 8). The dialer's campaigns use "
    "one spelling, and an entry under another leaves the consumer callable: correct the file "
    "to one spelling of each purpose, the one the campaigns use, and import the rows so."
)


def _file(tmp_path: Path, cells: list[str]) -> Path:
    path = tmp_path / "purposes.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Scope", "Purpose", "Reason"])
    for i, cell in enumerate(cells):
        sheet.append([f"602-555-{5001 + i}", "purpose", cell, "r"])
    book.save(path)
    return path


_CLIENTS: list[ApiClient] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    # The list's purposes are read lazily, while staging: their client is closed after the
    # test, not left to the garbage collector, which warned of its socket in whichever later
    # test collected it (a CI run's one warning).
    yield
    while _CLIENTS:
        _CLIENTS.pop().close()


def _purposes(sandbox: Any) -> ListPurposes:
    api = ApiClient(sandbox.base_url, TOKEN)
    _CLIENTS.append(api)
    connection = Connection("sandbox", sandbox.base_url)
    return import_cmd.read_list_purposes(api, Target.DNC, connection, "Import not started")


def _stage(
    tmp_path: Path, cells: list[str], purposes: ListPurposes | None, *, removal: bool = False
) -> tuple[dict[int, JobRow], list[str]]:
    settings = JobSettings(
        _file(tmp_path, cells), Scope.global_(), list_purposes=purposes, scope_from_rows=removal
    )
    connection = Connection("sandbox", "http://127.0.0.1:1") if purposes is not None else None
    stager = stage_removal if removal else stage_import
    store, _ = stager(settings, tmp_path / "jobs", connection=connection)
    staged = {r.row_number: r for r in store.rows()}
    warnings = list(store.meta().get("warnings") or [])
    store.close()
    return staged, warnings


def test_rows_spelling_a_purpose_the_list_lacks_several_ways_are_warned_of(
    sandbox: Any, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([("2025550101", "1", "-1", "", "Fundraising")])
    staged, warnings = _stage(tmp_path, CELLS, _purposes(sandbox))
    # Warned, not held: every row is sent, under its own spelling.
    assert {r.outcome for r in staged.values()} == {""}
    assert [staged[n].purpose for n in range(2, 9)] == [
        "Marketing",
        "Marketing",
        "marketing",
        "MARKETING",
        "Marketing",
        "Loan  Offers",
        "Loan Offers",
    ]
    assert warnings == [WANTED]


def test_one_purpose_is_said_in_ways(sandbox: Any, tmp_path: Path) -> None:
    _, warnings = _stage(
        tmp_path, ["Surveys", "surveys", "Surveys", "Fundraising"], _purposes(sandbox)
    )
    assert warnings == [
        "The rows spell one purpose 2 ways, which the service keeps as different purposes: "
        "'Surveys' (rows 2 and 4) and 'surveys' (row 3). The dialer's campaigns use one "
        "spelling, and an entry under another leaves the consumer callable: correct the file "
        "to one spelling of each purpose, the one the campaigns use, and import the rows so."
    ]


def test_a_spelling_on_the_list_is_taken_instead(sandbox: Any, tmp_path: Path) -> None:
    # The list has 'Marketing': the other spellings take it, and only 'Loan Offers' is left.
    sandbox.bulk_seed_dnc([("2025550101", "1", "-1", "", "Marketing")])
    staged, warnings = _stage(tmp_path, CELLS, _purposes(sandbox))
    assert {staged[n].purpose for n in range(2, 7)} == {"Marketing"}
    several = [w for w in warnings if w.startswith("The rows spell")]
    assert several == [
        "The rows spell one purpose 2 ways, which the service keeps as different purposes: "
        "'Loan  Offers' (row 7) and 'Loan Offers' (row 8). The dialer's campaigns use one "
        "spelling, and an entry under another leaves the consumer callable: correct the file "
        "to one spelling of each purpose, the one the campaigns use, and import the rows so."
    ]


def test_one_spelling_each_says_nothing(sandbox: Any, tmp_path: Path) -> None:
    cells = ["Marketing", "Marketing\u00a0", "Loan Offers", "Loan Offers "]
    _, warnings = _stage(tmp_path, cells, _purposes(sandbox))
    assert warnings == []


def test_without_a_connection_it_is_said_with_what_a_run_with_one_does(tmp_path: Path) -> None:
    _, warnings = _stage(tmp_path, ["Surveys", "SURVEYS"], None)
    assert (
        "The rows spell one purpose 2 ways, which the service keeps as different purposes: "
        "'Surveys' (row 2) and 'SURVEYS' (row 3) (not compared with the list's, as there was "
        "no connection: a run with one gives them the list's spelling when it has exactly "
        "one). The dialer's campaigns use one spelling"
    ) in warnings[0]


def test_a_removal_is_not_warned(sandbox: Any, tmp_path: Path) -> None:
    # Its rows take the list's one spelling or find nothing: no entry is made under any.
    staged, warnings = _stage(tmp_path, CELLS, _purposes(sandbox), removal=True)
    assert {r.outcome for r in staged.values()} == {""}
    assert not [w for w in warnings if w.startswith("The rows spell")]


def test_many_spellings_are_kept_few(tmp_path: Path, monkeypatch: Any, sandbox: Any) -> None:
    monkeypatch.setattr(job_staging, "_SPELLINGS_KEPT", 2)
    cells = ["Surveys", "surveys", "SURVEYS", "SurVeys", "surveys"]
    _, warnings = _stage(tmp_path, cells, _purposes(sandbox))
    assert warnings[0].startswith(
        "The rows spell one purpose more than 2 ways, which the service keeps as different "
        "purposes: 'Surveys' (row 2), 'surveys' (rows 3 and 6) and other spellings (rows 4 "
        "and 5). "
    ), warnings
