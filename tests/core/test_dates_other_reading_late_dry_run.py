"""An import's dry run of a column where a dashed date is read month-day, in time, beside a
slashed date that reads day/month only: the dashed date's row says its other reading would be
late (re-test U2), and no verdict or count changes. The dry run checks the file today, so the
dates are built from today's date."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_dates import LIMIT_BUSINESS_DAYS, business_days_between
from tests.conftest import TOKEN

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _late(day: dt.date, today: dt.date) -> bool:
    return business_days_between(day, today) > LIMIT_BUSINESS_DAYS


def _in_time_but_other_late(today: dt.date) -> tuple[dt.date, dt.date] | None:
    """(month-day reading, day-month reading) of a date whose month-day reading is in time and
    whose day-month one, not after today, is late; None when no date reads so today (from the
    27th of a month on, no day 1-12 is within the limit)."""
    for year in (today.year, today.year - 1):
        for month in range(1, 13):
            for day in range(1, 13):
                usual, other = dt.date(year, month, day), dt.date(year, day, month)
                if (
                    month != day
                    and usual <= today
                    and not _late(usual, today)
                    and other <= today
                    and _late(other, today)
                ):
                    return usual, other
    return None


def test_a_dry_run_says_a_dashed_date_read_in_time_could_be_late(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    today = dt.date.today()
    pair = _in_time_but_other_late(today)
    if pair is None:
        pytest.skip(f"no date 1-12/1-12 is in time on {today} while read the other way late")
    usual, other = pair
    evidence = dt.date(today.year - 1, 12, 25)
    src = tmp_path / "mixed.csv"
    src.write_text(
        "Phone,Request Date\n"
        f"3032701000,25/12/{evidence.year}\n"  # slashed, day/month only: decides no dashed date
        f"3032701001,{usual.month}-{usual.day}-{usual.year}\n"
    )
    report = tmp_path / "report.xlsx"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, "--report", str(report)]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = list(openpyxl.load_workbook(report)["Rows"].iter_rows(values_only=True))
    read = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert [r["Request date"] for r in read] == [f"{evidence:%Y-%m-%d}", f"{usual:%Y-%m-%d}"]
    assert [r["Late"] == "late" for r in read] == [True, False]
    assert out["late_requests"] == 1
    days = business_days_between(other, today)
    shown = f"{_MONTHS[other.month - 1]} {other:%d, %Y}"  # English, whatever the locale
    assert (
        f"it could be {shown}, which would be {days} business days before {today:%Y-%m-%d} (late)"
    ) in str(read[1]["Message"])
    assert "which would be" not in str(read[0]["Message"])
    said = [w for w in out["warnings"] if "read the other way round" in w]
    assert said == [
        "1 row's request would be late if its date in column B ('Request Date') were read the "
        "other way round (row 3): it reads two ways, day/month or month/day, and as read is not "
        "late, but read the other way it is more than 10 business days before the insertion "
        "date. Check it against the source; if it is written the other way round, write it as "
        "year-month-day (2026-11-02) and run the file again (each row's message in the report "
        "gives both readings)."
    ], out["warnings"]
