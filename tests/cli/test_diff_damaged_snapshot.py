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
