"""Black-box bb4 #2 (session 31): a number cell that lost its 0 under --phone-code 49 was
noted "read as +49 1761234567", ungrouped, where every other message shows a number grouped
as phonenumbers' INTERNATIONAL format does ("+49 176 1234567"). A real workbook's dry run.
"""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def _report_damage(report: str) -> dict[int, str]:
    book = openpyxl.load_workbook(report, read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))
    book.close()
    note = list(rows[0]).index("Damage note")
    return {int(str(r[0])): str(r[note] or "") for r in rows[1:]}  # the sheet row first


@pytest.mark.parametrize(
    ("code", "cell", "shown"),
    [
        ("49", 1761234567, "read as +49 176 1234567"),  # Germany's mobile 0176 1234567
        ("44", 7911123456, "read as +44 7911 123456"),  # the UK's 07911 123456
    ],
)
def test_a_number_cell_that_lost_its_zero_is_shown_grouped(
    cli_env: Path, capsys: pytest.CaptureFixture[str], code: str, cell: int, shown: str
) -> None:
    path = cli_env / "lost0.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone"])
    sheet.append([cell])  # a number cell, as a spreadsheet keeps a number typed 0176…
    book.save(path)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, "--phone-code", code]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["valid"], data["damaged"]) == (1, 1)
    note = _report_damage(data["report"])[2]
    assert "it lost its leading 0" in note
    assert note.endswith(shown)
