"""Black-box pass N5: a number on the list in two written forms is removed in both.

The pass kept 3036190055 and 13036190055 (both phone code 1, the same consumer's line) on the
global list, as an import of 3036190055 makes while 13036190055 is listed; ``dnc-desk remove``
failed the row ("a delete takes only one off; nothing was sent"), so a consumer who asked to be
taken off stayed blocked. A removal now sends one delete a form, each journaled; with a lead
status one of them carries it (the app's own form, sent last), so the leads are re-statused
once; a failed delete says which form is still listed, and a resume finishes the row without
deleting a form twice. A row naming one purpose deletes only the forms listed for it.

Against the sandbox over loopback HTTP; the transport records every request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.job_runner import JobControl
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore, utc_now
from app.core.journal import ChangeJournal
from app.core.removal_job import REMOVED_BEFORE_INTERRUPTION, run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.lead_wire import seed_leads

NATIONAL = "3036190055"
IN_DIGITS = "13036190055"
PHONE = "+13036190055"
DELETE = "/v1/dnc/delete"


class Wire(httpx.BaseTransport):
    """Sends every request to the sandbox, recording its path and parameters; ``fail`` maps a
    deleted number to what answers its every ``/dnc/delete`` instead (``forward`` passes a
    request on)."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.sent: list[tuple[str, dict[str, str]]] = []
        self.fail: dict[str, Callable[[httpx.Request], httpx.Response]] = {}

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        params = dict(parse_qsl(request.content.decode("utf-8")))
        params.pop("auth_token", None)
        self.sent.append((request.url.path, params))
        if request.url.path == DELETE and (fail := self.fail.get(params["phone_number"])):
            return fail(request)
        return self.forward(request)

    def forward(self, request: httpx.Request) -> httpx.Response:
        response = self._http.handle_request(request)
        response.read()
        return response

    def deletes(self) -> list[dict[str, str]]:
        return [params for path, params in self.sent if path == DELETE]

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def wire() -> Wire:
    return Wire()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Wire) -> Iterator[Session]:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    retry = RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01)
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=retry)
    s = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    yield s
    s.close()
    journal.close()


def _stage(
    session: Session, tmp_path: Path, scope: Scope, lead_status: str = "", line: str = NATIONAL
) -> JobStore:
    path = tmp_path / "R1.csv"
    path.write_text(f"Phone,Country Code\n{line},1\n", encoding="utf-8")
    settings = JobSettings(path, scope, note="asked to be called again", lead_status=lead_status)
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    return store


def _remove(
    session: Session, tmp_path: Path, scope: Scope, lead_status: str = "", line: str = NATIONAL
) -> JobStore:
    store = _stage(session, tmp_path, scope, lead_status, line)
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    return store


def _listed(sandbox: Any) -> list[tuple[str, str, str]]:
    rows = sandbox.store.all("SELECT phone_number, campaign_id, purpose FROM dnc ORDER BY id")
    return [(r["phone_number"], str(r["campaign_id"]), r["purpose"]) for r in rows]


def _ids(sandbox: Any) -> dict[str, str]:
    rows = sandbox.store.all("SELECT id, phone_number FROM dnc ORDER BY id")
    return {r["phone_number"]: str(r["id"]) for r in rows}


def _seed_both(sandbox: Any) -> dict[str, str]:
    # The import's state: the entry with the country code in its digits first, then the
    # national digits the import inserted beside it.
    sandbox.bulk_seed_dnc([(IN_DIGITS, "1", "0", "by hand", ""), (NATIONAL, "1", "0", "", "")])
    return _ids(sandbox)


def test_both_forms_are_deleted_each_in_its_own_journaled_delete(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    ids = _seed_both(sandbox)
    store = _remove(session, tmp_path, Scope.global_(), line="+1 303 619 0055")
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert row.message == (
        "on the list in two written forms, each taken off by its own delete: 3036190055 "
        f"(entry {ids[NATIONAL]}) and 13036190055 (entry {ids[IN_DIGITS]}; its country code 1 "
        "written in the digits)"
    )
    assert _listed(sandbox) == []
    assert [d["phone_number"] for d in wire.deletes()] == [IN_DIGITS, NATIONAL]
    job = str(store.meta()["job_id"])
    history = session.journal.query(job=job, operation="dnc.delete")
    intents = [e for e in reversed(history) if e.phase == "intent"]
    # Each delete journaled as any is, with the entry it took, under the row's number.
    assert [e.phone for e in intents] == [PHONE, PHONE]
    assert [(e.before or {})["phone_number"] for e in intents] == [IN_DIGITS, NATIONAL]
    taken = [[x["id"] for x in (e.before or {})["entries"]] for e in intents]
    assert taken == [[ids[IN_DIGITS]], [ids[NATIONAL]]]
    assert sorted(e.outcome for e in history if e.phase == "outcome") == ["ok", "ok"]


def test_the_leads_are_looked_up_and_re_statused_once_for_the_number(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    _seed_both(sandbox)
    list_id = session.api.insert_list("Denver leads", session.api.campaigns()[0].id)
    typed, spaced, with_code = seed_leads(
        sandbox,
        list_id,
        [
            (NATIONAL, "1", "", "", "NEW"),
            ("(303) 619-0055", "1", "", "", "NEW"),
            (IN_DIGITS, "1", "", "", "NEW"),
        ],
    )
    wire.sent.clear()
    store = _remove(session, tmp_path, Scope.global_(), lead_status="CALLBK")
    (row,) = store.rows()
    assert row.outcome == "removed"
    # Each delete carries the lead status and re-statuses the leads holding its own digits
    # (black-box B3 #1: only one did, so a number listed in a rarer form alone left its own
    # leads as they were); each lead is named and journaled once.
    assert row.message.endswith(
        f"re-statused 3 leads: lead {typed} (list {list_id}) NEW→CALLBK, lead {spaced} "
        f"(list {list_id}) NEW→CALLBK, lead {with_code} (list {list_id}) NEW→CALLBK"
    )
    # The app's own form's delete still goes last.
    assert [(d["phone_number"], d.get("lead_status")) for d in wire.deletes()] == [
        (IN_DIGITS, "CALLBK"),
        (NATIONAL, "CALLBK"),
    ]
    statuses = {str(r["id"]): r["status"] for r in sandbox.store.all("SELECT * FROM leads")}
    assert statuses == {typed: "CALLBK", spaced: "CALLBK", with_code: "CALLBK"}
    # The leads were looked up before either delete, in each listed form; no lead update was
    # needed, every lead being one a delete re-statuses.
    first_delete = next(i for i, (path, _) in enumerate(wire.sent) if path == DELETE)
    assert all(i < first_delete for i, (path, _) in enumerate(wire.sent) if "leads" in path)
    assert not any(path == "/v1/leads/update" for path, _ in wire.sent)
    job = str(store.meta()["job_id"])
    intents = {
        (e.before or {})["phone_number"]: e.before or {}
        for e in session.journal.query(job=job, operation="dnc.delete")
        if e.phase == "intent"
    }
    assert [x["id"] for x in intents[IN_DIGITS]["leads"]] == [with_code]
    assert sorted(x["id"] for x in intents[NATIONAL]["leads"]) == sorted([typed, spaced])


def _refused(request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        400, json={"success": False, "error": {"code": 6000, "message": "Invalid phone number"}}
    )


def _bad_gateway(request: httpx.Request) -> httpx.Response:
    return httpx.Response(502, text="<html>Bad Gateway</html>", request=request)


def test_a_failed_delete_says_which_form_is_still_listed(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    _seed_both(sandbox)
    wire.fail[NATIONAL] = _refused
    store = _remove(session, tmp_path, Scope.global_())
    (row,) = store.rows()
    assert row.outcome == "failed"
    assert row.message.endswith(
        "; the number was on the list in two written forms, each taken off by its own delete: "
        "13036190055 was deleted and 3036190055 is still on the list"
    ), row.message
    assert _listed(sandbox) == [(NATIONAL, "0", "")]


def test_a_first_delete_failing_says_both_forms_are_still_listed(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    _seed_both(sandbox)
    wire.fail[IN_DIGITS] = _refused
    store = _remove(session, tmp_path, Scope.global_())
    (row,) = store.rows()
    assert row.outcome == "failed"
    assert row.message.endswith(
        "; the number was on the list in two written forms, each taken off by its own delete: "
        "13036190055 and 3036190055 are still on the list (the delete of 3036190055 was not "
        "sent, as the one of 13036190055 failed)"
    ), row.message
    assert [d["phone_number"] for d in wire.deletes()] == [IN_DIGITS]
    assert len(_listed(sandbox)) == 2


def test_a_delete_not_done_and_sent_again_in_the_run_deletes_no_form_twice(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    # The second delete fails with a 502 each time and a look-up finds its form still
    # listed: the row is sent again later in the run, its look-up finding only that form.
    _seed_both(sandbox)
    wire.fail[NATIONAL] = _bad_gateway
    store = _remove(session, tmp_path, Scope.global_())
    (row,) = store.rows()
    assert row.outcome == "failed"
    assert (
        "the number was on the list in two written forms, each taken off by its own delete: "
        "13036190055 was deleted and 3036190055 is still on the list"
    ) in row.message
    sent = [d["phone_number"] for d in wire.deletes()]
    assert sent.count(IN_DIGITS) == 1 and sent.count(NATIONAL) >= 3
    assert _listed(sandbox) == [(NATIONAL, "0", "")]


def _killed_run(session: Session, store: JobStore, forms: list[str]) -> None:
    """A run killed after the deletes of ``forms`` were sent and done, before their answers
    were journaled: their intents only, the row left "sending"."""
    job = str(store.meta()["job_id"])
    store.set_meta({"started": utc_now()})
    store.mark_sending(1)
    for form in forms:
        entries = list(session.api.iter_dnc(DncQuery(scope=Scope.global_(), phone_number=form)))
        assert entries
        session.journal.record_intent(
            connection=session.connection.name,
            base_url=session.connection.base_url,
            operation="dnc.delete",
            target=f"dnc:{PHONE} scope=global",
            phone=PHONE,
            before={
                "phone_number": form,
                "phone_code": "1",
                "campaign_id": "0",
                "entries": [e.as_dict() for e in entries],
            },
            job=job,
            note="asked to be called again",
        )
        session.api.delete_dnc(form, "1", Scope.global_())


def test_a_resume_after_a_kill_between_the_deletes_finishes_the_row(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    ids = _seed_both(sandbox)
    store = _stage(session, tmp_path, Scope.global_())
    _killed_run(session, store, [IN_DIGITS])
    wire.sent.clear()

    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert row.message == (
        "on the list in two written forms, each taken off by its own delete: 3036190055 "
        f"(entry {ids[NATIONAL]}) and 13036190055 (its country code 1 written in the digits; "
        "deleted by this job's earlier delete of it); sent when the job was resumed (an "
        "earlier attempt, interrupted, may have reached the service)"
    )
    assert [d["phone_number"] for d in wire.deletes()] == [NATIONAL]
    assert _listed(sandbox) == []
    job = str(store.meta()["job_id"])
    settled = [
        (e.after or {}).get("settled", "")
        for e in session.journal.query(job=job, operation="dnc.delete.settled")
    ]
    assert len(settled) == 1
    assert settled[0].startswith(
        "the number's entry as 13036190055 (its country code 1 written in the digits) was "
        "removed by this job's earlier delete of that form"
    )


def test_a_resume_after_a_kill_past_both_deletes_sends_nothing_and_names_both(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    _seed_both(sandbox)
    store = _stage(session, tmp_path, Scope.global_())
    _killed_run(session, store, [IN_DIGITS, NATIONAL])
    wire.sent.clear()

    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    (row,) = store.rows()
    assert (row.outcome, row.message) == (
        "removed",
        f"{REMOVED_BEFORE_INTERRUPTION}; the change journal has this job's deletes of it in two "
        "written forms, 3036190055 and 13036190055",
    )
    assert wire.deletes() == []


def test_a_resume_after_a_stop_between_the_deletes_names_the_form_taken_before(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    # The job is suspended (Ctrl+C) once the first delete is answered: the stop starts no new
    # request, so the row is left with one form deleted. The resumed run deletes the form still
    # listed, and names the one taken before.
    ids = _seed_both(sandbox)
    store = _stage(session, tmp_path, Scope.global_())
    control = JobControl()

    def stop_after(request: httpx.Request) -> httpx.Response:
        response = wire.forward(request)
        control.suspend()
        return response

    wire.fail[IN_DIGITS] = stop_after
    assert run_removal(store, session, concurrency=1, control=control) is JobStatus.PAUSED
    assert _listed(sandbox) == [(NATIONAL, "0", "")]
    wire.fail.clear()
    wire.sent.clear()

    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert row.message == (
        "on the list in two written forms, each taken off by its own delete: 3036190055 "
        f"(entry {ids[NATIONAL]}) and 13036190055 (its country code 1 written in the digits; "
        "deleted by this job's earlier delete of it)"
    )
    assert [d["phone_number"] for d in wire.deletes()] == [NATIONAL]
    assert _listed(sandbox) == []
    # Its delete was answered "ok": nothing to settle.
    job = str(store.meta()["job_id"])
    assert session.journal.query(job=job, operation="dnc.delete.settled") == []


def test_a_row_naming_a_purpose_deletes_only_the_forms_listed_for_it(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [(NATIONAL, "1", "-1", "", "Surveys"), (IN_DIGITS, "1", "-1", "by hand", "Marketing")]
    )
    ids = _ids(sandbox)
    store = _remove(session, tmp_path, Scope.purpose("Surveys"))
    (row,) = store.rows()
    assert (row.outcome, row.message) == (
        "removed",
        "the number's entry as 13036190055, for purpose 'Marketing' only, was left on the list",
    )
    assert [d["phone_number"] for d in wire.deletes()] == [NATIONAL]
    assert _listed(sandbox) == [(IN_DIGITS, "-1", "Marketing")]
    assert ids[IN_DIGITS] in {str(r["id"]) for r in sandbox.store.all("SELECT id FROM dnc")}


def test_both_forms_listed_for_the_purpose_named_are_both_deleted(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [(NATIONAL, "1", "-1", "", "Surveys"), (IN_DIGITS, "1", "-1", "by hand", "Surveys")]
    )
    store = _remove(session, tmp_path, Scope.purpose("Surveys"))
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert [d["phone_number"] for d in wire.deletes()] == [IN_DIGITS, NATIONAL]
    assert _listed(sandbox) == []


def test_a_form_another_purpose_shares_still_refuses_the_row(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    # Deleting the 13036190055 form for 'Surveys' would take its 'Marketing' entry too.
    sandbox.bulk_seed_dnc(
        [
            (NATIONAL, "1", "-1", "", "Surveys"),
            (IN_DIGITS, "1", "-1", "by hand", "Surveys"),
            (IN_DIGITS, "1", "-1", "by hand", "Marketing"),
        ]
    )
    store = _remove(session, tmp_path, Scope.purpose("Surveys"))
    (row,) = store.rows()
    assert row.outcome == "failed"
    assert row.message.startswith("not removed: the number is also on the list for purpose")
    assert wire.deletes() == []
    assert len(_listed(sandbox)) == 3


def test_a_form_in_another_scope_is_left_on_the_list(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    # The look-up covers the removal's scope only: an entry of the other form in a campaign
    # is not this removal's to take.
    campaign = session.api.campaigns()[0].id
    sandbox.bulk_seed_dnc([(NATIONAL, "1", "0", "", ""), (IN_DIGITS, "1", campaign, "", "")])
    store = _remove(session, tmp_path, Scope.global_())
    (row,) = store.rows()
    assert (row.outcome, row.message) == ("removed", "")
    assert [d["phone_number"] for d in wire.deletes()] == [NATIONAL]
    assert _listed(sandbox) == [(IN_DIGITS, campaign, "")]
