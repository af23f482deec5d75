"""Re-test U2 F2: a header-less column of phone numbers written as floats, as pandas writes one
made text (``astype(str)``), with a missing value written "nan": the "nan" row was taken for the
header, so the numbers above it were left out of the import and of every count (only a note
said so). "nan" (NaN, NaT, <NA>) is now a data cell standing for no number, as "N/A" is."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_header import detect_header
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _dry_run(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, object]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


@pytest.mark.parametrize("missing", ["nan", "NaN", "NaT", "<NA>"])
def test_a_missing_value_written_by_pandas_is_a_row_not_the_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], missing: str
) -> None:
    path = tmp_path / "floats.csv"
    lines = ["2025550147.0", "2025550148.0", missing, "2025550149.0", "2025550150.0"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    data = _dry_run(capsys, path)
    assert (data["rows"], data["valid"], data["invalid"]) == (5, 4, 1)


def test_the_same_in_a_workbook_of_text_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for value in ["2025550147.0", "2025550148.0", "nan", "2025550149.0"]:
        sheet.append([value, "opted out by text"])
    path = tmp_path / "floats.xlsx"
    book.save(path)
    data = _dry_run(capsys, path)
    assert (data["rows"], data["valid"], data["invalid"]) == (4, 3, 1)


def test_no_header_is_found_in_such_rows() -> None:
    rows = [(1, ["2025550147.0"]), (2, ["nan"]), (3, ["2025550149.0"])]
    assert detect_header(rows) is None
