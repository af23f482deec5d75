"""Black-box R2/V1, task W3: other countries' numbers in a file read as the wrong country.

#1: the Rome landline 06 6982 3456, stored as the number 669823456 in a file given no country,
was offered only as a German number ("valid in France too"), never as Italy's, though under
--phone-code 39 the same cell is named as 0669823456. #2: the Leeds number 0113 496 0285 in a US
file was refused as a Spanish number (011, the US exit code, then 34) and the UK reading went
unsaid; where the number after 011 is valid too, such a row is refused naming both readings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main


@pytest.fixture(autouse=True)
def _dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def _workbook(path: Path, header: list[str], rows: list[list[Any]]) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def _dry_run(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> dict[str, Any]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, *extra]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return dict(json.loads(captured.out))


def _messages(data: dict[str, Any]) -> dict[int, str]:
    book = openpyxl.load_workbook(data["report"], read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))
    book.close()
    column = list(rows[0]).index("Message")
    return {int(r[0]): str((*r, *[None] * len(rows[0]))[column]) for r in rows[1:]}


def test_a_rome_landline_that_lost_its_0_is_offered_as_italys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _workbook(tmp_path / "rome.xlsx", ["Phone"], [[669823456], [3035550143]])
    data = _dry_run(capsys, path)
    assert (data["valid"], data["invalid"]) == (1, 1)
    said = _messages(data)[2]
    assert "+39 06 6982 3456 in Italy" in said, said
    assert "--phone-code 39" in said or "--phone-code 33 or 39" in said, said
    # The reading it names is the one --phone-code 39 reads the cell as.
    under_39 = _messages(_dry_run(capsys, path, "--phone-code", "39"))[2]
    assert "0669823456 would be the valid number +39 06 6982 3456" in under_39


def test_a_leeds_number_in_a_us_file_names_its_uk_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _workbook(
        tmp_path / "leeds.xlsx", ["Phone"], [["0113 496 0285"], ["011 44 20 7946 0018"]]
    )
    data = _dry_run(capsys, path)
    assert (data["valid"], data["invalid"]) == (1, 1)  # 011 then +44 is still read so
    said = _messages(data)[2]
    assert "Spain" in said  # the US reading, refused as before
    assert "+44 113 496 0285 (United Kingdom)" in said, said
    assert "44" in said.split("give that country's code", 1)[1]


def test_a_number_valid_both_after_011_and_with_a_trunk_0_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Sheffield's 0114 318 0921; after the US exit code 011, +43 1 80921 is valid in Austria.
    path = _workbook(tmp_path / "sheffield.xlsx", ["Phone"], [["0114 318 0921"]])
    data = _dry_run(capsys, path)
    assert (data["valid"], data["invalid"]) == (0, 1)
    said = _messages(data)[2]
    assert "reads two ways" in said
    assert "+43 1 80921 (Austria)" in said and "+44 114 318 0921 (United Kingdom)" in said


def test_the_same_file_under_the_uk_code_is_read_as_uk_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _workbook(tmp_path / "uk.xlsx", ["Phone"], [["0113 496 0285"], ["0114 318 0921"]])
    data = _dry_run(capsys, path, "--phone-code", "44")
    assert (data["valid"], data["invalid"]) == (2, 0)
