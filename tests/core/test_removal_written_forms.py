"""Black-box pass P2 #3: a removal finds a number kept with an exit code or code and trunk 0.

The tester inserted 00447911123482 and 4407911123481 (the digits of "+44 (0)7911 123481") under
code 44 and 0012125550408 under code 1 straight over the API, which takes them; ``remove``
ended their rows ``not_found``, "not on the list in this scope", and the entries stayed. A row
found in none of the usual forms (the app's, with the trunk 0, with the country code) now
looks up the rarer ones too (code and trunk 0, 00 or 011 before the code) and deletes the
entry in the form it is kept in, journaled as the others; a row listed in none says which
forms were looked up instead of claiming absence. Since X4 every form is looked up on every
row, a row found in a usual form too (a number listed both ways lost only the usual entry).

Against the sandbox over loopback HTTP; the transport records every request.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.core.lead_wire import Forwarding, wired_session

GLOBAL = Scope.global_()
SEARCH = "/v1/dnc/search"
DELETE = "/v1/dnc/delete"


@pytest.fixture
def wire() -> Forwarding:
    return Forwarding()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Forwarding) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, wire)


def _remove(session: Session, tmp_path: Path, lines: list[str]) -> JobStore:
    path = tmp_path / "remove.csv"
    path.write_text("Phone,Country\n" + "".join(f"{line},\n" for line in lines))
    settings = JobSettings(path, GLOBAL, note="consumer asked")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    return store


def _listed(sandbox: Any) -> list[tuple[str, str]]:
    rows = sandbox.store.all("SELECT phone_number, phone_code FROM dnc ORDER BY id")
    return [(r["phone_number"], r["phone_code"]) for r in rows]


def test_entries_kept_with_an_exit_code_or_code_and_trunk_are_removed(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    api = session.api
    api.insert_dnc("00447911123482", "44", GLOBAL, reason="by hand")
    api.insert_dnc("4407911123481", "44", GLOBAL, reason="by hand")
    api.insert_dnc("0012125550408", "1", GLOBAL, reason="by hand")
    api.insert_dnc("011447911123483", "44", GLOBAL, reason="by hand")
    store = _remove(
        session,
        tmp_path,
        ["+44 7911 123481", "+44 7911 123482", "+1 212 555 0408", "+44 7911 123483"],
    )
    s = job_summary(store)
    assert (s["removed"], s["not_found"], s["failed"]) == (4, 0, 0)
    assert _listed(sandbox) == []
    messages = {r.national: r.message for r in store.rows()}
    assert messages == {
        "7911123481": "on the list as 4407911123481, its country code 44 and its trunk 0 "
        "written in the digits; deleted in that form",
        "7911123482": "on the list as 00447911123482, written with 00 and its country code 44; "
        "deleted in that form",
        "2125550408": "on the list as 0012125550408, written with 00 and its country code 1; "
        "deleted in that form",
        "7911123483": "on the list as 011447911123483, written with 011 and its country code "
        "44; deleted in that form",
    }
    # Journaled as the other forms are: under the number, the entry it took in its before.
    intents = [e for e in session.journal.query(job=s["job"]) if e.phase == "intent"]
    kept = {e.phone: (e.before or {}).get("phone_number") for e in intents}
    assert kept == {
        "+447911123481": "4407911123481",
        "+447911123482": "00447911123482",
        "+12125550408": "0012125550408",
        "+447911123483": "011447911123483",
    }
    assert all((e.before or {}).get("entries") for e in intents)


def test_a_number_on_no_list_names_the_forms_looked_up(
    session: Session, wire: Forwarding, tmp_path: Path
) -> None:
    store = _remove(session, tmp_path, ["+1 212 555 0409", "+44 7911 123480"])
    messages = {r.national: (r.outcome, r.message) for r in store.rows()}
    assert messages == {
        "2125550409": (
            "not_found",
            "not on the list in this scope in the written forms looked up: 2125550409 under "
            "phone code 1; 12125550409, 0012125550409 and 01112125550409 under any phone code "
            "(looked up before the delete; nothing was sent)",
        ),
        "7911123480": (
            "not_found",
            "not on the list in this scope in the written forms looked up: 7911123480 and "
            "07911123480 under phone code 44; 447911123480, 4407911123480, 00447911123480, "
            "011447911123480 and 004407911123480 under any phone code (looked up before the "
            "delete; nothing was sent)",
        ),
    }
    assert wire.paths.count(SEARCH) == 4 + 7
    assert DELETE not in wire.paths


def test_a_number_found_in_a_usual_form_is_looked_up_in_every_form(
    sandbox: Any, session: Session, wire: Forwarding, tmp_path: Path
) -> None:
    api = session.api
    api.insert_dnc("2125550410", "1", GLOBAL)
    api.insert_dnc("07911123485", "44", GLOBAL)
    before = len(wire.paths)
    store = _remove(session, tmp_path, ["+1 212 555 0410", "+44 7911 123485"])
    assert [r.outcome for r in store.rows()] == ["removed", "removed"]
    sent = wire.paths[before:]
    # Every form of each number (the US number's four, the UK number's seven: X4), and a
    # delete each.
    assert (sent.count(SEARCH), sent.count(DELETE)) == (4 + 7, 2)
    assert _listed(sandbox) == []
