"""Request dates that read two ways (02/11/2026: Feb 11 or Nov 2) are said in a job warning
(stdout's note line, ``--json`` warnings, the report's Summary), counting them, naming their
first rows, the order they were read in and how to have them read the other way (black-box
N3 #3: a UK vendor's file, every date ambiguous, said so only in each row's note, and its late
count was wholly wrong)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import CheckOptions, CheckSummary, check_rows
from app.core.sheet_mapping import ColumnMapping
from app.core.staging_notes import date_order_sentence

# A UK vendor's file (black-box d5_uk_ambig.csv), in a year long past.
UK = ["02/11/2020", "06/11/2020", "09/11/2020", "10/11/2020", "12/11/2020"]
UK_WARNING = (
    "5 dates in column B ('Date received') read two ways, day/month or month/day (rows 2, 3, "
    "4, 5 and 6), and no date there reads one way only to tell which: they were read "
    "month/day, as US files write dates (row 2: '02/11/2020'). If the dates are written the "
    "other way round (day/month), write them as year-month-day (2026-11-02) and run the file "
    "again; each row's message in the report gives both readings."
)


def _csv(path: Path, dates: list[str], delimiter: str = ",") -> Path:
    lines = [f"Phone{delimiter}Date received"]
    lines += [f"720555{1201 + i}{delimiter}{d}" for i, d in enumerate(dates)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _warnings(tmp_path: Path, path: Path) -> list[str]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return warnings


def test_a_column_of_ambiguous_dates_only_gets_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _csv(tmp_path / "uk.csv", UK)
    assert _warnings(tmp_path, path) == [UK_WARNING]
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert UK_WARNING in data["warnings"]
    summary = list(openpyxl.load_workbook(data["report"])["Summary"].iter_rows(values_only=True))
    assert ("Warning", UK_WARNING) in summary
    assert main(argv) == 0
    assert f"  note: {UK_WARNING}" in capsys.readouterr().out.splitlines()


def test_more_than_ten_are_counted_and_the_first_ten_named(tmp_path: Path) -> None:
    path = _csv(tmp_path / "many.csv", ["03/04/2020"] * 12)
    (warning,) = _warnings(tmp_path, path)
    assert warning.startswith("12 dates in column B ('Date received') read two ways")
    assert "(rows 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 2 more)" in warning


def test_dotted_dates_say_they_were_read_day_month(tmp_path: Path) -> None:
    path = _csv(tmp_path / "de.csv", ["3.11.2020", "13.11.2020"], ";")
    assert _warnings(tmp_path, path) == [
        "The request dates in column B ('Date received') are written day.month (row 3: "
        "'13.11.2020'), so the 1 date that reads either way (row 2) was read day.month too."
    ]
    path = _csv(tmp_path / "de2.csv", ["3.11.2020", "6.11.20"], ";")
    (warning,) = _warnings(tmp_path, path)
    assert "they were read day.month, as dotted dates are written (row 2: '3.11.2020')" in warning
    assert "written the other way round (month.day)" in warning


def test_a_month_day_column_says_its_ambiguous_dates_were_read_month_day(
    tmp_path: Path,
) -> None:
    path = _csv(tmp_path / "us.csv", ["10/25/2020", "11/10/2020", "03/11/2020"])
    assert _warnings(tmp_path, path) == [
        "The request dates in column B ('Date received') are written month/day (row 2: "
        "'10/25/2020'), so the 2 dates that read either way (rows 3 and 4) were read month/day "
        "too."
    ]
    assert _warnings(tmp_path, _csv(tmp_path / "plain.csv", ["10/25/2020", "2020-11-02"])) == []


def test_dates_after_the_insertion_date_as_read_are_pointed_out() -> None:
    """12/11/2026 read month/day is Dec 11, after Nov 23: said, as a sign, but it decides
    nothing (a mistyped date in a US file is after the insertion date too)."""
    mapping = ColumnMapping(
        phone=0, request_date=1, header_row=1, headers=("Phone", "Date received")
    )
    rows = [(1, ["Phone", "Date received"])]
    rows += [(n, [f"720555120{n}", d]) for n, d in enumerate(UK, 2)]
    rows = [(n, [c.replace("2020", "2026") for c in cells]) for n, cells in rows]
    summary = CheckSummary()
    options = CheckOptions(insertion_date=dt.date(2026, 11, 23))
    checked = list(check_rows(rows, mapping, options, summary))
    assert checked[-1].request_date == dt.date(2026, 12, 11)  # month/day: nothing decided
    assert summary.ambiguous_after.first == [6]
    sentence = date_order_sentence(mapping, summary, None)
    assert (
        "Read so, 1 of them is after the insertion date (row 6), which a request cannot be. "
        "If the dates are written the other way round (day/month)"
    ) in sentence
