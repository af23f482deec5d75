"""``dnc-desk import FILE --sheet NAME --phone-column NAME`` says what the file holds beyond
the columns and sheet named, as the same import with nothing named does (black-box bb14 W1):
the other sheets of phone numbers, a hidden one too, and a consent column saying 'active'.
Run through ``main`` against a sandbox over loopback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def _workbook(path: Path) -> Path:
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "Opt-Outs"
    first.append(["Phone", "Subscription"])
    for i in range(4):
        first.append([f"202555011{i}", "active" if i else "cancelled"])
    contacts = wb.create_sheet("Contacts")
    for row in (["Name", "Mobile"], ["Ann", "2025550121"], ["Bob", "2025550122"]):
        contacts.append(row)
    hidden = wb.create_sheet("DNC")
    for row in (["Number"], ["2025550131"]):
        hidden.append(row)
    hidden.sheet_state = "hidden"
    wb.save(path)
    return path


def test_a_named_sheet_and_column_get_the_files_notes(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _workbook(tmp_path / "book.xlsx")
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--json"]
    argv += ["--sheet", "Opt-Outs", "--phone-column", "Phone", "--base-url", sandbox.base_url]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["inserted"] == 4
    warnings = out["warnings"]
    assert (
        "Sheet 'Contacts' and hidden sheet 'DNC' of book.xlsx also have a column of phone "
        "numbers but are not imported: only sheet 'Opt-Outs' is read. To import them, run the "
        "file again with --sheet NAME for each (as --sheet 'Contacts')."
    ) in warnings
    assert any(w.startswith("Column B ('Subscription') says the consumer") for w in warnings)
