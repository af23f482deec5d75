"""A CSV phone cell holding a date, as a spreadsheet writes a phone cell formatted as a date
('11/19/2025'), is said to look like a date, as the same cell of an xlsx says it holds one
(black-box bb13 F4: "too short for a US number: 8 digits, expected 10 digits")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def test_a_date_in_a_csv_phone_cell_is_said_to_look_like_one(
    tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "formats.csv"
    path.write_text(
        "Name,Phone\n"
        "Ann,3035550101\n"
        "Bob,11/19/2025\n"
        "Cy,19.11.2025\n"
        "Di,2025-11-19 10:30\n"
        "Ed,303-555-12\n"
        "Flo,20251119\n"
    )
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["inserted"], data["invalid"]) == (1, 5), data
    book = openpyxl.load_workbook(data["report"])
    head, *rows = book["Rows"].iter_rows(values_only=True)
    said = {r[0]: r[head.index("Message")] for r in rows}
    todo = (
        "looks like a date, not a phone number: check the row in the source file, and write "
        "the consumer's phone number there"
    )
    assert said[3] == f"row 3: phone: '11/19/2025' {todo}"
    assert said[4] == f"row 4: phone: '19.11.2025' {todo}"
    assert said[5] == f"row 5: phone: '2025-11-19 10:30' {todo}"
    # Not dates: a short number keeps its own reason, and digits alone are a number first.
    assert said[6] == "row 6: phone: too short for a US number: 8 digits, expected 10 digits"
    assert said[7] == "row 7: phone: too short for a US number: 8 digits, expected 10 digits"
    with ApiClient(sandbox.base_url, TOKEN) as api:
        assert [e.phone_number for e in api.iter_dnc()] == ["3035550101"]
