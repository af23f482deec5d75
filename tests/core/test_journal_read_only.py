"""Black-box bb11 F1/F5: opening a journal gave an emptied one a new chain head, after which it
verified as intact (the window opens its journal on start, so a wipe was hidden there too);
``journal verify`` and ``export`` open it read only and change nothing; and an ``until`` bound
written to the day, minute or second counts that whole span, whatever the spelling's length."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from app.core.journal import ChangeJournal, JournalError, time_bound
from tests.core.test_journal_actor import _old_journal

CONN = {"connection": "prod", "base_url": "https://api.example.com"}


def _written(path: Path, events: int) -> None:
    with ChangeJournal(path) as journal:
        for _ in range(events):
            journal.record_event(**CONN, operation="job.start")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_an_emptied_journal_is_not_given_a_new_head(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _written(path, 3)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DELETE FROM journal")
    db.execute("DELETE FROM chain_head")
    db.close()
    # Opened to be written to, as the window opens it on start: still seen as altered.
    with ChangeJournal(path) as journal:
        verdict = journal.verify()
        assert not verdict.ok
        assert "the chain head was deleted" in verdict.message
        with pytest.raises(JournalError, match="chain head is missing"):
            journal.record_event(**CONN, operation="job.start")


def test_read_only_changes_nothing_and_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _written(path, 2)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DELETE FROM chain_head")
    db.close()
    before = _digest(path)
    with ChangeJournal(path, read_only=True) as journal:
        check = journal.check_chain()
        assert not check.ok and check.head_hash is None and check.head_entries is None
        with pytest.raises(JournalError, match="read only"):
            journal.record_event(**CONN, operation="job.start")
    assert _digest(path) == before
    missing = tmp_path / "none.sqlite3"
    with pytest.raises(JournalError, match="no change journal"):
        ChangeJournal(missing, read_only=True)
    assert not missing.exists()


def test_a_journal_made_before_actors_reads_read_only(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _old_journal(path, 3)
    before = _digest(path)
    with ChangeJournal(path, read_only=True) as journal:
        check = journal.check_chain()
        assert (check.ok, check.rows, check.head_entries) == (True, 3, 3)
        assert [e.actor for e in journal.query()] == ["", "", ""]
        assert journal.operations() == ["dnc.delete"]
    assert _digest(path) == before


@pytest.mark.parametrize(
    ("until", "end"),
    [
        ("2026-11-25", "2026-11-26T00:00:00.000000Z"),
        ("2026-11-25T10:50", "2026-11-25T10:51:00.000000Z"),
        ("2026-11-25 10:50:20", "2026-11-25T10:50:21.000000Z"),
        ("2026-11-25T10:50:20.5Z", "2026-11-25T10:50:20.600000Z"),
        ("2026-11-25T10:50:20.114213Z", "2026-11-25T10:50:20.114214Z"),
        ("2026-11-25T11:50+01:00", "2026-11-25T10:51:00.000000Z"),
    ],
)
def test_until_counts_the_whole_span_written(until: str, end: str) -> None:
    assert time_bound(until, end=True) == end


@pytest.mark.parametrize("value", ["20261125", "2026-11-25Z", "2026-11-25T10", "2026-W48-3"])
def test_other_date_spellings_are_refused(value: str) -> None:
    with pytest.raises(JournalError, match="is not a date or time; write a date"):
        time_bound(value, end=True)
