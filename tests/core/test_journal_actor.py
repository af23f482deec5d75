"""The change journal names who wrote each entry (``actor``: login@host), and a journal made
before it did keeps verifying (black-box bb5 F2: counsel asking who removed a number got only
"someone with this data folder")."""

from __future__ import annotations

import getpass
import hashlib
import json
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest

from app.core import journal as journal_module
from app.core.journal import EXPORT_HEADERS, GENESIS_HASH, ChangeJournal, current_actor

CONN = {"connection": "prod", "base_url": "https://api.example.com"}

# The journal table as versions before the actor column made it, and their hash: sha256 of
# the canonical JSON of ["dnc-desk-journal-1", the columns but the hash, in this order].
_OLD_SCHEMA = """
CREATE TABLE journal (
    id INTEGER PRIMARY KEY, time TEXT NOT NULL, phase TEXT NOT NULL, ref INTEGER,
    connection TEXT NOT NULL, base_url TEXT NOT NULL, operation TEXT NOT NULL,
    target TEXT NOT NULL, phone TEXT NOT NULL, before TEXT, after TEXT,
    outcome TEXT NOT NULL, error TEXT NOT NULL, job TEXT NOT NULL, note TEXT NOT NULL,
    prev_hash TEXT NOT NULL, hash TEXT NOT NULL
);
CREATE TABLE chain_head (
    one INTEGER PRIMARY KEY CHECK (one = 1), last_id INTEGER NOT NULL,
    last_hash TEXT NOT NULL, rows INTEGER NOT NULL
);
"""


def _old_hash(values: list[object]) -> str:
    text = json.dumps(["dnc-desk-journal-1", *values], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _old_journal(path: Path, rows: int) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(_OLD_SCHEMA)
    prev = GENESIS_HASH
    for i in range(1, rows + 1):
        phone = f"+1202555{i:04d}"
        values: list[object] = [
            i, f"2026-11-20T10:00:0{i}.000000Z", "intent", None, "prod",
            "https://api.example.com", "dnc.delete", f"dnc:{phone} scope=global", phone,
            None, json.dumps({"phone": phone}), "", "", "job-old", "Ticket 1", prev,
        ]  # fmt: skip
        digest = _old_hash(values)
        db.execute(f"INSERT INTO journal VALUES ({', '.join('?' * 17)})", (*values, digest))
        prev = digest
    db.execute("INSERT INTO chain_head VALUES (1, ?, ?, ?)", (rows, prev, rows))
    db.close()


@pytest.fixture
def old_path(tmp_path: Path) -> Path:
    path = tmp_path / "journal.sqlite3"
    _old_journal(path, 3)
    return path


@pytest.fixture
def opened(old_path: Path) -> Iterator[ChangeJournal]:
    with ChangeJournal(old_path) as j:
        yield j


def _set_actor(path: Path, entry_id: int, actor: str) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("UPDATE journal SET actor = ? WHERE id = ?", (actor, entry_id))
    db.close()


def test_a_journal_made_before_actors_verifies_and_goes_on_with_them(
    opened: ChangeJournal,
) -> None:
    assert opened.verify().ok
    assert [e.actor for e in opened.query()] == ["", "", ""]
    new = opened.record_event(**CONN, operation="job.start", job="job-new")
    assert opened.get(new).actor == current_actor() != ""  # type: ignore[union-attr]
    verdict = opened.verify()
    assert verdict.ok and verdict.rows == 4
    assert opened.check_chain().ok


def test_an_edited_actor_breaks_the_chain(opened: ChangeJournal) -> None:
    new = opened.record_event(**CONN, operation="job.start", job="job-new")
    _set_actor(opened.path, new, "someone@ELSEWHERE")
    verdict = opened.verify()
    assert not verdict.ok and verdict.first_bad_id == new


def test_a_blanked_actor_breaks_the_chain(opened: ChangeJournal) -> None:
    # Blanking it would make a new entry hash as an old one: it must not pass for one.
    new = opened.record_event(**CONN, operation="job.start", job="job-new")
    _set_actor(opened.path, new, "")
    assert opened.verify().first_bad_id == new


def test_an_actor_given_to_an_old_entry_breaks_the_chain(opened: ChangeJournal) -> None:
    _set_actor(opened.path, 2, "maria@DESK-42")
    verdict = opened.verify()
    assert not verdict.ok and verdict.first_bad_id == 2
    assert set(opened.check_chain().breaks) == {2}


def test_the_actor_is_login_at_host_with_a_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    def fails() -> str:
        raise OSError("no login")

    current_actor.cache_clear()
    try:
        monkeypatch.setattr(getpass, "getuser", lambda: "maria")
        monkeypatch.setattr(socket, "gethostname", lambda: "DESK-42")
        assert current_actor() == "maria@DESK-42"
        current_actor.cache_clear()
        monkeypatch.setattr(getpass, "getuser", fails)
        monkeypatch.setattr(socket, "gethostname", fails)
        assert current_actor() == "unknown@unknown"
    finally:
        monkeypatch.undo()
        current_actor.cache_clear()
    assert journal_module.current_actor() == f"{getpass.getuser()}@{socket.gethostname()}"


def test_the_export_has_the_actor(opened: ChangeJournal, tmp_path: Path) -> None:
    opened.record_event(**CONN, operation="job.start", job="job-new")
    out = tmp_path / "journal.xlsx"
    opened.export_xlsx(out, opened.query())
    book = openpyxl.load_workbook(out, read_only=True)
    try:
        rows = list(book.active.iter_rows(values_only=True))  # type: ignore[union-attr]
    finally:
        book.close()
    assert list(rows[0]) == list(EXPORT_HEADERS)
    at = EXPORT_HEADERS.index("Actor")
    assert [r[at] for r in rows[1:]] == [current_actor(), None, None, None]
