"""A window removal (the Delete dialog's) of a global or campaign entry, whose first delete got
no answer and whose retry was answered "not found", looks the number up right after and
journals what it found beside the delete's outcome: gone settles the write as removed (most
likely by that first attempt), still listed says the delete did not happen, and a look-up that
fails leaves it not known, saying so (session 31 note: the pack could only guess).

The sandbox drops the first delete's answer itself (its drop fault, switched on for that one
request): the delete is done and the answer cut off mid-body.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.dnc_removal import Outcome, RemovalOutcome, remove_dnc_entries
from app.core.evidence import (
    NOT_KNOWN,
    REMOVED,
    STILL_LISTED,
    SettledWrite,
    gather_evidence,
    write_evidence_xlsx,
)
from app.core.session import Session
from tests.core.delete_drops import SandboxDropsDeletes, make_session  # noqa: F401 (a fixture)

NUMBER = "7185550231"


def _remove(
    api: ApiClient, session: Session, scope: Scope
) -> tuple[RemovalOutcome, SettledWrite, Path]:
    """Remove the one entry as the Delete dialog does; its outcome, the pack's settled delete
    and the pack's workbook."""
    entries = list(api.iter_dnc(DncQuery(phone_number=NUMBER)))
    [outcome] = remove_dnc_entries(session, entries, reason="consumer asked").outcomes
    pack = gather_evidence(api, session.journal, None, NUMBER, "1")
    [write] = [w for w in pack.writes if w.intent.operation == "dnc.delete"]
    out = Path(str(session.journal.path)).with_suffix(".xlsx")
    write_evidence_xlsx(pack, out)
    return outcome, write, out


def _settled_cells(path: Path) -> list[str]:
    """The Journal sheet's Settled column."""
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Journal").to_python()
    header = [str(c) for c in rows[0]]
    column = header.index("Settled")
    return [str(row[column]) for row in rows[1:] if str(row[column])]


@pytest.mark.parametrize("campaign", [False, True], ids=["global", "campaign"])
def test_gone_after_the_retry_settles_removed_by_the_first_attempt(
    api: ApiClient,
    sandbox: Any,
    make_session: Callable[[SandboxDropsDeletes], Session],  # noqa: F811
    campaign: bool,
) -> None:
    scope = Scope.campaign(api.campaigns()[0].id) if campaign else Scope.global_()
    api.insert_dnc(NUMBER, "1", scope, reason="to go")
    wire = SandboxDropsDeletes(sandbox)
    session = make_session(wire)
    outcome, write, pack = _remove(api, session, scope)
    assert wire.dropped == 1
    assert list(api.iter_dnc(DncQuery(phone_number=NUMBER))) == []
    assert outcome.outcome is Outcome.NOT_FOUND and outcome.earlier_attempt_lost
    assert "a look-up right after found it gone" in outcome.message
    assert "first attempt" in outcome.message and "most likely removed it" in outcome.message
    # The journal's settled event refers to the delete it settles.
    [event] = [e for e in session.journal.query() if e.operation == "dnc.delete.settled"]
    assert event.ref == write.intent.id
    assert write.result == REMOVED
    assert write.words.startswith("most likely by this delete's first attempt")
    assert f"(event #{event.id})" in write.words
    assert any(
        c.startswith("removed — most likely by this delete's first") for c in _settled_cells(pack)
    )


def test_listed_again_at_the_look_up_says_the_delete_did_not_happen(
    api: ApiClient,
    sandbox: Any,
    make_session: Callable[[SandboxDropsDeletes], Session],  # noqa: F811
) -> None:
    """Answered "not found" on the retry, yet listed at the look-up right after (another
    officer added it back meanwhile): the removal is failed, saying so, and the pack says
    still listed."""
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")

    def added_back(_request: httpx.Request) -> None:
        if not list(api.iter_dnc(DncQuery(phone_number=NUMBER))):
            api.insert_dnc(NUMBER, "1", Scope.global_(), reason="added back")

    session = make_session(SandboxDropsDeletes(sandbox, added_back))
    outcome, write, pack = _remove(api, session, Scope.global_())
    [entry] = list(api.iter_dnc(DncQuery(phone_number=NUMBER)))
    assert outcome.outcome is Outcome.FAILED
    assert outcome.message.startswith(f"still on the DNC list in this scope (entry {entry.id})")
    assert "the delete did not happen; remove it again" in outcome.message
    assert write.result == STILL_LISTED
    assert f"still listed (entries {entry.id})" in write.words
    assert any(c.startswith("still listed — ") for c in _settled_cells(pack))


def test_a_look_up_that_fails_too_leaves_it_not_known_and_says_so(
    api: ApiClient,
    sandbox: Any,
    make_session: Callable[[SandboxDropsDeletes], Session],  # noqa: F811
) -> None:
    api.insert_dnc(NUMBER, "1", Scope.global_(), reason="to go")

    def unavailable(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(503, text="<html>Service Unavailable</html>")

    session = make_session(SandboxDropsDeletes(sandbox, unavailable))
    entries = list(api.iter_dnc(DncQuery(phone_number=NUMBER)))
    [outcome] = remove_dnc_entries(session, entries, reason="consumer asked").outcomes
    assert outcome.outcome is Outcome.NOT_FOUND and outcome.earlier_attempt_lost
    assert "a look-up right after failed too (" in outcome.message
    assert "search the list for the number" in outcome.message
    [event] = [e for e in session.journal.query() if e.operation == "dnc.delete.checked"]
    assert "look_up_error" in (event.after or {})
    pack = gather_evidence(api, session.journal, None, NUMBER, "1")
    [write] = [w for w in pack.writes if w.intent.operation == "dnc.delete"]
    assert write.result == NOT_KNOWN and write.words.startswith("a look-up after it failed too")
