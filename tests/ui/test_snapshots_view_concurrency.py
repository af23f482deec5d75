"""The Snapshots tab reads a list as ``snapshot --concurrency 8`` does: eight requests at a
time, counts and parts alike (it read the split's parts one after the other, its counts four at
a time), and saves the same copy as one request at a time.

The service is the sandbox on loopback, slowed a little so requests overlap; what it had at
once is the sandbox's own count of requests in flight.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.core.audit_types import ListKind
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.snapshots import SnapshotData, take_snapshot
from app.ui.snapshots_view import SnapshotsView
from app.ui.tasks import TaskRunner
from tests.core.test_snapshot_concurrency import SMALL_CAP, _seed

TIMEOUT = 60_000


@pytest.fixture(autouse=True)
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.core.snapshots.limits_of", lambda kind: SMALL_CAP)


def test_the_tab_reads_eight_requests_at_a_time_and_saves_the_serial_copy(
    qtbot: Any, sandbox: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    _seed(sandbox)
    sandbox.set_faults(latency_ms=5)
    view = SnapshotsView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.snapshots_loaded, timeout=TIMEOUT):
        view.set_session(session)
    view.list_combo.setCurrentIndex(view.list_combo.findData(ListKind.SMS))
    sandbox.faults.most_in_flight = 0
    with qtbot.waitSignal(view.snapshots_loaded, timeout=TIMEOUT):
        with qtbot.waitSignal(view.snapshot_saved, timeout=TIMEOUT) as saved:
            view.save_button.click()
    data = saved.args[0]
    assert isinstance(data, SnapshotData)
    assert 4 < sandbox.faults.most_in_flight <= 8
    serial = take_snapshot(session.api, ListKind.SMS, None, tmp_path / "serial", concurrency=1)
    assert (data.reported_total, len(data.entries), data.unreachable) == (5_150, 4_650, 500)
    assert data.entries == serial.entries and data.parts == serial.parts
