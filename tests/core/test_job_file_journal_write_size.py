"""Bytes a real import writes per row to its job file and change journal (black-box B17 F1:
about 55 KB a row, 5.8 GB for 100,000 rows).

Every SQLite commit writes each page it changed to the WAL whole, and the write-ahead rule
keeps a commit per row in the job file (its "sending" mark) and two in the journal (the
intent before the request, the outcome after it): what a row costs is the pages those commits
change times the page size. A new job file and a new journal use small pages; a journal made
before keeps its own.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.core.job_store import JobStore, NewRow, Outcome
from app.core.journal import ChangeJournal

WAL_HEADER = 32
FRAME_HEADER = 24


def wal_bytes(path: Path) -> int:
    """The bytes of the frames in ``path``'s WAL (checkpoints held off by the caller)."""
    db = sqlite3.connect(path)
    try:
        frames = int(db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1])
        page = int(db.execute("PRAGMA page_size").fetchone()[0])
    finally:
        db.close()
    return frames * (page + FRAME_HEADER)


def emptied_wal(db: sqlite3.Connection) -> None:
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA wal_autocheckpoint = 0")


def test_a_job_row_marked_and_closed_writes_under_5_kb(tmp_path: Path) -> None:
    """4 KB pages: 12.7 KB a row (about 3 pages a commit)."""
    store = JobStore(tmp_path / "job.dncjob")
    store.add_rows(
        NewRow(n + 2, f"202555{n:04d}", f"202555{n:04d}", "1", "global") for n in range(3000)
    )
    for seq in range(1, 1001):  # a job under way: rows done, sending, pending
        store.mark_sending(seq)
        store.mark_done(seq, Outcome.INSERTED)
    store.flush()
    emptied_wal(store._db)
    rows = 500
    for seq in range(1001, 1001 + rows):
        store.mark_sending(seq)
        store.mark_done(seq, Outcome.INSERTED)
    store.flush()
    written = wal_bytes(store.path)
    store.close()
    assert written / rows < 5_000, f"{written / rows:,.0f} bytes a row"
    # Read back as written: the rows and their outcomes are all there.
    with JobStore(tmp_path / "job.dncjob") as again:
        counts = again.counts()
    assert counts["inserted"] == 1500 and counts["pending"] == 1500


def test_an_existing_job_file_keeps_its_page_size(tmp_path: Path) -> None:
    path = tmp_path / "old.dncjob"
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 4096")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE t (x)")
    db.close()
    with JobStore(path) as store:
        assert store._db.execute("PRAGMA page_size").fetchone()[0] == 4096
        store.add_rows([NewRow(2, "2025550100", "2025550100", "1", "global")])
        assert store.counts()["pending"] == 1


def journal_row(journal: ChangeJournal, n: int) -> None:
    intent = journal.record_intent(
        connection="sandbox",
        base_url="http://127.0.0.1:8765",
        operation="dnc.insert",
        target="global",
        phone=f"+1202{(n * 7919) % 10**7:07d}",  # spread over the phone index, as a file is
        job="import-20261124-140021-d20690",
        after={"scope": "global", "reason": "customer asked"},
    )
    journal.record_outcome(intent, outcome="ok", after={"id": str(n)})


def test_a_journal_entry_commit_writes_under_14_kb(tmp_path: Path) -> None:
    """4 KB pages: 27.5 KB an entry committed alone (an import row's intent and outcome are
    committed apart unless other rows' share their commit)."""
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    for n in range(2000):
        journal_row(journal, n)
    emptied_wal(journal._db)
    rows = 300
    for n in range(2000, 2000 + rows):
        journal_row(journal, n)
    written = wal_bytes(journal.path)
    assert journal.verify().ok
    journal.close()
    assert written / (2 * rows) < 14_000, f"{written / (2 * rows):,.0f} bytes an entry"
    with ChangeJournal(tmp_path / "journal.sqlite3") as again:
        verdict = again.verify()
    assert verdict.ok and verdict.rows == 2 * (2000 + rows)
