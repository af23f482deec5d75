"""Task W6 #2: ``verify()`` and ``check_chain()`` walk the hash chain in one shared pass.

Whatever was done to the file, the two must agree: both find the chain intact, or both find
it altered, the first entry ``verify()`` names being among those ``check_chain()`` marks (a
break in the middle of the chain), and ``check_chain()`` going on past it to the next."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.core.journal import _COLUMNS, ChangeJournal, row_hash


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    for i in range(8):
        phone = f"+1202555{i:04d}"
        intent = j.record_intent(
            connection="prod",
            base_url="https://api.example.com",
            operation="dnc.insert",
            target=f"dnc:{phone}",
            phone=phone,
            job="job-1",
        )
        j.record_outcome(intent, outcome="ok", after={"id": 100 + i})
    yield j
    j.close()


def _edit(entry_id: int) -> Callable[[sqlite3.Connection], None]:
    def edit(db: sqlite3.Connection) -> None:
        db.execute("UPDATE journal SET target = 'dnc:+19999999999' WHERE id = ?", (entry_id,))

    return edit


def _forge(entry_id: int) -> Callable[[sqlite3.Connection], None]:
    """Edit an entry and give it the hash of its new content: the next entry breaks."""

    def forge(db: sqlite3.Connection) -> None:
        db.row_factory = sqlite3.Row
        row = dict(db.execute("SELECT * FROM journal WHERE id = ?", (entry_id,)).fetchone())
        row["note"] = "forged"
        row["hash"] = row_hash({c: row[c] for c in _COLUMNS})
        db.execute(
            "UPDATE journal SET note = ?, hash = ? WHERE id = ?",
            (row["note"], row["hash"], entry_id),
        )

    return forge


def _delete(entry_id: int) -> Callable[[sqlite3.Connection], None]:
    def delete(db: sqlite3.Connection) -> None:
        db.execute("DELETE FROM journal WHERE id = ?", (entry_id,))

    return delete


def test_an_intact_chain_is_intact_both_ways(journal: ChangeJournal) -> None:
    verdict, check = journal.verify(), journal.check_chain()
    assert verdict.ok and check.ok
    assert verdict.rows == check.rows == 16


@pytest.mark.parametrize(
    ("tamper", "first", "rows", "marked"),
    [
        (_edit(7), 7, 7, {7}),
        (_forge(4), 5, 5, {4, 5}),
        # The chain head counts 16 entries, 15 left and one missing before 13: the head
        # agrees with the rest, so the last entry is not marked as if those after it were gone.
        (_delete(12), 13, 12, {13}),
        # Two breaks: verify stops at the first, check_chain names both.
        (lambda db: (_edit(3)(db), _edit(11)(db)), 3, 3, {3, 11}),
    ],
)
def test_verify_stops_where_check_chain_first_marks(
    journal: ChangeJournal,
    tamper: Callable[[sqlite3.Connection], object],
    first: int,
    rows: int,
    marked: set[int],
) -> None:
    with sqlite3.connect(journal.path, isolation_level=None) as db:
        tamper(db)
    verdict, check = journal.verify(), journal.check_chain()
    assert not verdict.ok and not check.ok
    assert verdict.first_bad_id == first
    assert set(check.breaks) == marked
    assert verdict.rows == rows  # up to and with the entry at the break
    assert check.rows == 16 - (first - rows)  # check_chain reads them all
