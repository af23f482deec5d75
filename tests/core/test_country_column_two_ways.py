"""A number written as a US number on a row whose Country cell names another country reads two
ways (black-box pass I2): "(303) 619-3603" beside "Germany" was stored as +49 3036193603, though
a Country column most often says where the consumer lives, not the line's country. A row
grouped as US numbers are is invalid, naming both readings and how to write the one meant.
Bare digits valid both ways are read under the cell's country, as that country's lists write
them, with a note naming the US reading. A dialling code in the cell, a number with its own
+code, and a number valid only under the cell's country read one way."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_check import CheckOptions, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping

HEADERS = ("Name", "Phone", "Country")
MAPPING = ColumnMapping(header_row=1, headers=HEADERS, phone=1, phone_code=2)

GERMANY = (
    "row 2: phone: '(303) 619-3603' reads two ways: +1 303 619 3603 (United States / Canada) "
    "as written, or +49 30 36193603 (Germany) under the 'Country' cell's 'Germany' (column C), "
    "which most often says where the consumer lives, not the line's country; write it with "
    "its own code, +1 303 619 3603 or +49 30 36193603, to say which"
)


def _verdicts(rows: list[list[object]], mapping: ColumnMapping = MAPPING) -> list[tuple[str, str]]:
    numbered = [(n, cells) for n, cells in enumerate(rows, 2)]
    checked, _ = check_all(numbered, mapping, CheckOptions())
    return [
        (c.outcome.value, f"+{c.phone_code} {c.national}" if c.national else c.message)
        for c in checked
    ]


def test_a_us_number_beside_a_foreign_country_is_refused_naming_both_readings() -> None:
    checked, summary = check_all([(2, ["Klaus", "(303) 619-3603", "Germany"])], MAPPING)
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].message == GERMANY
    assert summary.invalid == 1


@pytest.mark.parametrize(
    ("phone", "country", "code"),
    [
        ("303-619-3604", "Brazil", "55"),
        ("303-555-3813", "CO", "57"),
        ("303-555-3814", "DE", "49"),
        ("303.619.3603", "Germany", "49"),
    ],
)
def test_every_us_form_and_every_country_naming_cell_reads_two_ways(
    phone: object, country: str, code: str
) -> None:
    [(outcome, message)] = _verdicts([["", phone, country]])
    assert outcome == "invalid"
    assert "reads two ways: +1 " in message and f"as written, or +{code} " in message
    assert f"under the 'Country' cell's {country!r} (column C)" in message


@pytest.mark.parametrize(
    ("phone", "country", "read"),
    [
        ("3036193603", "Germany", "+49 3036193603"),  # bare digits, as a country's lists write
        (3036193603, "Germany", "+49 3036193603"),  # a number cell
        ("5512345613", "Mexico", "+52 5512345613"),  # Mexico City, or New Jersey
        ("2079460123", "United Kingdom", "+44 2079460123"),  # London without its 0, or Maine
    ],
)
def test_bare_digits_valid_both_ways_are_read_under_the_country_with_a_note(
    phone: object, country: str, read: str
) -> None:
    checked, _ = check_all([(2, ["", phone, country])], MAPPING)
    (row,) = checked
    assert (row.outcome, f"+{row.phone_code} {row.national}") == (Outcome.VALID, read)
    assert "as written it is also the US number +1 " in row.message, row.message
    assert f"under the 'Country' cell's {country!r} (column C)" in row.message


def test_a_country_cell_beside_an_empty_code_cell_reads_two_ways_too() -> None:
    mapping = ColumnMapping(
        header_row=1,
        headers=("Phone", "Country", "Country Code"),
        phone=0,
        phone_code=2,
        country=1,
    )
    [(outcome, message)] = _verdicts([["(303) 619-3603", "Germany", ""]], mapping)
    assert outcome == "invalid"
    assert "under the 'Country' cell's 'Germany' (column B)" in message


def test_numbers_that_read_one_way_are_read_as_before() -> None:
    assert _verdicts(
        [
            ["", "(303) 619-3603", "49"],  # a dialling code: given for the number
            ["", "(303) 619-3606", "+49"],
            ["", "+49 30 36193607", "Germany"],  # its own code
            ["", "0049 30 36193608", "Germany"],
            ["", "030 1234567", "Germany"],  # valid only as a German number
            ["", "(303) 619-3605", "Canada"],  # +1 either way
            ["", "876-619-3605", "Jamaica"],
            ["", "303-619-3601", "United States"],
        ]
    ) == [
        ("valid", "+49 3036193603"),
        ("valid", "+49 3036193606"),
        ("valid", "+49 3036193607"),
        ("valid", "+49 3036193608"),
        ("valid", "+49 301234567"),
        ("valid", "+1 3036193605"),
        ("valid", "+1 8766193605"),
        ("valid", "+1 3036193601"),
    ]
    # Its own +1 beside another country: read under it, the note naming both (as before).
    [(outcome, number)] = _verdicts([["", "+1 303 619 3603", "Germany"]])
    assert (outcome, number) == ("valid", "+1 3036193603")


def test_the_dry_run_refuses_the_rows_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    path = tmp_path / "resid.csv"
    path.write_text(
        "Name,Phone,Country\n"
        "Anna,303-619-3601,United States\n"
        "Klaus,(303) 619-3603,Germany\n"
        "Joao,303-619-3604,Brazil\n"
        "Marcia,876-619-3605,Jamaica\n"
    )
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["valid"], data["invalid"]) == (2, 2)
    book = openpyxl.load_workbook(data["report"], read_only=True)
    rows = {r[0]: r for r in list(book["Rows"].iter_rows(values_only=True))[1:]}
    book.close()
    assert rows[3][5] == "invalid" and rows[3][6] == GERMANY.replace("row 2", "row 3")
    assert rows[4][5] == "invalid" and "+55 303 619 3604 (Brazil)" in rows[4][6]
