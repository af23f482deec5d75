"""``columns read`` and ``--json``'s ``mapping`` name the Campaign Name column a row's campaign
is read from when its Campaign ID cell is empty (black-box pass L3 #3: only the Campaign ID
column was named, though the rows without an id took their campaign from the name)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.import_cmd import columns_read_line
from app.cli.main import main
from tests.conftest import TOKEN

LINE = (
    "  columns read from sheet 'Opt Outs': phone = 'Phone' (A), reason = 'Reason' (D), "
    "campaign = 'Campaign ID' (B), campaign when empty = 'Campaign Name' (C)"
)


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _workbook(path: Path, campaign_id: str) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Opt Outs"
    ws.append(["Phone", "Campaign ID", "Campaign Name", "Reason"])
    ws.append(["3035554002", campaign_id, None, "id only"])
    ws.append(["3035554003", None, "Spring Renewals", "name only"])
    wb.save(path)
    return path


def test_the_campaign_name_column_is_named(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spring = sandbox.store.one("SELECT id FROM campaigns WHERE name = 'Spring Renewals'")["id"]
    path = _workbook(tmp_path / "idname.xlsx", str(spring))
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    argv += ["--base-url", sandbox.base_url]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == LINE, lines
    assert lines[2].startswith("  rows: 2, valid: 2"), lines
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mapping"]["campaign_when_empty"] == "Campaign Name (column C)"


def test_the_line_shows_each_stand_in_and_keeps_it_after_its_role() -> None:
    meta = {
        "file": "a.csv",
        "mapping": {
            "phone": "Phone (column A)",
            "campaign_when_empty": "Campaign Name (column C), then column D",
            "phone_code_when_empty": "Country (column F)",
            "campaign": "Campaign (column B)",
            "phone_code": "Code (column E)",
        },
    }
    assert columns_read_line(meta) == (
        "columns read: phone = 'Phone' (A), phone code = 'Code' (E), phone code when empty = "
        "'Country' (F), campaign = 'Campaign' (B), campaign when empty = 'Campaign Name' (C), "
        "then column D"
    )
    # A header holding the separator itself stays one column.
    meta["mapping"] = {"campaign_when_empty": "Name, then more (column C)"}
    assert columns_read_line(meta) == "columns read: campaign when empty = 'Name, then more' (C)"
