"""A resumed row in flight when its job was killed, found on the list, whose entry the change
journal shows ANOTHER job inserted, ends ``already_present`` naming that job, not among the rows
this job may have inserted (B25-5: two jobs inserting the same numbers into one list under one
journal; the 26-hour rule called the second's rows "most likely from that interrupted attempt").

The killed run is played as in tests/core/test_resume_journal_already_present.py: the row marked
``sending``, its insert's intent journaled and no outcome."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core.import_job import run_import
from app.core.job_report import RESUMED_PRESENT, maybe_inserted
from app.core.job_store import JobStatus
from app.core.session import Session, journal_target
from tests.core.test_resume_journal_already_present import (
    IN_FLIGHT,
    NOTE,
    PHONE,
    _entry_ids,
    _stage,
)

OTHER = "import-20261125-001000-0a1b2c"


def _intent_only(session: Session, job: str, scope: Scope) -> None:
    """The killed run's insert: journaled, never answered (nor sent)."""
    session.journal.record_intent(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation="dnc.insert",
        target=journal_target("dnc", IN_FLIGHT, "1", scope),
        phone=PHONE,
        job=job,
        note=NOTE,
    )


@pytest.mark.parametrize("other_scope", ["global", "campaign"])
def test_a_resumed_row_whose_entry_another_job_inserted_names_that_job(
    sandbox: Any, session: Session, tmp_path: Path, other_scope: str
) -> None:
    campaign = str(sandbox.store.one("SELECT id FROM campaigns")["id"])
    store, job = _stage(session, tmp_path, f"Phone\n{IN_FLIGHT}\n")
    # The other job (10 minutes earlier in life) inserted the number, answered and journaled.
    scope = Scope.global_() if other_scope == "global" else Scope.parse(f"campaign:{campaign}")
    session.insert_dnc(IN_FLIGHT, "1", scope, job=OTHER, note="the other job")
    if other_scope == "campaign":
        # Its entry is not in this job's scope: the global entry found is unexplained.
        sandbox.bulk_seed_dnc([(IN_FLIGHT, "1", "0", "", "")])
    _intent_only(session, job, Scope.global_())
    assert run_import(store, session) is JobStatus.FINISHED
    (row,) = store.rows()
    assert row.outcome == "already_present", row.message
    if other_scope == "global":
        (entry,) = _entry_ids(sandbox)
        assert f"inserted by job {OTHER} (entry {entry}, inserted " in row.message
        assert row.message.endswith(" UTC), not by this job"), row.message
        assert RESUMED_PRESENT not in row.message
        assert not maybe_inserted(row)
    else:
        assert OTHER not in row.message
        assert maybe_inserted(row)  # the documented rule, as before
    store.close()
