"""An xlsx number cell holding an intact international number of 12 or 13 digits (447911123456,
General format) is no damage (black-box B26 F2, B22 F8): Excel keeps 15 significant digits
exactly, and only a narrow column's display shows 4.47911E+11. It was noted "Excel displays it
as 4.47911E+11" and counted in the result's damage counts. A cell a scientific display did cut
(447911000000), or one past 15 digits, still is damage.
"""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _xlsx(path: Path, header: list[str], rows: list[list[object]]) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def _dry_run(capsys: pytest.CaptureFixture[str], src: Path, *more: str) -> dict[str, object]:
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code = main([*argv, *more])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, object] = json.loads(captured.out)
    return data


def _messages(report: object) -> list[str]:
    book = openpyxl.load_workbook(str(report), read_only=True)
    try:
        rows = list(book["Rows"].iter_rows(min_row=2, values_only=True))
    finally:
        book.close()
    return [" ".join(str(cell) for cell in row if cell is not None) for row in rows]


def test_intact_international_number_cells_are_no_damage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    numbers: list[list[object]] = [[447911123456], [447911123458], [447911123457.0]]
    src = _xlsx(tmp_path / "uk.xlsx", ["Phone"], numbers)
    data = _dry_run(capsys, src, "--phone-code", "44")
    assert (data["valid"], data["damaged"]) == (3, 0)
    assert not [w for w in data["warnings"] if "damaged" in w]  # type: ignore[union-attr]
    assert not [m for m in _messages(data["report"]) if "E+11" in m]


def test_intact_numbers_beside_their_code_cell_are_no_damage_either(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows: list[list[object]] = [[447911123456, 44], [5511912345678, 55], [393471234567, 39]]
    src = _xlsx(tmp_path / "coded.xlsx", ["Phone", "Country Code"], rows)
    data = _dry_run(capsys, src)
    assert data["damaged"] == 0


def test_a_number_the_display_cut_and_one_past_15_digits_stay_damage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows: list[list[object]] = [[447911123456], [447911000000], [4.4791112345678901e19]]
    src = _xlsx(tmp_path / "cut.xlsx", ["Phone"], rows)
    data = _dry_run(capsys, src, "--phone-code", "44")
    assert data["damaged"] == 2
    messages = _messages(data["report"])
    assert "447910500000 to 447911499999 cut short" in messages[1]
    assert "15 significant digits" in messages[2]
    assert "cut short" not in messages[0] and "E+11" not in messages[0]
