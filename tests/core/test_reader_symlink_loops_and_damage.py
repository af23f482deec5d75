"""Black-box pass L4 on the reader: a symbolic link loop (#2), damaged workbooks refused in
words a compliance officer understands (#9), and JSON data under a spreadsheet's name (#10).

#2: ``files/loopa.csv → loopb.csv → loopa.csv`` crashed import with "RuntimeError: Symlink loop
from …" (from ``Path.resolve``) and open_sheet said "cannot be reached (Too many levels of
symbolic links)". #9: a cut or malformed workbook was refused as "…could not be read (c).",
"(sheetData)", "cannot be read: Invalid argument." or "crashed the spreadsheet reader (exit
status 1)". #10: a JSON export saved as .xlsx was read as a table of one column.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pytest

from app.core.sheet_guard import JSON_DATA, JSON_SCAN_BYTES, sniff_kind
from app.core.sheet_reader import open_sheet, resolve_sheet_path
from app.core.sheet_types import SheetError
from tests.core import sheet_factory as f
from tests.core.test_sheet_worker_untyped_cells import xlwt_formulas

DAMAGED = "is damaged or incomplete (cut short, or not saved completely): open it in Excel or "
ADVICE = "LibreOffice and save it again, or ask for a new copy"


def _refusal(path: Path) -> str:
    with pytest.raises(SheetError) as caught, open_sheet(path) as source:
        list(source.iter_rows())
    message = str(caught.value)
    assert "\n" not in message and message.endswith("."), message
    return message


def _rows(path: Path) -> list[list[object]]:
    with open_sheet(path) as source:
        return [list(cells) for _, cells in source.iter_rows()]


# -- #2: a symbolic link loop -------------------------------------------------------------------


def _loop(tmp_path: Path) -> Path:
    (tmp_path / "loopa.csv").symlink_to("loopb.csv")
    (tmp_path / "loopb.csv").symlink_to("loopa.csv")
    return tmp_path / "loopa.csv"


def test_a_symlink_loop_is_one_sentence_from_open_sheet(tmp_path: Path) -> None:
    path = _loop(tmp_path)
    with pytest.raises(SheetError) as caught:
        open_sheet(path)
    assert str(caught.value) == (
        f"{path} is a symbolic link that leads back to itself (a loop): it names no file."
    )


def test_a_symlink_loop_is_a_sheet_error_when_the_path_is_resolved(tmp_path: Path) -> None:
    # Staging resolves the path before opening it; Path.resolve raised a bare RuntimeError.
    path = _loop(tmp_path)
    with pytest.raises(SheetError) as caught:
        resolve_sheet_path(path)
    assert str(caught.value) == (
        f"{path} is a symbolic link that leads back to itself (a loop): it names no file."
    )


def test_a_link_to_itself_is_a_loop_too(tmp_path: Path) -> None:
    path = tmp_path / "self.csv"
    path.symlink_to("self.csv")
    with pytest.raises(SheetError, match=r"self\.csv is a symbolic link that leads back to"):
        open_sheet(path)


def test_a_loop_in_a_folder_above_says_so(tmp_path: Path) -> None:
    (tmp_path / "d1").symlink_to("d2")
    (tmp_path / "d2").symlink_to("d1")
    path = tmp_path / "d1" / "list.csv"
    expected = (
        f"{path} cannot be reached: a folder on its path is a symbolic link that leads back to "
        "itself (a loop)."
    )
    with pytest.raises(SheetError) as caught:
        open_sheet(path)
    assert str(caught.value) == expected
    with pytest.raises(SheetError) as resolved:
        resolve_sheet_path(path)
    assert str(resolved.value) == expected


def test_resolving_a_good_path_follows_links_and_expands_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = f.write_csv(tmp_path / "real.csv", [["Phone"], ["3035550100"]])
    (tmp_path / "link.csv").symlink_to("real.csv")
    assert resolve_sheet_path(tmp_path / "link.csv") == real.resolve()
    monkeypatch.setenv("HOME", str(tmp_path))
    assert resolve_sheet_path(Path("~/real.csv")) == real.resolve()
    # A file not there resolves as before: open_sheet says it does not exist.
    assert resolve_sheet_path(tmp_path / "gone.csv") == (tmp_path / "gone.csv").resolve()


# -- #9: damaged workbooks in plain words -------------------------------------------------------


def _xlsx_with_sheet(path: Path, sheet_xml: bytes) -> Path:
    """A good openpyxl workbook with its sheet part replaced by ``sheet_xml``."""
    good = f.write_xlsx(
        path.with_name("good_" + path.name), [["Phone"]] + [[3035550100 + i] for i in range(50)]
    )
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = sheet_xml
            dst.writestr(info.filename, data)
    return path


def _sheet_part(path: Path) -> bytes:
    with zipfile.ZipFile(path) as zf:
        return zf.read("xl/worksheets/sheet1.xml")


def test_a_sheet_cut_inside_a_cell_says_damaged_without_a_bare_tag_name(tmp_path: Path) -> None:
    good = f.write_xlsx(tmp_path / "src.xlsx", [["Phone"]] + [[3035550100 + i] for i in range(50)])
    xml = _sheet_part(good)
    cut = xml[: xml.index(b"</c>", len(xml) // 2)] + b"</c<<<garbage &bad; </sheetData>"
    message = _refusal(_xlsx_with_sheet(tmp_path / "malformed_half.xlsx", cut))
    assert message == f"malformed_half.xlsx {DAMAGED}{ADVICE}.", message


def test_a_sheet_cut_after_a_row_says_damaged(tmp_path: Path) -> None:
    good = f.write_xlsx(tmp_path / "src.xlsx", [["Phone"]] + [[3035550100 + i] for i in range(50)])
    xml = _sheet_part(good)
    cut = xml[: xml.index(b"</row>", len(xml) // 2) + len(b"</row>")]
    message = _refusal(_xlsx_with_sheet(tmp_path / "sheetcut.xlsx", cut))
    assert message == f"sheetcut.xlsx {DAMAGED}{ADVICE}.", message


def test_a_cell_reference_that_panics_the_reader_says_damaged(tmp_path: Path) -> None:
    # calamine panics ("capacity overflow"): a PanicException, no Exception, killed the worker.
    path = f.write_raw_xlsx(
        tmp_path / "badcellref.xlsx",
        f.SHEET_HEAD + "<sheetData>"
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Phone</t></is></c></row>'
        '<row r="2"><c r="ZZZZZZZ99999999"><v>3035550100</v></c></row>'
        "</sheetData></worksheet>",
    )
    message = _refusal(path)
    assert message == f"badcellref.xlsx {DAMAGED}{ADVICE}.", message


def test_an_xls_cut_short_says_damaged_and_keeps_the_readers_words_as_a_note(
    tmp_path: Path,
) -> None:
    data = xlwt_formulas(tmp_path / "good.xls").read_bytes()
    path = tmp_path / "trunc.xls"
    path.write_bytes(data[:600])
    message = _refusal(path)
    assert message.startswith(f"trunc.xls {DAMAGED}{ADVICE} (the reader said: Sector "), message
    assert message.endswith("points past end of file).") and "Cfb" not in message


def test_an_xls_cut_where_the_reader_panics_says_damaged(tmp_path: Path) -> None:
    data = xlwt_formulas(tmp_path / "good.xls").read_bytes()
    path = tmp_path / "trunc99.xls"
    path.write_bytes(data[:697])
    message = _refusal(path)
    assert message == f"trunc99.xls {DAMAGED}{ADVICE}.", message


def _with_header_offsets(source: Path, path: Path, shift: int) -> Path:
    """``source`` with every central directory entry's local header offset moved by ``shift``."""
    data = bytearray(source.read_bytes())
    at = data.find(b"PK\x01\x02")
    while at != -1:
        offset = int.from_bytes(data[at + 42 : at + 46], "little")
        data[at + 42 : at + 46] = ((offset + shift) % (1 << 32)).to_bytes(4, "little")
        at = data.find(b"PK\x01\x02", at + 4)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("shift", [-(1 << 31), 1 << 31])
def test_a_zip_directory_pointing_outside_the_file_is_not_an_invalid_argument(
    tmp_path: Path, shift: int
) -> None:
    good = f.write_xlsx(tmp_path / "src.xlsx", [["Phone"], [3035550100]])
    path = _with_header_offsets(good, tmp_path / "badeocd.xlsx", shift)
    message = _refusal(path)
    assert "Invalid argument" not in message
    assert message.startswith(f"badeocd.xlsx {DAMAGED}{ADVICE}"), message


# -- #10: JSON data under a spreadsheet's or a CSV's name ---------------------------------------

RECORDS = [{"Phone": f"303-619-34{i:02d}", "Name": f"P{i}"} for i in range(10)]


@pytest.mark.parametrize("name", ["data.xlsx", "data.csv", "data.xls", "data.txt"])
@pytest.mark.parametrize(
    "text",
    [
        json.dumps(RECORDS),
        json.dumps(RECORDS, indent=2),
        "\ufeff  \n" + json.dumps({"records": RECORDS}),
        "\n".join(json.dumps(r) for r in RECORDS) + "\n",  # JSON Lines
        json.dumps([["Phone", "Name"], ["303-619-3400", "P0"]]),
    ],
    ids=["array", "indented", "bom-object", "lines", "arrays"],
)
def test_json_is_refused_as_json(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SheetError) as caught:
        open_sheet(path)
    assert str(caught.value) == (
        f"{name} is a JSON data file, not a spreadsheet; ask for the list as an xlsx or CSV file."
    )


def test_json_too_long_to_parse_whole_is_known_by_its_start(tmp_path: Path) -> None:
    records = [{"Phone": f"303619{i:04d}", "Note": "x" * 90} for i in range(15_000)]
    path = tmp_path / "big.xlsx"
    path.write_text(json.dumps(records), encoding="utf-8")
    assert os.path.getsize(path) > JSON_SCAN_BYTES
    assert sniff_kind(path).other == JSON_DATA
    lines = tmp_path / "big.csv"
    lines.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    assert sniff_kind(lines).other == JSON_DATA


@pytest.mark.parametrize(
    "text",
    [
        "[Phone],Name\n3036193400,P0\n3036193401,P1\n",
        "[1]Phone,Name\n3036193400,P0\n",
        '"[""a""]",Phone\nx,3036193400\n',
        "{Phone},Name\n3036193400,P0\n",
        '["Phone"],Name\n3036193400,P0\n',
        "[Phone]\n3036193400\n3036193401\n",
    ],
)
def test_a_csv_starting_with_a_bracket_is_still_read(tmp_path: Path, text: str) -> None:
    path = tmp_path / "list.csv"
    path.write_text(text, encoding="utf-8")
    assert sniff_kind(path).other == ""
    rows = _rows(path)
    assert len(rows) == text.count("\n")
    assert any("3036193400" in str(cell) for row in rows for cell in row)
