"""Black-box bb16 F9: one digit flipped in a snapshot's stored number (3036193448 ->
3036193449, a bad sector's work) passed SQLite's quick check, and diff reported "1 changed",
exit 3: damage read as a change of the list that never happened. Now diff names the snapshot
damaged (exit 1): SQLite's integrity check compares the number's index with the table, and a
snapshot keeps a digest of its entries, which also finds a flip in a value no index holds
(a reason). Snapshots written by save_snapshot, damaged in their bytes on disk."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.audit_types import ListKind
from app.core.snapshots import (
    SnapshotData,
    SnapshotEntry,
    SnapshotPart,
    integrity_problem,
    save_snapshot,
)


def _snapshot(folder: Path, taken: str) -> Path:
    data = SnapshotData(ListKind.DNC, Scope.global_(), "Test", "http://x", taken, 3)
    data.entries = [
        SnapshotEntry(str(n), f"30361934{n:02d}", "1", "0", "", "", "State DNC registry", "")
        for n in range(47, 50)
    ]
    data.parts = [SnapshotPart("global", 3, 3, 0)]
    return save_snapshot(data, folder)


def _flip_in_table(path: Path, old: bytes, new: bytes) -> None:
    """Overwrite ``old`` with ``new`` (as long) in the entries table's page only: its index,
    if it holds the value, keeps the old one."""
    with sqlite3.connect(path) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'entries'").fetchone()
    db.close()
    raw = bytearray(path.read_bytes())
    start = (root - 1) * page_size
    at = raw.index(old, start, start + page_size)
    raw[at : at + len(new)] = new
    path.write_bytes(bytes(raw))


def _without_digest(path: Path) -> None:
    """As a snapshot saved before snapshots kept their digest."""
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM meta WHERE key = 'entries_sha256'")
    db.close()


def _quick_check_passes(path: Path) -> bool:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        ok = db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    db.close()
    return ok


def _diff(capsys: pytest.CaptureFixture[str], good: Path, bad: Path) -> tuple[int, str]:
    status = main(["diff", str(good), str(bad)])
    out, err = capsys.readouterr()
    assert "changed" not in out, out
    return status, err


@pytest.mark.parametrize("digest", [True, False], ids=["digest", "saved-before-digests"])
def test_a_digit_flipped_in_a_stored_number_is_damage_not_a_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], digest: bool
) -> None:
    good = _snapshot(tmp_path / "a", "2026-11-20T10:00:00.000000Z")
    bad = _snapshot(tmp_path / "b", "2026-11-20T10:00:00.000000Z")
    if not digest:
        _without_digest(bad)
    _flip_in_table(bad, b"3036193448", b"3036193449")
    assert _quick_check_passes(bad)  # the check used before does not see it

    status, err = _diff(capsys, good, bad)
    assert status == 1, err
    assert err.startswith(f"dnc-desk diff: {bad} is a damaged DNC Desk snapshot: "), err
    assert err.rstrip().endswith("Keep it for review, and compare another copy.")


def test_a_flip_in_a_value_no_index_holds_is_found_by_the_digest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _snapshot(tmp_path / "a", "2026-11-20T10:00:00.000000Z")
    bad = _snapshot(tmp_path / "b", "2026-11-20T10:00:00.000000Z")
    _flip_in_table(bad, b"State DNC", b"State DMC")
    assert _quick_check_passes(bad)

    status, err = _diff(capsys, good, bad)
    assert status == 1, err
    assert err.strip() == (
        f"dnc-desk diff: {bad} is a damaged DNC Desk snapshot: its entries are not those it "
        "was saved with (their digest, kept in it when it was saved, differs). Keep it for "
        "review, and compare another copy."
    )
    # A copy not damaged still diffs as it did.
    assert main(["diff", str(good), str(good)]) == 0
    assert "0 added, 0 removed, 0 changed." in capsys.readouterr().out


def test_evidence_check_names_both_flips(tmp_path: Path) -> None:
    number = _snapshot(tmp_path / "a", "2026-11-20T10:00:00.000000Z")
    reason = _snapshot(tmp_path / "b", "2026-11-20T10:00:00.000000Z")
    whole = _snapshot(tmp_path / "c", "2026-11-20T10:00:00.000000Z")
    _without_digest(number)
    _flip_in_table(number, b"3036193448", b"3036193449")
    _flip_in_table(reason, b"State DNC", b"State DMC")
    # An evidence pack leaves out a snapshot so found (integrity_problem is not None).
    assert integrity_problem(number) == ""
    assert integrity_problem(reason) == "its entries are not those it was saved with"
    assert integrity_problem(whole) is None
