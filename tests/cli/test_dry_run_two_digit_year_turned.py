"""An import's dry run reads an ambiguous two-digit-year date whose usual reading is after today,
and whose other reading is not, the other way: no request a century old in its late count or
its report (regression check V4: ``12/11/26`` on Nov 24, 2026 was Dec 11, 1926, late by 25,222
business days). The dry run checks the file today, so the dates are made from today's."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_dates import LIMIT_BUSINESS_DAYS, business_days_between
from tests.conftest import TOKEN


def _turned_dates(today: dt.date) -> list[tuple[dt.date, dt.date]]:
    """(month/day reading, day/month reading) of this year's ambiguous day and month whose
    month/day reading is after today and day/month reading is not."""
    pairs = []
    for month in range(1, 13):
        for day in range(1, 13):
            usual, other = dt.date(today.year, month, day), dt.date(today.year, day, month)
            if month != day and usual > today >= other:
                pairs.append((usual, other))
    return pairs


def test_a_dry_run_reads_no_turned_date_a_century_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    today = dt.date.today()
    pairs = _turned_dates(today)
    if not pairs:
        pytest.skip("on Jan 1 no day/month reading of this year is before today")
    lines = ["Phone,Opt-out date"]
    texts = []  # (text, reading taken, what it was read as)
    for usual, other in pairs:
        # Slashed month/day is the usual reading; dotted day.month is.
        texts.append((f"{usual.month}/{usual.day}/{usual:%y}", other, "day/month"))
        texts.append((f"{usual.day}.{usual.month}.{usual:%y}", other, "month.day"))
    lines += [f"303270{1000 + i},{text}" for i, (text, _, _) in enumerate(texts)]
    src = tmp_path / "turned.csv"
    src.write_text("\n".join(lines) + "\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    late = [t for t in texts if business_days_between(t[1], today) > LIMIT_BUSINESS_DAYS]
    assert out["late_requests"] == len(late)
    rows = list(openpyxl.load_workbook(out["report"])["Rows"].iter_rows(values_only=True))
    message = rows[0].index("Message")
    said = [str(row[message] or "") for row in rows[1:]]
    assert len(said) == len(texts)
    for (text, other, how), row in zip(texts, said, strict=True):
        assert f"{text!r} is ambiguous: read as {other:%b %d, %Y} ({how}), since" in row, row
        assert f"{today.year - 100}" not in row, row
