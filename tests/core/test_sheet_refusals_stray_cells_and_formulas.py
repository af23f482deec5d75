"""Black-box P3 #2-#5: refusals that were wrong or did not say what to do.

A valid xlsx with one stray cell at XFD1048576 was refused as "damaged or crafted"; a sheet of
formulas never calculated, or of error values, as having "no data"; a flat OpenDocument file,
SYLK, DIF and Excel 2003 XML under their own names, a zip holding a CSV, an Apple Numbers
document and a Google Sheets shortcut with a sentence that was false or said nothing to do; a
pipe hung an import or was said not to exist. Each is now one sentence naming the file and
what to do.
"""

from __future__ import annotations

import contextlib
import json
import os
import zipfile
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.sheet_guard import JSON_DATA, StrayCell, sniff_kind, stray_cell
from app.core.sheet_reader import open_sheet, resolve_sheet_path
from app.core.sheet_types import SheetError
from tests.conftest import TOKEN
from tests.core import sheet_factory as f


def refusal(path: Path, sheet: str | None = None) -> str:
    with pytest.raises(SheetError) as refused, open_sheet(path, sheet) as source:
        list(source.iter_rows())
    message = str(refused.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def rows_of(path: Path) -> list[tuple[int, list[object]]]:
    with open_sheet(path) as source:
        return [(n, list(cells)) for n, cells in source.iter_rows()]


# -- #2: a stray cell far beyond the data ------------------------------------------------------

DATA = "".join(
    f'<row r="{r}">{f.cell(f"A{r}", v)}</row>'
    for r, v in enumerate(["Phone", "303-555-0801", "303-555-0802", "303-555-0803"], 1)
)


def far_xlsx(path: Path, far_cell: str) -> Path:
    xml = (
        f'{f.SHEET_HEAD}<dimension ref="A1:A4"/><sheetData>{DATA}'
        f'<row r="1048576">{far_cell}</row></sheetData></worksheet>'
    )
    return f.write_raw_xlsx(path, xml)


@pytest.mark.parametrize(
    "far_cell",
    [
        '<c r="XFD1048576" t="inlineStr"><is><t>x</t></is></c>',
        '<c r="XFD1048576" t="inlineStr"><is><t></t></is></c>',  # an empty text is a cell
    ],
    ids=["text", "empty-text"],
)
def test_a_stray_cell_in_the_last_cell_is_named_with_what_to_do(
    tmp_path: Path, far_cell: str
) -> None:
    path = far_xlsx(tmp_path / "farcell.xlsx", far_cell)
    assert refusal(path) == (
        "farcell.xlsx needs more memory to read than it should because of a stray cell at "
        "XFD1048576, far beyond its data in A1:A4 (so the sheet spans 1,048,576 rows by "
        "16,384 columns); clear that cell, or delete the extra rows and columns, in Excel or "
        "LibreOffice and save the file, then import it again."
    )


def test_a_styled_empty_cell_there_is_still_read(tmp_path: Path) -> None:
    path = far_xlsx(tmp_path / "farstyled.xlsx", '<c r="XFD1048576" s="0"/>')
    assert rows_of(path)[:2] == [(1, ["Phone"]), (2, ["303-555-0801"])]


def test_the_sheet_of_the_stray_cell_is_named_in_a_workbook_of_several(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    first = book.active
    assert first is not None
    first.title = "Notes"
    first["A1"] = "See the list"
    sheet = book.create_sheet("Opt outs")
    for row, value in enumerate(["Phone", "3035550801", "3035550802"], 1):
        sheet.cell(row, 1, value)
        sheet.cell(row, 2, "ok")
    sheet["XFD1048576"] = "x"
    sheet["XFC1048575"] = "y"
    path = tmp_path / "two.xlsx"
    book.save(path)
    message = refusal(path, "Opt outs")
    assert message.startswith(
        "two.xlsx needs more memory to read than it should because of stray cells at "
        "XFD1048576 and XFC1048575 of the sheet 'Opt outs', far beyond its data in A1:B3 "
    ), message
    assert message.endswith(
        "clear those cells, or delete the extra rows and columns, in "
        "Excel or LibreOffice and save the file, then import it again."
    )


def test_a_stray_value_far_below_the_data_can_be_found_for_a_warning(tmp_path: Path) -> None:
    # Read (a grid of one column), so not refused; a lower bound finds it for staging to name.
    path = far_xlsx(tmp_path / "far_down.xlsx", f.cell("A1048576", "x"))
    assert stray_cell(path) is None
    assert stray_cell(path, grid=0) == StrayCell("", ("A1048576",), False, "A1:A4", 1048576, 1)


# -- #3: formulas never calculated, error values --------------------------------------------


def test_a_sheet_of_formulas_never_calculated_says_to_calculate_them(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in range(1, 4):
        sheet.cell(row, 1, f'="303555110"&"{row}"')  # openpyxl saves no result
    path = tmp_path / "only_formula.xlsx"
    book.save(path)
    assert refusal(path) == (
        "only_formula.xlsx has no values to read: its cells hold formulas whose saved "
        "results are empty, which read as empty: formulas never calculated (as a file written "
        "by a script has them) are calculated by opening the file in Excel or LibreOffice and "
        "saving it, then import it again; formulas that give empty text hold no numbers to "
        "import."
    )
    assert refusal(path, "Sheet").startswith(
        "The sheet 'Sheet' of only_formula.xlsx has no values to read: its cells hold formulas "
        "whose saved results are empty"
    )


@pytest.mark.skipif(not (f.CORPUS / "calamine").is_dir(), reason="no shared corpus")
def test_a_sheet_whose_formula_gives_empty_text_is_not_only_told_to_recalculate() -> None:
    # issue343.xls holds one formula, ="", saved with its empty result: as a file a script
    # wrote, its cells read as empty, but saving it again changes nothing (black-box B18 F5).
    message = refusal(f.CORPUS / "calamine" / "issue343.xls")
    assert message.startswith("issue343.xls has no values to read: its cells hold formulas")
    assert "formulas never calculated (as a file written by a script has them)" in message
    assert message.endswith("formulas that give empty text hold no numbers to import.")


def test_a_workbook_of_error_values_says_so_and_names_the_sheet(tmp_path: Path) -> None:
    path = tmp_path / "errors.xlsx"
    book = openpyxl.Workbook()
    first = book.active
    assert first is not None
    first.title = "Empty"
    book.create_sheet("Calls")
    book.save(path)
    # openpyxl writes no error value; put the cells in as Excel saves them.
    cells = (
        '<row r="1"><c r="A1" t="e"><f>5/0</f><v>#DIV/0!</v></c></row>'
        '<row r="2"><c r="A2" t="e"><f>VLOOKUP(B1,B1,B1,3)</f><v>#N/A</v></c></row>'
    )
    rewritten = tmp_path / "rewritten.xlsx"
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(rewritten, "w") as new:
        for info in old.infolist():
            data = old.read(info)
            if info.filename == "xl/worksheets/sheet2.xml":
                data = data.replace(b"<sheetData></sheetData>", b"<sheetData/>").replace(
                    b"<sheetData/>", b"<sheetData>" + cells.encode() + b"</sheetData>"
                )
                assert cells.encode() in data
            new.writestr(info, data)
    rewritten.replace(path)
    assert refusal(path) == (
        "errors.xlsx has no values to read: the cells of its sheet 'Calls' hold only error "
        "values (such as #DIV/0! and #N/A), no numbers; correct the formulas in Excel or "
        "LibreOffice so they show the numbers, or ask for the list with its values, then "
        "import it again."
    )


def test_a_workbook_with_nothing_in_it_still_has_no_data(tmp_path: Path) -> None:
    path = f.write_xlsx(tmp_path / "blank.xlsx", [])
    assert refusal(path) == (
        "blank.xlsx has no data in any visible sheet: check that it is the file you meant "
        "and that it was saved with its rows, then run again."
    )


# -- #4: formats that are not read, and what holds a spreadsheet --------------------------------

# LibreOffice writes some 2 KB of namespace declarations before the mimetype.
NAMESPACES = " ".join(
    f'xmlns:n{i}="urn:oasis:names:tc:opendocument:xmlns:n{i}:1.0"' for i in range(40)
)
FODS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n\n'
    f'<office:document {NAMESPACES} office:version="1.3" '
    'office:mimetype="application/vnd.oasis.opendocument.spreadsheet"><office:body>'
    '<office:spreadsheet><table:table table:name="Sheet1"><table:table-row><table:table-cell '
    'office:value-type="string"><text:p>Phone</text:p></table:table-cell></table:table-row>'
    "</table:table></office:spreadsheet></office:body></office:document>"
)


@pytest.mark.parametrize("name", ["base.fods", "fods_as.ods", "fods_as.xlsx", "fods_as.csv"])
def test_a_flat_opendocument_spreadsheet_is_named_with_how_to_save_it(
    tmp_path: Path, name: str
) -> None:
    assert FODS.index("office:mimetype") > 2048
    path = tmp_path / name
    path.write_text(FODS, encoding="utf-8")
    assert refusal(path) == (
        f"{name} is a flat OpenDocument spreadsheet (.fods, the single-XML form LibreOffice "
        "can save), which is not read; open it in LibreOffice and save it as .ods or .xlsx "
        "(File → Save As), then import that file."
    )


@pytest.mark.parametrize(
    ("name", "content", "kind"),
    [
        ("base.slk", 'ID;PCALCOOO32\r\nC;X1;Y1;K"Phone"\r\nE\r\n', "a SYLK file (.slk)"),
        (
            "base.dif",
            'TABLE\r\n0,1\r\n"Sheet1"\r\nVECTORS\r\n0,1\r\n""\r\nEOD\r\n',
            "a DIF file (.dif, Data Interchange Format)",
        ),
    ],
)
def test_sylk_and_dif_are_named_with_how_to_save_them(
    tmp_path: Path, name: str, content: str, kind: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content.encode())
    assert refusal(path) == (
        f"{name} is {kind}, an old exchange format that is not read; open it in Excel or "
        "LibreOffice and save it as .xlsx or CSV, then import that file."
    )


def test_a_semicolon_csv_starting_like_sylk_is_still_read(tmp_path: Path) -> None:
    path = tmp_path / "ids.csv"
    path.write_text("ID;Phone\n1;3035550801\n", encoding="utf-8")
    assert rows_of(path) == [(1, ["ID", "Phone"]), (2, ["1", "3035550801"])]


def test_excel_2003_xml_under_its_own_name_gets_the_sentence_it_gets_as_xls(
    tmp_path: Path,
) -> None:
    content = (
        '<?xml version="1.0"?>\n<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet">'
        '<Worksheet ss:Name="Sheet1"><Table><Row><Cell><Data ss:Type="String">Phone</Data>'
        "</Cell></Row></Table></Worksheet></Workbook>"
    )
    (tmp_path / "xml2003.xml").write_text(content)
    assert refusal(tmp_path / "xml2003.xml") == (
        "xml2003.xml is an Excel 2003 XML spreadsheet, which is not read; open it in Excel and "
        "save it as .xlsx, or export the data as CSV."
    )


def test_a_file_of_another_name_says_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "list.pages").write_text("nothing a spreadsheet reads")
    assert refusal(tmp_path / "list.pages") == (
        "list.pages is not a spreadsheet (xlsx, xlsm, xlsb, xls, ods) or a text table (csv, "
        "tsv, txt); if a spreadsheet program opens it, save it from there as .xlsx or CSV and "
        "import that file."
    )


def write_zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def test_a_zip_holding_a_csv_names_it_to_extract(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "list.zip", {"utf8.csv": b"Phone\n3035550801\n"})
    assert refusal(path) == (
        "list.zip is a zip archive but not a spreadsheet: it holds utf8.csv; extract it (on "
        "Windows, right-click it and choose Extract All) and import utf8.csv."
    )


def test_a_zip_holding_several_names_them(tmp_path: Path) -> None:
    members = {
        "lists/": b"",
        "lists/a.xlsx": b"x",
        "lists/b.CSV": b"x",
        "__MACOSX/lists/._a.xlsx": b"x",
        "readme.pdf": b"x",
    }
    path = write_zip(tmp_path / "lists.zip", members)
    assert refusal(path) == (
        "lists.zip is a zip archive but not a spreadsheet: it holds 2 spreadsheets (a.xlsx, "
        "b.CSV); extract it (on Windows, right-click it and choose Extract All) and import "
        "the one with the list."
    )


def test_a_zip_holding_no_spreadsheet_says_so(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "photos.zip", {"a.jpg": b"x"})
    assert refusal(path) == (
        "photos.zip is a zip archive but not a spreadsheet, and holds no spreadsheet (xlsx, "
        "xls, ods or CSV file); ask for the list as an xlsx or CSV file."
    )


NUMBERS_SENTENCE = (
    "{} is an Apple Numbers spreadsheet, which is not read; in Numbers, choose File → Export "
    "To → Excel (or CSV) and import the exported file."
)


def test_an_apple_numbers_document_says_to_export_it(tmp_path: Path) -> None:
    members = {"Index/": b"", "Index/Document.iwa": b"x", "Metadata/Properties.plist": b"x"}
    path = write_zip(tmp_path / "real.numbers", members)
    assert refusal(path) == NUMBERS_SENTENCE.format("real.numbers")
    package = tmp_path / "package.numbers"  # as a Mac keeps it on a shared drive: a folder
    (package / "Index").mkdir(parents=True)
    (package / "Index" / "Document.iwa").write_bytes(b"x")
    assert refusal(package) == NUMBERS_SENTENCE.format("package.numbers")


def test_a_google_sheets_shortcut_says_to_download_the_sheet(tmp_path: Path) -> None:
    shortcut = {
        "url": "https://docs.google.com/spreadsheets/d/1AbC/edit",
        "doc_id": "1AbC",
        "email": "x@y.com",
        "resource_id": "spreadsheet:1AbC",
    }
    path = tmp_path / "list.gsheet"
    path.write_text(json.dumps(shortcut))
    sentence = (
        "{} is a Google Sheets shortcut (the link Google Drive keeps on the computer), not the "
        "sheet itself; open it in Google Sheets, download it as xlsx or CSV (File → Download) "
        "and import the downloaded file."
    )
    assert refusal(path) == sentence.format("list.gsheet")
    # Newer versions of Drive write no url: the name says it.
    newer = tmp_path / "newer.gsheet"
    newer.write_text(json.dumps({"": "WARNING! DO NOT EDIT THIS FILE!", "doc_id": "1AbC"}))
    assert refusal(newer) == sentence.format("newer.gsheet")
    # Other JSON is still JSON data.
    data = tmp_path / "list.json"
    data.write_text(json.dumps([{"doc_id": 1, "phone": "3035550801"}]))
    assert sniff_kind(data).other == JSON_DATA


# -- #5: pipes and devices ---------------------------------------------------------------------

PIPE = (
    "{} is a pipe (as made by mkfifo or by the shell's <(…)), not a file, and can be read only "
    "once while a list is read more than once; save the list to a file first and import that "
    "file."
)


@contextlib.contextmanager
def shell_pipe(data: bytes) -> Iterator[Path]:
    """What a shell's <(cat list.csv) hands a command: /dev/fd/N, a pipe's reading end."""
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    try:
        yield Path(f"/dev/fd/{read}")
    finally:
        os.close(read)


needs_fifo = pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not Path("/dev/fd").is_dir(), reason="no pipes as files here"
)


@needs_fifo
def test_a_named_pipe_is_refused_without_opening_it(tmp_path: Path) -> None:
    pipe = tmp_path / "fifo.csv"
    os.mkfifo(pipe)
    with pytest.raises(SheetError) as refused:
        resolve_sheet_path(pipe)  # no writer: opening it would wait for ever
    assert str(refused.value) == PIPE.format(pipe)
    assert refusal(pipe) == PIPE.format(pipe)


@needs_fifo
def test_a_process_substitution_is_refused_as_a_pipe(tmp_path: Path) -> None:
    with shell_pipe(b"Phone\n3035550801\n") as path:
        with pytest.raises(SheetError) as refused:
            resolve_sheet_path(path)
        assert str(refused.value) == PIPE.format(path)


@needs_fifo
def test_the_import_command_refuses_a_process_substitution(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    with shell_pipe(b"Phone\n3035550801\n") as path:
        argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
        assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.err == PIPE.format(path) + "\n"


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null here")
def test_a_device_is_refused() -> None:
    sentence = "/dev/null is a device, not a file; save the list to a file first and import it."
    with pytest.raises(SheetError) as refused:
        resolve_sheet_path(Path("/dev/null"))
    assert str(refused.value) == sentence
    with pytest.raises(SheetError) as opened:
        open_sheet(Path("/dev/null"))
    assert str(opened.value) == sentence
