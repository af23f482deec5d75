"""A paused job's report tells its pending rows apart: one whose request was sent and got no
answer before the job stopped may have been done, and says so (black-box pass G: such rows read
as plain "pending", not sent yet, while ten of them were on the list)."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from app.core.job_report import SENT_NO_ANSWER, write_report
from app.core.job_store import JobStatus, JobStore, NewRow


def test_a_pending_row_sent_with_no_answer_says_it_may_have_been_done(tmp_path: Path) -> None:
    store = JobStore(tmp_path / "job.dncjob")
    store.set_meta({"job_id": "import-1", "kind": "import", "target": "dnc", "scope": "global"})
    store.add_rows(
        [
            NewRow(2, "3035550191", "3035550191", "1"),
            NewRow(3, "3035550192", "3035550192", "1", message="read without its label"),
            NewRow(4, "3035550193", "3035550193", "1"),
        ]
    )
    store.mark_sending(1)
    store.mark_sending(2)
    store.set_status(JobStatus.PAUSED)
    path = write_report(store, tmp_path / "report.xlsx")
    store.close()
    book = openpyxl.load_workbook(path, read_only=True)
    header, *rows = [list(r) for r in book["Rows"].iter_rows(values_only=True)]
    book.close()
    outcome, message = header.index("Outcome"), header.index("Message")
    rows = [r + [None] * len(header) for r in rows]  # read-only rows end at their last value
    assert [(r[outcome], r[message] or "") for r in rows] == [
        ("pending", SENT_NO_ANSWER),
        ("pending", f"read without its label; {SENT_NO_ANSWER}"),
        ("pending", ""),
    ]
