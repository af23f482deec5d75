"""A removal paused after its first row's delete for purpose "Sales" took the number's entry for
"Surveys" too, which another row of the file asks for: ``dnc-desk jobs cancel`` (no connection)
must not call that row "not attempted" (a cancel during the run settles it from the journal as
removed, S19 A1). It refuses, naming that row and changing nothing; a row of a number no delete
touched is no reason to refuse. Against the sandbox over loopback HTTP."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core.job_cancel import WritesLeftOpen, cancel_job
from app.core.job_runner import JobControl, JobProgress
from app.core.job_store import JobStatus, JobStore
from app.core.removal_job import run_removal
from app.core.session import Session
from tests.core.test_removal_every_purpose_in_file import NUMBER, _rows, _stage

OTHER = "2025550312"


def _paused_after_first_row(store: JobStore, session: Session, sandbox: Any) -> JobStatus:
    control = JobControl()
    once = threading.Event()
    sandbox.set_faults(latency_ms=300)  # the first row ends before the second is taken

    def progress(p: JobProgress) -> None:
        if p.done >= 1 and not once.is_set():
            once.set()
            control.suspend()  # paused, for a resume

    ran = run_removal(store, session, concurrency=1, control=control, progress=progress)
    sandbox.set_faults(latency_ms=0)
    return ran


def test_a_row_whose_entry_another_rows_delete_took_refuses_the_cancel(
    session: Session, tmp_path: Path, sandbox: Any
) -> None:
    api = session.api
    api.insert_dnc(NUMBER, "1", Scope.purpose("Sales"))
    api.insert_dnc(NUMBER, "1", Scope.purpose("Surveys"))
    api.insert_dnc(OTHER, "1", Scope.purpose("Sales"))
    lines = [f"{NUMBER},purpose,Sales", f"{NUMBER},purpose,Surveys", f"{OTHER},purpose,Sales"]
    store = _stage(session, tmp_path, lines)
    assert _paused_after_first_row(store, session, sandbox) is JobStatus.PAUSED
    before = _rows(store)
    assert before[2][0] == "removed" and before[3][0] == before[4][0] == "pending", before
    with pytest.raises(WritesLeftOpen) as refused:
        cancel_job(store, session.journal)
    assert [r.row_number for r in refused.value.rows] == [3]
    assert _rows(store) == before and store.status == JobStatus.PAUSED.value
