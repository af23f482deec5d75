"""Black-box bb5 F1 (session 31): a number listed globally and for purposes "Fundraising" and
"Surveys", with one lead, and a removal file (per-row scope, a lead status) with a row for each
purpose. The service's purpose delete takes both purposes at once, so the first row's delete
re-statuses the lead and the second row finds the number gone. The lead, still listed through
the global entry, was named on both rows, counted twice in ``leads_still_listed`` and the
warning, and journaled in two ``dnc.delete.leads_still_listed`` events. It is named, counted
and journaled once, with the row that sent the delete; the other row points there.

Against the sandbox over loopback HTTP.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.client import DncQuery
from app.api.scope import Scope
from app.core.job_report import LEADS_STILL_LISTED
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.removal_job import (
    STILL_LISTED_EVENT,
    check_lead_status,
    run_removal,
    stage_removal,
)
from app.core.session import Session

NUMBER = "2025550311"


def test_a_lead_of_a_purpose_pair_is_named_counted_and_journaled_once(
    session: Session, tmp_path: Path, sandbox: Any
) -> None:
    api = session.api
    campaign = api.campaigns()[0].id
    list_id = api.insert_list("Donors list", campaign)
    sandbox.bulk_seed_leads(list_id, [(NUMBER, "1", "", "")])
    (lead,) = [str(r["id"]) for r in sandbox.store.all("SELECT id FROM leads")]
    api.insert_dnc(NUMBER, "1", Scope.global_())
    api.insert_dnc(NUMBER, "1", Scope.purpose("Fundraising"))
    api.insert_dnc(NUMBER, "1", Scope.purpose("Surveys"))
    status = check_lead_status(api, "DNC")
    src = tmp_path / "remove.csv"
    src.write_text(f"Phone,Scope,Purpose\n{NUMBER},purpose,Fundraising\n{NUMBER},purpose,Surveys\n")
    settings = JobSettings(
        src, Scope.global_(), note="ticket 31", scope_from_rows=True, lead_status=status
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED

    # Both purposes gone, the global entry kept.
    left = [e.purpose for e in api.iter_dnc(DncQuery(phone_number=NUMBER))]
    assert len(left) == 1, left
    rows = {r.row_number: r for r in store.rows()}
    assert {r.outcome for r in rows.values()} == {"removed"}
    # Row 2 sent the delete and names the lead; row 3 points to row 2 and names none.
    assert f"lead {lead} (list {list_id})" in rows[2].message
    assert f"lead {lead}" not in rows[3].message, rows[3].message
    assert "are named and counted with row 2, once" in rows[3].message, rows[3].message

    meta = store.meta()
    assert meta[LEADS_STILL_LISTED] == 1
    (warning,) = [w for w in meta.get("warnings") or [] if "looks callable" in w]
    assert warning.startswith("1 lead on 1 removed number"), warning
    assert "row 3" not in warning
    events = session.journal.query(operation=STILL_LISTED_EVENT, job=str(meta["job_id"]))
    assert [(e.after or {}).get("row") for e in events] == [2]
