"""A workbook sheet whose name says it is not to be used ("DO NOT USE", "Old DNC", "Dupes") is
not read ahead of another sheet with data when no sheet is named, and the other sheets a warning
names list it last (black-box N4 #6: a "DO NOT USE" first sheet was imported over "Sheet1", and
the warning's example of another sheet to read was "DO NOT USE - dupes").

"Do Not Call" names an opt-out sheet, not one set aside. A sheet named as not to be used is still
read when it is the only one with data, or when named.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.job_staging import JobSettings, stage
from app.core.job_store import JobStore
from app.core.sheet_check import Target
from app.core.sheet_reader import open_sheet
from app.core.sheet_worker import do_not_use_sheet, usable_first
from tests.core.sheet_factory import write_sheets


def stage_dry(path: Path, tmp_path: Path, sheet: str | None = None) -> JobStore:
    job = JobSettings(path, Scope.global_(), target=Target.DNC, sheet=sheet)
    store, _ = stage(job, tmp_path / "jobs", kind="import", connection=None)
    return store


def numbers(store: JobStore) -> list[str]:
    return [r.national for r in store.rows()]


def warnings(store: JobStore) -> list[str]:
    return [str(w) for w in store.meta().get("warnings") or []]


@pytest.mark.parametrize(
    "name",
    [
        "DO NOT USE",
        "Do Not Use - old DNC",
        "do_not_use",
        "Don't use",
        "Don\u2019t Use",
        "DNU",
        "Old DNC",
        "old_dnc",
        "DNC-archive",
        "Archived 2023",
        "Obsolete",
        "Superseded list",
        "DO NOT USE - dupes",
        "Duplicates",
        "Test",
        "Backup",
        "Deprecated",
    ],
)
def test_names_that_set_a_sheet_aside(name: str) -> None:
    assert do_not_use_sheet(name)


@pytest.mark.parametrize(
    "name",
    ["Do Not Call", "DNC current", "Sheet1", "Leads", "Opt Outs", "Gold", "Contest", "Holdouts"],
)
def test_names_that_do_not(name: str) -> None:
    assert not do_not_use_sheet(name)


def test_usable_first_keeps_the_files_order_otherwise() -> None:
    names = ["DO NOT USE", "Sheet1", "Old", "Leads"]
    assert usable_first(names) == ["Sheet1", "Leads", "DO NOT USE", "Old"]


def test_a_do_not_use_first_sheet_is_passed_over(tmp_path: Path) -> None:
    # The shape of the finding's 22_do_not_use_first.xlsx.
    path = write_sheets(
        tmp_path / "requests.xlsx",
        {
            "DO NOT USE": [["Phone", "Note"], ["3035552201", "old test data"]],
            "Sheet1": [["Phone", "Note"], ["3035552211", "wants no calls"], ["3035552212", "DNC"]],
        },
    )
    with open_sheet(path) as source:
        assert source.sheet == "Sheet1"
    store = stage_dry(path, tmp_path)
    assert store.meta()["sheet"] == "Sheet1"
    assert numbers(store) == ["3035552211", "3035552212"]


def test_a_do_not_use_sheet_alone_with_data_is_read(tmp_path: Path) -> None:
    path = write_sheets(
        tmp_path / "requests.xlsx",
        {"DO NOT USE": [["Phone"], ["3035552201"]], "Sheet1": []},
    )
    store = stage_dry(path, tmp_path)
    assert store.meta()["sheet"] == "DO NOT USE"
    assert numbers(store) == ["3035552201"]


def test_a_named_do_not_use_sheet_is_read(tmp_path: Path) -> None:
    path = write_sheets(
        tmp_path / "requests.xlsx",
        {"DO NOT USE": [["Phone"], ["3035552201"]], "Sheet1": [["Phone"], ["3035552211"]]},
    )
    store = stage_dry(path, tmp_path, sheet="do not use")
    assert numbers(store) == ["3035552201"]


def test_the_other_sheets_named_list_a_do_not_use_sheet_last(tmp_path: Path) -> None:
    # The shape of the finding's 23_contacts_donotuse_requests.xlsx: the warning's example of
    # a sheet to read is the requests, not the dupes set aside.
    path = write_sheets(
        tmp_path / "contacts.xlsx",
        {
            "Contacts": [["Name", "Phone"], ["a", "3035552301"], ["b", "3035552302"]],
            "DO NOT USE - dupes": [["Phone"], ["3035552311"]],
            "Nov requests": [["Phone", "Reason"], ["3035552321", "asked"]],
        },
    )
    store = stage_dry(path, tmp_path)
    assert store.meta()["sheet"] == "Contacts"
    other = [w for w in warnings(store) if "also have a column of phone numbers" in w]
    assert other == [
        "Sheets 'Nov requests' and 'DO NOT USE - dupes' of contacts.xlsx also have a column of "
        "phone numbers but are not imported: only sheet 'Contacts' is read. To import them, run "
        "the file again with --sheet NAME for each (as --sheet 'Nov requests')."
    ]
