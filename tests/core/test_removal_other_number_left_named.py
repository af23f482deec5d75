"""A removed row names an entry it left because it is another number (regression check V2 #10):
removing +49 151 12345678 deleted its entry 15112345678 under 49 and left 4915112345678 under 49
(a German number of its own, which evidence does not attribute to it, 8fcfe49), but the row said
``removed`` with an empty message, though the README says such an entry is left "the row saying
so". Only a row ending not found named it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.session import Session
from tests.core.test_removal_entries_under_other_codes import _listed, _remove

LEFT = (
    "the entry as 4915112345678 under phone code 49 was left: read under its phone code, it is "
    "another number than this one"
)


def test_a_removed_row_names_the_entry_of_another_number_it_left(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [("4915112345678", "49", "0", "by hand", ""), ("15112345678", "49", "0", "", "")]
    )
    store = _remove(session, tmp_path, ["+49 151 12345678"], "49")
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert row.message.endswith(LEFT), row.message
    assert _listed(sandbox) == [("4915112345678", "49")]


def test_a_row_removed_in_two_forms_names_the_entry_it_left_too(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # The app's form and the trunk-0 form kept by hand: two deletes, one row.
    sandbox.bulk_seed_dnc(
        [
            ("4915112345678", "49", "0", "by hand", ""),
            ("15112345678", "49", "0", "", ""),
            ("015112345678", "49", "0", "by hand", ""),
        ]
    )
    store = _remove(session, tmp_path, ["+49 151 12345678"], "49")
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert "015112345678" in row.message and row.message.endswith(LEFT), row.message
    assert _listed(sandbox) == [("4915112345678", "49")]
