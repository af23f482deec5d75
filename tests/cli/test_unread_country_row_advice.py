"""Black-box B7 #1, left by fixers F1 and F5 (session 19): a row of a file whose Country column
was not read, refused as a US number that is another country's, was advised "if it is one, use
--phone-code 49 or a Country column" (the file has one); it is now told to correct its own
Country cell, naming it, and no --phone-code."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_unread_country_column_advice import ABBREVIATED, _dry_run, _messages


def test_a_refused_row_is_told_to_correct_its_country_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _data, rows = _dry_run(tmp_path, capsys, ABBREVIATED)
    messages = _messages(rows)
    assert (
        "; if it is one, correct its Country cell B2 to Germany or 49; for the others, "
        in (messages[2])
    ), messages[2]
    assert "use --phone-code" not in messages[2] and "or a Country column" not in messages[2]
    assert "correct its Country cell B3 to " in messages[3], messages[3]


def test_the_first_note_names_the_values_it_did_not_know(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, _rows = _dry_run(tmp_path, capsys, ABBREVIATED)
    [note] = [w for w in data["warnings"] if "was not read as country codes" in w]
    assert note.startswith(
        "Column B ('Country') was not read as country codes: only 3 of its 8 values are country "
        "codes ('Östr.' (row 2), 'Frankr.' (row 3), 'Schwed.' (row 4) and others are no country "
        "code or name DNC Desk knows), so every row used the default code +1 (unless its "
        "number starts with its own, as +44; a row whose cell names a country of another code, "
        "as Mexico, is not taken)."
    ), note
