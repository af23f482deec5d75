"""Black-box R2/V1 #3, task W3: a Country cell holding a US state's code (``NY``) or a Canadian
province's (``ON``) beside other rows' country names was refused as "not a country name or code
DNC Desk knows", with no word of New York. The row is still refused (the cell names no country),
now saying whose code it is and what to write instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_other_country_readings_cli import _dirs, _dry_run, _messages, _workbook

__all__ = ["_dirs"]  # the autouse fixture, imported to apply here too


def test_a_state_or_province_code_in_a_country_column_is_named_as_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        ["2125550147", "NY"],
        ["4165550199", "ON"],
        ["2025550112", "USA"],
        ["3035550187", "United States"],
        ["3035550188", "US"],
        ["6135550124", "Canada"],
        ["3035550189", "USA"],
    ]
    data = _dry_run(capsys, _workbook(tmp_path / "states.xlsx", ["Phone", "Country"], rows))
    assert data["mapping"]["phone_code"] == "Country (column B)", data
    assert (data["valid"], data["invalid"]) == (5, 2)
    messages = _messages(data)
    assert "'NY' is the code of the US state New York, not of a country" in messages[2]
    assert "write the country (United States) or its calling code (1)" in messages[2]
    assert "'ON' is the code of the Canadian province Ontario, not of a country" in messages[3]
