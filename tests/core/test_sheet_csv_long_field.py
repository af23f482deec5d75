"""Black-box B35 #2: a CSV with one 10 MB unquoted cell on one line was refused as a quote
mark never closed; it is named as what it is, a cell longer than the limit on row N. A quote
never closed is still named so."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.sheet_reader import SheetError, open_sheet


def _refusal(path: Path) -> str:
    with pytest.raises(SheetError) as raised:
        with open_sheet(path) as source:
            list(source.iter_rows())
    return str(raised.value)


@pytest.mark.parametrize("quote", ["", '"'])
def test_a_long_cell_on_one_line_is_named_with_its_row(tmp_path: Path, quote: str) -> None:
    path = tmp_path / "wide.csv"
    long_cell = quote + "x" * (10 << 20) + quote
    path.write_text(f"Phone,Notes\n2025550123,ok\n2025550124,{long_cell}\n2025550125,ok\n")
    said = _refusal(path)
    assert said.startswith(
        "wide.csv row 3 has a cell of more than 1,048,576 characters on one line "
        "(a spreadsheet cell holds at most 32,767)"
    )
    assert "quote" not in said
    assert said.endswith("shorten that cell and try again.")


def test_a_quote_never_closed_before_a_long_line_is_still_named(tmp_path: Path) -> None:
    path = tmp_path / "open.csv"
    path.write_text('Phone,Notes\n2025550123,ok\n2025550124,"called ' + "x" * (2 << 20) + "\n")
    said = _refusal(path)
    assert said.startswith("open.csv record 3 has a cell of more than 1,048,576 characters")
    assert "a quote mark opened there and never closed" in said
