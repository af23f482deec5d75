"""S19 A1 (left by R3, 191a7a8): a removal file with rows for purposes "Sales" and "Surveys" of
a number listed for both. The first row's delete takes every purpose; cancelled before the
second row was sent, that row ended "not attempted" (cancelled before it was sent), though its
entry was gone: the report said the job never tried it while the service no longer had it. On
a cancel it now ends removed, naming the row whose delete took its entry, from the journal
(that delete's intent and "ok"), with no request; rows truly not attempted stay so.

Against the sandbox over loopback HTTP.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from app.api.client import DncQuery
from app.api.scope import Scope
from app.core.job_runner import JobControl, JobProgress
from app.core.job_store import JobStatus, JobStore
from app.core.removal_job import check_lead_status, run_removal
from app.core.session import Session
from tests.core.test_removal_every_purpose_in_file import NUMBER, PHONE, _listed, _rows, _stage

OTHER = "2025550312"


def _cancel_after_first_row(
    store: JobStore, session: Session, sandbox: Any
) -> tuple[JobStatus, JobProgress | None]:
    control = JobControl()
    first_done = threading.Event()
    last: list[JobProgress] = []
    # Progress is reported at most every 0.25 s: a slow first row keeps the report of it
    # before the second row ends (both could end between two reports).
    sandbox.set_faults(latency_ms=300)

    def progress(p: JobProgress) -> None:
        last.append(p)
        if p.done >= 1 and not first_done.is_set():
            first_done.set()
            control.cancel()  # the job stops for good between the rows

    # One row at a time, so the cancel comes before the second row is taken.
    ran = run_removal(store, session, concurrency=1, control=control, progress=progress)
    sandbox.set_faults(latency_ms=0)
    return ran, (last[-1] if last else None)


def test_cancelled_after_the_first_row_the_row_whose_entry_it_took_ends_removed(
    session: Session, tmp_path: Path, sandbox: Any
) -> None:
    api = session.api
    api.insert_dnc(NUMBER, "1", Scope.purpose("Sales"), reason="call")
    api.insert_dnc(NUMBER, "1", Scope.purpose("Surveys"), reason="web form")
    api.insert_dnc(OTHER, "1", Scope.purpose("Sales"))
    ids = {e.purpose: e.id for e in api.iter_dnc(DncQuery(phone_number=NUMBER))}
    lines = [f"{NUMBER},purpose,Sales", f"{NUMBER},purpose,Surveys", f"{OTHER},purpose,Sales"]
    store = _stage(session, tmp_path, lines)
    ran, last = _cancel_after_first_row(store, session, sandbox)
    assert ran is JobStatus.CANCELLED
    assert _listed(api, NUMBER) == []
    rows = _rows(store)
    assert rows[2][0] == "removed", rows
    assert "the file asks for purpose 'Surveys' too (row 3)" in rows[2][1]
    # Row 3's entry went with row 2's delete: removed, saying so, as R3's rows do.
    assert rows[3] == (
        "removed",
        "removed by this job's delete of the number for purpose 'Sales' (row 2): the service "
        "removes every purpose at once, and that delete took its entry for purpose 'Surveys' "
        f"(entry {ids['Surveys']}) too, as this row asks; the change journal has that delete "
        "and the entries it took",
    )
    # A row the job truly never sent stays so, its number still listed.
    assert rows[4] == ("not_attempted", "cancelled before it was sent")
    assert _listed(api, OTHER) == ["Sales"]
    # The conclusion is journaled under row 3's own scope, and nothing more was deleted.
    job = str(store.meta()["job_id"])
    journal = session.journal.query(job=job)
    settled = [e for e in journal if e.operation == "dnc.delete.settled"]
    assert [e.target for e in settled] == [f"dnc:{PHONE} scope=purpose:Surveys"]
    assert settled[0].after["settled"] == rows[3][1]
    intents = [e for e in journal if e.operation == "dnc.delete" and e.phase == "intent"]
    assert len(intents) == 1
    # The job's last progress counts it removed, not "not attempted".
    assert last is not None
    assert last.counts.get("removed") == 2 and last.counts.get("not_attempted") == 1, last


def test_cancelled_with_a_lead_status_the_row_names_the_leads_that_delete_set(
    session: Session, tmp_path: Path, sandbox: Any
) -> None:
    api = session.api
    campaign = api.campaigns()[0].id
    list_id = api.insert_list("Callers list", campaign)
    sandbox.bulk_seed_leads(list_id, [(NUMBER, "1", "", "")])
    api.insert_dnc(NUMBER, "1", Scope.purpose("Sales"))
    api.insert_dnc(NUMBER, "1", Scope.purpose("Surveys"))
    status = check_lead_status(api, "DNC")
    lines = [f"{NUMBER},purpose,Sales", f"{NUMBER},purpose,Surveys"]
    store = _stage(session, tmp_path, lines, lead_status=status)
    ran, _ = _cancel_after_first_row(store, session, sandbox)
    assert ran is JobStatus.CANCELLED
    rows = _rows(store)
    assert (rows[2][0], rows[3][0]) == ("removed", "removed"), rows
    said = rows[3][1]
    assert said.startswith("removed by this job's delete of the number for purpose 'Sales' (row 2)")
    assert "DNC" in said and "as the change journal's record of that delete lists them" in said
    # No lead was set again on the cancel (the journal is the evidence; no request).
    job = str(store.meta()["job_id"])
    updates = [e for e in session.journal.query(job=job) if e.operation == "lead.update"]
    assert updates == []


def test_cancelled_a_row_whose_entry_the_delete_did_not_take_stays_not_attempted(
    session: Session, tmp_path: Path, sandbox: Any
) -> None:
    # The file asks for both purposes, but the number is listed for "Sales" only: row 2's
    # delete took no "Surveys" entry, so row 3 is one the job never tried.
    api = session.api
    api.insert_dnc(NUMBER, "1", Scope.purpose("Sales"))
    store = _stage(session, tmp_path, [f"{NUMBER},purpose,Sales", f"{NUMBER},purpose,Surveys"])
    ran, _ = _cancel_after_first_row(store, session, sandbox)
    assert ran is JobStatus.CANCELLED
    rows = _rows(store)
    assert rows[2][0] == "removed", rows
    assert rows[3] == ("not_attempted", "cancelled before it was sent")
    job = str(store.meta()["job_id"])
    assert [e for e in session.journal.query(job=job) if e.operation == "dnc.delete.settled"] == []
