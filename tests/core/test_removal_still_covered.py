"""A removal with a lead status says which re-statused leads the number's other DNC entries
still cover: the service sets every lead on the number, so a global removal also makes a lead
look callable in a campaign whose own entry stays (black-box finding)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session


def test_leads_still_covered_by_another_entry_are_named(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaigns = {c.name: c.id for c in session.api.campaigns()}
    spring, winback = campaigns["Spring Renewals"], campaigns["Old Winback"]
    sandbox.bulk_seed_dnc(
        [
            ("2025550101", "1", "0", "", ""),  # global: the removal takes it
            ("2025550101", "1", winback, "", ""),  # stays
            ("2025550102", "1", "0", "", ""),  # global only
        ]
    )
    spring_list = session.api.insert_list("Spring Renewals leads", spring)
    winback_list = session.api.insert_list("Old Winback leads", winback)
    sandbox.bulk_seed_leads(spring_list, [("2025550101", "1", "", ""), ("2025550102", "1", "", "")])
    sandbox.bulk_seed_leads(winback_list, [("2025550101", "1", "", "")])
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n2025550101\n2025550102\n")
    settings = JobSettings(path, Scope.global_(), note="consent given again", lead_status="NI")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    assert job_summary(store)["removed"] == 2
    rows = {r.national: r.message for r in store.rows()}
    leads = {
        (r["list_id"], r["phone_number"]): str(r["id"])
        for r in sandbox.store.all("SELECT id, list_id, phone_number FROM leads")
    }
    covered = leads[(int(winback_list), "2025550101")]
    assert (
        f"lead {covered} (list {winback_list}) stays on the DNC list through the number's "
        "other entry (Campaign "
    ) in rows["2025550101"]
    assert "yet the service set it to NI too: check its status" in rows["2025550101"]
    # The lead in the campaign whose entry went is not named; nor is any for a number whose
    # only entry was taken off.
    assert (
        f"lead {leads[(int(spring_list), '2025550101')]} (list {spring_list}) stays"
        not in (rows["2025550101"])
    )
    assert "stays on the DNC list" not in rows["2025550102"]
