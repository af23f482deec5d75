"""A write whose answer was lost is settled by a look-up or a job's conclusion journaled as an
event apart from its outcome: the event refers to the write it settles (its ``ref`` is the
job's latest intent of that write on that target), and the number's evidence pack says each
write's settled result in plain words beside its recorded outcome, and counts them (black-box
B9 #4: a removal the service did showed Outcome "failed" and a raw JSON event, the events'
``ref`` empty, and counsel would read it as not removed). A journal written before the events
had a ``ref`` still gives the same pack (matched by job, operation and target).

The sandbox cannot lose a chosen answer on cue, so a transport forwards every request to it
and, for the chosen numbers' first requests to a path, forwards the request (the write is
done) and raises ``httpx.ReadTimeout`` instead of giving the answer."""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import openpyxl
import pytest

from app.api.client import DncQuery
from app.api.scope import Scope
from app.core.dnc_removal import Outcome, remove_dnc_entries
from app.core.evidence import gather_evidence, write_evidence_xlsx
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal, JournalEntry
from app.core.list_health import check_health, remove_redundant
from app.core.removal_job import REMOVED_BY_LOST_ATTEMPT, run_removal, stage_removal
from app.core.session import Session
from tests.core.lead_wire import wired_session

DELETE, INSERT = "/v1/dnc/delete", "/v1/dnc/insert"


class Lossy(httpx.BaseTransport):
    """Forwards every request to the sandbox; of a write to ``path`` for a number in ``lose``,
    the first ``lose[number]`` answers are lost (the request forwarded, a ReadTimeout raised);
    of one for a number in ``gateway``, each answer is replaced by a 502 (a gateway failing
    after the service did the write)."""

    def __init__(self) -> None:
        self._http = httpx.HTTPTransport()
        self.path = DELETE
        self.lose: dict[str, int] = {}
        self.gateway: set[str] = set()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path != self.path:
            return self._http.handle_request(request)
        number = parse_qs(request.content.decode("utf-8")).get("phone_number", [""])[0]
        response = self._http.handle_request(request)
        if number in self.gateway:
            response.read()
            response.close()
            return httpx.Response(502, text="<html>Bad Gateway</html>", request=request)
        if self.lose.get(number, 0) <= 0:
            return response
        self.lose[number] -= 1
        response.read()
        response.close()
        raise httpx.ReadTimeout("timed out reading the answer", request=request)

    def close(self) -> None:
        self._http.close()


@pytest.fixture
def wire() -> Lossy:
    return Lossy()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Lossy) -> Iterator[Session]:
    # Retries once (2 attempts): losing 2 answers fails the write, losing 1 does not.
    yield from wired_session(sandbox, tmp_path, wire)  # type: ignore[arg-type]


def _csv(path: Path, numbers: list[str]) -> Path:
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone"], *[[n] for n in numbers]])
    return path


def _removal(session: Session, tmp_path: Path, numbers: list[str]) -> JobStore:
    settings = JobSettings(
        _csv(tmp_path / "remove.csv", numbers), Scope.global_(), note="consumer asked"
    )
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    return store


def _import(session: Session, tmp_path: Path, numbers: list[str]) -> JobStore:
    settings = JobSettings(_csv(tmp_path / "in.csv", numbers), Scope.global_())
    store, _ = stage_import(settings, tmp_path / "jobs", connection=session.connection)
    assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    return store


def _entries(journal: ChangeJournal, job: str, phone: str) -> list[JournalEntry]:
    return sorted((e for e in journal.query(job=job) if e.phone == phone), key=lambda e: e.id)


def _pack_sheets(pack: Any, path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The pack written and read back: its Summary (label -> value) and Journal rows."""
    write_evidence_xlsx(pack, path)
    book = openpyxl.load_workbook(path)
    summary = {str(r[0]): r[1] for r in book["Summary"].iter_rows(values_only=True)}
    rows = list(book["Journal"].iter_rows(values_only=True))
    book.close()
    header = [str(h) for h in rows[0]]
    journal = [
        dict(zip(header, list(r) + [None] * (len(header) - len(r)), strict=True)) for r in rows[1:]
    ]
    return summary, journal


def test_a_removal_with_lost_answers_links_its_events_and_the_pack_says_removed(
    sandbox: Any, session: Session, wire: Lossy, tmp_path: Path
) -> None:
    failed, retried, plain = "2025550401", "2025550402", "2025550403"
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in (failed, retried, plain)])
    wire.lose = {failed: 2, retried: 1}
    store = _removal(session, tmp_path, [failed, retried, plain])
    s = job_summary(store)
    assert (s["removed"], s["failed"], s["not_found"]) == (3, 0, 0)
    assert sandbox.store.all("SELECT phone_number FROM dnc") == []

    # Both answers lost: "failed", then a look-up found it gone; the look-up refers to it.
    intent, outcome, checked = _entries(session.journal, s["job"], f"+1{failed}")
    assert (intent.phase, outcome.outcome, checked.operation) == (
        "intent",
        "failed",
        "dnc.delete.checked",
    )
    assert checked.ref == intent.id and checked.after is not None
    assert checked.after["listed_after"] == []
    # The first answer lost: the retry's "not found", and the job's conclusion refers to it.
    intent2, outcome2, settled2 = _entries(session.journal, s["job"], f"+1{retried}")
    assert (outcome2.outcome, settled2.operation) == ("not_found", "dnc.delete.settled")
    assert settled2.ref == intent2.id
    assert session.journal.verify().ok

    pack = gather_evidence(session.api, session.journal, None, failed)
    (write,) = pack.writes
    assert (write.intent.id, write.recorded, write.result, write.event) == (
        intent.id,
        "failed (answer lost)",
        "removed",
        checked.id,
    )
    summary, journal = _pack_sheets(pack, tmp_path / "failed.xlsx")
    by_id = {row["Id"]: row for row in journal}
    said = by_id[outcome.id]
    assert said["Outcome"] == "failed (answer lost)"
    assert said["Settled"].startswith(
        f"removed — a look-up after the lost answer found the number gone (event #{checked.id})"
    ), said["Settled"]
    # The look-up's own row says which write it settled, and keeps its raw details.
    assert f"the write of entry #{intent.id}" in by_id[checked.id]["Settled"]
    assert '"listed_after": []' in by_id[checked.id]["Details"]
    assert (summary["Writes recorded"], summary["Writes settled: removed"]) == (1, 1)
    assert "Writes settled: not known" not in summary

    pack2 = gather_evidence(session.api, session.journal, None, retried)
    (write2,) = pack2.writes
    assert (write2.recorded, write2.result, write2.event) == (
        "not_found (an earlier attempt may have done it)",
        "removed",
        settled2.id,
    )
    assert REMOVED_BY_LOST_ATTEMPT.removeprefix("removed, ") in write2.words
    assert not write2.words.startswith("removed")
    _, journal2 = _pack_sheets(pack2, tmp_path / "retried.xlsx")
    row2 = next(r for r in journal2 if r["Id"] == outcome2.id)
    assert (row2["Outcome"], row2["Settled"].split(" — ")[0]) == (
        "not_found (an earlier attempt may have done it)",
        "removed",
    )

    pack3 = gather_evidence(session.api, session.journal, None, plain)
    assert [(w.recorded, w.result) for w in pack3.writes] == [("ok", "removed")]


def test_an_import_with_lost_answers_links_its_events_and_the_pack_says_on_the_list(
    sandbox: Any, session: Session, wire: Lossy, tmp_path: Path
) -> None:
    failed, retried = "2025550411", "2025550412"
    wire.path, wire.lose = INSERT, {failed: 2, retried: 1}
    store = _import(session, tmp_path, [failed, retried, "2025550413"])
    s = job_summary(store)
    listed = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
    assert listed == {failed, retried, "2025550413"}

    intent, outcome, checked = _entries(session.journal, s["job"], f"+1{failed}")
    assert (outcome.outcome, checked.operation, checked.ref) == (
        "failed",
        "dnc.insert.checked",
        intent.id,
    )
    intent2, outcome2, settled2 = _entries(session.journal, s["job"], f"+1{retried}")
    assert (outcome2.outcome, settled2.operation, settled2.ref) == (
        "already_present",
        "dnc.insert.settled",
        intent2.id,
    )

    pack = gather_evidence(session.api, session.journal, None, failed)
    (write,) = pack.writes
    assert (write.recorded, write.result, write.event) == (
        "failed (answer lost)",
        "on the list",
        checked.id,
    )
    assert "a look-up after the lost answer found the number listed" in write.words
    summary, journal = _pack_sheets(pack, tmp_path / "import.xlsx")
    row = next(r for r in journal if r["Id"] == outcome.id)
    assert row["Outcome"] == "failed (answer lost)"
    assert row["Settled"].startswith("on the list — a look-up after the lost answer"), row
    assert summary["Writes settled: on the list"] == 1

    pack2 = gather_evidence(session.api, session.journal, None, retried)
    (write2,) = pack2.writes
    assert (write2.recorded, write2.result, write2.event) == (
        "already_present (an earlier attempt may have done it)",
        "on the list",
        settled2.id,
    )


def test_an_old_journal_without_refs_gives_the_same_pack(sandbox: Any, tmp_path: Path) -> None:
    # Rows as DNC Desk wrote them before the events had a ref: a delete whose look-up failed,
    # sent again (not found after a lost answer) and concluded removed; another job's delete
    # of the same target before, and an unrelated event, must not be taken for them.
    journal = ChangeJournal(tmp_path / "old.sqlite3")
    target, phone = "dnc:+12025550421 scope=global", "+12025550421"
    conn = {"connection": "Sandbox", "base_url": sandbox.base_url}
    entries = [{"id": "7", "phone_number": "2025550421", "phone_code": "1"}]

    def delete(job: str) -> int:
        return journal.record_intent(
            **conn,
            operation="dnc.delete",
            target=target,
            phone=phone,
            job=job,
            before={"phone_number": "2025550421", "phone_code": "1", "entries": entries},
        )

    earlier = delete("removal-old")
    journal.record_outcome(earlier, outcome="ok")
    first = delete("removal-a")
    lost = "/dnc/delete: no answer from http://x within the timeout (ReadTimeout)"
    journal.record_outcome(first, outcome="failed", error=lost)
    look_up = journal.record_event(
        **conn,
        operation="dnc.delete.checked",
        target=target,
        phone=phone,
        job="removal-a",
        details={"error": lost, "look_up_error": "HTTP 503"},
    )
    second = delete("removal-a")
    journal.record_outcome(
        second,
        outcome="not_found",
        error="Phone not found in DNC; an earlier attempt got no answer saying whether it was "
        "done, so that attempt may have done this write (answered after 2 attempts)",
    )
    settled = journal.record_event(
        **conn,
        operation="dnc.delete.settled",
        target=target,
        phone=phone,
        job="removal-a",
        details={"settled": REMOVED_BY_LOST_ATTEMPT},
    )
    journal.record_event(**conn, operation="job.finish", job="removal-a", phone=phone)
    assert all(e.ref is None for e in journal.query() if e.phase == "event")

    from app.api.client import ApiClient
    from tests.conftest import TOKEN

    api = ApiClient(sandbox.base_url, TOKEN)
    try:
        pack = gather_evidence(api, journal, None, "2025550421")
    finally:
        api.close()
    said = {w.intent.id: (w.recorded, w.result, w.event) for w in pack.writes}
    assert said == {
        second: ("not_found (an earlier attempt may have done it)", "removed", settled),
        first: ("failed (answer lost)", "not known", look_up),
        earlier: ("ok", "removed", None),
    }
    # The send whose fate stayed open is told what the job's next send of it settled.
    (open_write,) = [w for w in pack.writes if w.intent.id == first]
    assert f"the job sent it again (entry #{second}): removed" in open_write.words
    summary, journal_rows = _pack_sheets(pack, tmp_path / "old.xlsx")
    assert (summary["Writes settled: removed"], summary["Writes settled: not known"]) == (2, 1)
    row = next(r for r in journal_rows if r["Id"] == settled)
    # The result is said once (black-box bb5 W1: "removed — removed, most likely by …").
    rest = REMOVED_BY_LOST_ATTEMPT.removeprefix("removed, ")
    assert row["Settled"].startswith(f"removed — {rest} (event #{settled})"), row["Settled"]
    assert "removed — removed" not in row["Settled"]
    assert journal.verify().ok
    journal.close()


def test_a_delete_failed_by_a_502_the_look_up_found_done_says_so(
    sandbox: Any, session: Session, wire: Lossy, tmp_path: Path
) -> None:
    # No answer was lost: the 502 did not say whether the delete was done, the look-up did.
    number = "2025550441"
    sandbox.bulk_seed_dnc([(number, "1", "0", "", "")])
    wire.gateway = {number}
    store = _removal(session, tmp_path, [number])
    assert job_summary(store)["removed"] == 1
    pack = gather_evidence(session.api, session.journal, None, number)
    (write,) = pack.writes
    assert write.event is not None
    assert (write.recorded, write.settled) == (
        "failed (no answer saying whether it was done)",
        f"removed — a look-up after its error found the number gone (event #{write.event})",
    )
    assert pack.settled_counts == {"removed": 1}


def test_an_insert_of_the_pack_names_its_job_its_request_and_its_report(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # Black-box B9 #8: an insert row of the pack named no job, nor whether it was late.
    late, on_time = "2025550451", "2025550452"
    today = dt.date.today().isoformat()
    source = tmp_path / "requests.csv"
    source.write_text(f"Phone,Request Date\n{late},2026-01-05\n{on_time},{today}\n")
    settings = JobSettings(source, Scope.global_(), name="Charity desk requests")
    store, _ = stage_import(settings, tmp_path / "jobs", connection=session.connection)
    assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    job = job_summary(store)["job"]
    report = Path(store.meta()["report"])
    jobs = tmp_path / "jobs"

    pack = gather_evidence(session.api, session.journal, None, late, jobs_dir=jobs)
    (write,) = pack.writes
    facts = pack.jobs[write.intent.id]
    assert (facts.job, facts.name, facts.row_number, facts.request_date, facts.late) == (
        job,
        "Charity desk requests",
        2,
        "2026-01-05",
        True,
    )
    assert facts.report == report and facts.job_file == store.path
    _, rows = _pack_sheets(pack, tmp_path / "late.xlsx")
    said = next(r for r in rows if r["Id"] == write.intent.id)["Job details"]
    assert said.startswith(f"job {job} (Charity desk requests); sheet row 2, requested 2026-01-05")
    assert ": late (more than 10 business days)" in said and f"; job report {report}" in said

    pack2 = gather_evidence(session.api, session.journal, None, on_time, jobs_dir=jobs)
    facts2 = pack2.jobs[pack2.writes[0].intent.id]
    assert (facts2.row_number, facts2.business_days, facts2.late) == (3, 0, False)
    assert "honoured in 0 business days: on time" in facts2.text

    # The job file gone from the data folder: the job is still named, from the journal.
    store.close()
    for leftover in jobs.glob(f"{job}*"):
        leftover.unlink()
    pack3 = gather_evidence(session.api, session.journal, None, late, jobs_dir=jobs)
    assert pack3.jobs[pack3.writes[0].intent.id].text == (
        f"job {job} (Charity desk requests); its job file is no longer in the data folder, "
        "so the request date of its row is not known here"
    )
    # A caller that gives no jobs folder (the window) is not told the job file is gone.
    pack4 = gather_evidence(session.api, session.journal, None, late)
    assert pack4.jobs[pack4.writes[0].intent.id].text == f"job {job} (Charity desk requests)"


def test_writes_of_the_window_say_what_made_them_not_a_missing_job_file(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # bb3 F7: a List health fix's and the Delete dialog's deletes never had a job file; the
    # pack said it was "no longer in the data folder", which reads like a deleted record.
    camp = next(c.id for c in session.api.campaigns() if c.name == "Spring Renewals")
    fixed, deleted = "2025550461", "2025550462"
    session.api.insert_dnc(fixed, "1", Scope.global_(), reason="asked")
    session.api.insert_dnc(fixed, "1", Scope.campaign(camp), reason="copy")
    finding = check_health(session.api).dnc.finding("redundant")
    assert [r.outcome for r in remove_redundant(session, finding, reason="tidy up")] == ["ok"]
    session.api.insert_dnc(deleted, "1", Scope.global_(), reason="asked")
    entry = session.api.search_dnc(DncQuery(phone_number=deleted)).items[0]
    removal = remove_dnc_entries(session, [entry], reason="entered by mistake")
    assert removal.count(Outcome.REMOVED) == 1
    jobs = tmp_path / "jobs"
    jobs.mkdir()

    for number, made_by in (
        (fixed, "a List health fix run from the window"),
        (deleted, "the window's Delete dialog"),
    ):
        pack = gather_evidence(session.api, session.journal, None, number, jobs_dir=jobs)
        (write,) = [w for w in pack.writes if w.intent.operation == "dnc.delete"]
        text = pack.jobs[write.intent.id].text
        assert text == (
            f"job {write.intent.job}; made by {made_by}, which keeps no job file (no request date)"
        )
        _, rows = _pack_sheets(pack, tmp_path / f"{number}.xlsx")
        said = next(r for r in rows if r["Id"] == write.intent.id)["Job details"]
        assert "no longer" not in said and made_by in said


def test_a_removal_whose_job_file_is_gone_is_not_said_to_lack_a_request_date(
    session: Session, tmp_path: Path
) -> None:
    """bb5 F3: a removal reads no request date, yet its pack said, once its job file was gone,
    that "the request date of its row is not known here"; the journal note names the row."""
    number = "2025550461"
    _import(session, tmp_path, [number])
    store = _removal(session, tmp_path, [number])
    job = job_summary(store)["job"]
    store.close()
    for leftover in (tmp_path / "jobs").glob(f"{job}*"):
        leftover.unlink()
    pack = gather_evidence(session.api, session.journal, None, number, jobs_dir=tmp_path / "jobs")
    [delete] = [w for w in pack.writes if w.intent.operation == "dnc.delete"]
    text = pack.jobs[delete.intent.id].text
    assert "request date" not in text
    assert "job file is no longer in the data folder" in text
    assert "(row 2)" in delete.intent.note
