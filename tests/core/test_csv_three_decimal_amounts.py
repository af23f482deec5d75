"""Re-test U1 F3 and black-box B18 F3: a CSV column of amounts with three decimals whose digits
read as valid US numbers ("8035551.125") was taken as the phone column, each value read as
8035551125; one with four or more ("2208.9375", "0.525625") stayed phone-like, and a column
without a header ran with every row invalid and exit 0. A workbook's numbers with fractions
are refused with "No column of phone numbers"; so is such text now. Phone numbers written with
points (555.0147, 202.5550147, 202.555.0147) and a float's "2025550147.0" still are numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from app.core.sheet_header import holds_phone_number, looks_like_phone
from tests.conftest import TOKEN

THREE = ["8035551.125", "2025550.147", "3035550.112", "7205550.133", "4155550.199"]
FOUR = ["2208.9375", "1312.0625", "3301.4375", "1208.5625", "4410.8125"]
MIXED = ["13.5", "2208.9375", "0.525625", "13.0625", "1208.25"]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _dry_run(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict[str, object]]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code = main(argv)
    out, _ = capsys.readouterr()
    data: dict[str, object] = json.loads(out)
    return code, data


@pytest.mark.parametrize("values", [THREE, FOUR, MIXED], ids=["three", "four", "mixed"])
@pytest.mark.parametrize("header", ["Amount\n", ""], ids=["amount", "no-header"])
def test_a_csv_column_of_decimals_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], values: list[str], header: str
) -> None:
    path = tmp_path / "amounts.csv"
    path.write_text(header + "".join(f"{v}\n" for v in values * 4), encoding="utf-8")
    code, data = _dry_run(capsys, path)
    assert code == 1, data
    assert "No column of phone numbers was found" in str(data["error"])


@pytest.mark.parametrize(
    "phone",
    [
        "202.555.0147",
        "(202) 555-0147",
        "+44 20 7946 0958",
        "2025550147",
        "202.5550147",
        "2025550147.0",
    ],
)
def test_one_unnamed_column_of_phone_numbers_still_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], phone: str
) -> None:
    path = tmp_path / "phones.csv"
    path.write_text("".join(f"{phone}\n" for _ in range(20)), encoding="utf-8")
    code, data = _dry_run(capsys, path)
    assert code == 0, data
    assert data["mapping"] == {"phone": "column A"}
    assert data["valid"] == 1 and data["invalid"] == 0


@pytest.mark.parametrize(
    ("value", "phone"),
    [
        ("8035551.125", False),
        ("80355511.25", False),
        ("2208.9375", False),
        ("0.525625", False),
        ("37.774929", False),  # a latitude
        ("-122.419416", False),
        ("1.04139268515823", False),
        ("555.0147", True),
        ("202.5550147", True),
        ("030.1234567", True),
        # Trunk-prefixed area codes of four digits: the damage notes took them as numbers,
        # the column finder as amounts, so a German column of them was not found.
        ("0201.123456", True),
        ("0211.8765432", True),
        ("202.555.0147", True),
    ],
)
def test_one_point_is_a_phone_number_only_where_phone_numbers_have_it(
    value: str, phone: bool
) -> None:
    assert looks_like_phone(value) is phone


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("8035551.125", False),
        ("Amount 8035551.125", False),
        ("2025550147.0", True),  # a float written as text: a whole number
        ("Tel 202.555.0147", True),
        ("Tel 0201.123456", True),
    ],
)
def test_an_amount_among_words_holds_no_phone_number(text: str, held: bool) -> None:
    assert holds_phone_number(text) is held


def test_a_column_of_trunk_prefixed_numbers_with_one_point_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rufnummern.csv"
    numbers = ["0201.123456", "0211.876543", "0221.456789", "0231.987654"]
    path.write_text("".join(f"{n}\n" for n in numbers), encoding="utf-8")
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--phone-code", "49"]
    assert main([*argv, "--dry-run", "--json"]) == 0
    data = json.loads(capsys.readouterr()[0])
    assert data["mapping"] == {"phone": "column A"}
    assert (data["valid"], data["invalid"]) == (4, 0)
