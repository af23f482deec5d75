"""Black-box bb16 F10: an add whose answer was lost, for a number listed as asked since 2023,
was "added (answer lost; confirmed by a look-up)" and journaled as made by this add. The
look-up now weighs the entry's insert date: one older than the add by more than the
service's unknown time zone allows was there already; it is said so and journaled as a
``.checked`` event, which the evidence pack reads as "on the list before the add". An entry
dated within that margin may still be the add's own and confirms it, as before.

Against the sandbox: its entry is seeded with the insert date wanted, and the add's requests
never reach it (:class:`SandboxDropsWrites` with ``reach=False``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.errors import TransportError
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.entry_settle import CONFIRMED, NOT_SAVED, SAVED, settle_unanswered_add
from app.core.entry_validation import EntryKind, ValidEntry
from app.core.evidence import LISTED_BEFORE_ADD, ON_THE_LIST, settle_writes
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.core.write_drops import SandboxDropsWrites

NUMBER = "3036193448"
REASON = "State DNC registry"
KINDS = [(EntryKind.DNC, "dnc", "/dnc"), (EntryKind.SMS, "sms", "/sms-opt-out")]
IDS = ["dnc", "sms"]


@pytest.fixture
def lost_add(
    wired_api: Any, sandbox: Any, tmp_path: Path
) -> Iterator[Callable[[EntryKind, str, str], tuple[Session, Any]]]:
    """``add(kind, base, insert_date)``: the number seeded on ``kind``'s list with that insert
    date, then an add of it as listed whose requests never reach the service, settled by the
    look-up; returns the session and the look-up's finding."""
    journals: list[ChangeJournal] = []

    def add(kind: EntryKind, base: str, insert_date: str) -> tuple[Session, Any]:
        table = "dnc" if kind is EntryKind.DNC else "sms_opt_out"
        sandbox.store.execute(
            f"INSERT INTO {table}(phone_number, phone_code, campaign_id, reason, purpose,"
            " insert_date) VALUES (?, '1', 0, ?, '', ?)",
            (NUMBER, REASON, insert_date),
        )
        journals.append(ChangeJournal(tmp_path / f"journal{len(journals)}.sqlite3"))
        wire = SandboxDropsWrites(sandbox, f"{base}/insert", reach=False)
        session = Session(Connection("Test", sandbox.base_url), wired_api(wire), journals[-1])
        insert = session.insert_dnc if kind is EntryKind.DNC else session.insert_sms
        with pytest.raises(TransportError) as raised:
            insert(NUMBER, "1", Scope.global_(), reason=REASON, already_present_ok=False)
        valid = ValidEntry(NUMBER, "1", Scope.global_(), "", REASON)
        return session, settle_unanswered_add(session, kind, valid, raised.value)

    yield add
    for journal in journals:
        journal.close()


@pytest.mark.parametrize(("kind", "op", "base"), KINDS, ids=IDS)
def test_an_entry_listed_years_before_the_add_is_not_called_its_work(
    lost_add: Any, kind: EntryKind, op: str, base: str
) -> None:
    session, settled = lost_add(kind, base, "2023-06-10 23:25:58")
    listed = "DNC list" if kind is EntryKind.DNC else "SMS opt-out list"
    assert settled.state == NOT_SAVED and settled.entry is None
    assert settled.words.startswith(
        f"the number already on the {listed} since 2023-06-10 23:25:58 (entry "
    )
    assert settled.words.endswith(
        f", reason “{REASON}”), before this add began: this add did not make it"
    )
    assert CONFIRMED not in settled.words
    events = [e.operation for e in session.journal.query() if e.phase == "event"]
    assert events == [f"{op}.insert.checked"]  # not .settled: the add did not make it
    [write] = settle_writes(session.journal.query())
    assert write.result == LISTED_BEFORE_ADD
    assert "already on the" in write.words and "2023-06-10" in write.words


@pytest.mark.parametrize(("kind", "op", "base"), KINDS, ids=IDS)
def test_a_bare_date_two_days_back_is_before_the_add_too(
    lost_add: Any, kind: EntryKind, op: str, base: str
) -> None:
    day = (dt.datetime.now(dt.UTC) - dt.timedelta(days=3)).strftime("%Y-%m-%d")
    _session, settled = lost_add(kind, base, day)
    assert settled.state == NOT_SAVED and f"since {day} (entry " in settled.words


@pytest.mark.parametrize("hours", [-20, 10], ids=["20h-back", "10h-ahead"])
@pytest.mark.parametrize(("kind", "op", "base"), KINDS, ids=IDS)
def test_an_entry_within_a_day_of_the_add_may_be_its_own(
    lost_add: Any, kind: EntryKind, op: str, base: str, hours: int
) -> None:
    """The service's clock may be up to a day off this one's: a date 20 hours back (or ahead)
    does not prove the entry older than the add, so the look-up still confirms it."""
    when = dt.datetime.now(dt.UTC) + dt.timedelta(hours=hours)
    session, settled = lost_add(kind, base, when.strftime("%Y-%m-%d %H:%M:%S"))
    assert settled.state == SAVED and settled.words.startswith(f"added {CONFIRMED}")
    events = [e.operation for e in session.journal.query() if e.phase == "event"]
    assert events == [f"{op}.insert.settled"]
    [write] = settle_writes(session.journal.query())
    assert write.result == ON_THE_LIST
