"""Regression check V5 (session 19): in a file whose Country column was not read (too few of its
values countries DNC Desk knows), a row whose own cell names a country it knows ('Sverige') was
told to correct that cell "to Australia or 61", its number read as an Australian one: a clerk
following it would list a Swedish number as Australian. Such a row now says its cell names
Sweden, whether the number is valid there, and that the column's other values are what to
correct; a row whose cell names no country keeps the advice to correct its cell."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_unread_country_column_advice import _dry_run, _messages

UNREAD = (
    "Name,Phone,Country\nA,070-123 45 67,Sverige\nB,22 12 34 56,Norge\nC,0664 1234567,Östr.\n"
    "D,06 12 34 56 78,Frankr.\nE,040 1234567,Suomi\nF,0612345678,Holl.\nG,030 12345678,Dtl.\n"
)


def test_a_row_whose_cell_names_its_country_is_not_told_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, rows = _dry_run(tmp_path, capsys, UNREAD)
    assert data["invalid"] == 7
    messages = _messages(rows)
    assert messages[2].endswith(
        "; its Country cell C2 ('Sverige') names Sweden (46), under which it is a valid number, "
        "+46 70 123 45 67; the row was read under the default code as that column was not read, "
        "too few of its values being countries DNC Desk knows: correct those (the file's "
        "warning names them) and import the file again"
    ), messages[2]
    assert "Australia" not in messages[2] and "--phone-code" not in messages[2]
    # Not another country's number as written (8 digits): the cell's country is named too.
    assert "its Country cell C3 ('Norge') names Norway" in messages[3], messages[3]
    assert "its Country cell C6 ('Suomi') names Finland" in messages[6], messages[6]
    # A cell naming no country keeps F1's advice to correct it.
    assert "correct its Country cell C4 to " in messages[4], messages[4]
