"""A column headed as an opt-out alone ("Opt-out", "Unsubscribed", "DNC") holding "STOP" on some
rows and "active" on the others is a status column, as "Opt Out Status" is: its other rows are
named, as every row is imported whatever it says (black-box bb13 F10: 15 "active" numbers went
onto the DNC list without a word). Its yes/no cells are still the flags sentence's."""

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

VALUES = ["active", "STOP", "active", "STOP", "active"]


def _workbook(tmp_path: Path, header: str, values: list[str]) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Lead ID", "Phone", header])
    for i, value in enumerate(values):
        ws.append([i + 1, 9175550101 + i, value])
    path = tmp_path / "leads.xlsx"
    wb.save(path)
    return path


def _import(session: Session, path: Path, tmp_path: Path) -> tuple[list[str], dict[str, Any]]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    assert run_import(store, session) is JobStatus.FINISHED
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    summary = job_summary(store)
    summary["messages"] = {r.row_number: r.message for r in store.rows()}
    store.close()
    return warnings, summary


@pytest.mark.parametrize(
    "header",
    ["Opt-out", "Opted out", "Unsubscribed", "Unsubscribe", "DNC", "Do Not Call", "SMS Opt-Out",
     "OptOut Flag", "Désabonné"],
)  # fmt: skip
def test_stop_and_active_under_an_opt_out_header_are_named(
    header: str, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    warnings, summary = _import(session, _workbook(tmp_path, header, VALUES), tmp_path)
    column = f"Column C ('{header}')"
    assert (
        f"{column}: 2 of the 5 rows say do not call ('STOP'), the other 3 say something else "
        "('active': 3 rows, the first is row 2), yet they are imported as opt-outs too. Keep "
        f"only the rows that say do not call (filter column C ('{header}')) and run the file "
        "again."
    ) in warnings, warnings
    # Each "active" row says so in the report; every row is still sent, as before.
    note = f"column C ('{header}') says 'active', which is no opt-out"
    assert [n for n, m in summary["messages"].items() if note in (m or "")] == [2, 4, 6]
    assert summary["inserted"] == 5
    assert len(sandbox.store.all("SELECT phone_number FROM dnc")) == 5


def test_yes_and_no_under_an_opt_out_header_stay_the_flags_sentence(
    session: Session, tmp_path: Path
) -> None:
    path = _workbook(tmp_path, "Opted out", ["No", "Yes", "No", "Yes", "No"])
    warnings, _ = _import(session, path, tmp_path)
    assert [w for w in warnings if "something else" in w] == []
    assert any(
        w.startswith(
            "Column C ('Opted out') marks each row yes or no: 3 of the 5 rows do not say yes "
            "(rows 2, 4 and 6)"
        )
        for w in warnings
    ), warnings


def test_a_header_saying_how_is_no_status_column(session: Session, tmp_path: Path) -> None:
    """ "Opt-out Method" says how each consumer opted out, not whether."""
    values = ["Phone call", "Text STOP", "Phone call", "Text STOP", "Web form"]
    warnings, _ = _import(session, _workbook(tmp_path, "Opt-out Method", values), tmp_path)
    assert [w for w in warnings if "something else" in w] == []


@pytest.mark.parametrize("header", ["Opt-out", "Unsubscribed", "SMS Opt Out"])
def test_no_0_and_false_beside_stop_under_an_opt_out_header_are_named(
    header: str, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    # black-box bb16 F1: 'no', '0', 'false' say the consumer did not opt out; beside 'STOP'
    # the column is no yes/no flag column, and these rows were imported without a word.
    values = ["STOP", "no", "STOP", "0", "false", "STOP"]
    warnings, summary = _import(session, _workbook(tmp_path, header, values), tmp_path)
    assert (
        f"Column C ('{header}'): 3 of the 6 rows say do not call ('STOP'), the other 3 say "
        "something else ('no': row 3; '0': row 5; 'false': row 6), yet they are imported as "
        f"opt-outs too. Keep only the rows that say do not call (filter column C ('{header}')) "
        "and run the file again."
    ) in warnings, warnings
    said = {n: m for n, m in summary["messages"].items() if "which is no opt-out" in (m or "")}
    assert sorted(said) == [3, 5, 6]
    assert f"column C ('{header}') says 'false', which is no opt-out" in said[6]
    assert summary["inserted"] == 6


def test_a_yes_no_flag_column_with_a_stop_is_said_once(session: Session, tmp_path: Path) -> None:
    # Mostly yes/no, the flags sentence names the column; its 'no' rows are not named a
    # second time as a status column's.
    values = ["Yes", "No", "Yes", "No", "Yes", "No", "Yes", "No", "Yes", "STOP"]
    warnings, summary = _import(session, _workbook(tmp_path, "Opt-out", values), tmp_path)
    assert [w for w in warnings if "something else" in w] == [], warnings
    assert any(w.startswith("Column C ('Opt-out') marks each row yes or no") for w in warnings)
    # Each "No" row says so in the report, as the flags sentence counts it.
    note = "column C ('Opt-out') says 'No', which is no opt-out"
    assert [n for n, m in summary["messages"].items() if note in (m or "")] == [3, 5, 7, 9]
