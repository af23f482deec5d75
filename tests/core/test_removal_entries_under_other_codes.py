"""Black-box R2 #6: a removal looks up and deletes the entries evidence attributes to the number.

An entry kept as "447911129992" under phone code 1 (typed by hand, made by another tool) was in
the evidence of +44 7911 129992 (evidence searches a form with the country code in its digits
under every phone code), but a removal of 07911 129992 under code 44 looked that form up under
code 44 only: the entry stayed listed and the row said "not on the list". Both now search the
same way (``dnc_removal.form_searches``) and take an entry as the number by the same rule
(``dnc_removal.names_number``): the removal deletes such an entry under the code it is kept
under, names that form, journals the delete under the number, and the number's evidence shows
the delete. The reverse holds too: an entry the removal would have deleted but evidence does not
attribute to the number (a German "4915112345678" under 49, which reads as a German number of
its own) is left, the row saying so.

Against the sandbox over loopback HTTP, through the removal job as ``dnc-desk remove`` runs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core.evidence import gather_evidence
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.core.lead_wire import seed_leads

GLOBAL = Scope.global_()


def _remove(
    session: Session, tmp_path: Path, lines: list[str], code: str, lead_status: str = ""
) -> JobStore:
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n" + "".join(f"{line}\n" for line in lines))
    settings = JobSettings(
        path, GLOBAL, phone_code=code, note="consumer asked", lead_status=lead_status
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    return store


def _listed(sandbox: Any) -> list[tuple[str, str]]:
    rows = sandbox.store.all("SELECT phone_number, phone_code FROM dnc ORDER BY id")
    return [(r["phone_number"], r["phone_code"]) for r in rows]


def _ids(sandbox: Any) -> list[str]:
    return [str(r["id"]) for r in sandbox.store.all("SELECT id FROM dnc ORDER BY id")]


def test_an_entry_kept_under_code_1_with_the_uk_code_in_its_digits_is_removed(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [("447911129992", "1", "0", "by hand", ""), ("447911129993", "1", "0", "by hand", "")]
    )
    first, second = _ids(sandbox)
    # Evidence attributes the entry to the UK number before the removal.
    before = gather_evidence(session.api, session.journal, None, "+44 7911 129992", "1")
    assert [e.id for e in before.dnc] == [first]

    store = _remove(session, tmp_path, ["07911 129992", "+44 7911 129993"], "44")

    s = job_summary(store)
    assert (s["removed"], s["not_found"], s["failed"]) == (2, 0, 0)
    assert _listed(sandbox) == []
    messages = {r.national: r.message for r in store.rows()}
    assert messages == {
        "7911129992": "on the list as 447911129992 under phone code 1, its country code 44 "
        "written in the digits; deleted in that form",
        "7911129993": "on the list as 447911129993 under phone code 1, its country code 44 "
        "written in the digits; deleted in that form",
    }
    # Each delete journaled under the number, with the entry it took and the code it sent.
    intents = {
        e.phone: e.before or {}
        for e in session.journal.query(job=s["job"])
        if e.phase == "intent" and e.operation == "dnc.delete"
    }
    assert sorted(intents) == ["+447911129992", "+447911129993"]
    kept = intents["+447911129992"]
    assert (kept["phone_number"], kept["phone_code"]) == ("447911129992", "1")
    assert [entry["id"] for entry in kept["entries"]] == [first]
    assert [entry["id"] for entry in intents["+447911129993"]["entries"]] == [second]

    # The number's evidence: no entry left, and the delete in its journal.
    after = gather_evidence(session.api, session.journal, None, "+44 7911 129992", "1")
    assert after.dnc == []
    deletes = [e for e in after.journal if e.operation == "dnc.delete" and e.job == s["job"]]
    assert sorted((e.phase, e.outcome) for e in deletes) == [("intent", ""), ("outcome", "ok")]
    assert all(e.target == "dnc:+447911129992 scope=global" for e in deletes)


def test_one_text_kept_under_two_codes_is_deleted_under_each(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [("447911129994", "44", "0", "", ""), ("447911129994", "1", "0", "by hand", "")]
    )
    own, other = _ids(sandbox)
    before = gather_evidence(session.api, None, None, "+44 7911 129994", "1")
    assert sorted(e.id for e in before.dnc) == sorted([own, other])

    store = _remove(session, tmp_path, ["+44 7911 129994"], "44")

    (row,) = store.rows()
    assert row.outcome == "removed"
    assert row.message == (
        "on the list in two written forms, each taken off by its own delete: 447911129994 "
        f"(entry {own}; its country code 44 written in the digits) and 447911129994 under "
        f"phone code 1 (entry {other}; its country code 44 written in the digits)"
    )
    assert _listed(sandbox) == []
    sent = sorted(
        ((e.before or {})["phone_number"], (e.before or {})["phone_code"])
        for e in session.journal.query(phone="+447911129994")
        if e.phase == "intent"
    )
    assert sent == [("447911129994", "1"), ("447911129994", "44")]
    assert gather_evidence(session.api, None, None, "+44 7911 129994", "1").dnc == []


def test_rarer_forms_kept_under_another_code_are_removed(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [
            ("00447911129995", "1", "0", "by hand", ""),
            ("4407911129996", "1", "0", "by hand", ""),
        ]
    )
    for number in ("+44 7911 129995", "+44 7911 129996"):
        assert len(gather_evidence(session.api, None, None, number, "1").dnc) == 1

    store = _remove(session, tmp_path, ["07911 129995", "07911 129996"], "44")

    assert _listed(sandbox) == []
    messages = {r.national: (r.outcome, r.message) for r in store.rows()}
    assert messages == {
        "7911129995": (
            "removed",
            "on the list as 00447911129995 under phone code 1, written with 00 and its "
            "country code 44; deleted in that form",
        ),
        "7911129996": (
            "removed",
            "on the list as 4407911129996 under phone code 1, its country code 44 and its "
            "trunk 0 written in the digits; deleted in that form",
        ),
    }


def test_an_entry_that_reads_as_another_number_is_left_as_evidence_leaves_it(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # "4915112345678" under 49 is a German number of its own, not +49 151 12345678: evidence
    # does not attribute it to that number, so a removal of that number must not delete it.
    sandbox.bulk_seed_dnc([("4915112345678", "49", "0", "by hand", "")])
    (entry,) = _ids(sandbox)
    evidence = gather_evidence(session.api, None, None, "+49 151 12345678", "1")
    assert evidence.dnc == []

    store = _remove(session, tmp_path, ["+49 151 12345678"], "49")

    (row,) = store.rows()
    assert row.outcome == "not_found"
    assert row.message.endswith(
        "; the entry as 4915112345678 under phone code 49 was left: read under its phone "
        "code, it is another number than this one"
    ), row.message
    assert _listed(sandbox) == [("4915112345678", "49")]
    assert _ids(sandbox) == [entry]
    assert not [e for e in session.journal.query(phone="+4915112345678") if e.phase == "intent"]


def test_the_leads_re_statused_are_those_under_the_code_the_entry_is_kept_under(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    list_id = session.api.insert_list("UK leads list", session.api.campaigns()[0].id)
    sandbox.bulk_seed_dnc([("447911129997", "1", "0", "by hand", "")])
    under_1, under_44 = seed_leads(
        sandbox,
        list_id,
        [
            ("447911129997", "1", "", "", "NEW"),  # the entry's text and code: the service's
            ("7911129997", "44", "", "", "NEW"),  # the number as the app writes it: its own
        ],
    )

    store = _remove(session, tmp_path, ["+44 7911 129997"], "44", lead_status="DNC")

    (row,) = store.rows()
    assert row.outcome == "removed"
    statuses = {str(r["id"]): r["status"] for r in sandbox.store.all("SELECT * FROM leads")}
    # What the service re-statused on the delete of 447911129997 under code 1, and the
    # number's own lead, which no delete re-statused, set by its own update (black-box B3 #1:
    # it was left NEW) ...
    assert (statuses[under_1], statuses[under_44]) == ("DNC", "DNC")
    # ... is what the journal keeps and the row names, each once.
    intents = [e for e in session.journal.query(phone="+447911129997") if e.phase == "intent"]
    (delete,) = [e for e in intents if e.operation == "dnc.delete"]
    assert (delete.before or {})["leads"] == [{"id": under_1, "list_id": list_id, "status": "NEW"}]
    (update,) = [e for e in intents if e.operation == "lead.update"]
    assert update.before == {"id": under_44, "list_id": list_id, "status": "NEW"}
    named = sorted([under_1, under_44], key=lambda x: (len(x), x))
    assert (
        f"re-statused 2 leads: lead {named[0]} (list {list_id}) NEW→DNC, lead {named[1]} (list "
        f"{list_id}) NEW→DNC"
    ) in row.message


def test_removal_and_evidence_share_the_searches_and_the_rule() -> None:
    from app.core.dnc_removal import form_searches, names_number

    searches = {s.number: s.phone_code for s in form_searches("7911129992", "44")}
    # The app's and the trunk-0 form under the number's code, the code-carrying ones under any.
    assert searches == {
        "7911129992": "44",
        "07911129992": "44",
        "447911129992": "",
        "4407911129992": "",
        "00447911129992": "",
        "011447911129992": "",
        "004407911129992": "",
    }
    assert names_number("447911129992", "1", "7911129992", "44")
    assert not names_number("4915112345678", "49", "15112345678", "49")
