"""Black-box B18 F3: a CSV's column of amounts or areas with two decimals ("1051527.39",
"56969.96") was proposed as the phone column (the digits on both sides of the point counted),
so the job ran with every row invalid and exit 0, while the same values in a workbook were
refused with "No column of phone numbers". Both are refused now; phone numbers written with
dots are still phone numbers."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_header import looks_like_phone
from tests.conftest import TOKEN

AREAS = ["1051527.39", "56969.96", "287459.07", "44333.92"]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _dry_run(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict[str, object]]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code = main(argv)
    out, _ = capsys.readouterr()
    data: dict[str, object] = json.loads(out)
    return code, data


def test_a_csv_column_of_decimals_is_no_phone_column_as_in_a_workbook(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv_path = tmp_path / "areas.csv"
    csv_path.write_text(
        "Item,Area\n" + "".join(f"A{n},{a}\n" for n, a in enumerate(AREAS, 1)), encoding="utf-8"
    )
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Item", "Area"])
    for n, area in enumerate(AREAS, 1):
        sheet.append([f"A{n}", float(area)])
    xlsx_path = tmp_path / "areas.xlsx"
    book.save(xlsx_path)
    for path in (csv_path, xlsx_path):
        code, data = _dry_run(capsys, path)
        assert code == 1, data
        assert "No column of phone numbers was found" in str(data["error"])


@pytest.mark.parametrize(
    ("value", "phone"),
    [
        ("1051527.39", False),
        ("1051527.390", False),  # re-test U1 F3: three decimals
        ("56969.960", False),
        ("56969.96", False),
        ("1051527,39", False),
        (1051527.39, False),
        (2025550123.0, True),
        ("303.555.0123", True),
        ("555.0123 ext 4", False),  # words: not a bare number (holds_phone_number reads it)
        ("2025550123", True),
        ("202.5550123", True),
    ],
)
def test_decimals_do_not_look_like_phone_numbers(value: object, phone: bool) -> None:
    assert looks_like_phone(value) is phone  # type: ignore[arg-type]


def test_a_csv_column_of_three_decimal_amounts_is_no_phone_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Re-test U1 F3: R3's amounts written with a third decimal ran with every row invalid.
    path = tmp_path / "amounts.csv"
    path.write_text(
        "Item,Area\n" + "".join(f"A{n},{a}0\n" for n, a in enumerate(AREAS, 1)), encoding="utf-8"
    )
    code, data = _dry_run(capsys, path)
    assert code == 1, data
    assert "No column of phone numbers was found" in str(data["error"])
