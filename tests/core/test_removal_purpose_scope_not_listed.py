"""Black-box pass G's removal findings.

A number on no list in a purpose scope is reported not found and no delete is sent, as in any
other scope: a delete sent for nothing, once under faults, was counted "removed" when the
look-up after its error found the number gone (20 of 200 numbers never listed).

A row sent again when the job was resumed and found gone is ``removed`` when the change
journal has this job's delete of it with the entries listed then (its first send did it); it
was "not found", so ``removed`` undercounted what the job took off the list.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.api.client import DncQuery
from app.api.scope import Scope
from app.core.dnc_removal import form_searches
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, utc_now
from app.core.removal_job import (
    REMOVED_BEFORE_INTERRUPTION,
    not_listed_text,
    run_removal,
    stage_removal,
)
from app.core.session import Session
from tests.core import removal_session
from tests.core.removal_session import Wire

wire = removal_session.wire
session = removal_session.session


def _stage(tmp_path: Path, scope: Scope, *numbers: str) -> Any:
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n" + "\n".join(numbers) + "\n", encoding="utf-8")
    settings = JobSettings(path, scope, note="court order")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    return store


@pytest.mark.parametrize("scope", [Scope.purpose("Marketing"), Scope.purpose("")])
def test_a_number_on_no_list_in_a_purpose_scope_sends_no_delete(
    session: Session, wire: Wire, tmp_path: Path, scope: Scope
) -> None:
    store = _stage(tmp_path, scope, "3035550171")
    assert run_removal(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    forms = form_searches("3035550171", "1")
    assert (row.outcome, row.message) == ("not_found", not_listed_text(forms, row))
    assert "/v1/dnc/delete" not in wire.paths, wire.paths
    assert not session.journal.query(operation="dnc.delete")


def test_a_resent_row_its_first_send_removed_counts_removed(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    taken, never = "3035550181", "3035550182"
    sandbox.bulk_seed_dnc([(taken, "1", "0", "asked on call", "")])
    store = _stage(tmp_path, Scope.global_(), taken, never)
    job = str(store.meta()["job_id"])
    store.set_meta({"started": utc_now()})
    # The first run: both rows in flight when it was killed; the delete of the listed one
    # was done (its journal intent keeps the entry the look-up before it found).
    before = list(session.api.iter_dnc(DncQuery(scope=Scope.global_(), phone_number=taken)))
    assert before
    session.delete_dnc(taken, "1", Scope.global_(), before=before, job=job, note="court order")
    for row in store.rows():
        store.mark_sending(row.seq)
    assert run_removal(store, session) is JobStatus.FINISHED
    rows = {r.national: r for r in store.rows()}
    assert (rows[taken].outcome, rows[taken].message) == ("removed", REMOVED_BEFORE_INTERRUPTION)
    forms = form_searches("3035550182", "1")
    # Its delete was never sent (the journal has none): not "sent again" (black-box B3 #3).
    said = not_listed_text(forms, rows[never])
    assert (rows[never].outcome, rows[never].message) == ("not_found", said)
    s = job_summary(store)
    assert (s["removed"], s["not_found"]) == (1, 1)
