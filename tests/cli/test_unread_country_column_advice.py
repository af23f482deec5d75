"""Black-box B7 #1 (session 19): a file with a Country column that was not read was told to
import again with one --phone-code.

g_dos850.csv's Country column ("México", "Österreich", "France", "Sverige", "Norge") was not
read (only 3 of its 7 values were countries DNC Desk knew), and the warning on the rows refused
as US numbers said they were "valid Italy / Vatican numbers" read "(the file gives no country)"
and advised "import it again with --phone-code 39": doing so put an Austrian 0664 1234567, a
French 06 12 34 56 78 and a Swedish 070-123 45 67 on the list as Italian numbers. A file with
such a column is no file giving no country: the warning now names the column and the values it
did not know, with their rows, says how to have it read and advises no --phone-code; each such
row's message says its Country cell is to give its country. The countries' own names
("Sverige", "Norge", "Suomi", "日本") are now known, so h08's and g_dos850's columns are read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main

# g_dos850.csv of the pass, as UTF-8 (the code page 850 file's reading is another finding's).
DOS850 = (
    '"Name","Phone","Country","Reason","Date Received"\n'
    '"José Núñez","303-555-1801","México","Pidió no más llamadas","10/20/2026"\n'
    '"Jürgen Müller","0664 1234567","Österreich","Anruf unerwünscht","10/21/2026"\n'
    '"Françoise Dupré","06 12 34 56 78","France","Ne plus appeler - merci","10/22/2026"\n'
    '"Zoë O\'Brien","(720) 555-1802","United States","Don\'t call again","10/23/2026"\n'
    '"Chloé Lefèvre","303-555-1803","Canada","Résiliation","10/26/2026"\n'
    '"Åsa Öberg","070-123 45 67","Sverige","Ring inte","10/27/2026"\n'
    '"Ole Ødegård","412 34 567","Norge","Ikke ring","10/28/2026"\n'
)
# h08_native_country_names.csv of the pass.
H08 = (
    "Phone,Country\n+46 70 123 45 67,Sverige\n070-123 45 68,Sverige\n+47 412 34 567,Norge\n"
    "0401234567,Suomi\n20 12 34 56,Danmark\n512 345 678,Polska\n078 123 45 67,Schweiz\n"
    "0470 12 34 56,België\n0532 123 45 67,Türkiye\n090-1234-5678,日本\n"
)
# A Country column most of whose values are abbreviations no country's name reads, beside
# European numbers written as dialled at home: the column is not read.
ABBREVIATED = (
    "Phone,Country\n0664 1234567,Östr.\n06 12 34 56 78,Frankr.\n070-123 45 67,Schwed.\n"
    "303-555-1801,USA\n(720) 555-1802,USA\n030 1234567,Deutschl.\n303-555-1803,Kanada\n"
    "0664 7654321,Östr.\n"
)
# g_dos850.csv's numbers: the refused ones fit Italy best by far, so the old warning said they
# were "valid Italy / Vatican numbers" and advised --phone-code 39 alone.
ONE_COUNTRY = (
    "Phone,Country\n303-555-1801,USA\n0664 1234567,Östr.\n06 12 34 56 78,Frankr.\n"
    "(720) 555-1802,USA\n303-555-1803,Kanada\n070-123 45 67,Schwed.\n412 34 567,Norw.\n"
)
# A file-wide --phone-code advised ("--phone-code 39"), not the word in "one --phone-code".
ADVICE = re.compile(r"--phone-code \d")
# A Region column of a US list's sales regions is no column of countries: the advice stays.
US_REGIONS = (
    "Phone,Region\n06 6988 1234,West\n06 4567 8901,West\n06 1234 5678,East\n06 9876 5432,East\n"
)


def _file(tmp_path: Path, text: str, name: str = "list.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _dry_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    path = _file(tmp_path, text)
    report = tmp_path / "report.xlsx"
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--report", str(report), "--json"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    data: dict[str, Any] = json.loads(captured.out)
    sheet = openpyxl.load_workbook(report)["Rows"]
    return data, list(sheet.iter_rows(min_row=2, values_only=True))


def _messages(rows: list[tuple[Any, ...]]) -> dict[int, str]:
    return {row[0]: row[6] or "" for row in rows if row[0] is not None}


def test_unread_country_column_is_named_with_its_values_and_no_phone_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, rows = _dry_run(tmp_path, capsys, ABBREVIATED)
    assert data["mapping"] == {"phone": "Phone (column A)"}
    warnings = data["warnings"]
    assert not any(ADVICE.search(w) for w in warnings), warnings
    assert not any("the file gives no country" in w for w in warnings), warnings
    [refused] = [w for w in warnings if "not valid US numbers" in w]
    assert refused.startswith(
        "5 rows read under the default country code 1 (as column B ('Country') was not read "
        "as countries) are not valid US numbers"
    )
    assert (
        "That column gives the rows' countries, but 'Östr.' (rows 2 and 9), 'Frankr.' (row 3),"
        " 'Schwed.' (row 4) and others are no country name or code DNC Desk knows. Write such "
        "values as country names or calling codes (as Sweden or 46) and import the file again,"
        " so that each row takes its own country's code (or choose it for Country code in the "
        "import wizard, which refuses the rows whose value it does not know): one --phone-code "
        "would give every row the same country, whatever its Country cell says."
    ) in refused
    messages = _messages(rows)
    assert messages[2].endswith(
        "; its Country cell B2 ('Östr.') is no country name or code DNC Desk knows (column B "
        "('Country') was not read, too few of its values being ones it knows): write the row's "
        "country there (as Sweden or 46) rather than give the whole file one --phone-code"
    )
    assert "its Country cell B7 ('Deutschl.')" in messages[7]
    assert "Country cell" not in messages[5]  # a valid US row


def test_one_country_fit_with_a_country_column_advises_no_phone_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, _ = _dry_run(tmp_path, capsys, ONE_COUNTRY)
    warnings = data["warnings"]
    assert not any(ADVICE.search(w) for w in warnings), warnings
    [refused] = [w for w in warnings if "not valid US numbers" in w]
    assert refused.startswith(
        "3 rows read under the default country code 1 (as column B ('Country') was not read "
        "as countries) are not valid US numbers but are valid Italy / Vatican numbers"
    )
    assert (
        "That column gives the rows' countries, but 'Östr.' (row 3), 'Frankr.' (row 4), "
        "'Schwed.' (row 7) and others are no country name or code DNC Desk knows."
    ) in refused


def test_a_region_column_of_no_countries_keeps_the_phone_code_advice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, _ = _dry_run(tmp_path, capsys, US_REGIONS)
    [refused] = [w for w in data["warnings"] if "not valid US numbers" in w]
    assert "(the file gives no country)" in refused
    assert "--phone-code 39" in refused


def test_countries_in_their_own_languages_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, rows = _dry_run(tmp_path, capsys, H08)
    assert data["mapping"] == {"phone": "Phone (column A)", "phone_code": "Country (column B)"}
    assert (data["valid"], data["invalid"]) == (10, 0)
    assert not any(ADVICE.search(w) for w in data.get("warnings", []))
    codes = {row[0]: (row[3], row[2]) for row in rows if row[0] is not None}
    assert codes[3] == ("46", "701234568")  # 070-123 45 68, Sverige
    assert codes[5] == ("358", "401234567")  # Suomi
    assert codes[6] == ("45", "20123456")  # Danmark
    assert codes[7] == ("48", "512345678")  # Polska
    assert codes[11] == ("81", "9012345678")  # 日本


def test_dos850_list_read_as_utf8_gives_each_row_its_country(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, rows = _dry_run(tmp_path, capsys, DOS850)
    assert data["mapping"]["phone_code"] == "Country (column C)"
    codes = {row[0]: (row[3], row[2]) for row in rows if row[0] is not None}
    assert codes[3] == ("43", "6641234567")  # Österreich
    assert codes[4] == ("33", "612345678")  # France
    assert codes[7] == ("46", "701234567")  # Sverige
    assert codes[8] == ("47", "41234567")  # Norge
    assert not any(ADVICE.search(w) for w in data.get("warnings", []))
