"""Task fx13 #1: the chain check's sentences are true of what was done to the journal file.

Entry 6 of 10 deleted was said as "it ends at entry 10 but 10 entries were recorded (the latest
were deleted)", the last entry marked as if those after it were gone, and one deleted entry as
"entry 6 before it in the chain were deleted". Each case here tampers with a real journal
file through sqlite3 and reads what ``check_chain`` (evidence, journal tab, ``journal verify``)
and ``verify`` say."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.core.journal import ChangeJournal


def _journal(tmp_path: Path, tamper: str) -> ChangeJournal:
    path = tmp_path / "journal.sqlite3"
    with ChangeJournal(path) as journal:
        for n in range(10):
            journal.record_event(connection="c", base_url="u", operation="op", note=f"n{n}")
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute(tamper)
    finally:
        db.close()
    return ChangeJournal(path)


@pytest.mark.parametrize(
    ("tamper", "said", "marked", "verify_said"),
    [
        (
            "DELETE FROM journal WHERE id = 6",
            "(9 entries checked): entry 6 was deleted; 1 entry is at a break in its chain (7).",
            {7: "entry 6 was deleted before it"},
            "entry 6 was deleted (entry 7 does not follow the entry before it).",
        ),
        (
            "DELETE FROM journal WHERE id IN (3, 6, 7)",
            "(7 entries checked): 3 entries were deleted (3, 6, 7); 2 entries are at a break",
            {4: "entry 3 was deleted before it", 8: "entries 6 and 7 were deleted before it"},
            "entry 3 was deleted (entry 4 does not follow the entry before it).",
        ),
        (
            "DELETE FROM journal WHERE id = 10",
            "(9 entries checked): the latest entry 10 was deleted (the chain head records 10 "
            "entries up to entry 10)",
            {9: "entry 10 was deleted after it"},
            "the latest entry 10 was deleted (the chain head records 10 entries up to entry 10).",
        ),
        (
            "DELETE FROM journal WHERE id > 7",
            "(7 entries checked): the latest entries 8 to 10 were deleted",
            {7: "entries 8 to 10 were deleted after it"},
            "the latest entries 8 to 10 were deleted (the chain head records 10 entries up to "
            "entry 10).",
        ),
        (
            "UPDATE journal SET note = 'TAMPERED' WHERE id = 4",
            "(10 entries checked): entry 4 was edited (it does not match its hash)",
            {4: "it does not match its hash (it was edited)"},
            "entry 4 does not match its hash (it was edited).",
        ),
        (
            "UPDATE chain_head SET rows = rows + 2",
            "(10 entries checked): the chain head does not match the entries (the head records "
            "12 entries up to entry 10; the journal has 10 up to entry 10): the head was edited",
            {10: "it does not match the recorded chain head"},
            "the head was edited, or the file replaced with another copy.",
        ),
        (
            "UPDATE chain_head SET last_id = 12",
            "the head records 10 entries up to entry 12; the journal has 10 up to entry 10",
            {10: "it does not match the recorded chain head"},
            "the head was edited, or the file replaced with another copy.",
        ),
    ],
    ids=["middle", "several", "latest", "latest-three", "edited", "head-rows", "head-last-id"],
)
def test_each_tampering_is_said_as_what_was_done(
    tmp_path: Path, tamper: str, said: str, marked: dict[int, str], verify_said: str
) -> None:
    with _journal(tmp_path, tamper) as journal:
        found, verdict = journal.check_chain(), journal.verify()
    assert not found.ok and not verdict.ok
    assert said in found.message, found.message
    assert dict(found.breaks) == marked
    assert verdict.message.endswith(verify_said), verdict.message
    # Nothing is said that was not done: no "latest" deletion unless the head's last id is
    # past the entries, no "were" for one entry.
    if "latest" not in tamper and "id = 10" not in tamper and "id > 7" not in tamper:
        assert "latest" not in found.message and "latest" not in verdict.message
    assert "entry 6 before it in the chain were" not in found.message
