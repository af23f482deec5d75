"""A whole number written as a decimal ("3032300001.0", as pandas writes a float column) is no
spreadsheet damage when its digits are all there (black-box B6 #7: every row of a pandas export
was counted as damaged, and the file's warning blamed scientific notation, a dropped 0 or digits
cut, though each number was read exactly). What such a cell did lose is still flagged: a UK or
French number's leading 0, Italy's 0 that is part of a number, digits past the 15th, a number
cut to six digits; so are scientific notation and a fraction, as before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core import phones
from app.core.sheet_check import CheckOptions, Outcome, check_all
from app.core.sheet_damage import CUT_SHORT, ZERO_IN_NUMBER, describe_damage
from app.core.sheet_mapping import ColumnMapping
from tests.conftest import TOKEN

# The tester's pd_float.csv: a pandas to_csv of a float64 phone column (one cell empty).
PD_FLOAT = "Phone,Opt Out Date,Reason\n" + "".join(
    f"{'' if n == 4 else f'30323000{n:02d}.0'},2026-11-{n + 2:02d} 14:30:00,opt-out {n}\n"
    for n in range(1, 13)
)


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _dry_run(
    src: Path, capsys: pytest.CaptureFixture[str], *more: str
) -> tuple[str, dict[str, Any], list[tuple[Any, ...]]]:
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", *more]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = list(openpyxl.load_workbook(data["report"])["Rows"].iter_rows(values_only=True))
    return text, data, rows


def test_a_pandas_float_column_is_not_damaged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "pd_float.csv"
    src.write_text(PD_FLOAT)
    text, data, rows = _dry_run(src, capsys)
    assert (data["valid"], data["invalid"], data["damaged"]) == (11, 1, 0)
    assert "damaged" not in text and "scientific notation" not in text
    assert not any("scientific notation" in warning for warning in data["warnings"])
    damage = rows[0].index("Damage note")
    assert [row[damage] for row in rows[1:]] == [None] * 12
    normalized = rows[0].index("Normalized number")
    assert rows[1][normalized] == "3032300001"


def test_real_damage_in_a_decimal_is_still_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A UK list saved by pandas: the number cell lost its 0 before the ".0" was written.
    src = tmp_path / "uk.csv"
    src.write_text("Phone\n7911123456.0\n07911123457.0\n447911123458.0\n7911123459\n")
    _, data, rows = _dry_run(src, capsys, "--phone-code", "44")
    assert (data["valid"], data["damaged"]) == (4, 1)
    damage = rows[0].index("Damage note")
    assert rows[1][damage] == (
        "cell '7911123456.0' was written as a decimal number, from a number cell, which lost "
        "its leading 0 (written 07911123456 in United Kingdom); read as +44 7911 123456"
    )
    assert [row[damage] for row in rows[2:]] == [None] * 3


def test_a_french_number_that_lost_its_zero() -> None:
    result = phones.normalize("612345678.0", "33")
    assert result.ok
    assert "lost its leading 0 (written 0612345678 in France)" in describe_damage(
        "612345678.0", result
    )


@pytest.mark.parametrize(
    ("cell", "code", "said"),
    [
        ("2025550000.0", "1", CUT_SHORT),  # six digits kept of a scientific display
        ("351234567.0", "39", ZERO_IN_NUMBER),  # Bergamo's 035 1234567 or a mobile
        ("4915123456789012.0", "49", "16 digits, longer than the 15 significant digits"),
        ("30355501013035500000.0", "1", "20 digits, longer than the 15 significant digits"),
        ("2.025550123E+09", "1", "scientific notation"),
        ("303555070.6", "1", "a decimal number with a fraction"),
        ("3035550533,0", "1", "decimal comma"),
        # Rome's 06 6982 3456, refused without its 0.
        ("669823456.0", "39", "may have lost a leading 0: 0669823456 would be the valid"),
    ],
)
def test_what_a_decimal_lost_is_said(cell: str, code: str, said: str) -> None:
    assert said in describe_damage(cell, phones.normalize(cell, code))


@pytest.mark.parametrize(
    ("cell", "code"),
    [
        ("3032300001.0", "1"),
        ("'3032300001.00", "1"),
        ("13032300001.0", "1"),  # its country code first
        ("447911123456.0", "44"),
        ("07911123456.0", "44"),  # its 0 is there
        ("3512345678.0", "39"),  # a mobile, whose 0 reading is a rare 11-digit landline
    ],
)
def test_a_decimal_with_every_digit_is_not_damage(cell: str, code: str) -> None:
    result = phones.normalize(cell, code)
    assert result.ok
    assert describe_damage(cell, result) == ""


def test_a_decimal_refused_as_us_names_the_country_it_fits() -> None:
    # A pandas export of a UK list given no country: the row says which country fits, as the
    # same digits without ".0" do.
    rows = [(1, ["Phone"]), (2, ["7911123456.0"]), (3, ["0.0"])]
    checked, _ = check_all(rows, ColumnMapping(header_row=1, phone=0), CheckOptions())
    assert checked[0].outcome is Outcome.INVALID
    assert "'7911123456.0' may have lost a leading 0" in checked[0].message
    assert "use --phone-code 44" in checked[0].message
    assert checked[0].marks is not None and checked[0].marks.other_country == "44"
    assert "--phone-code" not in checked[1].message
