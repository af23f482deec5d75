"""HealthView with entries no search reaches (black-box bb11 F8, F9, as the CLI's health):
the window said "0 findings." and nothing of the 500 entries of each list it had not read, and
named gap numbers by their bare national digits. Now it warns, counts per scope the numbers
whose gap is not known (listing them as such, not as gaps), and names gap numbers with their
country code and the id they have on their list.

A cap of 2,000 (3,000 entries reachable at 1,000 a page) stands in for the service's 100,000.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.api.limits import PageLimits
from app.api.scope import Scope
from app.core.paths import AppPaths
from app.core.session import Session
from app.sandbox.params import now_timestamp
from app.ui.health_view import HealthView
from app.ui.tasks import TaskRunner

TIMEOUT = 60_000
SMALL_CAP = PageLimits("/dnc/search", default_limit=100, max_limit=1000, max_offset=2000)
UK = [f"79111{i:05d}" for i in range(3_500)]  # 500 past what one search reaches


@pytest.fixture(autouse=True)
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.core.snapshots.limits_of", lambda kind: SMALL_CAP)


def _seed(session: Session, sandbox: Any) -> None:
    """The same +44 numbers on both lists, the SMS ones read from the other end, so each
    list's unread part is the other's read one; and one real gap each way under +1."""
    sandbox.bulk_seed_dnc((n, "44", "0", "req", "") for n in UK)
    stamp = now_timestamp()
    sandbox.store.executemany(
        "INSERT INTO sms_opt_out(phone_number, phone_code, campaign_id, reason, purpose,"
        " insert_date) VALUES (?, '44', 0, 'req', '', ?)",
        ((n, stamp) for n in reversed(UK)),
    )
    session.api.insert_sms("3035550101", "1", Scope.global_(), reason="STOP")
    session.api.insert_dnc("3035550177", "1", Scope.global_(), reason="asked")


def _rows(view: HealthView) -> dict[str, int]:
    model = view.finding_model
    return {
        str(model.index(r, 1).data()): int(model.index(r, 2).data())
        for r in range(model.rowCount())
    }


def test_unread_entries_are_warned_of_and_not_known_gaps_counted(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any
) -> None:
    _seed(session, sandbox)
    view = HealthView(runner, AppPaths.default())
    qtbot.addWidget(view)
    view.show()
    view.set_session(session)
    with qtbot.waitSignal(view.check_finished, timeout=TIMEOUT):
        view.check_button.click()
    text = view.summary.text()
    assert (
        "Warning: 500 entries of the DNC list (no search of the service reaches them) and 500 "
        "entries of the SMS opt-out list (no search of the service reaches them) could not be "
        "read: findings among them are not known" in text
    )
    assert "check a number with the Evidence tab." in text
    rows = _rows(view)
    assert rows["global: on the SMS opt-out list, not on the DNC list"] == 1
    assert rows["global: on the DNC list, not on the SMS opt-out list"] == 1
    not_known = "on the {} list; on the {} list not known (its entries were not all read)"
    assert rows["global: " + not_known.format("SMS opt-out", "DNC")] == 500
    assert rows["global: " + not_known.format("DNC", "SMS opt-out")] == 500
    # Not-known numbers are no findings.
    assert text.startswith("2 findings.")

    # Gap numbers as the CLI names them: +code digits, with the id on their one list.
    view.finding_table.selectRow(
        next(
            r
            for r in range(view.finding_table.model().rowCount())
            if view.finding_table.model().index(r, 1).data()
            == "global: on the SMS opt-out list, not on the DNC list"
        )
    )
    entries = view.entry_model
    assert entries.rowCount() == 1
    assert entries.headerData(0, Qt.Orientation.Horizontal) == "SMS opt-out id"
    assert entries.index(0, 1).data() == "+13035550101"
