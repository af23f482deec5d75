"""Re-test U2 F1: under a Phone header, a CSV cell holding an amount whose digits happen to make
a valid number ("8035551.125", "2025550.147") was read as 8035551125 and inserted with no word,
where the same value in a number cell, and "1051527.39" beside it, were refused as not whole
numbers. Such text is now refused alike; phone numbers written with points, and a float's text
("2025550147.0"), are still read."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.phones import normalize
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.mark.parametrize("text", ["8035551.125", "2025550.147", " 2015550.123 ", "8035551.1"])
def test_an_amount_whose_digits_are_a_valid_number_is_refused(text: str) -> None:
    result = normalize(text, "1")
    assert not result.ok
    assert result.reason == f"{text.strip()} is not a whole number, so it is not a phone number"


@pytest.mark.parametrize(
    ("text", "national"),
    [
        ("2025550147.0", "2025550147"),
        ("202.5550147", "2025550147"),
        ("202.555.0147", "2025550147"),
        ("+1 202.555.0147", "2025550147"),
    ],
)
def test_phone_numbers_written_with_points_are_still_read(text: str, national: str) -> None:
    result = normalize(text, "1")
    assert (result.ok, result.national) == (True, national)


def test_a_csv_phone_column_of_amounts_sends_none_of_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "phones.csv"
    path.write_text("Phone\n2025550.147\n8035551.125\n3035550101\n", encoding="utf-8")
    report = tmp_path / "report.xlsx"
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, "--report", str(report)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["rows"], data["valid"], data["invalid"]) == (3, 1, 2)
    rows = list(openpyxl.load_workbook(report)["Rows"].iter_rows(min_row=2, values_only=True))
    assert [(r[1], r[5]) for r in rows] == [
        ("2025550.147", "invalid"),
        ("8035551.125", "invalid"),
        ("3035550101", "valid (dry run)"),
    ]
    assert "8035551.125 is not a whole number" in str(rows[1][6])
