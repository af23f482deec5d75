"""A snapshot stopped or failing while its file is written leaves no ``.part`` behind, and one a
killed process left a day ago is removed by the next snapshot (black-box B23 F4: SIGINT at
1.5 s left ``dnc-all-…Z.sqlite3.part`` in data/snapshots, which nothing ever removed). A
cancelled snapshot ends a request waiting for its answer too (the export's B23 F1)."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest

from app.api.client import ApiClient
from app.api.paging import Cancelled
from app.core.audit_types import ListKind
from app.core.snapshots import SnapshotData, fetch_list, save_snapshot

TOKEN = "zq-9f8e7d6c5b4a-token"


class _StoppedHere:
    """An entry whose fields cannot be read: as Ctrl+C arriving while the rows are written."""

    def __getattr__(self, name: str) -> str:
        raise KeyboardInterrupt


def _data() -> SnapshotData:
    return SnapshotData(ListKind.DNC, None, "Sandbox", "http://x", "2026-11-24T10:00:00.0Z", 1)


def test_a_snapshot_stopped_while_written_leaves_no_part(tmp_path: Path) -> None:
    data = _data()
    data.entries = [_StoppedHere()]  # type: ignore[list-item]
    with pytest.raises(KeyboardInterrupt):
        save_snapshot(data, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_snapshot_failing_while_written_leaves_no_part(tmp_path: Path) -> None:
    data = _data()
    data.entries = [object()]  # type: ignore[list-item]
    with pytest.raises(AttributeError):
        save_snapshot(data, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_day_old_part_is_removed_and_a_fresh_one_kept(tmp_path: Path) -> None:
    old = tmp_path / "dnc-all-20261120T100000-000000Z.sqlite3.part"
    fresh = tmp_path / "dnc-all-20261124T095900-000000Z.sqlite3.part"
    other = tmp_path / "notes.part"  # not a snapshot's
    for path in (old, fresh, other):
        path.write_bytes(b"rows")
    day_ago = time.time() - 25 * 3600
    os.utime(old, (day_ago, day_ago))
    os.utime(other, (day_ago, day_ago))
    saved = save_snapshot(_data(), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [saved.name, fresh.name, other.name]
    )


def test_a_cancel_ends_a_snapshot_waiting_on_a_silent_service() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    conns: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conns.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    cancel = threading.Event()
    api = ApiClient(f"http://127.0.0.1:{listener.getsockname()[1]}", TOKEN)
    try:
        timer = threading.Timer(1.0, cancel.set)
        timer.start()
        started = time.monotonic()
        with pytest.raises(Cancelled):
            fetch_list(api, ListKind.DNC, cancel=cancel)
        # Far under the read timeout and its retries: a bound on behaviour, not on speed.
        assert time.monotonic() - started < 8
    finally:
        api.close()
        listener.close()
        for conn in conns:
            conn.close()
