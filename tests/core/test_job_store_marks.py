"""The job store's row marks: 'sending' committed with the outcomes recorded before it (in one
statement or, for many outcomes, one transaction), outcomes recorded from many threads, and a
failed commit that keeps its outcomes for the next one."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from app.core.job_store import JobStore, NewRow, Outcome


def _store(tmp_path: Path, rows: int) -> JobStore:
    store = JobStore(tmp_path / "job.dncjob")
    store.add_rows(
        NewRow(i + 2, f"orig{i}", national=f"20255501{i:02d}", phone_code="1", message="kept")
        for i in range(rows)
    )
    return store


def _on_disk(path: Path) -> dict[int, tuple[str, str, str, str]]:
    """What another process (a resume after SIGKILL) would read: committed rows only."""
    with sqlite3.connect(path) as db:
        return {
            seq: (state, outcome, message, code)
            for seq, state, outcome, message, code in db.execute(
                "SELECT seq, state, outcome, message, code FROM rows"
            )
        }


def test_sending_is_committed_with_the_outcomes_before_it(tmp_path: Path) -> None:
    store = _store(tmp_path, 5)
    store.mark_sending(1)
    store.mark_sending(2)
    store.mark_done(1, Outcome.INSERTED, "", "")
    store.mark_done(2, Outcome.FAILED, "refused", "6001")
    assert _on_disk(store.path)[1][0] == "sending"  # outcomes wait for the next commit
    store.mark_sending(3)
    rows = _on_disk(store.path)
    assert rows[1] == ("done", "inserted", "", "")
    assert rows[2] == ("done", "failed", "refused", "6001")
    # The mark changes only the state: the staged message stays.
    assert rows[3] == ("sending", "", "kept", "")
    assert rows[4] == ("pending", "", "kept", "")
    store.close()


def test_many_outcomes_before_a_mark_go_in_one_transaction(tmp_path: Path) -> None:
    store = _store(tmp_path, 100)
    for seq in range(1, 91):
        store.mark_sending(seq)
    for seq in range(1, 91):
        store.mark_done(seq, Outcome.ALREADY_PRESENT, f"m{seq}")
    store.mark_sending(91)
    rows = _on_disk(store.path)
    assert all(rows[s] == ("done", "already_present", f"m{s}", "") for s in range(1, 91))
    assert rows[91][0] == "sending" and rows[92][0] == "pending"
    counts = store.counts()
    assert counts["already_present"] == 90 and counts["pending"] == 10
    store.close()


def test_outcomes_from_many_threads_all_land(tmp_path: Path) -> None:
    store = _store(tmp_path, 400)
    seqs = iter(range(1, 401))
    lock = threading.Lock()

    def worker() -> None:
        while True:
            with lock:
                seq = next(seqs, None)
            if seq is None:
                return
            store.mark_sending(seq)
            store.mark_done(seq, Outcome.INSERTED)

    threads = [threading.Thread(target=worker) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Only the last outcomes of each thread may still wait: at most one row per thread.
    assert sum(1 for s in _on_disk(store.path).values() if s[0] == "sending") <= 16
    store.flush()
    assert set(_on_disk(store.path).values()) == {("done", "inserted", "", "")}
    store.close()


def test_a_failed_commit_keeps_its_outcomes_for_the_next(tmp_path: Path) -> None:
    store = _store(tmp_path, 3)
    store.mark_sending(1)
    store.mark_done(1, Outcome.INSERTED)
    blocker = sqlite3.connect(store.path, timeout=0)
    blocker.execute("BEGIN IMMEDIATE")  # another writer holds the file
    store._db.execute("PRAGMA busy_timeout = 0")
    with pytest.raises(sqlite3.OperationalError):
        store.mark_sending(2)
    blocker.execute("ROLLBACK")
    blocker.close()
    assert not store._db.in_transaction
    store.mark_sending(2)
    rows = _on_disk(store.path)
    assert rows[1][:2] == ("done", "inserted") and rows[2][0] == "sending"
    store.close()


def test_a_cancel_keeps_each_rows_staged_note_before_saying_so(tmp_path: Path) -> None:
    store = JobStore(tmp_path / "job.dncjob")
    store.add_rows(
        [
            NewRow(2, "Cell: 303-555-2401", "3035552401", "1", message="read without its label"),
            NewRow(3, "3035552402", "3035552402", "1"),
            NewRow(4, "3035552403", "3035552403", "1", message="request 20 business days old"),
        ]
    )
    store.mark_sending(3)  # in flight when the job was interrupted
    assert store.mark_not_attempted("cancelled before it was sent") == 3
    assert [(r.outcome, r.message) for r in store.rows()] == [
        ("not_attempted", "read without its label; cancelled before it was sent"),
        ("not_attempted", "cancelled before it was sent"),
        ("not_attempted", "request 20 business days old; cancelled before it was sent"),
    ]
    store.close()
