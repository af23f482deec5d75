"""Black-box B16 #7: Five9's "Summary" line above its "Total" line was "the phone number is
empty; request date: 'Summary' is not a date"; it is a report's line, said so."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core import phones
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow
from app.core.sheet_header import line_of_text

CHECKED = dt.date(2026, 11, 24)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    phones.clear_cache()


def _staged(tmp_path: Path, path: Path) -> dict[int, JobRow]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        return {r.row_number: r for r in store.rows()}


# ---- #7: a report's "Summary" heading -------------------------------------------------------


@pytest.mark.parametrize("cell", ["Summary", "SUMMARY:", " Summary "])
def test_a_summary_heading_alone_is_a_report_line(cell: str) -> None:
    assert "a report's title or footer line" in line_of_text([cell, None, None], 1, [], 1)


@pytest.mark.parametrize("cell", ["Summary sent", "Acme Summary LLC", "Summers"])
def test_summary_among_other_words_stays_a_row_of_the_table(cell: str) -> None:
    assert line_of_text([cell, None, None], 1, [], 1) == ""
