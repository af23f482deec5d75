"""Black-box B16 #4: Google Contacts joins the values of one field with " ::: "
("303-555-0143 ::: 303-555-0144"); such a cell said "characters that are not part of a phone
number (':')" while the same numbers joined with "/" or ";" are two numbers in one cell."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core import phones
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow

CHECKED = dt.date(2026, 11, 24)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    phones.clear_cache()


def _staged(tmp_path: Path, path: Path) -> dict[int, JobRow]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        return {r.row_number: r for r in store.rows()}


# ---- #4: " ::: " between numbers ------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "first", "second"),
    [
        ("303-555-0143 ::: 303-555-0144", "303-555-0143", "303-555-0144"),
        ("+1 212-555-0100 ::: 617-555-0184", "+1 212-555-0100", "617-555-0184"),
        ("303-555-0119 ::: (303) 555-0159", "303-555-0119", "(303) 555-0159"),
        ("303-555-0143:::303-555-0144", "303-555-0143", "303-555-0144"),
    ],
)
def test_google_triple_colon_is_two_numbers_in_one_cell(cell: str, first: str, second: str) -> None:
    result = phones.normalize(cell, "1")
    assert not result.ok
    assert result.reason == (
        f"two phone numbers in one cell ({first!r} and {second!r}); put each on its own row"
    )
    # The same words as for the separators people type.
    assert result.reason == phones.normalize(f"{first} / {second}", "1").reason


def test_three_google_values_are_counted() -> None:
    reason = phones.normalize("303-555-0143 ::: 303-555-0144 ::: 303-555-0145", "1").reason
    assert reason.startswith("3 phone numbers in one cell ('303-555-0143' and ")


def test_a_lone_colon_run_is_still_a_character_not_of_a_number() -> None:
    # Only Google's " ::: " separates; "::" is no separator anyone writes.
    reason = phones.normalize("303-555-0143 :: 303-555-0144", "1").reason
    assert reason == "the number contains characters that are not part of a phone number (':')"


def test_google_contacts_file(tmp_path: Path) -> None:
    path = tmp_path / "google_contacts.csv"
    path.write_text(
        "Name,Group Membership,Phone 1 - Type,Phone 1 - Value\n"
        "Barbara Thomas,DNC ::: * myContacts,Mobile,+1 212-555-0136\n"
        "Karen Rodriguez,DNC ::: * myContacts,Work,303-555-0119 ::: (303) 555-0159\n",
        encoding="utf-8",
    )
    rows = _staged(tmp_path, path)
    assert rows[2].national == "2125550136"
    assert rows[3].outcome == "invalid"
    assert rows[3].message == (
        "row 3: phone: two phone numbers in one cell ('303-555-0119' and '(303) 555-0159'); "
        "put each on its own row"
    )
