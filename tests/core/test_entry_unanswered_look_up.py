"""An add or edit whose last attempt itself got no answer (the connection broke after the
service made the change, or before it got the request) is looked up, not reported "failed":
made as asked settles the write as done beside its failed outcome, unchanged as not done, and
a look-up that fails as not known (black-box bb10 F6: an SMS opt-out edit the service made was
said "Not saved" and journaled failed). Against the sandbox, whose drop fault cuts the answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.errors import TransportError
from app.api.models import DncEntry, SmsOptOut
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.entry_settle import (
    CONFIRMED,
    NOT_KNOWN,
    NOT_SAVED,
    SAVED,
    settle_unanswered_add,
    settle_unanswered_edit,
    unanswered,
)
from app.core.entry_validation import EntryKind, ValidEntry
from app.core.evidence import DONE, NOT_DONE, NOT_INSERTED, ON_THE_LIST, settle_writes
from app.core.evidence import NOT_KNOWN as PACK_NOT_KNOWN
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.core.write_drops import SandboxDropsWrites, unavailable

NUMBER = "7185550240"
KINDS = [(EntryKind.DNC, "dnc", "/dnc"), (EntryKind.SMS, "sms", "/sms-opt-out")]
IDS = ["dnc", "sms"]


@pytest.fixture
def make_session(
    wired_api: Any, sandbox: Any, tmp_path: Path
) -> Iterator[Callable[[SandboxDropsWrites], Session]]:
    journals: list[ChangeJournal] = []

    def make(wire: SandboxDropsWrites) -> Session:
        journals.append(ChangeJournal(tmp_path / f"journal{len(journals)}.sqlite3"))
        return Session(Connection("Test", sandbox.base_url), wired_api(wire), journals[-1])

    yield make
    for journal in journals:
        journal.close()


def _listed(api: ApiClient, kind: EntryKind) -> list[DncEntry | SmsOptOut]:
    if kind is EntryKind.DNC:
        return list(api.iter_dnc(DncQuery()))
    return list(api.iter_sms(DncQuery()))


def _edit(
    api: ApiClient, session: Session, kind: EntryKind, reason: str
) -> tuple[DncEntry | SmsOptOut, ValidEntry, TransportError]:
    """Change the one entry's reason through ``session``, whose answers are all lost."""
    insert = api.insert_dnc if kind is EntryKind.DNC else api.insert_sms
    insert(NUMBER, "1", Scope.global_(), reason="was")
    [before] = _listed(api, kind)
    valid = ValidEntry(NUMBER, "1", Scope.global_(), before.purpose, reason)
    with pytest.raises(TransportError) as raised:
        if isinstance(before, DncEntry):
            session.update_dnc(before, reason=reason)
        else:
            session.update_sms(before, reason=reason)
    assert unanswered(raised.value)
    return before, valid, raised.value


def _write(session: Session, operation: str) -> Any:
    [write] = [w for w in settle_writes(session.journal.query()) if w.intent.operation == operation]
    return write


@pytest.mark.parametrize(("kind", "op", "base"), KINDS, ids=IDS)
def test_edit_made_although_its_answer_was_lost_settles_saved(
    api: ApiClient, sandbox: Any, make_session: Any, kind: EntryKind, op: str, base: str
) -> None:
    wire = SandboxDropsWrites(sandbox, f"{base}/update")
    session = make_session(wire)
    before, valid, error = _edit(api, session, kind, "edited, answer lost")
    assert wire.dropped == 2  # both attempts' answers lost
    settled = settle_unanswered_edit(session, kind, before, valid, error)
    assert settled.state == SAVED and settled.entry is not None
    assert settled.entry.id == before.id
    assert settled.words.startswith(f"saved {CONFIRMED}: entry {before.id} (reason “edited")
    # The outcome row stays what the write got (failed); the event beside it settles it.
    write = _write(session, f"{op}.update")
    assert write.outcome.outcome == "failed"
    [event] = [e for e in session.journal.query() if e.operation == f"{op}.update.settled"]
    assert event.ref == write.intent.id
    assert write.result == DONE and CONFIRMED in write.words


@pytest.mark.parametrize(("kind", "op", "base"), KINDS, ids=IDS)
def test_edit_that_never_reached_the_service_settles_not_saved(
    api: ApiClient, sandbox: Any, make_session: Any, kind: EntryKind, op: str, base: str
) -> None:
    session = make_session(SandboxDropsWrites(sandbox, f"{base}/update", reach=False))
    before, valid, error = _edit(api, session, kind, "never sent through")
    settled = settle_unanswered_edit(session, kind, before, valid, error)
    assert settled.state == NOT_SAVED and settled.entry is None
    assert settled.words == (
        f"entry {before.id} (reason “was”, inserted {before.insert_date}) unchanged: the edit "
        "was not made; save it again"
    )
    write = _write(session, f"{op}.update")
    assert write.result == NOT_DONE and "found the entry unchanged" in write.words


@pytest.mark.parametrize(("kind", "op", "base"), KINDS, ids=IDS)
def test_edit_whose_look_up_fails_is_not_known(
    api: ApiClient, sandbox: Any, make_session: Any, kind: EntryKind, op: str, base: str
) -> None:
    wire = SandboxDropsWrites(sandbox, f"{base}/update", after_drop=unavailable)
    session = make_session(wire)
    before, valid, error = _edit(api, session, kind, "look-up fails")
    settled = settle_unanswered_edit(session, kind, before, valid, error)
    assert settled.state == NOT_KNOWN
    assert settled.words.startswith("nothing, as it failed too (")
    assert settled.words.endswith("search the list for the number before you save again")
    write = _write(session, f"{op}.update")
    assert write.result == PACK_NOT_KNOWN and "a look-up after it failed too" in write.words


@pytest.mark.parametrize("reach", [True, False], ids=["made", "never-reached"])
@pytest.mark.parametrize(("kind", "op", "base"), KINDS, ids=IDS)
def test_add_whose_answer_was_lost_is_looked_up(
    api: ApiClient,
    sandbox: Any,
    make_session: Any,
    kind: EntryKind,
    op: str,
    base: str,
    reach: bool,
) -> None:
    session = make_session(SandboxDropsWrites(sandbox, f"{base}/insert", reach=reach))
    valid = ValidEntry(NUMBER, "1", Scope.global_(), "", "added, answer lost")
    insert = session.insert_dnc if kind is EntryKind.DNC else session.insert_sms
    with pytest.raises(TransportError) as raised:
        insert(NUMBER, "1", Scope.global_(), reason=valid.reason, already_present_ok=False)
    assert unanswered(raised.value)
    settled = settle_unanswered_add(session, kind, valid, raised.value)
    write = _write(session, f"{op}.insert")
    assert write.outcome.outcome == "failed"
    if reach:
        [entry] = _listed(api, kind)
        assert settled.state == SAVED and settled.entry == entry
        assert settled.words.startswith(f"added {CONFIRMED}: entry {entry.id} (reason “added")
        assert write.result == ON_THE_LIST and CONFIRMED in write.words
    else:
        assert _listed(api, kind) == []
        assert settled.state == NOT_SAVED
        assert settled.words.endswith("in that scope: the add was not made; add it again")
        assert write.result == NOT_INSERTED
