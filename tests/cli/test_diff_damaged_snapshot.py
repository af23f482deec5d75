"""A snapshot whose bytes were damaged inside (a reason no longer UTF-8) is named by diff, in one
sentence without the damaged bytes (black-box B37 F3: "A file of the app's could not be read
(Could not decode to UTF-8 column 'reason' with text 'Consume��…')", naming neither copy)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.audit_types import ListKind
from app.core.snapshots import SnapshotData, SnapshotEntry, SnapshotPart, save_snapshot


def _snapshot(folder: Path, taken: str) -> Path:
    data = SnapshotData(ListKind.DNC, Scope.global_(), "Test", "http://x", taken, 3)
    data.entries = [
        SnapshotEntry(str(n), f"30355512{n:02d}", "1", "0", "Consumer asked", "", "", "")
        for n in range(1, 4)
    ]
    data.parts = [SnapshotPart("global", 3, 3, 0)]
    return save_snapshot(data, folder)


def test_a_snapshot_damaged_inside_is_named_by_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _snapshot(tmp_path / "a", "2026-11-20T10:00:00.000000Z")
    bad = _snapshot(tmp_path / "b", "2026-11-21T10:00:00.000000Z")
    with sqlite3.connect(bad) as db:  # as a flipped byte leaves it: no longer UTF-8
        db.execute("UPDATE entries SET reason = CAST(x'436f6e73756d6572ff' AS TEXT) WHERE id = '2'")
    said = (
        f"{bad} is a damaged DNC Desk snapshot: its entries could not be read. Keep it for "
        "review, and compare another copy."
    )
    status = main(["diff", str(good), str(bad), "--json"])
    out, err = capsys.readouterr()
    assert (status, err.strip()) == (1, f"dnc-desk diff: {said}")
    assert json.loads(out) == {"error": said, "exit_status": 1}


def _damage_index(path: Path, index: str) -> None:
    """Overwrite the cells of ``index``'s root page, as a bad disk sector does: the entries
    stay readable by rowid, the file is no longer whole."""
    with sqlite3.connect(path) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        (root,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", (index,)
        ).fetchone()
    db.close()
    with path.open("r+b") as f:
        f.seek((root - 1) * page_size)
        page = f.read(page_size)
        cells = int.from_bytes(page[5:7], "big")  # where the page's cells start
        f.seek((root - 1) * page_size + cells)
        f.write(b"\xa5" * (page_size - cells))


def test_a_snapshot_damaged_in_an_index_page_is_named_by_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # black-box bb12 F7: "0 added, 0 removed, 0 changed.", exit 0, for a malformed file.
    good = _snapshot(tmp_path / "a", "2026-11-20T10:00:00.000000Z")
    bad = _snapshot(tmp_path / "b", "2026-11-21T10:00:00.000000Z")
    _damage_index(bad, "entries_phone")
    with sqlite3.connect(f"file:{bad}?mode=ro", uri=True) as db:  # still reads by rowid
        assert len(db.execute("SELECT * FROM entries ORDER BY rowid").fetchall()) == 3
    db.close()
    said = (
        f"{bad} is a damaged DNC Desk snapshot: its entries could not be read. Keep it for "
        "review, and compare another copy."
    )
    for argv in (["diff", str(good), str(bad)], ["diff", str(bad), str(good)]):
        status = main([*argv, "--json"])
        out, err = capsys.readouterr()
        assert (status, err.strip()) == (1, f"dnc-desk diff: {said}")
        assert json.loads(out) == {"error": said, "exit_status": 1}
