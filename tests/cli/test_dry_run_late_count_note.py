"""A dry run counts a request late to today, without looking the numbers up: it says so beside
its count and in the report's Summary, as a real run counts a number already on the list to the
day it was first listed and may count fewer (black-box B4 #1)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from app.core.job_report import DRY_RUN_LATE_LABEL, DRY_RUN_LATE_NOTE
from tests.conftest import TOKEN


def _summary(report: Path) -> dict[str, Any]:
    rows = CalamineWorkbook.from_path(str(report)).get_sheet_by_name("Summary").to_python()
    return {row[0]: row[1] for row in rows if row}


def test_a_dry_runs_late_count_says_it_is_counted_to_today(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc("3035551901", "1", Scope.global_())
    old = (dt.date.today() - dt.timedelta(days=40)).isoformat()
    # Listed since before the request: a real run counts it as not late.
    listed = (dt.date.today() - dt.timedelta(days=400)).isoformat()
    sandbox.store.execute(
        "UPDATE dnc SET insert_date = ? WHERE phone_number = ?",
        (f"{listed} 10:00:00", "3035551901"),
    )
    src = tmp_path / "in.csv"
    src.write_text(f"Phone,Date requested\n3035551901,{old}\n3035551902,{old}\n")
    report = tmp_path / "dry.xlsx"
    args = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    status = main([*args, "--report", str(report), "--base-url", sandbox.base_url])
    out = capsys.readouterr().out
    assert status == 0
    assert f"late requests: 2 ({DRY_RUN_LATE_NOTE})" in out
    summary = _summary(report)
    assert summary["Requests later than 10 business days"] == 2
    assert summary[DRY_RUN_LATE_LABEL] == DRY_RUN_LATE_NOTE

    # The real run looks the listed number up: late only to the day it was first listed.
    real = tmp_path / "real.xlsx"
    status = main([*args[:-1], "--report", str(real), "--base-url", sandbox.base_url])
    out = capsys.readouterr().out
    assert status == 0 and "late requests: 1" in out and DRY_RUN_LATE_NOTE not in out
    assert DRY_RUN_LATE_LABEL not in _summary(real)


def test_a_dry_run_with_no_late_request_has_no_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.csv"
    src.write_text(f"Phone,Date requested\n3035551901,{dt.date.today().isoformat()}\n")
    report = tmp_path / "dry.xlsx"
    args = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*args, "--report", str(report)]) == 0
    assert DRY_RUN_LATE_NOTE not in capsys.readouterr().out
    assert DRY_RUN_LATE_LABEL not in _summary(report)
