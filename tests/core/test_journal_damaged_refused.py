"""A change journal that cannot be relied on is refused when it is opened, before anything is
written to it (black-box pass L4 #4): one with a few bytes of garbage in an old page was written
to by an import, after which no entry of it could be read; one emptied to 0 bytes was taken for
a new journal."""

from __future__ import annotations

import hashlib
import sqlite3
import stat
from pathlib import Path

import pytest

from app.core.journal import ChangeJournal, JournalError

CONN = {"connection": "prod", "base_url": "https://api.example.com"}


def filled_journal(path: Path, entries: int = 3000) -> Path:
    with ChangeJournal(path) as journal:
        for i in range(entries):
            journal.record_event(**CONN, operation="dnc.insert", target=f"dnc:+1303555{i:04d}")
    return path


def damage_a_middle_page(path: Path) -> None:
    """Seven bytes of garbage over the header of a page in the middle of the file, as the
    tester's copy had: SQLite can still open the file, but its check fails."""
    page_size = 4096
    pages = path.stat().st_size // page_size
    with path.open("r+b") as fh:
        fh.seek(page_size * (pages // 2))
        fh.write(b"GARBAGE")


def quick_check_fails(path: Path) -> bool:
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA quick_check").fetchall() != [("ok",)]
    except sqlite3.DatabaseError:
        return True
    finally:
        db.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_journal_with_garbage_in_an_old_page_is_refused_untouched(tmp_path: Path) -> None:
    path = filled_journal(tmp_path / "journal.sqlite3")
    damage_a_middle_page(path)
    assert quick_check_fails(path)  # the damage is of the kind the check finds
    before = digest(path)
    with pytest.raises(JournalError) as caught:
        ChangeJournal(path)
    text = str(caught.value)
    assert text.startswith(f"The change journal at {path} is damaged (")
    assert "so nothing was sent. Keep the file for review (it is the record of earlier " in text
    assert "move it aside, with journal.sqlite3-wal and journal.sqlite3-shm if they are " in text
    assert "\n" not in text
    assert digest(path) == before


def test_a_journal_emptied_to_0_bytes_is_refused_not_started_again(tmp_path: Path) -> None:
    path = filled_journal(tmp_path / "journal.sqlite3", entries=3)
    path.write_bytes(b"")
    with pytest.raises(JournalError) as caught:
        ChangeJournal(path)
    assert str(caught.value).startswith(
        f"The change journal at {path} is empty (0 bytes): the record of earlier changes it "
        "held is gone, and a new journal is not started over it unnoticed, so nothing was sent."
    )
    assert path.stat().st_size == 0


def test_a_journal_cut_in_half_is_called_damaged(tmp_path: Path) -> None:
    path = filled_journal(tmp_path / "journal.sqlite3")
    with path.open("r+b") as fh:
        fh.truncate(path.stat().st_size // 2)
    with pytest.raises(JournalError, match=r"is damaged \(database disk image is malformed\)"):
        ChangeJournal(path)


def test_once_moved_aside_a_new_journal_is_started(tmp_path: Path) -> None:
    path = filled_journal(tmp_path / "journal.sqlite3")
    damage_a_middle_page(path)
    path.rename(tmp_path / "journal.sqlite3.damaged")
    with ChangeJournal(path) as journal:
        journal.record_event(**CONN, operation="job.start")
        assert journal.verify().ok and journal.count() == 1


def test_a_new_journal_is_never_a_file_of_0_bytes(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    ChangeJournal(path).close()
    assert path.stat().st_size > 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["journal.sqlite3"]
    with ChangeJournal(path) as again:  # and it opens again, checked
        assert again.verify().ok


def test_a_write_ahead_file_left_without_its_journal_is_not_read_into_a_new_one(
    tmp_path: Path,
) -> None:
    old = tmp_path / "old.sqlite3"
    journal = ChangeJournal(old)
    journal.record_event(**CONN, operation="job.start")
    # The -wal of a journal still open holds its entries; moved aside without it:
    wal = tmp_path / "journal.sqlite3-wal"
    wal.write_bytes((tmp_path / "old.sqlite3-wal").read_bytes())
    journal.close()
    path = tmp_path / "journal.sqlite3"
    with pytest.raises(JournalError, match="is the write-ahead part of a change journal"):
        ChangeJournal(path)
    assert not path.exists()


def test_a_journal_on_a_full_disk_says_the_disk_is_full(tmp_path: Path) -> None:
    path = filled_journal(tmp_path / "journal.sqlite3", entries=3)
    with ChangeJournal(path) as journal:
        # SQLite's own "database or disk is full": the journal may not grow past its pages.
        (pages,) = journal._db.execute("PRAGMA page_count").fetchone()
        journal._db.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(JournalError) as caught:
            for i in range(5000):
                journal.record_intent(**CONN, operation="dnc.insert", target=f"{i:0200d}")
        assert str(caught.value) == (
            f"The change journal could not be written: the disk holding {tmp_path} is full "
            "(database or disk is full); the change was not made. Free some space and try again."
        )
        # Only an intent's failure stops its change: an outcome is written after the request
        # went out, an event says what happened (black-box B35 F1).
        with pytest.raises(JournalError) as caught:
            journal.record_event(**CONN, operation="job.start", target="x" * 5000)
        assert str(caught.value).endswith(
            "(database or disk is full); this event was not recorded. Free some space and try "
            "again."
        )
        assert journal.count() >= 3
