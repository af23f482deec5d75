"""A number the list keeps with its country's trunk 0 (UK "02079460000", entered by hand or by
another tool) is found and removed, not reported "not on the list" while it stays on it
(black-box finding); the journal names it as E.164 does. With a lead status, the leads looked
up before its delete are those the delete of that form re-statuses: typed with the 0.

Against the sandbox over loopback HTTP; a forwarding transport records the requests.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from app.core.job_exec import job_summary
from app.core.session import Session, e164
from tests.core import removal_session
from tests.core.lead_wire import LEADS_SEARCH, seed_leads
from tests.core.removal_session import Wire, remove

wire = removal_session.wire
session = removal_session.session
NOTE = "request by email"


def test_an_entry_kept_with_its_trunk_zero_is_removed(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [
            ("02079460000", "44", "0", "by hand", ""),
            ("0412345678", "61", "0", "by hand", ""),
            ("2079460001", "44", "0", "", ""),
        ]
    )
    store = remove(
        session, tmp_path, ["+44 20 7946 0000", "+61 412 345 678", "+44 20 7946 0001"], note=NOTE
    )
    s = job_summary(store)
    assert (s["removed"], s["not_found"], s["failed"]) == (3, 0, 0)
    assert sandbox.store.all("SELECT phone_number FROM dnc") == []
    deletes = [e for e in session.journal.query(job=s["job"]) if e.phase == "intent"]
    assert sorted(e.phone for e in deletes) == ["+442079460000", "+442079460001", "+61412345678"]
    uk = next(e for e in deletes if e.phone == "+442079460000")
    assert uk.before is not None and uk.before["phone_number"] == "02079460000"
    # The report says which form was taken off, beside the normalized number.
    messages = {r.national: r.message for r in store.rows()}
    assert (
        messages["2079460000"]
        == "on the list as 02079460000, its trunk 0 kept; deleted in that form"
    )
    assert messages["2079460001"] == ""


def test_a_number_listed_in_both_forms_is_removed_in_both(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # Black-box N5: it was refused; each form now gets its own delete.
    sandbox.bulk_seed_dnc([("02079460000", "44", "0", "", ""), ("2079460000", "44", "0", "", "")])
    zero, plain = (str(r["id"]) for r in sandbox.store.all("SELECT id FROM dnc ORDER BY id"))
    store = remove(session, tmp_path, ["+44 20 7946 0000"], note=NOTE)
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert row.message == (
        f"on the list in two written forms, each taken off by its own delete: 2079460000 (entry "
        f"{plain}) and 02079460000 (entry {zero}; its trunk 0 kept)"
    )
    assert sandbox.store.all("SELECT phone_number FROM dnc") == []


def test_the_leads_of_a_number_kept_with_its_trunk_zero_are_looked_up_in_that_form(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    list_id = session.api.insert_list("UK leads list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("02079460000", "44", "0", "", ""), ("2079460001", "44", "0", "", "")])
    zero, spaced, without, both, plus, other = seed_leads(
        sandbox,
        list_id,
        [
            ("02079460000", "44", "", "", "NEW"),  # typed with its trunk 0
            ("020 7946 0000", "44", "", "", "NEW"),  # the UK's national format
            ("2079460000", "44", "", "", "NEW"),  # without the 0: set by its own update
            ("2079460000", "", "02079460000", "020 7946 0000", "CALLBK"),  # both ways
            ("+44 20 7946 0000", "44", "", "", "NEW"),  # the country code's digits too
            ("2079460001", "44", "", "", "NEW"),  # the other row's, listed without a 0
        ],
    )
    wire.paths.clear()

    store = remove(
        session, tmp_path, ["+44 20 7946 0000", "+44 20 7946 0001"], note=NOTE, lead_status="DNC"
    )

    s = job_summary(store)
    assert (s["removed"], s["failed"]) == (2, 0)
    statuses = {str(r["id"]): r["status"] for r in sandbox.store.all("SELECT * FROM leads")}
    # What the service re-statused (the leads holding the digits of the number it was sent),
    # and the number's lead typed without the 0, which no delete re-statused, set by its own
    # /leads/update (black-box B3 #2: it was left NEW).
    assert {lead for lead, status in statuses.items() if status == "DNC"} == {
        zero,
        spaced,
        without,
        both,
        other,
    }
    assert statuses[plus] == "NEW"
    # The journal and the report name exactly those, each once.
    intents = {
        e.phone: e.before["leads"]
        for e in session.journal.query(job=s["job"])
        if e.phase == "intent" and e.operation == "dnc.delete"
    }
    assert intents["+442079460000"] == [
        {"id": zero, "list_id": list_id, "status": "NEW"},
        {"id": spaced, "list_id": list_id, "status": "NEW"},
        {"id": both, "list_id": list_id, "status": "CALLBK"},
    ]
    assert intents["+442079460001"] == [{"id": other, "list_id": list_id, "status": "NEW"}]
    updates = [
        (e.phone, e.before)
        for e in session.journal.query(job=s["job"], operation="lead.update")
        if e.phase == "intent"
    ]
    assert updates == [("+442079460000", {"id": without, "list_id": list_id, "status": "NEW"})]
    messages = {r.national: r.message for r in store.rows()}
    assert messages["2079460000"] == (
        "on the list as 02079460000, its trunk 0 kept; deleted in that form; "
        f"re-statused 4 leads: lead {zero} (list {list_id}) NEW→DNC, "
        f"lead {spaced} (list {list_id}) NEW→DNC, lead {without} (list {list_id}) NEW→DNC, "
        f"lead {both} (list {list_id}) CALLBK→DNC"
    )
    assert messages["2079460001"] == f"re-statused 1 lead: lead {other} (list {list_id}) NEW→DNC"
    # Lead searches: one per phone field and written form of the number's own leads, with and
    # without its trunk 0 (2079460000; 02079460000, 020 7946 0000), on each row whichever form
    # is listed (B3 #2: 3 * 2 + 3 * 1 before, the forms of the listed one alone).
    assert Counter(wire.paths)[LEADS_SEARCH] == 2 * 3 * 3


def test_e164_drops_a_trunk_zero_only_where_the_country_has_one() -> None:
    assert e164("02079460000", "44") == e164("2079460000", "44") == "+442079460000"
    assert e164("2025550123", "1") == "+12025550123"
