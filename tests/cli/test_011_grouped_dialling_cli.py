"""Regression check V2, task V2a, through `dnc-desk import --dry-run`: CSV files as the
black-box tester wrote them (w3_011_spaced.csv, w3_011_more.csv, BR_55.csv), read as a US file.

#1: "011 43 1 80921" and "011-43-1-80921", dialled from the US to Austria, were refused as
reading two ways since commit 9ce1b1e; only "01143180921" and "0114 318 0921" are. #2: "011 52 1
55 1234 5678" said only "too long for a Mexico number", with no word of the 1 Mexico dropped in
2019. #3: Brazil's "021 11 91234-5255" was named only as a German number.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_other_country_readings_cli import _dirs, _dry_run, _messages

__all__ = ["_dirs"]  # the autouse fixture, imported to apply here too


def _csv(path: Path, header: str, rows: list[str]) -> Path:
    path.write_text("\r\n".join([header, *rows]) + "\r\n", encoding="utf-8")
    return path


def test_011_grouped_as_dialled_from_the_us_is_read_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cells = ["011 43 1 80921", "011-43-1-80921", "01143180921", "0114 318 0921"]
    data = _dry_run(capsys, _csv(tmp_path / "w3_011_spaced.csv", "Phone", cells))
    # The second is the first again: a duplicate, no refusal.
    assert (data["valid"], data["duplicates_in_file"], data["invalid"]) == (1, 1, 2)
    said = _messages(data)
    assert "reads two ways" in said[4] and "reads two ways" in said[5]
    assert "reads two ways" not in said[2] + said[3]


def test_an_old_mexican_prefix_after_011_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cells = ["+52 1 55 1234 5678", "011 52 1 55 1234 5678", "011 52 044 55 1234 5678"]
    data = _dry_run(capsys, _csv(tmp_path / "w3_011_more.csv", "Phone", cells))
    assert (data["valid"], data["invalid"]) == (0, 3)
    said = _messages(data)
    for row in (2, 3):
        assert "the 1 after +52 marked a Mexican mobile number until 2019" in said[row]
    assert "044 was dialled before a Mexican mobile number" in said[4]
    assert all("without it, enter +52 55 1234 5678" in said[row] for row in (2, 3, 4))


def test_a_brazilian_number_after_a_carrier_code_is_named_as_brazils(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cells = ["(11) 91234-5251,opt out", "021 11 91234-5255,opt out"]
    data = _dry_run(capsys, _csv(tmp_path / "BR_55.csv", "Phone Number,Notes", cells))
    said = _messages(data)[3]
    assert "Germany" in said, said
    assert "+55 11 91234-5255 in Brazil" in said, said
