"""A row measured to an entry from before its insertion reads as one verdict in the report
(re-test R1 #5).

R1 #5: an inserted campaign row whose number had been on the global list since 2023 said
"request received 2026-11-02, 14 business days before its insertion on 2026-11-23 (limit 10);
on the list since 2023-06-08 (global entry N), before the request was received: not late": the
first clause contradicted the verdict (and the row's Late cell, empty).

Run through the real import job against a sandbox over loopback (the helpers of the N3 #1
tests); the report is read back with openpyxl.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.job_report import write_report
from app.core.journal import ChangeJournal
from app.core.sheet_dates import business_days_between, late_sentence
from tests.core.test_lateness_older_global_entry import (
    GLOBAL,
    TODAY,
    Wire,
    _business_days_ago,
    _run,
    _seed,
)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def test_a_row_measured_to_an_older_entry_says_only_that_measure(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    campaign = sandbox.seed_campaign("Solar Savings Outreach")
    asked = _business_days_ago(14)
    since_2023, global_after, nowhere, present = (f"303619551{i}" for i in range(4))
    listed_after = _business_days_ago(2)
    ids = {
        since_2023: _seed(sandbox, since_2023, "2023-06-08"),
        global_after: _seed(sandbox, global_after, listed_after),
        present: _seed(sandbox, present, "2023-06-08"),
    }
    # Already present in the campaign since after the request, on the global list since 2023.
    _seed(sandbox, present, _business_days_ago(1), campaign)
    store = _run(
        tmp_path,
        sandbox,
        journal,
        Wire(),
        [[n, asked.isoformat()] for n in (since_2023, global_after, nowhere, present)],
        Scope.campaign(campaign),
    )
    book = openpyxl.load_workbook(write_report(store, tmp_path / "report.xlsx"))
    try:
        header, *rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    number, outcome, message = (
        header.index(c) for c in ("Normalized number", "Outcome", "Message")
    )
    late = header.index("Late")
    shown = {str(r[number]): (r[outcome], r[message], r[late]) for r in rows}
    at_insertion = late_sentence(asked, 14, f"its insertion on {TODAY}")
    # What staging says of each row (the job is staged without a connection).
    staged = f"campaign {campaign} was not checked against the service (no connection)"
    before_request = "before the request was received: not late"
    assert shown[since_2023] == (
        "inserted",
        f"row 2: {staged}; on the list since 2023-06-08 (global entry {ids[since_2023]}), "
        f"{before_request}; {GLOBAL}",
        None,
    ), shown[since_2023]
    # Late to the global entry: counted to that entry, not to its insertion as well.
    to_entry = late_sentence(
        asked,
        business_days_between(asked, listed_after),
        f"{listed_after}, when global entry {ids[global_after]} put the number on the list",
    )
    assert shown[global_after] == ("inserted", f"row 3: {staged}; {to_entry}; {GLOBAL}", "late"), (
        shown[global_after]
    )
    # No entry before its insertion: its insertion is what it is counted to.
    assert shown[nowhere] == ("inserted", f"row 4: {at_insertion}; {staged}", "late"), shown[
        nowhere
    ]
    # Already present: the service's answer, then the one measure, as before.
    assert shown[present] == (
        "already_present",
        f"row 5: {staged}; Phone number already in DNC; on the list since 2023-06-08 (global "
        f"entry {ids[present]}), {before_request}; {GLOBAL}",
        None,
    ), shown[present]
