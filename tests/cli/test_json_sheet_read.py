"""``--json`` names the workbook sheet read as ``sheet`` beside ``mapping``, whose keys stay the
roles; ``null`` for a text file, which has no sheets (the report's Summary says "(text file)").
The ``columns read:`` line names the same sheet, also when it is named like the file (black-box
N4 #12: the JSON did not say which sheet its mapping was of)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.import_cmd import columns_read_line, sheet_read
from app.cli.main import main
from app.core.job_report import TEXT_FILE_SHEET, sheet_shown
from tests.conftest import TOKEN
from tests.core.sheet_factory import write_sheets

DRY = ["--into", "dnc", "--scope", "global", "--dry-run"]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def run_json(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> dict[str, Any]:
    code = main(["import", str(path), *DRY, *extra, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def test_the_json_names_the_sheet_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_sheets(
        tmp_path / "book.xlsx",
        {"Instructions": [["Read me"]], "Opt Outs": [["Phone", "Note"], ["3035550101", "x"]]},
    )
    data = run_json(capsys, path)
    assert data["sheet"] == "Opt Outs"
    assert data["mapping"] == {"phone": "Phone (column A)", "reason": "Note (column B)"}
    assert run_json(capsys, path, "--sheet", "opt outs")["sheet"] == "Opt Outs"


def test_a_text_file_has_no_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "Opt Outs.csv"
    path.write_text("Phone\n3035550101\n")
    data = run_json(capsys, path)
    assert data["sheet"] is None
    assert data["mapping"] == {"phone": "Phone (column A)"}


def test_a_sheet_named_like_its_workbook_is_named_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Excel names the sheet of a CSV saved as a workbook after the file.
    path = write_sheets(tmp_path / "Export.xlsx", {"Export": [["Phone"], ["3035550101"]]})
    assert run_json(capsys, path)["sheet"] == "Export"
    assert main(["import", str(path), *DRY]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "  columns read from sheet 'Export': phone = 'Phone' (A)"


@pytest.mark.parametrize(
    ("meta", "sheet"),
    [
        ({"file": "/x/book.xlsx", "sheet": "Opt-outs"}, "Opt-outs"),
        ({"file": "/x/Opt-outs.csv", "sheet": ""}, None),
        # A job staged before the sheet of a text file was stored empty: named after the file.
        ({"file": "/x/Opt-outs.csv", "sheet": "Opt-outs"}, None),
        ({"file": "/x/old.xlsx"}, None),
        # A real sheet of that name is a sheet all the same.
        ({"file": "/x/book.xlsx", "sheet": TEXT_FILE_SHEET}, TEXT_FILE_SHEET),
    ],
)
def test_sheet_read_agrees_with_the_reports_summary(
    meta: dict[str, Any], sheet: str | None
) -> None:
    assert sheet_read(meta) == sheet
    if sheet is not None:
        assert sheet_shown(meta) == sheet
    with_mapping = {**meta, "mapping": {"phone": "Phone (column A)"}}
    where = f" from sheet {sheet!r}" if sheet else ""
    assert columns_read_line(with_mapping) == f"columns read{where}: phone = 'Phone' (A)"
