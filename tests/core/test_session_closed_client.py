"""A write asked of a session whose client is closed (its token replaced) is refused before
its intent is journaled: the journal kept "failed | RuntimeError: the API client is closed"
for requests never made."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.concurrency import InFlightGate, holding_gate
from app.api.models import Lead
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.session import ClientClosed, Session
from tests.conftest import TOKEN


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    s = Session(Connection("Test", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal)
    yield s
    s.close()
    journal.close()


WRITES: dict[str, tuple[Callable[[Session], object], str]] = {
    "dnc insert": (
        lambda s: s.insert_dnc("2025550123", "1", Scope.global_()),
        "Adding +12025550123 to the DNC list was not sent",
    ),
    "sms insert": (
        lambda s: s.insert_sms("2025550123", "1", Scope.global_()),
        "Adding +12025550123 to the SMS opt-out list was not sent",
    ),
    "dnc delete": (
        lambda s: s.delete_dnc("2025550123", "1", Scope.global_()),
        "Removing +12025550123 from the DNC list was not sent",
    ),
    "lead status": (
        lambda s: s.restatus_lead(
            Lead("7", "1", "NEW", "2025550123", "1", "", "", "", ""),
            "DNC",
        ),
        "Setting the status of lead id=7 was not sent",
    ),
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_a_closed_client_is_refused_before_the_journal(session: Session, name: str) -> None:
    write, sentence = WRITES[name]
    session.close()
    with pytest.raises(ClientClosed) as refused:
        write(session)
    text = str(refused.value)
    assert text.startswith(sentence), text
    assert text.endswith("do it again.") and text.count(". ") == 0, text
    assert session.journal.query(limit=100) == []


def test_an_open_client_still_writes(session: Session, sandbox: Any) -> None:
    session.insert_dnc("2025550123", "1", Scope.global_())
    with ApiClient(sandbox.base_url, TOKEN) as api:
        assert [e.phone_number for e in api.iter_dnc(DncQuery())] == ["2025550123"]
    assert [e.outcome for e in session.journal.query(limit=100) if e.outcome] == ["ok"]


def _write_on_a_thread(session: Session, gate: InFlightGate) -> tuple[threading.Thread, list[Any]]:
    ended: list[Any] = []

    def write() -> None:
        with holding_gate(gate):
            try:
                ended.append(session.insert_dnc("2025550123", "1", Scope.global_()))
            except BaseException as exc:
                ended.append(exc)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread, ended


def test_a_write_waiting_at_a_paused_gate_when_the_client_closes_is_not_journaled(
    session: Session, sandbox: Any
) -> None:
    """A job paused while its token is replaced: the write its worker had begun waits at the
    job's gate, and the close comes before it is sent. It was journaled "not_attempted … was
    not sent" (1 run in 6 of tests/ui/test_job_new_token.py); it is refused before its
    intent now, so the journal holds nothing of it."""
    paused = threading.Event()
    paused.set()
    thread, ended = _write_on_a_thread(session, InFlightGate(1, pause=paused))
    time.sleep(0.3)  # the write is past the session's check, waiting at the gate
    session.close()
    paused.clear()
    thread.join(10)
    assert len(ended) == 1 and isinstance(ended[0], ClientClosed), ended
    assert str(ended[0]).startswith("Adding +12025550123 to the DNC list was not sent")
    assert session.journal.query(limit=100) == []
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0


def test_a_write_journaled_before_the_close_is_sent(session: Session, sandbox: Any) -> None:
    """Once its intent is journaled the write goes on the wire on the closing client: a
    write journaled is a write sent, never a "not sent" record beside it."""
    sandbox.set_faults(latency_ms=400)
    thread, ended = _write_on_a_thread(session, InFlightGate(1))
    deadline = time.monotonic() + 10
    while not session.journal.query(limit=100) and time.monotonic() < deadline:
        time.sleep(0.01)
    session.close()
    thread.join(10)
    assert len(ended) == 1 and not isinstance(ended[0], BaseException), ended
    rows = session.journal.query(limit=100)
    assert [e.outcome for e in rows if e.outcome] == ["ok"], [e.error for e in rows]
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 1
