"""Black-box B24 F3: bare numbers read under the default code 1 in a file whose numbers
written with a code are another country's (app.core.code_mix)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main

# Indian mobiles: most written with +91; rows 5 and 8 bare and valid US numbers too (702 and
# 801 are US area codes); row 7 bare and no US number (refused, as before).
MIXED = [
    ["Name", "Phone"],
    ["A", "+91 98765 43210"],
    ["B", "+91 98765 43212"],
    ["C", "+91 91234 56780"],
    ["D", "7025551234"],
    ["E", "+91 99887 76655"],
    ["F", "9876543211"],
    ["G", "8015550123"],
    ["H", "+91 90000 12345"],
]


def write(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    return path


def dry_run(capsys: pytest.CaptureFixture[str], command: str, *argv: str) -> dict[str, Any]:
    assert main([command, *argv, "--scope", "global", "--dry-run", "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def mixed_warnings(data: dict[str, Any]) -> list[str]:
    return [w for w in data.get("warnings", []) if "written with no country code" in w]


def test_bare_numbers_beside_numbers_written_with_91_are_warned_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "mixed.csv", MIXED)
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    # The verdicts stand: the default code applies as documented.
    assert (data["rows"], data["valid"], data["invalid"]) == (8, 7, 1)
    (warning,) = mixed_warnings(data)
    assert "2 rows whose numbers are written with no country code (rows 5 and 8)" in warning
    assert "read under the default code +1 (United States / Canada)" in warning
    assert "all 5 numbers written with their own code are numbers of India (+91)" in warning
    assert "--phone-code 91" in warning
    assert "Country column" in warning
    # The plain output prints it as a note too.
    assert main(["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]) == 0
    assert "rows 5 and 8" in capsys.readouterr().out


def test_a_removal_is_told_to_run_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "mixed.csv", MIXED[:5])
    (warning,) = mixed_warnings(dry_run(capsys, "remove", str(path)))
    assert warning.startswith("1 row whose number is written with no country code (row 5)")
    assert "all 3 numbers" in warning
    assert "run the removal again with --phone-code 91" in warning


@pytest.mark.parametrize(
    ("rows", "extra"),
    [
        # All written with +91: nothing read under the default.
        ([r for r in MIXED if r[1].startswith(("+", "Phone"))], []),
        # All bare.
        ([["Phone"], ["7025551234"], ["8015550123"], ["3035550101"]], []),
        # The shared code is the default one.
        (
            [
                ["Phone"],
                ["+1 702 555 1234"],
                ["+1 702 555 1235"],
                ["+1 702 555 1236"],
                ["8015550123"],
            ],
            [],
        ),
        # Read under --phone-code 91: the bare rows are India's too.
        (MIXED, ["--phone-code", "91"]),
        # A Country column decides the bare row's code.
        (
            [
                [*r, "Country" if i == 0 else ("US" if r[1][0] != "+" else "")]
                for i, r in enumerate(MIXED)
            ],
            [],
        ),
        # Two coded rows only.
        ([["Phone"], ["+91 98765 43210"], ["+91 98765 43212"], ["7025551234"]], []),
        # No clear majority: +91 twice, +44 twice and +49 once.
        (
            [
                ["Phone"],
                ["+91 98765 43210"],
                ["+91 98765 43212"],
                ["+91 91234 56780"],
                ["+44 7911 123456"],
                ["+44 7911 123457"],
                ["7025551234"],
            ],
            [],
        ),
        # A US list holding a few foreign numbers: +91 under a tenth of the rows.
        (
            [
                ["Phone"],
                *[["+91 98765 4321" + str(i)] for i in range(3)],
                *[[f"303555{i:04d}"] for i in range(100, 140)],
            ],
            [],
        ),
    ],
)
def test_no_warning_without_a_file_of_another_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rows: list[list[str]], extra: list[str]
) -> None:
    path = write(tmp_path / "numbers.csv", rows)
    assert mixed_warnings(dry_run(capsys, "import", str(path), "--into", "dnc", *extra)) == []
