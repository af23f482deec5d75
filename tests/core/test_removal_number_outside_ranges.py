"""Black-box B5 #2: an entry the service holds whose number phonenumbers calls invalid (UK
7911600927, "not a valid United Kingdom number … in no number range in use") could not be
removed: a removal file naming it ended the row `invalid` and the entry stayed on the list.

A removal acts on the list as the service keeps it: a row refused only because its number is in
no range in use today (its length right for the country) is looked up as written under its code;
found, its entry is removed as listed, the row saying so; not found, the row ends `invalid`,
saying what was looked up. A dry run says the row will be looked up so. A row refused for
anything else (too short, letters, a number that fits another country) is still invalid and
never sent, and an import still refuses such a number.

Against the sandbox over loopback HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.client import DncQuery
from app.api.scope import Scope
from app.core.job_staging import JobSettings, stage
from app.core.job_store import JobStore
from app.core.removal_job import REMOVED_AS_LISTED, stage_removal
from app.core.session import Session
from tests.core import removal_session
from tests.core.removal_session import DELETE, Wire

wire = removal_session.wire
session = removal_session.session

LISTED = "7911600927"  # as the service holds it, under 44
NOT_LISTED = "7911600931"  # in no range in use either, and not on the list
REFUSED = "phone: not a valid United Kingdom number: {0} (10 digits) is in no number range in use"
LOOKED_UP = (
    "a removal looks it up on the list as written, under phone code 44, as the list may hold a "
    "number not valid today: an entry found is removed as listed; none found, the row is invalid"
)


def _rows(store: JobStore) -> dict[str, Any]:
    return {row.original: row for row in store.rows()}


def _sent_numbers(wire: Wire) -> set[str]:
    return {params.get("phone_number", "") for _, params in wire.sent}


def test_an_entry_in_no_range_in_use_is_removed_as_listed(
    session: Session, wire: Wire, tmp_path: Path
) -> None:
    # The service takes it (6 to 15 digits), as it did from another tool.
    session.api.insert_dnc(LISTED, "44", Scope.global_(), reason="Wrong number")
    (entry,) = session.api.iter_dnc(DncQuery(phone_number=LISTED, phone_code="44"))
    wire.sent.clear()

    store = removal_session.remove(
        session, tmp_path, [LISTED, NOT_LISTED, "12", "79116009x7"], phone_code="44"
    )

    rows = _rows(store)
    listed, not_listed = rows[LISTED], rows[NOT_LISTED]
    assert listed.outcome == "removed", listed.message
    assert listed.message.startswith(
        f"row 2: {REFUSED.format(LISTED)}; {LOOKED_UP}; {REMOVED_AS_LISTED}"
    )
    assert not list(session.api.iter_dnc(DncQuery(phone_number=LISTED, phone_code="44")))
    assert (LISTED, None) in wire.deletes("lead_status")
    (delete,) = [e for e in session.journal.query(operation="dnc.delete") if e.phase == "intent"]
    assert delete.phone == "+447911600927"
    assert [x["id"] for x in delete.before["entries"]] == [entry.id]
    outcomes = [
        e.outcome for e in session.journal.query(operation="dnc.delete") if e.phase == "outcome"
    ]
    assert outcomes == ["ok"]

    # Looked up as written, not listed: invalid, as the check found it, nothing deleted.
    assert not_listed.outcome == "invalid", not_listed.message
    assert not_listed.message.startswith(f"row 3: {REFUSED.format(NOT_LISTED)}; {LOOKED_UP}; ")
    assert "not on the list in this scope in the written forms looked up: 7911600931" in (
        not_listed.message
    )
    assert NOT_LISTED in _sent_numbers(wire)
    assert NOT_LISTED not in [number for number, _ in wire.deletes("lead_status")]

    # Refused for what it is: invalid as before, never sent.
    assert rows["12"].outcome == "invalid"
    assert rows["12"].message == (
        "row 4: phone: too short for a United Kingdom number: 2 digits, expected 7, 9 or 10 digits"
    )
    assert rows["79116009x7"].outcome == "invalid"
    assert "looks it up" not in rows["79116009x7"].message
    assert not {"12", "79116009x7"} & _sent_numbers(wire)
    assert [path for path, _ in wire.sent].count(DELETE) == 1
    assert store.counts()["invalid"] == 3


def test_a_dry_run_says_such_a_row_will_be_looked_up_and_counts_it_to_send(
    tmp_path: Path,
) -> None:
    path = tmp_path / "remove.csv"
    path.write_text(f"phone_number,phone_code\n{LISTED},44\n12,44\n")
    settings = JobSettings(path, Scope.global_(), phone_code="1")

    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)

    rows = _rows(store)
    assert rows[LISTED].outcome == ""  # to be sent
    assert (rows[LISTED].national, rows[LISTED].phone_code) == (LISTED, "44")
    assert rows[LISTED].message == f"row 2: {REFUSED.format(LISTED)}; {LOOKED_UP}"
    assert rows["12"].outcome == "invalid"
    assert store.counts()["pending"] == 1


def test_digits_that_fit_another_country_are_not_looked_up_under_the_default(
    tmp_path: Path,
) -> None:
    # Under the default code 1 these digits are no US number (area code 791), and the check
    # says they fit the UK with a 0 dropped: a guess, not a number as written.
    path = tmp_path / "remove.csv"
    path.write_text(f"Phone\n{LISTED}\n")
    settings = JobSettings(path, Scope.global_(), phone_code="1")

    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)

    (row,) = store.rows()
    assert row.outcome == "invalid"
    assert "looks it up" not in row.message


def test_an_import_still_refuses_such_a_number(tmp_path: Path) -> None:
    path = tmp_path / "import.csv"
    path.write_text(f"phone_number,phone_code\n{LISTED},44\n")
    settings = JobSettings(path, Scope.global_(), reason="asked")

    store, _ = stage(settings, tmp_path / "jobs", kind="import", connection=None)

    (row,) = store.rows()
    assert row.outcome == "invalid"
    assert row.message == f"row 2: {REFUSED.format(LISTED)}"
