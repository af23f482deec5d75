"""Black-box pass L2 #3: a resumed removal that finds its killed run's delete done journals it.

The killed run's delete of a number was done; its journal intent got the outcome ``unknown``
when the job was resumed, and the resumed job, finding the number gone, reported it removed by
that delete, but the journal (and the number's evidence) kept only that "unknown": nothing
recorded the look-up that settled it. It now records a ``dnc.delete.settled`` event, as a lost
answer settled within one run does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from python_calamine import CalamineWorkbook

from app.api.client import DncQuery
from app.api.scope import Scope
from app.core.evidence import gather_evidence, write_evidence_xlsx
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, utc_now
from app.core.removal_job import (
    REMOVED_BEFORE_INTERRUPTION,
    REMOVED_BY_UNSETTLED_DELETE,
    run_removal,
    stage_removal,
)
from app.core.session import Session
from tests.core.test_removal_checked_after_error import LookUpFailsAfterDelete, _one_row_removal

NUMBER = "6517093244"


def test_a_delete_of_a_killed_run_found_done_on_resume_is_journaled_settled(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([(NUMBER, "1", "0", "asked on call", "")])
    path = tmp_path / "remove.csv"
    path.write_text(f"Phone\n{NUMBER}\n", encoding="utf-8")
    settings = JobSettings(path, Scope.global_(), note="court order")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    job = str(store.meta()["job_id"])
    # The killed run: its look-up found the entry, its delete's intent was journaled, the
    # delete was done and the process died before the answer was recorded.
    store.set_meta({"started": utc_now()})
    store.mark_sending(1)
    entries = list(session.api.iter_dnc(DncQuery(scope=Scope.global_(), phone_number=NUMBER)))
    assert entries
    session.journal.record_intent(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation="dnc.delete",
        target=f"dnc:+1{NUMBER} scope=global",
        phone=f"+1{NUMBER}",
        before={
            "phone_number": NUMBER,
            "phone_code": "1",
            "campaign_id": "0",
            "entries": [e.as_dict() for e in entries],
        },
        job=job,
        note="court order",
    )
    session.api.delete_dnc(NUMBER, "1", Scope.global_())

    assert run_removal(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    assert (row.outcome, row.message) == ("removed", REMOVED_BEFORE_INTERRUPTION)
    history = session.journal.query(phone=f"+1{NUMBER}")
    # No delete was sent again: the killed run's intent, closed "unknown" by the resume.
    assert [(e.phase, e.outcome) for e in history if e.operation == "dnc.delete"] == [
        ("outcome", "unknown"),
        ("intent", ""),
    ]
    settled = [e for e in history if e.operation == "dnc.delete.settled"]
    assert len(settled) == 1, [(e.operation, e.outcome) for e in history]
    assert settled[0].job == job
    assert settled[0].after == {"settled": REMOVED_BEFORE_INTERRUPTION}

    pack = gather_evidence(session.api, session.journal, None, NUMBER, "1")
    out = tmp_path / "evidence.xlsx"
    write_evidence_xlsx(pack, out)
    sheet = CalamineWorkbook.from_path(str(out)).get_sheet_by_name("Journal").to_python()
    operations = [r[3] for r in sheet[1:]]
    assert "dnc.delete.settled" in operations, operations
    details = next(r[10] for r in sheet[1:] if r[3] == "dnc.delete.settled")
    assert REMOVED_BEFORE_INTERRUPTION in details


def test_an_unsettled_delete_found_done_when_sent_again_is_journaled_settled(
    sandbox: Any, tmp_path: Path
) -> None:
    # Within one run: the delete was done behind a 502 and the look-up after it failed; sent
    # again, its look-up found the number gone. The journal kept the delete "failed" and the
    # failed look-up, and nothing saying it was done.
    wire = LookUpFailsAfterDelete(failing=2)
    store, session, journal = _one_row_removal(sandbox, tmp_path, wire)
    try:
        assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
        (row,) = store.rows()
        assert (row.outcome, row.message) == ("removed", REMOVED_BY_UNSETTLED_DELETE)
        (event,) = journal.query(phone="+12025550101", operation="dnc.delete.settled")
        assert event.after == {"settled": REMOVED_BY_UNSETTLED_DELETE}
    finally:
        session.close()
        journal.close()
