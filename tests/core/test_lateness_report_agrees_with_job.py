"""An inserted campaign row measured to an older global entry (black-box N3 #1) is counted so
by the report and the job's late_requests alike, as its message says: the report's lateness
reads ``honoured_on`` for inserted rows too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.job_exec import job_summary
from app.core.journal import ChangeJournal
from app.core.sheet_dates import business_days_between
from tests.core.test_lateness_older_global_entry import Wire, _business_days_ago, _run, _seed


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def test_the_report_and_late_requests_agree_on_a_row_a_global_entry_honoured(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    campaign = sandbox.seed_campaign("Spring outreach")
    asked = _business_days_ago(14)
    since_2023, global_after, nowhere = (f"303619348{i}" for i in range(3))
    listed_after = _business_days_ago(2)
    _seed(sandbox, since_2023, "2023-06-08")
    _seed(sandbox, global_after, listed_after)
    store = _run(
        tmp_path,
        sandbox,
        journal,
        Wire(),
        [[n, asked.isoformat()] for n in (since_2023, global_after, nowhere)],
        Scope.campaign(campaign),
    )
    summary = job_summary(store)
    book = openpyxl.load_workbook(summary["report"])
    try:
        header, *rows = list(book["Rows"].iter_rows(values_only=True))
        counted = {r[0]: r[1] for r in book["Summary"].iter_rows(values_only=True)}
    finally:
        book.close()
    number = header.index("Normalized number")
    cells = {str(r[number]): (r[-2], r[-1]) for r in rows}
    assert cells == {
        since_2023: (0, None),
        global_after: (business_days_between(asked, listed_after), "late"),
        nowhere: (14, "late"),
    }, cells
    assert summary["late_requests"] == store.meta()["late_requests"] == 2
    assert counted["Requests later than 10 business days"] == 2
