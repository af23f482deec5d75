"""X4: a removal deletes every entry evidence attributes to the number, whatever its usual form.

Black-box P2 #3 made a removal look up the rarer written forms of a number (the code and trunk
0 in the digits, 00 or 011 before the code) only for a row found in none of the usual ones, to
save a search a form. A number listed both as the app writes it and in a rarer form (an
"0012125550100" from another tool beside the app's "2125550100") lost only the usual entry: the
row said "removed" while an entry the number's evidence pack lists stayed, and the number was
still blocked. Every form evidence searches is now looked up on every row, in the row's scope,
and each one listed is deleted (one delete a form, each journaled), the row naming them all.

Against the sandbox over loopback HTTP, through the removal job as ``dnc-desk remove`` runs it;
the transport records every request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from app.api.client import DncQuery
from app.api.scope import Scope
from app.core.evidence import gather_evidence
from app.core.job_exec import job_summary
from app.core.job_runner import JobControl
from app.core.job_store import JobStatus, JobStore, utc_now
from app.core.removal_job import run_removal
from app.core.session import Session
from tests.core import removal_session
from tests.core.removal_session import Wire, remove, stage

GLOBAL = Scope.global_()
SEARCH = "/v1/dnc/search"
US = "2125550100"
US_00 = "0012125550100"
PHONE = "+12125550100"


wire = removal_session.wire
session = removal_session.session


def _listed(sandbox: Any) -> list[tuple[str, str, str]]:
    rows = sandbox.store.all("SELECT phone_number, phone_code, campaign_id FROM dnc ORDER BY id")
    return [(r["phone_number"], r["phone_code"], str(r["campaign_id"])) for r in rows]


def _ids(sandbox: Any) -> dict[tuple[str, str], str]:
    rows = sandbox.store.all("SELECT id, phone_number, phone_code FROM dnc WHERE campaign_id = 0")
    return {(r["phone_number"], r["phone_code"]): str(r["id"]) for r in rows}


def _report_messages(store: JobStore) -> dict[str, str]:
    book = openpyxl.load_workbook(job_summary(store)["report"], read_only=True)
    try:
        header, *rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    number, message = header.index("Normalized number"), header.index("Message")
    return {str(r[number]): str(r[message]) for r in rows}


def test_a_number_listed_as_usual_and_in_a_rarer_form_loses_both(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [
            (US, "1", "0", "", ""),
            (US_00, "1", "0", "another tool", ""),
            ("7911129992", "44", "0", "", ""),
            ("00447911129992", "1", "0", "by hand", ""),
        ]
    )
    ids = _ids(sandbox)
    before = gather_evidence(session.api, session.journal, None, PHONE, "1")
    assert sorted(e.id for e in before.dnc) == sorted([ids[(US, "1")], ids[(US_00, "1")]])

    store = remove(session, tmp_path, ["+1 212 555 0100", "+44 7911 129992"])

    assert _listed(sandbox) == []
    s = job_summary(store)
    assert (s["removed"], s["not_found"], s["failed"]) == (2, 0, 0)
    rows = {r.national: (r.outcome, r.message) for r in store.rows()}
    assert rows == {
        US: (
            "removed",
            "on the list in two written forms, each taken off by its own delete: 2125550100 "
            f"(entry {ids[(US, '1')]}) and 0012125550100 (entry {ids[(US_00, '1')]}; written "
            "with 00 and its country code 1)",
        ),
        "7911129992": (
            "removed",
            "on the list in two written forms, each taken off by its own delete: 7911129992 "
            f"(entry {ids[('7911129992', '44')]}) and 00447911129992 under phone code 1 (entry "
            f"{ids[('00447911129992', '1')]}; written with 00 and its country code 44)",
        ),
    }
    # The report says what the row says.
    assert _report_messages(store) == {
        US: rows[US][1],
        "7911129992": rows["7911129992"][1],
    }
    # One journaled delete a form, each with the entry it took, each answered "ok".
    journal = [e for e in session.journal.query(job=s["job"]) if e.operation == "dnc.delete"]
    intents = sorted(
        (
            e.phone or "",
            (e.before or {})["phone_number"],
            (e.before or {})["phone_code"],
            tuple(x["id"] for x in (e.before or {})["entries"]),
        )
        for e in journal
        if e.phase == "intent"
    )
    assert intents == [
        (PHONE, US_00, "1", (ids[(US_00, "1")],)),
        (PHONE, US, "1", (ids[(US, "1")],)),
        ("+447911129992", "00447911129992", "1", (ids[("00447911129992", "1")],)),
        ("+447911129992", "7911129992", "44", (ids[("7911129992", "44")],)),
    ]
    assert sorted(e.outcome for e in journal if e.phase == "outcome") == ["ok"] * 4
    # The number's evidence: nothing left, both deletes in its history.
    after = gather_evidence(session.api, session.journal, None, PHONE, "1")
    assert after.dnc == []
    assert sum(e.phase == "outcome" for e in after.journal if e.job == s["job"]) == 2


def test_a_number_listed_only_in_a_rarer_form_is_removed_as_before(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([("01112125550102", "44", "0", "by hand", "")])

    store = remove(session, tmp_path, ["212 555 0102"])

    (row,) = store.rows()
    assert (row.outcome, row.message) == (
        "removed",
        "on the list as 01112125550102 under phone code 44, written with 011 and its country "
        "code 1; deleted in that form",
    )
    assert wire.deletes("phone_code") == [("01112125550102", "44")]
    assert _listed(sandbox) == []


def test_entries_of_other_numbers_and_other_scopes_are_never_deleted(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    campaign = session.api.campaigns()[0].id
    kept = [
        ("2125550101", "1", "0"),  # the next number, in each form
        ("0012125550101", "1", "0"),
        ("12125550101", "1", "0"),
        (US_00, "1", campaign),  # the number's rarer form in another scope
        (US, "44", "0"),  # its digits under another code: another country's number
        ("4915112345678", "49", "0"),  # a German number of its own beside the row's forms
    ]
    sandbox.bulk_seed_dnc(
        [(n, c, s, "", "") for n, c, s in kept]
        + [(US, "1", "0", "", ""), (US_00, "1", "0", "", "")]
        + [("15112345678", "49", "0", "", ""), ("004915112345678", "49", "0", "", "")]
    )

    store = remove(session, tmp_path, ["+1 212 555 0100", "+49 151 12345678"])

    assert sorted(_listed(sandbox)) == sorted(kept)
    assert sorted(wire.deletes("phone_code")) == sorted(
        [(US, "1"), (US_00, "1"), ("15112345678", "49"), ("004915112345678", "49")]
    )
    rows = {r.national: (r.outcome, r.message) for r in store.rows()}
    assert rows[US][0] == rows["15112345678"][0] == "removed"
    assert rows["15112345678"][1].endswith(
        "; the entry as 4915112345678 under phone code 49 was left: read under its phone "
        "code, it is another number than this one"
    ), rows["15112345678"][1]
    assert "004915112345678 (entry" in rows["15112345678"][1]


def test_a_job_stopped_between_the_two_deletes_finishes_the_row_when_resumed(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    # The job is suspended (Ctrl+C) once the rarer form's delete is answered: the number's
    # own form is still listed. The resumed run deletes it and names both.
    sandbox.bulk_seed_dnc([(US, "1", "0", "", ""), (US_00, "1", "0", "another tool", "")])
    ids = _ids(sandbox)
    store = stage(session, tmp_path, [US])
    control = JobControl()
    wire.after[US_00] = control.suspend
    assert run_removal(store, session, concurrency=1, control=control) is JobStatus.PAUSED
    assert _listed(sandbox) == [(US, "1", "0")]
    wire.after.clear()
    wire.sent.clear()

    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    (row,) = store.rows()
    assert (row.outcome, row.message) == (
        "removed",
        "on the list in two written forms, each taken off by its own delete: 2125550100 "
        f"(entry {ids[(US, '1')]}) and 0012125550100 (written with 00 and its country code 1; "
        "deleted by this job's earlier delete of it)",
    )
    assert wire.deletes("phone_code") == [(US, "1")]
    assert _listed(sandbox) == []
    job = str(store.meta()["job_id"])
    # The delete the stop kept from being sent says so; each form's delete was answered "ok".
    journal = session.journal.query(job=job, operation="dnc.delete")
    outcomes = [e.outcome for e in reversed(journal) if e.phase == "outcome"]
    assert outcomes == ["ok", "not_attempted", "ok"]


def test_a_job_killed_between_the_two_deletes_finishes_the_row_when_resumed(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    # Killed once the rarer form's delete was sent and done, before its answer was journaled:
    # its intent only, the row left "sending".
    sandbox.bulk_seed_dnc([(US, "1", "0", "", ""), (US_00, "1", "0", "another tool", "")])
    ids = _ids(sandbox)
    store = stage(session, tmp_path, [US])
    job = str(store.meta()["job_id"])
    store.set_meta({"started": utc_now()})
    store.mark_sending(1)
    entries = list(session.api.iter_dnc(DncQuery(scope=GLOBAL, phone_number=US_00)))
    session.journal.record_intent(
        connection=session.connection.name,
        base_url=session.connection.base_url,
        operation="dnc.delete",
        target=f"dnc:{PHONE} scope=global",
        phone=PHONE,
        before={
            "phone_number": US_00,
            "phone_code": "1",
            "campaign_id": "0",
            "entries": [e.as_dict() for e in entries],
        },
        job=job,
        note="consumer asked",
    )
    session.api.delete_dnc(US_00, "1", GLOBAL)
    wire.sent.clear()

    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    (row,) = store.rows()
    assert (row.outcome, row.message) == (
        "removed",
        "on the list in two written forms, each taken off by its own delete: 2125550100 "
        f"(entry {ids[(US, '1')]}) and 0012125550100 (written with 00 and its country code 1; "
        "deleted by this job's earlier delete of it); sent when the job was resumed (an "
        "earlier attempt, interrupted, may have reached the service)",
    )
    assert wire.deletes("phone_code") == [(US, "1")]
    assert _listed(sandbox) == []
    settled = [
        (e.after or {}).get("settled", "")
        for e in session.journal.query(job=job, operation="dnc.delete.settled")
    ]
    assert len(settled) == 1 and settled[0].startswith(
        "the number's entry as 0012125550100 (written with 00 and its country code 1) was "
        "removed by this job's earlier delete of that form"
    )


def test_every_form_is_looked_up_once_a_row(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    # The cost: a plain US number is searched in its four written forms, listed or not, and
    # a delete is sent for each form listed.
    sandbox.bulk_seed_dnc([(US, "1", "0", "", "")])
    remove(session, tmp_path, [US, "2125550103"])
    searched = sorted(
        (p["phone_number"], p.get("phone_code", "")) for path, p in wire.sent if path == SEARCH
    )
    assert searched == sorted(
        [
            (number, "1" if number == national else "")
            for national in (US, "2125550103")
            for number in (national, f"1{national}", f"001{national}", f"0111{national}")
        ]
    )
    assert wire.deletes("phone_code") == [(US, "1")]
