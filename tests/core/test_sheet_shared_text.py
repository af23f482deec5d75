"""An xlsx whose cells name one long shared string many times (black-box B35 #1): calamine
copies the string for each cell, so a file of a few KB would make the reader build gigabytes
of text before its memory cap stopped it. The guard counts that text first and refuses the
file in one sentence; a real workbook with a big strings table still opens."""

from __future__ import annotations

import time
import zipfile
from pathlib import Path

import pytest

from app.core.sheet_reader import open_sheet, shared_text_limit
from app.core.sheet_types import SheetError
from tests.core import sheet_factory as f

_SST_HEAD = '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'


def _shared_bomb(path: Path, cells: int, size: int = 5 << 20) -> Path:
    """One ``size``-byte string in sharedStrings.xml, named by ``cells`` cells of column B."""
    sst = f"{_SST_HEAD}<si><t>Phone</t></si><si><t>{'A' * size}</t></si></sst>"
    rows = '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' + "".join(
        f'<row r="{r}"><c r="A{r}"><v>2025550{r % 1000:03d}</v></c>'
        f'<c r="B{r}" t="s"><v>1</v></c></row>'
        for r in range(2, cells + 2)
    )
    xml = f"{f.SHEET_HEAD}<sheetData>{rows}</sheetData></worksheet>"
    return f.write_raw_xlsx(path, xml, shared_strings=sst)


@pytest.mark.parametrize("cells", [2_000, 200_000])
def test_one_long_shared_string_in_many_cells_is_refused(tmp_path: Path, cells: int) -> None:
    path = _shared_bomb(tmp_path / "bomb.xlsx", cells)
    assert path.stat().st_size < 4 << 20  # zip packs the bomb small
    started = time.monotonic()
    with pytest.raises(SheetError) as caught:
        open_sheet(path)
    message = str(caught.value)
    assert message.startswith("bomb.xlsx was not opened: its sheet repeats long texts of its ")
    assert "(the longest 5.0 MB) in at least " in message
    limit = shared_text_limit(path.stat().st_size)
    assert f"would build more than {limit / (1 << 30):.1f} GB of text" in message
    assert message.endswith("ask its sender for a new copy or a CSV.")
    # Refused from the file's parts, not after the reader grew to its cap.
    assert time.monotonic() - started < 10


def test_a_bomb_written_with_a_namespace_prefix_is_refused(tmp_path: Path) -> None:
    # <x:si>, <x:c t="s"><x:v>: the strings are sized one by one, not by the byte search.
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    sst = f'<x:sst xmlns:x="{ns}"><x:si><x:t>{"B" * (5 << 20)}</x:t></x:si></x:sst>'
    rows = "".join(
        f'<x:row r="{r}"><x:c r="A{r}" s="1" t="s"><x:v>0</x:v></x:c></x:row>'
        for r in range(1, 2_001)
    )
    xml = f'<x:worksheet xmlns:x="{ns}"><x:sheetData>{rows}</x:sheetData></x:worksheet>'
    path = f.write_raw_xlsx(tmp_path / "prefixed.xlsx", xml, shared_strings=sst)
    with pytest.raises(SheetError, match=r"^prefixed\.xlsx was not opened: its sheet repeats"):
        open_sheet(path)


def test_names_the_sheet_of_a_workbook_of_several(tmp_path: Path) -> None:
    plain = f.write_sheets(tmp_path / "plain.xlsx", {"Notes": [["x"]], "Calls": [["y"]]})
    bomb = _shared_bomb(tmp_path / "bomb.xlsx", 2_000)
    merged = tmp_path / "two.xlsx"
    with (
        zipfile.ZipFile(plain) as src,
        zipfile.ZipFile(bomb) as evil,
        zipfile.ZipFile(merged, "w", zipfile.ZIP_DEFLATED) as out,
    ):
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/worksheets/sheet2.xml":
                data = evil.read("xl/worksheets/sheet1.xml")
            elif info.filename == "xl/sharedStrings.xml":
                data = evil.read("xl/sharedStrings.xml")
            out.writestr(info, data)
        if "xl/sharedStrings.xml" not in src.namelist():
            out.writestr("xl/sharedStrings.xml", evil.read("xl/sharedStrings.xml"))
    with pytest.raises(SheetError, match=r"^two\.xlsx was not opened: its sheet 'Calls' repeats"):
        open_sheet(merged, "Notes")


def test_a_big_strings_table_with_a_long_text_still_opens(tmp_path: Path) -> None:
    """20,000 different texts and one of 200 KB in three cells: the longest text times the
    cells the sheet could hold passes the limit, so its cells are counted, and it opens."""
    count = 20_000
    long_text = "note " * 40_000
    sst = (
        _SST_HEAD
        + "".join(f"<si><t>Caller {n} of the list</t></si>" for n in range(count))
        + f'<si><r><rPr><b/></rPr><t xml:space="preserve">{long_text}</t></r></si></sst>'
    )
    rows = '<row r="1"><c r="A1" t="inlineStr"><is><t>Phone</t></is></c></row>' + "".join(
        f'<row r="{r}"><c r="A{r}"><v>{2025550000 + r}</v></c>'
        f'<c r="B{r}" s="0" t="s"><v>{count if r < 5 else r - 2}</v></c></row>'
        for r in range(2, count + 2)
    )
    xml = f"{f.SHEET_HEAD}<sheetData>{rows}</sheetData></worksheet>"
    path = f.write_raw_xlsx(tmp_path / "big.xlsx", xml, shared_strings=sst)
    with open_sheet(path) as source:
        got = list(source.iter_rows())
    assert len(got) == count + 1
    assert got[-1][1][1] == f"Caller {count - 1} of the list"
