"""Staging ranks a sheet whose name says it is not to be used below every other when no sheet is
named, also among sheets whose names say they hold opt-outs ("Do Not Use - old DNC" is not
preferred over "DNC current"), and says so when it reads one anyway (black-box N4 #6: the
old DNC sheet was imported and the warning's example was another sheet, 'Leads')."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.job_staging import JobSettings, stage
from app.core.job_store import JobStore
from app.core.sheet_check import Target
from tests.core.sheet_factory import write_sheets


def stage_dry(path: Path, tmp_path: Path, kind: str = "import", **named: str) -> JobStore:
    job = JobSettings(
        path,
        Scope.global_(),
        target=Target.DNC,
        sheet=named.get("sheet"),
        phone_column=named.get("phone_column"),
    )
    store, _ = stage(job, tmp_path / "jobs", kind=kind, connection=None)
    return store


def warnings(store: JobStore) -> list[str]:
    return [str(w) for w in store.meta().get("warnings") or []]


def test_an_old_dnc_sheet_is_not_preferred_over_the_current_one(tmp_path: Path) -> None:
    # The shape of the finding's 28_leads_olddnc_currentdnc.xlsx.
    path = write_sheets(
        tmp_path / "leads.xlsx",
        {
            "Leads": [["Phone", "Note"], ["3035552801", "lead"]],
            "Do Not Use - old DNC": [["Phone", "Note"], ["3035552811", "old"]],
            "DNC current": [["Phone", "Note"], ["3035552821", "asked"]],
        },
    )
    for named in ({}, {"phone_column": "Phone"}):
        store = stage_dry(path, tmp_path, **named)
        assert store.meta()["sheet"] == "DNC current"
        assert [r.national for r in store.rows()] == ["3035552821"]
        assert not [w for w in warnings(store) if "says it is not to be used" in w]


def test_a_do_not_use_sheet_is_tried_after_the_others(tmp_path: Path) -> None:
    path = write_sheets(
        tmp_path / "vendor.xlsx",
        {
            "Instructions": [["Read me first"]],
            "DO NOT USE": [["Phone"], ["3035550101"]],
            "Requests": [["Phone"], ["3035550102"]],
        },
    )
    for kind in ("import", "removal"):
        store = stage_dry(path, tmp_path, kind)
        assert store.meta()["sheet"] == "Requests"
        store.close()


def test_reading_a_do_not_use_sheet_unnamed_is_said(tmp_path: Path) -> None:
    path = write_sheets(
        tmp_path / "leads.xlsx",
        {"Leads": [["Name"], ["Ann"]], "Old DNC": [["Cell"], ["3035550101"]]},
    )
    store = stage_dry(path, tmp_path)
    assert store.meta()["sheet"] == "Old DNC"
    assert (
        "Sheet 'Old DNC' of leads.xlsx is read though its name says it is not to be used, as no "
        "other sheet has a column of phone numbers: check that its numbers are meant to be "
        "imported."
    ) in warnings(store)
    store.close()
    # Named, it is read as asked: nothing to say.
    named = stage_dry(path, tmp_path, sheet="old dnc")
    assert not [w for w in warnings(named) if "says it is not to be used" in w]


def test_a_text_file_named_as_set_aside_is_no_sheet(tmp_path: Path) -> None:
    path = tmp_path / "old_dnc.csv"
    path.write_text("Phone\n3035550101\n")
    assert not [w for w in warnings(stage_dry(path, tmp_path)) if "not to be used" in w]
