"""Black-box B34 F1: in a Country column, the ISO codes ``IS`` (Iceland) and ``ST`` (Sao Tome
and Principe) were read as the abbreviations "islands" and "saint", so a valid number beside
either was refused as having no country DNC Desk knows. Two letters are a region's code first."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core import phones
from tests.cli.test_other_country_readings_cli import _dirs, _dry_run, _messages, _workbook

__all__ = ["_dirs"]  # the autouse fixture, imported to apply here too


@pytest.mark.parametrize(
    ("cell", "code"),
    [("IS", "354"), ("is", "354"), ("Is.", "354"), ("ST", "239"), ("S T", "239"), ("U.S.", "1")],
)
def test_two_letters_are_a_region_s_code(cell: str, code: str) -> None:
    assert phones.normalize_code(cell) == code


def test_names_with_those_abbreviations_still_read() -> None:
    assert phones.normalize_code("St. Kitts & Nevis") == "1"
    assert phones.normalize_code("Cayman Is.") == "1"
    assert phones.normalize_code("The UK") == "44"


def test_icelandic_and_sao_tomean_rows_by_iso_code_are_valid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        ["6111234", "IS"],
        ["9812345", "ST"],
        ["2025550143", "US"],
        ["030 12345678", "DE"],
    ]
    data = _dry_run(capsys, _workbook(tmp_path / "iso.xlsx", ["Phone", "Country"], rows))
    assert data["mapping"]["phone_code"] == "Country (column B)", data
    assert (data["valid"], data["invalid"]) == (4, 0), _messages(data)
