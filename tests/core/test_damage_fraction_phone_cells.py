"""Re-test U2 F1: under a Phone header, a CSV cell holding a decimal number whose digits make a
valid number with three decimals ("8035551.125", "2025550.147") was read as 8035551125 without a
word, where one or two decimals ("303555070.6", black-box pass I2) are flagged as damage: a
number cell divided or mistyped, its digits read, the row's note showing the cell so the user
decides. Up to six decimals are flagged so now; dotted groups (202.5550147) are not damage."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core import phones
from app.core.sheet_damage import describe_damage
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.mark.parametrize(
    "cell",
    # Re-test U3 F1: four to six decimals were read without a word.
    ["8035551.125", "2025550.147", "3035550.112", "202555.0152", "20255.50149", "2025.550151"],
)
def test_a_fraction_where_no_phone_number_has_a_dot_is_flagged(cell: str) -> None:
    result = phones.normalize(cell, "1")
    assert result.ok
    assert describe_damage(cell, result) == (
        f"cell {cell!r} is a decimal number with a fraction (a number cell divided or "
        f"mistyped?); its digits read as {phones.international(result.national, '1')} — check "
        "it against the source"
    )


@pytest.mark.parametrize("cell", ["202.5550147", "202.555.0147", "2025550147.0", "030.1234567"])
def test_numbers_written_with_points_are_no_damage(cell: str) -> None:
    result = phones.normalize(cell, "49" if cell.startswith("0") else "1")
    assert result.ok and describe_damage(cell, result) == ""


def test_a_csv_phone_column_of_amounts_says_so_on_each_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "phones.csv"
    path.write_text("Phone\n2025550.147\n8035551.125\n3035550101\n", encoding="utf-8")
    report = tmp_path / "report.xlsx"
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, "--report", str(report)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["rows"], data["valid"], data["damaged"]) == (3, 3, 2)
    rows = list(openpyxl.load_workbook(report)["Rows"].iter_rows(min_row=2, values_only=True))
    assert [bool(r[7]) for r in rows] == [True, True, False]  # the Damage note column
    assert "'8035551.125' is a decimal number with a fraction" in str(rows[1][7])
