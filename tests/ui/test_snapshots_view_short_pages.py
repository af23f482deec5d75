"""Black-box pass R1, the Snapshots tab: a snapshot missing entries a service counted but its
pages did not give (a page shorter than asked, then none, before the total) said they could
not be read because "no search of the service reaches them" — the paging cap's reason, not
theirs. It now says the service counted them but did not give them
(:func:`app.core.snapshots.unread_reason`).

The service is the sandbox on loopback, its answers cut short on the way back
(:class:`ShortWire`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.snapshots import SnapshotData
from app.ui.snapshots_view import SnapshotsView
from app.ui.tasks import TaskRunner
from tests.conftest import TOKEN
from tests.core.test_export_short_pages import ShortWire, nothing_from

TIMEOUT = 30_000


@pytest.fixture
def short_session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    """A session on the sandbox whose search answers stop at the 2,000th row."""
    session = Session(
        Connection("Short", sandbox.base_url),
        ApiClient(
            sandbox.base_url,
            TOKEN,
            http_transport=ShortWire(nothing_from(2_000)),
            retry=RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01),
        ),
        ChangeJournal(tmp_path / "journal.sqlite3"),
    )
    yield session
    session.close()
    session.journal.close()


def test_a_snapshot_short_of_rows_the_service_did_not_give_says_so(
    qtbot: Any, sandbox: Any, runner: TaskRunner, short_session: Session
) -> None:
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(2_500))
    view = SnapshotsView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.snapshots_loaded, timeout=TIMEOUT):
        view.set_session(short_session)
    with qtbot.waitSignal(view.snapshots_loaded, timeout=TIMEOUT):
        with qtbot.waitSignal(view.snapshot_saved, timeout=TIMEOUT) as saved:
            view.save_button.click()
    data = saved.args[0]
    assert isinstance(data, SnapshotData)
    assert (len(data.entries), data.unreachable, data.not_given) == (2_000, 500, 500)
    text = view.status_text()
    assert "Snapshot saved: 2,000 of 2,500 entries; 500 could not be read (" in text
    assert "the service counted them but did not give them" in text
    assert "fewer rows than asked before the end of the result" in text
    assert "no search of the service reaches" not in text
    assert "so the copy is incomplete" in text
