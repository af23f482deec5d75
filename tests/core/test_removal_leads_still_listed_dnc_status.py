"""Black-box bb15: a removal's warning on leads the service re-statused while their number
stays on the DNC list said the number "now looks callable" even when the status set is a DNC
status (``/status/search``'s ``dnc`` flag), which a dialer does not call. The status's flag is
kept in the job file when staging checks the status; a job file without it (staged before it
was kept) reads as before."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import openpyxl

from app.api.scope import Scope
from app.core.job_report import LEAD_STATUS_DNC, STILL_LISTED_NOTE, write_report
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.removal_job import find_lead_status, run_removal, stage_removal
from app.core.session import Session

COVERED = "9497691638"  # global (taken off) and the campaign's own entry (stays)


def _summary_values(path: Path) -> list[object]:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        return [r[1] for r in book["Summary"].iter_rows(values_only=True)]
    finally:
        book.close()


def _staged(sandbox: Any, session: Session, tmp_path: Path, code: str) -> JobStore:
    winback = {c.name: c.id for c in session.api.campaigns()}["Old Winback"]
    sandbox.bulk_seed_dnc([(COVERED, "1", "0", "", ""), (COVERED, "1", winback, "", "")])
    listed = session.api.insert_list("Old Winback leads", winback)
    sandbox.bulk_seed_leads(listed, [(COVERED, "1", "", ""), (COVERED, "1", "", "")])
    found = find_lead_status(session.api, code)
    path = tmp_path / "remove.csv"
    path.write_text(f"Phone\n{COVERED}\n")
    settings = JobSettings(
        path,
        Scope.global_(),
        note="consent given again",
        lead_status=found.status,
        lead_status_dnc=found.dnc,
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session) is JobStatus.FINISHED
    return store


def test_leads_set_to_a_dnc_status_are_not_said_to_look_callable(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    store = _staged(sandbox, session, tmp_path, "dnc")
    meta = store.meta()
    assert meta[LEAD_STATUS_DNC] is True
    said = str(meta[STILL_LISTED_NOTE])
    assert said in meta["warnings"]
    assert said.startswith(
        "2 leads on 1 removed number were set to DNC by the service although the number stays "
        "on the DNC list through its other entry (Campaign "
    )
    assert (
        "; DNC is a do-not-call status on the service, so they do not look callable, but the "
        "status they had was replaced: row 2 (lead "
    ) in said
    assert "looks callable" not in said
    report = tmp_path / "report.xlsx"
    write_report(store, report)
    assert said in _summary_values(report)


def test_a_job_file_without_the_flag_keeps_the_sentence_it_had(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    store = _staged(sandbox, session, tmp_path, "DNC")
    path = store.path
    store.close()
    # A job file staged before the flag was kept: the report written again (a resume, the
    # window's job list) cannot tell a DNC status from another, so it says what it said.
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM meta WHERE key = ?", (LEAD_STATUS_DNC,))
    db.close()
    old = JobStore(path)
    try:
        write_report(old, tmp_path / "again.xlsx")
        said = str(old.meta()[STILL_LISTED_NOTE])
        assert "), so a number still listed there now looks callable: row 2 (lead " in said
        assert "is a DNC status" not in said
        assert [w for w in old.meta()["warnings"] if "by the service although" in w] == [said]
    finally:
        old.close()
