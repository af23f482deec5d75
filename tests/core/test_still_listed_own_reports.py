"""A removal of one of our own reports keeps its invalid rows' Original value and country code
(black-box B29 F4), and says of a removal's report that its job did not remove a row (F7)."""

from __future__ import annotations

import csv
from pathlib import Path

from app.api.scope import Scope
from app.core.job_report import ROW_COLUMNS
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow
from app.core.removal_job import stage_removal


def _write(path: Path, header: tuple[str, ...], rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _stage(path: Path, tmp_path: Path) -> dict[int, JobRow]:
    settings = JobSettings(path, Scope.global_(), note="undo")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    return {r.row_number: r for r in store.rows()}


def test_an_import_reports_invalid_rows_keep_their_original_value_and_code(
    tmp_path: Path,
) -> None:
    path = _write(
        tmp_path / "imp_report.csv",
        ROW_COLUMNS,
        [
            ["2", "3125550120", "3125550120", "1", "global", "inserted", "", "", "", "", ""],
            ["3", "abc", "", "1", "global", "invalid", "row 3: phone: 'abc' …", "", "", "", ""],
            ["4", "312-555-0114 ext. 22", "", "1", "global", "invalid", "row 4: …", "", "", "", ""],
            ["5", "7911123456", "", "44", "global", "invalid", "row 5: …", "", "", "", ""],
        ],
    )
    rows = _stage(path, tmp_path)
    assert rows[2].outcome == ""
    for number, original, code in ((3, "abc", "1"), (4, "312-555-0114 ext. 22", "1"),
                                   (5, "7911123456", "44")):  # fmt: skip
        row = rows[number]
        assert row.outcome == "invalid", row.message
        assert row.original == original, row
        assert row.phone_code == code, row
        assert "did not insert it" in row.message


def test_a_removals_report_says_its_job_did_not_remove_a_row(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "rm_report.csv",
        ROW_COLUMNS[:-2],
        [
            ["2", "3125550120", "3125550120", "1", "global", "removed", "", "", ""],
            ["3", "abc", "", "1", "global", "invalid", "row 3: phone: 'abc' …", "", ""],
            ["4", "3125550121", "3125550121", "1", "global", "failed", "no answer", "", ""],
        ],
    )
    rows = _stage(path, tmp_path)
    invalid = rows[3].message
    assert "its job found this row invalid and did not remove it" in invalid, invalid
    assert "insert" not in invalid
    failed = rows[4].message
    assert "its job failed to remove this number (failed)" in failed, failed
    assert rows[3].original == "abc"
