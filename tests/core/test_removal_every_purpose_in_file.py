"""Black-box B5 #4 (session 18): a number on the DNC list for purposes "Sales" and "Surveys",
and a removal file (per-row scope) with one row for each. The service's ``/dnc/delete`` in
purpose scope (campaign_id -1) removes every purpose's entry at once, so a row naming one purpose
is refused while the number is listed for another; here both rows were refused, each for the
other's purpose, though the file asked for both. The file asks for every purpose the number is
listed under: the first row's delete takes them all, and both rows end removed. A file asking
for only some of them is still refused, nothing deleted.

Against the sandbox over loopback HTTP.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.job_runner import JobControl, JobProgress
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore, RowState
from app.core.removal_job import check_lead_status, run_removal, stage_removal
from app.core.session import Session

NUMBER = "2025550311"
PHONE = "+12025550311"


def _stage(session: Session, tmp_path: Path, lines: list[str], lead_status: str = "") -> JobStore:
    src = tmp_path / "remove.csv"
    src.write_text("Phone,Scope,Purpose\n" + "".join(f"{line}\n" for line in lines))
    settings = JobSettings(
        src,
        Scope.global_(),
        note="consumer asked, ticket 19",
        scope_from_rows=True,
        lead_status=lead_status,
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    return store


def _listed(api: ApiClient, number: str) -> list[str]:
    return sorted(e.purpose for e in api.iter_dnc(DncQuery(phone_number=number)))


def _rows(store: JobStore) -> dict[int, tuple[str, str]]:
    return {r.row_number: (r.outcome or r.state, r.message) for r in store.rows()}


def _intents(session: Session, store: JobStore) -> list[Any]:
    job = str(store.meta()["job_id"])
    return [
        e
        for e in session.journal.query(job=job)
        if e.operation == "dnc.delete" and e.phase == "intent"
    ]


def test_a_file_asking_for_every_purpose_of_a_number_removes_it_on_both_rows(
    session: Session, tmp_path: Path
) -> None:
    api = session.api
    api.insert_dnc(NUMBER, "1", Scope.purpose("Sales"), reason="call")
    api.insert_dnc(NUMBER, "1", Scope.purpose("Surveys"), reason="web form")
    ids = {e.purpose: e.id for e in api.iter_dnc(DncQuery(phone_number=NUMBER))}
    store = _stage(session, tmp_path, [f"{NUMBER},purpose,Sales", f"{NUMBER},purpose,Surveys"])
    assert run_removal(store, session, concurrency=4) is JobStatus.FINISHED
    assert _listed(api, NUMBER) == []
    rows = _rows(store)
    assert {outcome for outcome, _ in rows.values()} == {"removed"}, rows
    # One delete took both entries (the service removes every purpose at once): its row says
    # so, and names the other row asking for the other purpose.
    (intent,) = _intents(session, store)
    assert sorted(e["id"] for e in intent.before["entries"]) == sorted(ids.values())
    took = 2 if "scope=purpose:Sales" in intent.target else 3
    other, other_purpose = (3, "Surveys") if took == 2 else (2, "Sales")
    deleting = rows[took][1]
    assert "removed for purposes 'Sales' and 'Surveys'" in deleting
    assert f"the file asks for purpose '{other_purpose}' too (row {other})" in deleting
    # The other row ends removed, saying whose delete took its entry, and which.
    said = rows[other][1]
    assert said.startswith(
        f"removed by this job's delete of the number for purpose "
        f"'{'Sales' if took == 2 else 'Surveys'}' (row {took})"
    ), said
    assert f"its entry for purpose '{other_purpose}' (entry {ids[other_purpose]})" in said
    # The journal keeps that conclusion under the other row's scope, beside the delete.
    job = str(store.meta()["job_id"])
    settled = [e for e in session.journal.query(job=job) if e.operation == "dnc.delete.settled"]
    assert [e.target for e in settled] == [f"dnc:{PHONE} scope=purpose:{other_purpose}"]
    assert settled[0].after["settled"] == said


def test_a_file_asking_for_only_some_purposes_still_refuses_both_rows(
    session: Session, tmp_path: Path
) -> None:
    api = session.api
    for purpose in ("Sales", "Surveys", "Billing"):
        api.insert_dnc(NUMBER, "1", Scope.purpose(purpose))
    store = _stage(session, tmp_path, [f"{NUMBER},purpose,Sales", f"{NUMBER},purpose,Surveys"])
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    assert _listed(api, NUMBER) == ["Billing", "Sales", "Surveys"]
    assert _intents(session, store) == []
    rows = _rows(store)
    assert rows[2] == (
        "failed",
        "not removed: the number is also on the list for purposes 'Billing' and 'Surveys', and "
        "the service removes every purpose at once; the file asks for purpose 'Surveys' too "
        "(row 3), not for 'Billing', so nothing was sent; remove it with scope purpose (all "
        "purposes) to take them all off",
    )
    # Row 2 ended refused: it no longer asks for 'Sales', so row 3 is refused as before.
    assert rows[3] == (
        "failed",
        "not removed: the number is also on the list for purposes 'Billing' and 'Sales', and "
        "the service removes every purpose at once; remove it with scope purpose (all "
        "purposes) to take them all off",
    )


def test_a_purpose_spelled_otherwise_in_the_file_is_not_asked_for(
    session: Session, tmp_path: Path
) -> None:
    # Purposes are told apart exactly: a row for "sales" does not ask for "Sales".
    api = session.api
    api.insert_dnc(NUMBER, "1", Scope.purpose("Sales"))
    api.insert_dnc(NUMBER, "1", Scope.purpose("Surveys"))
    store = _stage(session, tmp_path, [f"{NUMBER},purpose,sales", f"{NUMBER},purpose,Surveys"])
    run_removal(store, session, concurrency=1)
    assert _listed(api, NUMBER) == ["Sales", "Surveys"]
    assert _intents(session, store) == []


def test_a_duplicate_row_adds_nothing_and_the_rows_end_removed(
    session: Session, tmp_path: Path
) -> None:
    api = session.api
    api.insert_dnc(NUMBER, "1", Scope.purpose("Sales"))
    api.insert_dnc(NUMBER, "1", Scope.purpose("Surveys"))
    lines = [f"{NUMBER},purpose,Sales", f"{NUMBER},purpose,Sales", f"{NUMBER},purpose,Surveys"]
    store = _stage(session, tmp_path, lines)
    run_removal(store, session, concurrency=1)
    assert _listed(api, NUMBER) == []
    rows = _rows(store)
    assert rows[3][0] == "duplicate_in_file"
    assert (rows[2][0], rows[4][0]) == ("removed", "removed"), rows
    assert "the file asks for purpose 'Surveys' too (row 4)" in rows[2][1]
    assert rows[4][1].startswith(
        "removed by this job's delete of the number for purpose 'Sales' (row 2)"
    )
    assert len(_intents(session, store)) == 1


def test_resumed_after_the_first_row_the_second_ends_removed(
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
    control = JobControl()
    first_done = threading.Event()
    # Progress is reported at most every 0.25 s: a slow first row keeps the report of it
    # before the second row ends (both could end between two reports).
    sandbox.set_faults(latency_ms=300)

    def progress(p: JobProgress) -> None:
        if p.done >= 1 and not first_done.is_set():
            first_done.set()
            control.suspend()  # the job stops between the two rows

    # One row at a time, so the stop comes before the second row is taken.
    ran = run_removal(store, session, concurrency=1, control=control, progress=progress)
    assert ran is JobStatus.PAUSED
    states = {r.row_number: r.state for r in store.rows()}
    assert states == {2: RowState.DONE.value, 3: RowState.PENDING.value}
    assert _listed(api, NUMBER) == []
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    rows = _rows(store)
    assert (rows[2][0], rows[3][0]) == ("removed", "removed"), rows
    said = rows[3][1]
    assert said.startswith("removed by this job's delete of the number for purpose 'Sales' (row 2)")
    # The lead that delete set is named once, on row 2, which this row points to (black-box
    # bb5 F1: it was named and counted on both rows), and not set again.
    assert "its leads were set to DNC by that delete and are named and counted with row 2" in said
    assert "lead 1 " not in said and "lead 1 (list" in rows[2][1]
    job = str(store.meta()["job_id"])
    updates = [e for e in session.journal.query(job=job) if e.operation == "lead.update"]
    assert updates == []
    assert len(_intents(session, store)) == 1
