"""Black-box Q3 #6: a row whose number is invalid (``12345``) keeps the request date the file
gave it, in the report's Request date column (it was empty), without business days or a late
verdict: there is no number to honour the request for."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl

from app.core.job_report import late_count, write_report
from app.core.job_store import JobStore, NewRow, Outcome

OLD = (dt.date.today() - dt.timedelta(days=90)).isoformat()


def test_an_invalid_number_shows_its_date_and_no_days(tmp_path: Path) -> None:
    store = JobStore.create(tmp_path, "import-q3a", {"kind": "import", "status": "dry_run"})
    store.add_rows(
        [
            NewRow(2, "3035551901", "3035551901", "1", "global", request_date=OLD),
            NewRow(
                3,
                "12345",
                request_date=OLD,
                outcome=Outcome.INVALID.value,
                message="row 3: phone: too short for a US number",
            ),
            NewRow(
                4,
                "3035551902",
                "3035551902",
                "1",
                request_date=OLD,
                outcome=Outcome.INVALID.value,
                message="row 4: campaign: no campaign is named 'Nope'",
            ),
        ]
    )
    report = write_report(store, tmp_path / "r.xlsx")
    rows = list(openpyxl.load_workbook(report)["Rows"].iter_rows(values_only=True))
    header, by_row = rows[0], {r[0]: dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
    assert "Request date" in header
    invalid_number = by_row[3]
    assert invalid_number["Request date"] == OLD
    assert invalid_number["Business days to insertion"] is None
    assert not invalid_number["Late"]
    # The rows with a number are counted as before: both late.
    assert by_row[2]["Late"] == "late"
    assert by_row[4]["Late"] == "late"
    assert late_count(store) == 2
    store.close()
