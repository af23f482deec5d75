"""The change journal: chain, tamper detection, concurrency, queries, export, secrets."""

from __future__ import annotations

import itertools
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from app.core.journal import (
    EXPORT_HEADERS,
    GENESIS_HASH,
    ChangeJournal,
    JournalError,
)
from app.core.redaction import SECRETS

CONN = {"connection": "prod", "base_url": "https://api.example.com"}


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _fill(journal: ChangeJournal, n: int) -> list[int]:
    ids = []
    for i in range(n):
        phone = f"+1202555{i:04d}"
        intent = journal.record_intent(
            **CONN,
            operation="dnc.insert",
            target=f"dnc:{phone} scope=campaign:1001",
            phone=phone,
            after={"phone": phone, "reason": "asked"},
            job="job-1",
        )
        ids.append(intent)
        ids.append(journal.record_outcome(intent, outcome="ok", after={"id": 100 + i}))
    return ids


def _raw(journal: ChangeJournal) -> sqlite3.Connection:
    return sqlite3.connect(journal.path, isolation_level=None)


def test_empty_journal_verifies(journal: ChangeJournal) -> None:
    verdict = journal.verify()
    assert verdict.ok and verdict.rows == 0 and verdict.first_bad_id is None


def test_chain_links_rows_and_verifies(journal: ChangeJournal) -> None:
    ids = _fill(journal, 5)
    assert ids == list(range(1, 11))
    entries = sorted(journal.query(), key=lambda e: e.id)
    assert entries[0].prev_hash == GENESIS_HASH
    for before, after in itertools.pairwise(entries):
        assert after.prev_hash == before.hash
    verdict = journal.verify()
    assert verdict.ok, verdict.message
    assert verdict.message == "The change journal is intact (10 entries)."


def test_outcome_copies_intent_fields(journal: ChangeJournal) -> None:
    intent = journal.record_intent(
        **CONN,
        operation="dnc.delete",
        target="dnc:+12025550123 scope=global",
        phone="+12025550123",
        before={"id": 7, "reason": "asked"},
        job="j9",
        note="customer asked twice",
    )
    outcome = journal.record_outcome(intent, outcome="failed", error="HTTP 500")
    entry = journal.get(outcome)
    assert entry is not None
    assert (entry.phase, entry.ref, entry.outcome, entry.error) == (
        "outcome",
        intent,
        "failed",
        "HTTP 500",
    )
    assert (entry.operation, entry.phone, entry.job, entry.connection) == (
        "dnc.delete",
        "+12025550123",
        "j9",
        "prod",
    )
    first = journal.get(intent)
    assert first is not None and first.before == {"id": 7, "reason": "asked"}
    assert first.time.endswith("Z") and first.time[:4].isdigit()


def test_outcome_for_unknown_intent_is_refused(journal: ChangeJournal) -> None:
    event = journal.record_event(**CONN, operation="import.start", job="j1")
    with pytest.raises(JournalError, match="not a recorded intent"):
        journal.record_outcome(event, outcome="ok")
    with pytest.raises(JournalError):
        journal.record_outcome(999, outcome="ok")
    assert journal.verify().ok
    assert journal.count() == 1


def test_outcome_after_reopen_finds_intent_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with ChangeJournal(path) as first:
        intent = first.record_intent(**CONN, operation="sms.insert", target="sms:+1", phone="+1")
    with ChangeJournal(path) as second:
        outcome = second.record_outcome(intent, outcome="ok")
        entry = second.get(outcome)
        assert entry is not None and entry.operation == "sms.insert"
        assert second.verify().ok


def test_edited_row_is_detected_with_its_id(journal: ChangeJournal) -> None:
    _fill(journal, 10)
    with _raw(journal) as db:
        db.execute("UPDATE journal SET target = 'dnc:+19999999999' WHERE id = 7")
    verdict = journal.verify()
    assert not verdict.ok
    assert verdict.first_bad_id == 7
    assert "entry 7 does not match its hash" in verdict.message
    assert verdict.message.startswith("The change journal was altered:")


def test_edited_row_with_recomputed_hash_breaks_the_next_link(journal: ChangeJournal) -> None:
    from app.core.journal import _COLUMNS, row_hash

    _fill(journal, 5)
    with _raw(journal) as db:
        db.row_factory = sqlite3.Row
        row = dict(db.execute("SELECT * FROM journal WHERE id = 4").fetchone())
        row["note"] = "forged"
        row["hash"] = row_hash({c: row[c] for c in _COLUMNS})
        db.execute("UPDATE journal SET note = ?, hash = ? WHERE id = 4", (row["note"], row["hash"]))
    verdict = journal.verify()
    assert not verdict.ok and verdict.first_bad_id == 5


def test_deleted_middle_row_is_detected(journal: ChangeJournal) -> None:
    _fill(journal, 10)
    with _raw(journal) as db:
        db.execute("DELETE FROM journal WHERE id = 12")
    verdict = journal.verify()
    assert not verdict.ok
    assert verdict.first_bad_id == 13
    assert "entry 12 was deleted (entry 13 does not follow the entry before it)" in verdict.message


def test_deleted_tail_is_detected_through_the_chain_head(journal: ChangeJournal) -> None:
    _fill(journal, 10)
    with _raw(journal) as db:
        db.execute("DELETE FROM journal WHERE id > 17")
    verdict = journal.verify()
    assert not verdict.ok
    assert verdict.rows == 17
    assert verdict.first_bad_id == 18
    assert "the latest entries 18 to 20 were deleted" in verdict.message


def test_deleted_chain_head_is_detected(journal: ChangeJournal) -> None:
    _fill(journal, 2)
    with _raw(journal) as db:
        db.execute("DELETE FROM chain_head")
    verdict = journal.verify()
    assert not verdict.ok and "chain head" in verdict.message
    with pytest.raises(JournalError, match="chain head is missing"):
        journal.record_event(**CONN, operation="import.start")


def test_writes_after_a_deleted_tail_do_not_hide_it(journal: ChangeJournal) -> None:
    _fill(journal, 3)
    with _raw(journal) as db:
        db.execute("DELETE FROM journal WHERE id = 6")
    # The next append chains from the recorded head, so the gap stays visible.
    journal.record_event(**CONN, operation="import.finish")
    verdict = journal.verify()
    assert not verdict.ok and verdict.first_bad_id == 7


def test_concurrent_writers_keep_the_chain_valid(journal: ChangeJournal) -> None:
    threads, per_thread = 16, 60
    errors: list[BaseException] = []
    outcomes: dict[int, list[int]] = {}
    start = threading.Barrier(threads)

    def work(t: int) -> None:
        try:
            start.wait()
            mine = []
            for i in range(per_thread):
                intent = journal.record_intent(
                    **CONN, operation="dnc.insert", target=f"t{t} n{i}", job=f"job-{t}"
                )
                mine.append(journal.record_outcome(intent, outcome="ok"))
            outcomes[t] = mine
        except BaseException as exc:
            errors.append(exc)

    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors
    verdict = journal.verify()
    assert verdict.ok, verdict.message
    assert verdict.rows == threads * per_thread * 2
    for t in range(threads):
        assert journal.count(job=f"job-{t}") == per_thread * 2
        # Every outcome answers an intent of the same thread.
        for outcome_id in outcomes[t]:
            entry = journal.get(outcome_id)
            assert entry is not None and entry.ref is not None
            intent = journal.get(entry.ref)
            assert intent is not None and intent.job == f"job-{t}"


def test_query_filters_and_count(journal: ChangeJournal) -> None:
    _fill(journal, 3)
    journal.record_intent(
        **CONN,
        operation="sms.insert",
        target="sms:+13125550000",
        phone="+13125550000",
        note="Reply STOP_ALL received",
    )
    journal.record_event(**CONN, operation="gate.override", note="override 50% wrong numbers")

    assert journal.count() == 8
    newest_first = journal.query()
    assert [e.id for e in newest_first] == list(range(8, 0, -1))

    assert [e.id for e in journal.query(phone="+12025550001")] == [4, 3]
    assert journal.count(operation="dnc.insert") == 6
    assert journal.count(operation="dnc.*") == 6
    assert journal.count(operation="sms.") == 1
    assert journal.count(job="job-1") == 6
    # Text search looks in targets, notes and the before/after values; LIKE wildcards are
    # taken literally.
    assert journal.count(text="STOP_ALL") == 1
    assert journal.count(text="STOP%") == 0
    assert journal.count(text="50%") == 1
    assert journal.count(text="asked") == 3
    assert [e.id for e in journal.query(limit=2, offset=1)] == [7, 6]


def test_query_time_bounds(journal: ChangeJournal) -> None:
    first = journal.record_event(**CONN, operation="import.start")
    entry = journal.get(first)
    assert entry is not None
    day = entry.time[:10]
    assert journal.count(since=day, until=day) == 1
    assert journal.count(since=entry.time, until=entry.time) == 1
    assert journal.count(until="2000-01-01") == 0
    assert journal.count(since="2999-01-01") == 0
    assert journal.count(since=f"{day}T00:00:00+00:00") == 1
    with pytest.raises(JournalError, match="not a date"):
        journal.count(since="yesterday")


def test_export_xlsx_round_trips_with_neutralised_cells(
    journal: ChangeJournal, tmp_path: Path
) -> None:
    intent = journal.record_intent(
        **CONN,
        operation="dnc.update",
        target='=HYPERLINK("http://evil","x")',
        phone="+12025550123",
        before={"reason": "old"},
        after={"reason": "@new"},
        note="-2+3",
        job="a\x00b",
    )
    journal.record_outcome(intent, outcome="ok", error="x" * 40_000)
    entries = journal.query()
    out = tmp_path / "export" / "journal.xlsx"
    assert journal.export_xlsx(out, entries) == 2

    book = CalamineWorkbook.from_path(str(out))
    rows = book.get_sheet_by_index(0).to_python()
    assert tuple(rows[0]) == EXPORT_HEADERS
    by_id = {int(r[0]): r for r in rows[1:]}
    row = by_id[intent]
    column = {name: i for i, name in enumerate(EXPORT_HEADERS)}
    # Exact text: neutralised by Excel's quotePrefix style, not by a "'" added to the text.
    assert row[column["Target"]] == '=HYPERLINK("http://evil","x")'
    assert row[column["Phone"]] == "+12025550123"
    assert row[column["Note"]] == "-2+3"
    assert row[column["Job"]] == "a\ufffdb"  # a character XML cannot hold is replaced
    assert row[column["Operation"]] == "dnc.update"
    assert row[column["Before"]] == '{"reason": "old"}'
    assert row[column["Phase"]] == "intent"
    outcome_row = by_id[intent + 1]
    assert int(outcome_row[column["Answers entry"]]) == intent
    assert outcome_row[column["Outcome"]] == "ok"
    assert len(outcome_row[column["Error"]]) == 32_767  # cut to Excel's cell limit
    sheet = openpyxl.load_workbook(out)["Change journal"]
    cells = {r[0].value: r for r in sheet.iter_rows(min_row=2)}[intent]
    for name in ("Target", "Phone", "Note"):
        assert cells[column[name]].data_type == "s" and cells[column[name]].quotePrefix
    assert not cells[column["Operation"]].quotePrefix and isinstance(cells[0].value, int)
    # No cell was stored as a formula.
    import zipfile

    with zipfile.ZipFile(out) as zf:
        sheet_xml = zf.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in sheet_xml


@pytest.fixture
def secret() -> Iterator[str]:
    token = "tok-journal-5e1f0a9c77d2"
    SECRETS.add(token)
    yield token
    SECRETS.discard(token)


def test_secret_never_reaches_the_journal_or_export(
    journal: ChangeJournal, tmp_path: Path, secret: str
) -> None:
    intent = journal.record_intent(
        **CONN,
        operation="dnc.insert",
        target=f"dnc:+1 token={secret}",
        phone="+1",
        before={"headers": {"Authorization": f"Bearer {secret}"}, secret: [secret]},
        after={"nested": [{"x": f"{secret}!"}]},
        job=secret,
        note=f"pasted {secret} by mistake",
    )
    journal.record_outcome(intent, outcome="failed", error=f"401 for {secret}", after={"t": secret})
    journal.record_event(**CONN, operation="gate.override", details={"why": secret})
    out = tmp_path / "journal.xlsx"
    journal.export_xlsx(out, journal.query())
    journal.close()

    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path
    reopened = ChangeJournal(journal.path)
    try:
        entry = reopened.get(intent)
        assert entry is not None
        assert entry.note == "pasted *** by mistake"
        assert entry.before == {"***": ["***"], "headers": {"Authorization": "Bearer ***"}}
        assert reopened.verify().ok
    finally:
        reopened.close()


def test_closed_journal_refuses_writes(tmp_path: Path) -> None:
    journal = ChangeJournal(tmp_path / "j.sqlite3")
    journal.close()
    journal.close()
    with pytest.raises(JournalError, match="closed"):
        journal.record_event(**CONN, operation="import.start")
    with pytest.raises(JournalError, match="closed"):
        journal.verify()


def test_paging_with_max_id_ignores_newer_entries(journal: ChangeJournal) -> None:
    _fill(journal, 3)
    first_page = journal.query(limit=2)
    newest = first_page[0].id
    journal.record_event(**CONN, operation="import.finish")
    second_page = journal.query(limit=2, offset=2, max_id=newest)
    assert [e.id for e in first_page + second_page] == [6, 5, 4, 3]
    assert journal.count(max_id=newest) == 6
    assert journal.count() == 7


def test_verify_while_writing_sees_a_consistent_snapshot(journal: ChangeJournal) -> None:
    stop = threading.Event()
    errors: list[BaseException] = []

    def write(t: int) -> None:
        try:
            while not stop.is_set():
                intent = journal.record_intent(**CONN, operation="dnc.insert", target=f"w{t}")
                journal.record_outcome(intent, outcome="ok")
        except BaseException as exc:
            errors.append(exc)

    writers = [threading.Thread(target=write, args=(t,)) for t in range(4)]
    for w in writers:
        w.start()
    try:
        verdicts = [journal.verify() for _ in range(20)]
    finally:
        stop.set()
        for w in writers:
            w.join()
    assert not errors
    assert all(v.ok for v in verdicts), [v.message for v in verdicts if not v.ok]
    assert journal.verify().ok


def test_two_instances_on_one_file_keep_one_chain(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with ChangeJournal(path) as a, ChangeJournal(path) as b:
        for i in range(20):
            writer, other = (a, b) if i % 2 else (b, a)
            intent = writer.record_intent(**CONN, operation="dnc.insert", target=str(i))
            other.record_outcome(intent, outcome="ok")
        assert a.verify().ok and b.verify().rows == 40


def test_a_file_that_is_not_a_journal_is_explained(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match=r"is damaged \(file is not a database\)"):
        ChangeJournal(path)
