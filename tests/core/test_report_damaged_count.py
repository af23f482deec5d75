"""The report's Summary counts the rows whose phone cell a spreadsheet had damaged, from the job
meta's count (black-box P2 #4: only the per-row Damage note column said so); a job file made
before the count was kept shows no such line rather than a 0 it does not know."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import python_calamine

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_report import DAMAGED, DAMAGED_LABEL, write_report
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus


def _summary(path: Path) -> dict[str, Any]:
    book = python_calamine.CalamineWorkbook.from_path(str(path))
    try:
        return {str(r[0]): r[1] for r in book.get_sheet_by_name("Summary").to_python()}
    finally:
        book.close()


def test_the_summary_counts_the_damaged_rows_the_job_kept(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    # A decimal comma, as Excel writes a number into a CSV in a comma-decimal locale.
    src.write_text('Phone\n"3035550534,0"\n3035550535\n')
    store, checked = stage_import(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=None
    )
    try:
        assert checked.damaged == 1
        store.set_status(JobStatus.DRY_RUN)
        # As a job file made before the count was kept (staging keeps it now).
        store.set_meta({DAMAGED: None})
        without = _summary(write_report(store, tmp_path / "before.xlsx"))
        assert DAMAGED_LABEL not in without
        store.set_meta({DAMAGED: checked.damaged})
        summary = _summary(write_report(store, tmp_path / "after.xlsx"))
        assert summary[DAMAGED_LABEL] == 1
        # Beside the counts, before the warnings.
        labels = list(summary)
        assert labels.index("valid (dry run: not sent)") < labels.index(DAMAGED_LABEL)
    finally:
        store.close()
