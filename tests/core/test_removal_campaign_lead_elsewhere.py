"""Black-box B5 #3: a campaign removal with a lead status (`dnc-desk remove FILE --scope
campaign:ID --lead-status DNCREQ`) ended a row with "no lead found to set to DNCREQ in the forms
searched" while a lead holding exactly the number was in a list of another campaign, rightly
left alone (the entry removed was this campaign's). The row now says no lead of the campaign's
lists was found, that a campaign's removal leaves the leads in other campaigns' lists as they
are, and names those the look-up found; the list view's removal says the same.

Against the sandbox over loopback HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.client import DncQuery
from app.api.scope import Scope
from app.core.dnc_removal import Outcome, remove_dnc_entries
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.lead_lookup import NO_LEADS
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.core import removal_session
from tests.core.lead_wire import seed_leads

wire = removal_session.wire
session = removal_session.session

NUMBER = "2025550143"


def _setup(sandbox: Any, session: Session) -> tuple[str, str, str, str]:
    """The number on campaign A's list, a lead of it in a list of campaign B: (A's id, B's
    list id, the lead's id, B's id)."""
    first, second = (c.id for c in session.api.campaigns())
    session.api.insert_dnc(NUMBER, "1", Scope.campaign(first), reason="camp copy")
    other_list = session.api.insert_list("Other campaign list", second)
    (lead,) = seed_leads(sandbox, other_list, [(NUMBER, "1", "", "", "NEW")])
    return first, other_list, lead, second


def _statuses(sandbox: Any) -> dict[str, str]:
    return {str(r["id"]): str(r["status"]) for r in sandbox.store.all("SELECT * FROM leads")}


def test_a_campaign_removal_names_the_lead_of_another_campaign_it_left(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaign, other_list, lead, _ = _setup(sandbox, session)

    store = _campaign_removal(session, tmp_path, campaign)

    (row,) = store.rows()
    assert row.outcome == "removed", row.message
    assert _statuses(sandbox) == {lead: "NEW"}
    assert NO_LEADS.format(status="DNC") not in row.message
    assert (
        f"no lead in the lists of campaign {campaign} found to set to DNC in the forms searched"
    ) in row.message
    assert (
        "a campaign's removal leaves the leads in other campaigns' lists as they are (a lead "
        f"in another campaign's list holds the number, left as it was: lead {lead} "
        f"(list {other_list}))"
    ) in row.message


def _campaign_removal(session: Session, tmp_path: Path, campaign: str) -> JobStore:
    """A removal of the number from campaign ``campaign``'s list with lead status DNC."""
    path = tmp_path / "campaign.csv"
    path.write_text(f"Phone\n{NUMBER}\n")
    settings = JobSettings(path, Scope.campaign(campaign), note="consumer asked", lead_status="DNC")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    return store


def test_a_campaign_removal_with_no_lead_anywhere_says_none_was_found_in_its_lists(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaign = session.api.campaigns()[0].id
    session.api.insert_dnc(NUMBER, "1", Scope.campaign(campaign), reason="camp copy")

    store = _campaign_removal(session, tmp_path, campaign)

    (row,) = store.rows()
    assert row.outcome == "removed", row.message
    assert row.message.endswith(
        "a campaign's removal leaves the leads in other campaigns' lists as they are"
    )
    assert "holds the number" not in row.message


def test_a_global_removal_still_says_no_lead_found(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    session.api.insert_dnc(NUMBER, "1", Scope.global_(), reason="global")

    store = removal_session.remove(session, tmp_path, [NUMBER], lead_status="DNC")
    (row,) = store.rows()
    assert row.outcome == "removed", row.message
    assert NO_LEADS.format(status="DNC") in row.message


def test_the_list_view_names_the_lead_of_another_campaign_it_left(
    sandbox: Any, session: Session
) -> None:
    campaign, other_list, lead, _ = _setup(sandbox, session)
    entries = list(session.api.iter_dnc(DncQuery(scope=Scope.campaign(campaign))))

    result = remove_dnc_entries(session, entries, reason="consumer asked", lead_status="DNC")

    (outcome,) = result.outcomes
    assert outcome.outcome is Outcome.REMOVED, outcome.message
    assert _statuses(sandbox) == {lead: "NEW"}
    assert outcome.message.startswith(
        f"no lead in the lists of campaign {campaign} found to set to DNC in the forms searched"
    )
    assert outcome.message.endswith(
        "a campaign's removal leaves the leads in other campaigns' lists as they are (a lead "
        f"in another campaign's list holds the number, left as it was: lead {lead} "
        f"(list {other_list}))"
    )
