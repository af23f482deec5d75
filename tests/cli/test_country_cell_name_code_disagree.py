"""A Country cell whose name and code disagree ("UK (+1)") is named in its row's message by its
cell and its column as headed, saying why it gives no country; and a damaged cell read under
its Country cell says what it was read as once (black-box bb12 F6: "phone_code: 'UK (+1)' is
not a country name or code DNC Desk knows", and "read as +44 20 7946 0000" said twice)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _import(tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str]) -> dict[int, str]:
    path = tmp_path / "ctry.csv"
    path.write_text(
        "Phone,Country\n"
        "7911123456,UK\n"
        "2079460000,United Kingdom\n"
        "3035550911,United States\n"
        "7911123457,UK (+1)\n"
        "7911123458,Mexico (US)\n"
        "7911123459,+1 UK\n"
        "7911123460,Narnia\n" + "".join(f"791112347{n},UK\n" for n in range(5))
    )
    argv = ["import", str(path), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["inserted"], data["invalid"]) == (8, 4), data
    book = openpyxl.load_workbook(data["report"])
    head, *rows = book["Rows"].iter_rows(values_only=True)
    message = head.index("Message")
    return {r[0]: r[message] for r in rows}


def test_a_country_cell_whose_name_and_code_disagree_says_so(
    tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = _import(tmp_path, sandbox, capsys)
    assert rows[5] == (
        "row 5: Country: cell B5 'UK (+1)': the name (United Kingdom, +44) and the code (+1) "
        "disagree: write one of them (United Kingdom or +1), and import the file again"
    )
    assert rows[6] == (
        "row 6: Country: cell B6 'Mexico (US)': the name (Mexico, +52) and the code (US, +1) "
        "disagree: write one of them (Mexico or US), and import the file again"
    )
    assert rows[7].startswith("row 7: Country: cell B7 '+1 UK': the name (United Kingdom, +44)")
    assert rows[8] == (
        "row 8: Country: cell B8 'Narnia' is not a country name or code DNC Desk knows: give "
        "the country's calling code (as 49) or its two-letter code (DE)"
    )
    with ApiClient(sandbox.base_url, TOKEN) as api:
        listed = sorted((e.phone_code, e.phone_number) for e in api.iter_dnc())
    uk = [("44", f"791112347{n}") for n in range(5)]
    assert listed == [("1", "3035550911"), ("44", "2079460000"), ("44", "7911123456"), *uk]


def test_a_damaged_cell_read_under_its_country_cell_says_its_reading_once(
    tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    message = _import(tmp_path, sandbox, capsys)[3]
    assert message.count("read as +44 20 7946 0000") == 1, message
    assert message.startswith(
        "row 3: cell '2079460000': every digit after its first 6 is 0, as a number shown in "
        "scientific notation keeps once saved (2.07946E+09), so it may be any number from "
        "2079455000 to 2079464999 cut short — check it against the source; read as "
        "+44 20 7946 0000 (United Kingdom) under the 'Country' cell's 'United Kingdom' "
        "(column B)"
    ), message
