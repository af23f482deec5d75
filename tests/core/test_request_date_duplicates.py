"""A number requested on several rows is measured from its earliest request date in the file
(black-box pass I2): 47 CFR 64.1200(d)(3) counts the 10 business days from the consumer's
request, so the row that is sent (the first) is late when any of its number's rows was dated
more than the limit before its insertion. Its report row shows that date and which row it came
from; the duplicate says its date was counted there; a late number counts once, in the check's
summary, the dry run's count and the real run's alike."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.import_job import run_import, stage_import
from app.core.job_exec import finish_dry_run, job_summary
from app.core.job_report import write_report
from app.core.job_staging import JobSettings
from app.core.session import Session
from app.core.sheet_check import (
    DATE_MISSING,
    WAS_ON_TIME,
    CheckOptions,
    Outcome,
    check_all,
)
from app.core.sheet_dates import business_days_between
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import unchecked_dates_sentence

TODAY = dt.date.today()
OLD = TODAY - dt.timedelta(days=60)  # far more than 10 business days
OLDER = OLD - dt.timedelta(days=7)
NEW = TODAY  # 0 business days: never late
INSERTED = dt.date(2026, 11, 20)
MAPPING = ColumnMapping(phone=0, request_date=1)


def _csv(path: Path, rows: list[tuple[str, str]]) -> Path:
    lines = ["Phone,Date Received", *(f"{phone},{date}" for phone, date in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _dupdates(tmp_path: Path) -> Path:
    # The tester's file: each number's first row dated late after its duplicate, or undated.
    return _csv(
        tmp_path / "dupdates.csv",
        [
            ("303-555-2701", NEW.isoformat()),
            ("(303) 555-2701", OLD.isoformat()),
            ("303-555-2702", OLD.isoformat()),
            ("+1 303 555 2702", NEW.isoformat()),
            ("303-555-2703", ""),
            ("303.555.2703", OLD.isoformat()),
        ],
    )


def _rows(report: Path) -> dict[int, tuple[Any, ...]]:
    book = openpyxl.load_workbook(report)  # not read-only: rows keep their empty last cells
    rows = list(book["Rows"].iter_rows(values_only=True))[1:]
    book.close()
    return {int(r[0]): r for r in rows}


def test_the_check_counts_a_number_late_from_its_earliest_request() -> None:
    rows = [
        (2, ["3035552701", "2026-11-19"]),
        (3, ["3035552701", "2026-10-01"]),  # earlier: row 2 is measured from it
        (4, ["3035552702", "2026-10-01"]),
        (5, ["3035552702", "2026-11-19"]),  # later: changes nothing
        (6, ["3035552703", None]),
        (7, ["3035552703", "2026-10-01"]),  # row 6 had none: measured from this one
    ]
    checked, summary = check_all(rows, MAPPING, CheckOptions(insertion_date=INSERTED))
    assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.DUPLICATE] * 3
    assert [c.replaced for c in checked] == ["", WAS_ON_TIME, "", "", "", DATE_MISSING]
    assert checked[1].message == (
        "row 3: duplicate of row 2; its request date 2026-10-01 is counted on row 2, which is "
        "measured from the number's earliest request"
    )
    assert checked[3].message == "row 5: duplicate of row 4"
    # Three numbers, each late once: not row 4's alone.
    assert summary.late_requests == 3
    assert summary.undated.count == 0
    assert unchecked_dates_sentence(MAPPING, summary) == ""


def test_a_third_row_earlier_still_is_the_one_measured_from() -> None:
    rows = [
        (2, ["3035552701", "2026-11-19"]),
        (3, ["3035552701", "2026-10-15"]),
        (4, ["3035552701", "2026-10-20"]),  # earlier than row 2's, not than row 3's
        (5, ["3035552701", "2026-10-01"]),
    ]
    checked, summary = check_all(rows, MAPPING, CheckOptions(insertion_date=INSERTED))
    assert [c.replaced for c in checked] == ["", WAS_ON_TIME, "", "late"]
    assert summary.late_requests == 1


def test_the_staged_row_is_measured_from_the_earlier_row(tmp_path: Path) -> None:
    store, summary = stage_import(
        JobSettings(_dupdates(tmp_path), Scope.global_()), tmp_path / "jobs", connection=None
    )
    assert summary.late_requests == 3
    assert store.meta().get("warnings", []) == []  # row 6 has its duplicate's date
    rows = _rows(finish_dry_run(store))
    days = business_days_between(OLD, TODAY)
    first = rows[2]
    assert first[8:] == (OLD.isoformat(), days, "late")
    assert first[6] == (
        f"row 2: request received {OLD}, {days} business days before {TODAY}, when the file "
        f"was checked (limit 10); measured from row 3's request date {OLD}, an earlier "
        "request for the same number"
    )
    assert rows[3][5] == "duplicate_in_file" and rows[3][9:] == (None, None)
    assert "is counted on row 2" in rows[3][6]
    assert rows[6][8:] == (OLD.isoformat(), days, "late")
    assert "(this row has no request date)" in rows[6][6]
    assert store.meta()["late_requests"] == 3
    store.close()


def test_a_first_row_stored_in_an_earlier_batch_is_measured_again(tmp_path: Path) -> None:
    # Rows are stored 5,000 at a time: the first row is in the file long before its duplicate.
    spread = [("303-555-2701", NEW.isoformat())]
    spread += [(f"720555{i:04d}", NEW.isoformat()) for i in range(6000)]
    spread += [("3035552701", OLDER.isoformat()), ("303 555 2701", OLD.isoformat())]
    store, summary = stage_import(
        JobSettings(_csv(tmp_path / "big.csv", spread), Scope.global_()),
        tmp_path / "jobs",
        connection=None,
    )
    assert summary.late_requests == 1
    first = next(store.rows())
    assert (first.row_number, first.request_date) == (2, OLDER.isoformat())
    assert "measured from row 6003's request date" in first.message
    assert finish_dry_run(store) and store.meta()["late_requests"] == 1
    store.close()


def test_dry_run_json_counts_the_late_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    path = _dupdates(tmp_path)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["late_requests"] == 3
    assert not any("no request date" in w for w in data.get("warnings", []))


def test_the_real_run_counts_and_says_it_as_the_dry_run(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    settings = JobSettings(_dupdates(tmp_path), Scope.global_())
    dry, _ = stage_import(settings, tmp_path / "dry", connection=session.connection)
    finish_dry_run(dry)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=session.connection)
    run_import(store, session, concurrency=2)
    assert job_summary(store)["inserted"] == 3
    assert job_summary(store)["late_requests"] == job_summary(dry)["late_requests"] == 3
    rows = _rows(write_report(store, tmp_path / "report.xlsx"))
    days = business_days_between(OLD, TODAY)
    assert rows[2][5] == "inserted" and rows[2][8:] == (OLD.isoformat(), days, "late")
    assert rows[2][6] == (
        f"row 2: request received {OLD}, {days} business days before its insertion on "
        f"{TODAY} (limit 10); measured from row 3's request date {OLD}, an earlier request "
        "for the same number"
    )
    dry.close()
    store.close()
