"""Black-box findings in the readers: files as they arrive from the field (cut short, renamed,
with a quote never closed) are refused in one sentence that says what is wrong with them."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError
from tests.core import sheet_factory as f


def _rows(path: Path) -> list[tuple[int, list[object]]]:
    with open_sheet(path) as source:
        return [(n, list(cells)) for n, cells in source.iter_rows()]


@pytest.mark.parametrize("keep", [0.05, 0.5, 0.99])
@pytest.mark.parametrize("name", ["cut.xlsx", "cut.ods", "cut.csv"])
def test_a_zip_workbook_cut_short_says_so(tmp_path: Path, name: str, keep: float) -> None:
    good = f.write_xlsx(
        tmp_path / "good.xlsx", [["Phone"]] + [[2025550100 + i] for i in range(300)]
    )
    path = f.truncated_copy(good, tmp_path / name, keep)
    with pytest.raises(SheetError) as caught:
        open_sheet(path)
    message = str(caught.value)
    assert message.startswith(f"{name} is incomplete or damaged"), message
    assert "cut short" in message and message.endswith(".") and "\n" not in message


def test_a_zip_that_is_not_a_workbook_is_still_named_so(tmp_path: Path) -> None:
    path = tmp_path / "photos.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("a.txt", "hello")
    with pytest.raises(SheetError, match=r"^photos\.xlsx is a zip archive but not a spreadsheet"):
        open_sheet(path)


def test_a_quote_never_closed_is_refused_not_swallowed(tmp_path: Path) -> None:
    # Excel and LibreOffice read everything after the stray quote as one cell: rows vanish.
    path = tmp_path / "vendor.csv"
    path.write_text('Phone,Reason\n2025550101,"asked\n2025550102,rude\n2025550103,x\n')
    with pytest.raises(SheetError) as caught:
        _rows(path)
    message = str(caught.value)
    assert message.startswith("vendor.csv has a quote mark in record 2 that is never closed")
    assert "\n" not in message


def test_a_closed_quote_spanning_lines_at_the_end_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "notes.csv"
    path.write_text('Phone,Reason\r\n2025550101,a\r\n2025550102,"line one\r\nline two"\r\n')
    assert _rows(path) == [
        (1, ["Phone", "Reason"]),
        (2, ["2025550101", "a"]),
        (3, ["2025550102", "line one\r\nline two"]),
    ]
    path.write_text('Phone,Reason\n2025550101,"a\nb"')  # no final newline
    assert _rows(path)[-1] == (2, ["2025550101", "a\nb"])
