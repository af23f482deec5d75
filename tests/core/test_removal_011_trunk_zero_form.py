"""Q1 (black-box B3 #4): the form "011 + country code + trunk 0" is looked up by a removal and by
the evidence pack, as the "00 + country code + trunk 0" one was: an entry "011330612345679"
under 33 or "011610412345678" under code 1 was never found, so the removal said the number was
not on the list and the evidence pack left the entry out.

Against the sandbox over loopback HTTP, through the removal job as ``dnc-desk remove`` runs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core.dnc_removal import FormKind, stored_forms
from app.core.evidence import gather_evidence, written_form
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.core import removal_session

wire = removal_session.wire
session = removal_session.session


def test_the_011_form_with_the_trunk_zero_is_a_stored_form() -> None:
    assert stored_forms("612345679", "33")["011330612345679"] is FormKind.EXIT_011_TRUNK
    assert stored_forms("412345678", "61")["011610412345678"] is FormKind.EXIT_011_TRUNK
    # Past 15 digits no entry holds it: a UK mobile's would have 16.
    assert FormKind.EXIT_011_TRUNK not in stored_forms("7911123456", "44").values()


def test_a_number_kept_with_011_its_code_and_its_trunk_zero_is_found_and_removed(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [
            ("011330612345679", "33", "0", "another tool", ""),
            ("011610412345678", "1", "0", "by hand", ""),
        ]
    )
    ids = {
        str(r["phone_number"]): str(r["id"])
        for r in sandbox.store.all("SELECT id, phone_number FROM dnc")
    }
    fr = gather_evidence(session.api, session.journal, None, "+33 6 12 34 56 79", "33")
    au = gather_evidence(session.api, session.journal, None, "+61 4 1234 5678", "61")
    assert [e.id for e in fr.dnc] == [ids["011330612345679"]]
    assert [e.id for e in au.dnc] == [ids["011610412345678"]]
    assert written_form(fr.dnc[0], "612345679", "33") == (
        "with 011, its country code 33 and its trunk 0 in the digits"
    )
    assert written_form(au.dnc[0], "412345678", "61") == (
        "with 011, its country code 61 and its trunk 0 in the digits, kept under phone code 1"
    )

    path = tmp_path / "remove.csv"
    path.write_text("Phone\n+33 6 12 34 56 79\n+61 4 1234 5678\n")
    settings = JobSettings(path, Scope.global_(), note="consumer asked")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED

    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    rows = {r.national: (r.outcome, r.message) for r in store.rows()}
    assert rows == {
        "612345679": (
            "removed",
            "on the list as 011330612345679, written with 011, its country code 33 and its "
            "trunk 0; deleted in that form",
        ),
        "412345678": (
            "removed",
            "on the list as 011610412345678 under phone code 1, written with 011, its country "
            "code 61 and its trunk 0; deleted in that form",
        ),
    }
