"""Black-box Q1 end to end, as the tester ran them: ``import FILE --into dnc --scope global
--dry-run`` on a vendor workbook whose first sheet is a cover sheet of contact phones (#1), and
on a semicolon CSV with CR line ends (#2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.sheet_factory import write_sheets

DRY = ["--into", "dnc", "--scope", "global", "--dry-run", "--json"]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def run_json(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, Any]:
    code = main(["import", str(path), *DRY, "--report", str(path.with_suffix(".report.xlsx"))])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def test_a_cover_sheet_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cover = [["Contact", "Role", "Phone"], ["Mark", "Account manager", "(312) 555-0190"]]
    data_rows = [["Lead ID", "Phone"]] + [[9000 + i, f"(206) 555-61{i:02d}"] for i in range(25)]
    path = write_sheets(tmp_path / "cover_then_data.xlsx", {"Cover": cover, "Sheet2": data_rows})
    data = run_json(capsys, path)
    assert data["sheet"] == "Sheet2"
    assert data["valid"] == 25
    assert any("'Cover'" in w and "passed over" in w for w in data["warnings"])


def test_a_semicolon_csv_with_cr_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "semicolon_cr.csv"
    path.write_bytes(b"Phone;Name;Notes\r3035550194;Renee;x\r3035550195;Jurgen;y\r")
    data = run_json(capsys, path)
    assert data["valid"] == 2
    assert data["mapping"] == {"phone": "Phone (column A)", "reason": "Notes (column C)"}
