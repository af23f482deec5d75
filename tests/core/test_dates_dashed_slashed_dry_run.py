"""An import's dry run of a request-date column mixing dashed and slashed dates reads each form
by its own dates that read one way only (re-test S22 U1 F1: beside 23-11-2026, 10/11/2026 was
read Nov 10, in time, where alone it is Oct 11 and late, and the warning said the column was
"written day/month"). The dry run checks the file today, so the verdicts are made from today's
date."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_dates import LIMIT_BUSINESS_DAYS, business_days_between
from tests.conftest import TOKEN


def _late(day: dt.date, today: dt.date) -> bool:
    return business_days_between(day, today) > LIMIT_BUSINESS_DAYS


def _verdict_pair(today: dt.date) -> tuple[dt.date, dt.date] | None:
    """(month/day reading, day/month reading) of a slashed date this year whose two readings
    are both not after today and differ in lateness; None when there is none today."""
    for month in range(1, 13):
        for day in range(1, 13):
            usual, other = dt.date(today.year, month, day), dt.date(today.year, day, month)
            if (
                month != day
                and max(usual, other) <= today
                and _late(usual, today) != _late(other, today)
            ):
                return usual, other
    return None


def test_a_dry_run_reads_slashed_dates_apart_from_dashed_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    today = dt.date.today()
    last = today.year - 1
    texts = [
        (f"25-12-{last}", dt.date(last, 12, 25)),  # dashed, day-month only
        (f"10/11/{last}", dt.date(last, 10, 11)),  # slashed: month/day, was Nov 10
        (f"11-10-{last}", dt.date(last, 10, 11)),  # dashed: day-month, as 25-12
    ]
    if (pair := _verdict_pair(today)) is not None:
        usual, _ = pair
        texts.append((f"{usual.month}/{usual.day}/{usual.year}", usual))
    lines = ["Phone,Request Date"] + [f"303270{1000 + i},{t}" for i, (t, _) in enumerate(texts)]
    src = tmp_path / "mixed.csv"
    src.write_text("\n".join(lines) + "\n")
    report = tmp_path / "report.xlsx"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, "--report", str(report)]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = list(openpyxl.load_workbook(report)["Rows"].iter_rows(values_only=True))
    header = rows[0]
    read = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    assert [r["Request date"] for r in read] == [f"{day:%Y-%m-%d}" for _, day in texts]
    assert [r["Late"] == "late" for r in read] == [_late(day, today) for _, day in texts]
    assert out["late_requests"] == sum(_late(day, today) for _, day in texts)
    said = [w for w in out["warnings"] if "two ways" in w]
    assert len(said) == 1, out["warnings"]
    assert "holds both slashed and dashed dates, read apart" in said[0]
    assert f"as slashed dates are usually written (row 3: '10/11/{last}')" in said[0]
    assert (
        f"1 dashed one was read day/month, as the column's dashed dates that read one way only "
        f"are (row 2: '25-12-{last}')"
    ) in said[0]
    assert not any("are written day/month" in w for w in out["warnings"])
