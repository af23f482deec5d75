"""Black-box bb6 F4 (session 32): a number typed with a letter for a digit ("3O3-555-0015",
O for 0) was refused as "has words around the number; enter the number alone", though there
are no words. It stays refused (reading O as 0 would be a guess) with a message saying the
letter stands where a digit belongs, and to retype it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from app.core import phones
from app.core.sheet_check import check_all
from app.core.sheet_mapping import propose_from_preview
from app.core.sheet_reader import open_sheet


@pytest.mark.parametrize(
    ("cell", "letter"),
    [
        ("3O3-555-0015", "O"),
        ("303-555-OO15", "O"),
        ("(303) 555-0l15", "l"),
        ("2O2 555 0123", "O"),
        ("303.555.I015", "I"),
    ],
)
def test_a_letter_for_a_digit_is_named(cell: str, letter: str) -> None:
    result = phones.normalize(cell, "1")
    assert not result.ok
    assert result.reason == (
        f"{cell!r} has the letter {letter!r} in the number where a digit belongs (as O for "
        "0, I or l for 1); retype the number with digits only"
    )


@pytest.mark.parametrize(
    "cell",
    ["call 2025550123 after 5pm", "Home 2025550123 Office", "2025550123 Bob Smith"],
)
def test_words_around_a_number_stay_words(cell: str) -> None:
    result = phones.normalize(cell, "1")
    assert not result.ok
    assert "where a digit belongs" not in (result.reason or "")


def test_the_row_of_a_workbook_says_so(tmp_path: Path) -> None:
    path = tmp_path / "letters.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone"])
    ws.append(["303-555-0014"])
    ws.append(["3O3-555-0015"])
    wb.save(path)
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
        checked, summary = check_all(source.iter_rows(), replace(mapping, default_phone_code="1"))
    assert (summary.valid, summary.invalid) == (1, 1)
    assert "the letter 'O' in the number where a digit belongs" in checked[1].message
    assert "words" not in checked[1].message


# fxD (session 33): a letter at the very start or end of the number was still refused as
# "words around the number".
@pytest.mark.parametrize(
    ("cell", "letter"),
    [
        ("O303-555-0015", "O"),
        ("303-555-001O", "O"),
        ("l303-555-0015", "l"),
        ("303-555-001l", "l"),
        ("I303 555 0015", "I"),
        ("(O303) 555-0015", "O"),
        ("OO303-555-0015", "O"),
        ("+1 303-555-001O", "O"),
    ],
)
def test_a_letter_at_the_edge_of_a_number_is_named(cell: str, letter: str) -> None:
    result = phones.normalize(cell, "1")
    assert not result.ok
    assert result.reason == (
        f"{cell!r} has the letter {letter!r} in the number where a digit belongs (as O for "
        "0, I or l for 1); retype the number with digits only"
    )


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        ("S2025550123", "has words around the number"),
        ("O12345", "it has only 5 digits"),
        ("lO1", "it has only 1 digit"),
    ],
)
def test_other_letters_at_the_edge_keep_their_reason(cell: str, reason: str) -> None:
    result = phones.normalize(cell, "1")
    assert not result.ok
    assert reason in (result.reason or "")


def test_a_label_apart_from_the_number_is_no_lookalike() -> None:
    assert phones.normalize("O 303-555-0015", "1").ok


def test_the_row_with_a_letter_at_the_edge_says_so(tmp_path: Path) -> None:
    path = tmp_path / "edges.csv"
    path.write_text("Phone\n303-555-0014\nO303-555-0015\n303-555-001l\n", encoding="utf-8")
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
        checked, summary = check_all(source.iter_rows(), replace(mapping, default_phone_code="1"))
    assert (summary.valid, summary.invalid) == (1, 2)
    assert "the letter 'O' in the number where a digit belongs" in checked[1].message
    assert "the letter 'l' in the number where a digit belongs" in checked[2].message
