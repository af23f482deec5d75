"""A write asked of a session whose client is closed (its token replaced) is refused before
its intent is journaled: the journal kept "failed | RuntimeError: the API client is closed"
for requests never made."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
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
