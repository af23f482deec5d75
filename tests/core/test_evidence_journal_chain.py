"""Black-box pass R4 #4: an evidence pack included change-journal entries without checking the
journal's hash chain. An entry whose ``after`` was edited to "TAMPERED" with a SQL tool was
shown in the pack's Journal sheet as the record, and the Summary said only how many entries
there were. The pack now checks the whole chain: its Summary says whether the chain held and
which of its entries are at a break, and the Journal sheet marks them.

The journal is a real file in ``tmp_path``, written through the sandbox on loopback, and
edited with :mod:`sqlite3` the way the tester did.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from python_calamine import CalamineWorkbook

from app.api.scope import Scope
from app.core.evidence import gather_evidence, write_evidence_xlsx
from app.core.journal import ChangeJournal, hash_values
from app.core.session import Session

NUMBER = "+12025550123"


def _journal_with_writes(session: Session) -> list[int]:
    """Three writes of the number, one of another: the ids of the number's entries."""
    session.insert_dnc("2025550123", "1", Scope.global_(), reason="consumer called")
    session.insert_dnc("2025550999", "1", Scope.global_(), reason="another number")
    session.insert_sms("2025550123", "1", Scope.purpose("Marketing"), reason="STOP")
    return sorted(e.id for e in session.journal.query(phone=NUMBER))


def _edit(path: Path, sql: str, *params: object) -> None:
    db = sqlite3.connect(path)
    try:
        with db:
            db.execute(sql, params)
    finally:
        db.close()


def _sheets(path: Path) -> tuple[dict[str, object], list[list[object]]]:
    book = CalamineWorkbook.from_path(str(path))
    summary = {str(r[0]): r[1] for r in book.get_sheet_by_name("Summary").to_python()}
    return summary, book.get_sheet_by_name("Journal").to_python()


def test_an_entry_edited_with_sqlite_is_marked_and_the_summary_says_the_chain_broke(
    session: Session, tmp_path: Path
) -> None:
    ids = _journal_with_writes(session)
    edited = ids[0]  # the intent of the DNC insert, holding the reason
    _edit(
        session.journal.path,
        "UPDATE journal SET after = ? WHERE id = ?",
        json.dumps({"reason": "TAMPERED"}),
        edited,
    )

    pack = gather_evidence(session.api, session.journal, None, "202-555-0123", "1")
    assert pack.journal_verified is False
    assert list(pack.journal_breaks) == [edited]
    assert "does not match its hash" in pack.journal_breaks[edited]

    out = tmp_path / "ev.xlsx"
    write_evidence_xlsx(pack, out)
    summary, journal = _sheets(out)
    assert str(summary["Journal chain"]).startswith("The change journal was altered")
    assert summary["Journal entries at a break"] == str(edited)
    header, rows = journal[0], journal[1:]
    chain = {int(float(str(r[0]))): str(r[header.index("Chain")]) for r in rows}
    assert chain[edited].startswith("BROKEN: it does not match its hash")
    assert {i: c for i, c in chain.items() if i != edited} == dict.fromkeys(ids[1:], "ok")


def test_an_intact_journal_is_said_to_be_intact(session: Session, tmp_path: Path) -> None:
    ids = _journal_with_writes(session)
    pack = gather_evidence(session.api, session.journal, None, "202-555-0123", "1")
    assert pack.journal_verified is True
    out = tmp_path / "ev.xlsx"
    write_evidence_xlsx(pack, out)
    summary, journal = _sheets(out)
    assert summary["Journal chain"] == "The change journal is intact (6 entries checked)."
    assert summary["Journal entries at a break"] == "none"
    assert [r[journal[0].index("Chain")] for r in journal[1:]] == ["ok"] * len(ids)


def test_an_entry_moved_to_another_number_breaks_the_chain_the_pack_reports(
    session: Session,
) -> None:
    # An entry hidden from the number's pack (its phone changed) is not among the pack's
    # entries, but the chain it breaks is the journal's: the Summary says so all the same.
    ids = _journal_with_writes(session)
    _edit(session.journal.path, "UPDATE journal SET phone = '+12025550100' WHERE id = ?", ids[0])
    pack = gather_evidence(session.api, session.journal, None, "202-555-0123", "1")
    assert ids[0] not in {e.id for e in pack.journal}
    assert pack.journal_verified is False
    assert pack.journal_breaks == {}
    assert pack.journal_chain is not None and list(pack.journal_chain.breaks) == [ids[0]]


def test_a_rewritten_entry_with_a_new_hash_and_a_deleted_one_are_both_found(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite3"
    with ChangeJournal(path) as journal:
        for n in range(6):
            journal.record_event(connection="c", base_url="u", operation="op", note=f"n{n}")
    # Entry 2 rewritten with its hash recomputed: entry 3 no longer follows it.
    db = sqlite3.connect(path)
    try:
        with db:
            row = list(db.execute("SELECT * FROM journal WHERE id = 2").fetchone())
            row[14] = "rewritten"  # note
            row[16] = hash_values(row[:-1])
            db.execute("UPDATE journal SET note = ?, hash = ? WHERE id = 2", (row[14], row[16]))
            db.execute("DELETE FROM journal WHERE id = 5")
    finally:
        db.close()
    with ChangeJournal(path) as journal:
        found = journal.check_chain()
        # verify() stops at the first break; check_chain names every one.
        assert journal.verify().first_bad_id == 3
    assert not found.ok
    assert sorted(found.breaks) == [2, 3, 6]
    assert "the entry after it (3) does not follow it" in found.breaks[2]
    assert "entry 5 was deleted before it" in found.breaks[6]
    assert found.rows == 5


def test_the_latest_entries_deleted_mark_the_last_one_left(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with ChangeJournal(path) as journal:
        for n in range(4):
            journal.record_event(connection="c", base_url="u", operation="op", note=f"n{n}")
    _edit(path, "DELETE FROM journal WHERE id = 4")
    with ChangeJournal(path) as journal:
        found = journal.check_chain()
    assert not found.ok
    assert list(found.breaks) == [3]
    assert "the latest entry 4 was deleted" in found.message


def test_a_job_start_is_warned_once_of_a_broken_chain_and_still_writes(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with ChangeJournal(path) as journal:
        journal.record_event(connection="c", base_url="u", operation="op", note="first")
        journal.record_event(connection="c", base_url="u", operation="op", note="second")
    _edit(path, "UPDATE journal SET note = 'TAMPERED' WHERE id = 1")
    with ChangeJournal(path) as journal:
        warning = journal.chain_warning()
        assert warning is not None and warning.startswith("The change journal was altered")
        assert journal.chain_warning() is None  # said once
        assert journal.record_event(connection="c", base_url="u", operation="job.start") == 3
    with ChangeJournal(path) as journal:
        assert list(journal.check_chain().breaks) == [1]  # the new entry chains on
    intact = tmp_path / "intact.sqlite3"
    with ChangeJournal(intact) as journal:
        journal.record_event(connection="c", base_url="u", operation="op")
        assert journal.chain_warning() is None
