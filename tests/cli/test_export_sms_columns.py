"""Task fx13 #2: ``export sms-opt-out`` wrote a ``campaign_uid`` column that was always empty
(the spec's SMS opt-out record has no such field, its DNC entry has), which an officer could
read as "no campaign". The SMS export leaves the column out and its About sheet says why; the
DNC export keeps it; the SMS export still reads back as a DNC Desk export."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from app.core.export_job import COLUMNS, is_export_header
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _opt_outs(sandbox: Any) -> str:
    """One global opt-out and one of a campaign; the campaign's name."""
    with ApiClient(sandbox.base_url, TOKEN) as api:
        campaign = api.campaigns()[0]
        api.insert_sms("3125550301", "1", Scope.global_(), reason="STOP reply")
        api.insert_sms("3125550302", "1", Scope.campaign(campaign.id), reason="STOP reply")
        api.insert_dnc("3125550303", "1", Scope.campaign(campaign.id), reason="asked")
        return campaign.name


def _export(
    capsys: pytest.CaptureFixture[str], sandbox: Any, kind: str, out: Path
) -> list[list[str]]:
    argv = ["export", kind, "--out", str(out), "--base-url", sandbox.base_url, "--json"]
    assert main(argv) == 0
    json.loads(capsys.readouterr().out)
    if out.suffix == ".csv":
        with out.open(encoding="utf-8-sig", newline="") as fh:
            return list(csv.reader(fh))
    book = openpyxl.load_workbook(out, read_only=True)
    try:
        return [["" if v is None else str(v) for v in r] for r in book["Entries"].values]
    finally:
        book.close()


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_the_sms_export_has_no_campaign_uid_column(
    tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    name = _opt_outs(sandbox)
    header, *rows = _export(capsys, sandbox, "sms-opt-out", tmp_path / f"sms{suffix}")
    assert header == list(COLUMNS[:-1]) and "campaign_uid" not in header
    assert all(len(row) == len(header) for row in rows)
    by_phone = {row[0]: dict(zip(header, row, strict=True)) for row in rows}
    assert sorted(by_phone) == ["3125550301", "3125550302"]
    # The campaign is said by the columns the record has.
    assert by_phone["3125550302"]["campaign_name"] == name
    assert is_export_header(header)  # read back as a DNC Desk export


def test_the_sms_export_about_sheet_says_why_and_dnc_keeps_the_column(
    tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _opt_outs(sandbox)
    out = tmp_path / "sms.xlsx"
    _export(capsys, sandbox, "sms-opt-out", out)
    book = openpyxl.load_workbook(out, read_only=True)
    try:
        about = {str(r[0]): r[1] for r in book["About"].values if r and r[0]}
    finally:
        book.close()
    assert "No campaign_uid column" in str(about.get("Columns")), about
    assert "SMS opt-out record has no such field" in str(about["Columns"])
    header, *rows = _export(capsys, sandbox, "dnc", tmp_path / "dnc.csv")
    assert header == list(COLUMNS)
    assert next(row[-1] for row in rows if row[0] == "3125550303") != ""
