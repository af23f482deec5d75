"""The worker's own scan of an xlsx sheet (hidden rows, formulas with no saved result, error
values) reads the forms other producers write as calamine reads them (black-box B1): cells
without ``r="B4"`` (placed in the column after the previous cell, in their row tag's row),
any namespace prefix (the Open XML SDK's ``x:``), zip entries named with backslashes; and a
workbook it cannot read says why rather than "no data" or "damaged". Also an .ods text with a
``<text:line-break/>`` reads as two lines. The workbooks are built part by part, as the tester
built them."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
import python_calamine

from app.core import sheet_worker
from app.core.sheet_guard import stray_cell
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError
from tests.core.test_sheet_hidden_rows import outcomes, stage_dry, warnings
from tests.core.test_sheet_ods_hidden import worker_messages

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
WORKSHEET = f"{REL}/worksheet"
OFFICE_DOCUMENT = f"{REL}/officeDocument"
XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
TYPES = (
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>'
)
PHONES = [f"303555{1101 + i:04d}" for i in range(40)]
CHUNKS = (16, 23, 37, 64, 101, 173, 256, 499, 1024, 1 << 20)


def dashed(number: str) -> str:
    return f"{number[:3]}-{number[3:6]}-{number[6:]}"


def text(value: str, ref: str = "", p: str = "") -> str:
    r = f' r="{ref}"' if ref else ""
    return f'<{p}c{r} t="inlineStr"><{p}is><{p}t>{value}</{p}t></{p}is></{p}c>'


def worksheet(rows: str, p: str = "", after: str = "", cols: str = "") -> str:
    x = f"xmlns:{p[:-1]}" if p else "xmlns"
    return (
        f'{XML_HEAD}<{p}worksheet {x}="{MAIN}" xmlns:r="{REL}">{cols}<{p}sheetData>{rows}'
        f"</{p}sheetData>{after}</{p}worksheet>"
    )


def build(
    path: Path,
    sheets: list[tuple[str, str | bytes]],
    p: str = "",
    sep: str = "/",
    hidden: tuple[int, ...] = (),
) -> Path:
    """An xlsx of ``sheets`` (name, worksheet XML), its workbook's tags with prefix ``p``,
    its zip entries' folders separated by ``sep``; sheets numbered in ``hidden`` hidden."""
    x = f"xmlns:{p[:-1]}" if p else "xmlns"
    state = ' state="hidden"'
    listed = "".join(
        f'<{p}sheet name="{name}" sheetId="{i}" r:id="rId{i}"{state if i in hidden else ""}/>'
        for i, (name, _) in enumerate(sheets, 1)
    )
    rels = "".join(
        f'<Relationship Id="rId{i}" Type="{WORKSHEET}" Target="worksheets/sheet{i}.xml"/>'
        for i in range(1, len(sheets) + 1)
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:

        def put(name: str, data: str | bytes) -> None:
            zf.writestr(name.replace("/", sep), data)

        put("[Content_Types].xml", XML_HEAD + TYPES)
        put(
            "_rels/.rels",
            f'{XML_HEAD}<Relationships xmlns="{PKG}"><Relationship Id="rId1" '
            f'Type="{OFFICE_DOCUMENT}" Target="xl/workbook.xml"/></Relationships>',
        )
        put(
            "xl/workbook.xml",
            f'{XML_HEAD}<{p}workbook {x}="{MAIN}" xmlns:r="{REL}"><{p}sheets>{listed}'
            f"</{p}sheets></{p}workbook>",
        )
        put(
            "xl/_rels/workbook.xml.rels",
            f'{XML_HEAD}<Relationships xmlns="{PKG}">{rels}</Relationships>',
        )
        for i, (_, xml) in enumerate(sheets, 1):
            put(f"xl/worksheets/sheet{i}.xml", xml)
    return path


def raw_sheet(count: int, with_r: bool) -> str:
    """The hidden sheet the formulas point at, with or without references."""
    rows = "<row>" + text("n") + "</row>"
    for i in range(count):
        ref = f' r="A{i + 2}"' if with_r else ""
        rows += f"<row><c{ref}><v>{PHONES[i]}</v></c></row>"
    return worksheet(rows)


# -- #1: an error value in a cell without a reference ----------------------------------------


def mexico(path: Path, with_r: bool) -> Path:
    """A Mexico list (country code 52) whose B4 is #N/A: with no reference on any cell, or
    with them (the control)."""
    numbers = ["5512345613", "5512345614", "5512345615", "5512345616", "5512345617"]
    rows = (
        "<row>"
        + text("Phone", "A1" if with_r else "")
        + text("Country Code", "B1" if with_r else "")
    )
    rows += "</row>"
    for i, number in enumerate(numbers):
        r = i + 2
        ref = f' r="B{r}"' if with_r else ""
        code = f'<c{ref} t="e"><v>#N/A</v></c>' if r == 4 else f"<c{ref}><v>52</v></c>"
        rows += "<row>" + text(number, f"A{r}" if with_r else "") + code + "</row>"
    return build(path, [("Sheet1", worksheet(rows))])


@pytest.mark.parametrize("with_r", [False, True])
def test_an_error_in_the_country_code_column_without_a_reference_makes_the_row_invalid(
    tmp_path: Path, with_r: bool
) -> None:
    # It read as empty, so row 4 was inserted with the default country code 1.
    store = stage_dry(mexico(tmp_path / "mx.xlsx", with_r), tmp_path)
    found = outcomes(store)
    assert found[4][0] == "invalid"
    assert "cell B4 holds the error value #N/A" in found[4][1]
    assert all(found[n][0] != "invalid" for n in (2, 3, 5, 6))


def test_an_error_in_the_phone_column_without_a_reference_is_named(tmp_path: Path) -> None:
    # Finding #4: the row was a "blank row".
    rows = "<row>" + text("Name") + text("Phone") + "</row>"
    for i in range(12):
        phone = '<c t="e"><v>#REF!</v></c>' if i == 8 else text(dashed(PHONES[i]))
        rows += f"<row><c/>{phone}</row>"
    path = build(tmp_path / "err.xlsx", [("Sheet1", worksheet(rows))])
    with open_sheet(path) as source:
        list(source.iter_rows())
        assert source.notes.errors == {(10, 1): "#REF!"}
    found = outcomes(stage_dry(path, tmp_path))
    assert found[10][0] == "invalid"
    assert "cell B10 holds the error value #REF!" in found[10][1]


def test_single_quotes_and_lower_case_references_are_read_as_calamine_reads_them(
    tmp_path: Path,
) -> None:
    rows = (
        "<row r='1'>" + text("Phone", "A1") + "</row>"
        "<row r='2'><c r='a2' t='e'><v>#N/A</v></c></row>"
        "<row r='3'><c r='a3'><f>1+1</f></c></row>"
        "<row r='4'>" + text(PHONES[0], "A4") + "</row>"
    )
    path = build(tmp_path / "quotes.xlsx", [("Sheet1", worksheet(rows))])
    scan = sheet_worker.open_scan(str(path), "Sheet1")
    assert isinstance(scan, sheet_worker.XmlScan)
    _, formulas, errors = scan.advance(0)
    scan.close()
    assert errors == [(2, 0, "#N/A")]
    assert formulas == [(3, 0, "1+1")]


# -- #2 and #3: formulas with no saved result, x: prefix or no references ------------------------


def some_formulas(path: Path, form: str) -> Path:
    """20 numbers under "Phone", every fourth a formula =Raw!An with no saved value."""
    p = "x:" if form == "prefix" else ""
    with_r = form != "rless"
    first = ' r="1"' if with_r else ""
    rows = f"<{p}row{first}>" + text("Phone", "A1" if with_r else "", p)
    rows += f"</{p}row>"
    for i in range(20):
        r = i + 2
        ref = f' r="A{r}"' if with_r else ""
        number = f' r="{r}"' if with_r else ""
        if i % 4 == 3:
            cell = f'<{p}c{ref} t="str"><{p}f>Raw!A{r}</{p}f></{p}c>'
        else:
            cell = text(dashed(PHONES[i]), f"A{r}" if with_r else "", p)
        rows += f"<{p}row{number}>{cell}</{p}row>"
    sheets = [("Opt Outs", worksheet(rows, p)), ("Raw", raw_sheet(20, with_r))]
    return build(path, sheets, p=p, hidden=(2,))


@pytest.mark.parametrize("form", ["prefix", "rless", "control"])
def test_formulas_with_no_saved_result_are_found_in_every_form(tmp_path: Path, form: str) -> None:
    path = some_formulas(tmp_path / f"{form}.xlsx", form)
    with open_sheet(path) as source:
        rows = list(source.iter_rows())
        assert source.notes.formulas == {(r, 0): f"Raw!A{r}" for r in (5, 9, 13, 17, 21)}
    # Row 21, the last, holds only the formula: it is there to be reported.
    assert rows[-1][0] == 21
    store = stage_dry(path, tmp_path)
    found = outcomes(store)
    assert len(found) == 20
    invalid = {n for n, (outcome, _) in found.items() if outcome == "invalid"}
    assert invalid == {5, 9, 13, 17, 21}
    assert "holds a formula (=Raw!A9) with no saved result" in found[9][1]
    assert any("formulas with no saved values (5 cells)" in w for w in warnings(store))


def all_formulas(path: Path, form: str) -> Path:
    """Only formulas under "Phone", none calculated: the tester's 110 (x:) and 113 (no r)."""
    p = "x:" if form == "prefix" else ""
    with_r = form != "rless"
    rows = f"<{p}row>" + text("Phone", "A1" if with_r else "", p) + f"</{p}row>"
    for i in range(10):
        ref = f' r="A{i + 2}"' if with_r else ""
        rows += f"<{p}row><{p}c{ref}><{p}f>Raw!A{i + 2}</{p}f></{p}c></{p}row>"
    sheets = [("Opt Outs", worksheet(rows, p)), ("Raw", raw_sheet(10, with_r))]
    return build(path, sheets, p=p, hidden=(2,))


@pytest.mark.parametrize("form", ["prefix", "rless", "control"])
def test_a_sheet_of_only_uncalculated_formulas_is_not_no_data(tmp_path: Path, form: str) -> None:
    # It was "has no data rows below its header (row 1): nothing to import", exit 0.
    store = stage_dry(all_formulas(tmp_path / f"{form}.xlsx", form), tmp_path)
    found = outcomes(store)
    assert sorted(found) == list(range(2, 12))
    assert all(outcome == "invalid" for outcome, _ in found.values())
    assert any("formulas with no saved values (10 cells)" in w for w in warnings(store))


# -- where an unnumbered cell goes, across chunk boundaries -------------------------------------


def placement_sheet() -> str:
    """Rows and cells with and without references, mixed as writers mix them, the error and
    formula cells marked by their neighbours' values."""
    return worksheet(
        '<row r="1">' + text("Phone") + text("Code") + text("Note") + "</row>"
        "<row>" + text("a2") + '<c t="e"><v>#N/A</v></c>' + text("c2") + "</row>"
        '<row r="5"><c r="C5"><f>1+1</f></c>' + text("d5") + '<c t="e"><v>#DIV/0!</v></c></row>'
        "<row>" + text("a6") + text("b6") + text("c6") + text("d6") + "<c><f>A6</f></c></row>"
        '<row><c r="B7" t="e"><v>#REF!</v></c><c t="e"><v>#NAME?</v></c></row>'
        "<row>" + text("a8") + "<c><f>SUM(A1)</f><v></v></c></row>"
    )


@pytest.mark.parametrize("chunk", CHUNKS)
def test_unnumbered_cells_are_placed_as_calamine_places_them_whatever_the_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    path = build(tmp_path / "mixed.xlsx", [("Sheet1", placement_sheet())])
    # calamine's own places for the neighbours: the finds sit between them.
    grid = python_calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Sheet1")
    values = grid.to_python(skip_empty_area=False)
    assert values[1][:3] == ["a2", "", "c2"]
    assert values[4][3] == "d5"
    assert values[5][:4] == ["a6", "b6", "c6", "d6"]
    monkeypatch.setattr(sheet_worker, "SCAN_CHUNK", chunk)
    scan = sheet_worker.open_scan(str(path), "Sheet1")
    assert isinstance(scan, sheet_worker.XmlScan)
    scan.read_to_end()
    assert sorted(scan.errors) == [
        (2, 1, "#N/A"),
        (5, 4, "#DIV/0!"),
        (7, 1, "#REF!"),
        (7, 2, "#NAME?"),
    ]
    assert sorted(scan.formulas) == [(5, 2, "1+1"), (6, 4, "A6"), (8, 1, "SUM(A1)")]


# -- #7: zip entries named with backslashes -----------------------------------------------------


def featured(path: Path, sep: str) -> Path:
    """Rows 4-5 hidden, #N/A in A8, an uncalculated formula in A10 (the tester's 80 and 84)."""
    rows = '<row r="1">' + text("Phone", "A1") + "</row>"
    for i in range(12):
        r = i + 2
        hidden = ' hidden="1"' if r in (4, 5) else ""
        if r == 8:
            cell = f'<c r="A{r}" t="e"><v>#N/A</v></c>'
        elif r == 10:
            cell = f'<c r="A{r}" t="str"><f>Raw!A1</f></c>'
        else:
            cell = text(dashed(PHONES[i]), f"A{r}")
        rows += f'<row r="{r}"{hidden}>{cell}</row>'
    return build(path, [("Sheet1", worksheet(rows))], sep=sep)


@pytest.mark.parametrize("sep", ["/", "\\"])
def test_a_zip_whose_entries_are_named_with_backslashes_is_scanned(
    tmp_path: Path, sep: str
) -> None:
    path = featured(tmp_path / "feat.xlsx", sep)
    with open_sheet(path) as source:
        list(source.iter_rows())
        notes = source.notes
        assert notes.hidden_known
        assert notes.hidden_rows == {4, 5}
        assert notes.errors == {(8, 0): "#N/A"}
        assert notes.formulas[(10, 0)] == "Raw!A1"
    store = stage_dry(path, tmp_path)
    found = outcomes(store)
    assert found[8][0] == found[10][0] == "invalid"
    assert any("Rows 4–5 (2 rows) are hidden" in w for w in warnings(store))


def test_the_workbook_is_found_where_the_package_relationships_put_it(tmp_path: Path) -> None:
    path = tmp_path / "root.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("[Content_Types].xml", XML_HEAD + TYPES)
        zf.writestr(
            "_rels/.rels",
            f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{OFFICE_DOCUMENT}" '
            'Target="/Book.xml"/></Relationships>',
        )
        zf.writestr(
            "book.xml",
            f'<workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets>'
            "<sheet name='Sheet1' sheetId='1' r:id='rId1'/></sheets></workbook>",
        )
        zf.writestr(
            "_rels/book.xml.rels",
            f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{WORKSHEET}" '
            'Target="sheets/s1.xml"/></Relationships>',
        )
        zf.writestr(
            "sheets/s1.xml", worksheet('<row r="1" hidden="1">' + text("x", "A1") + "</row>")
        )
    with zipfile.ZipFile(path) as zf:
        assert sheet_worker.workbook_part(zf) == "book.xml"
        assert sheet_worker.sheet_part(zf, "Sheet1") == "sheets/s1.xml"
    # calamine cannot open it: the refusal says the file is unusual, not damaged (#8).
    with pytest.raises(SheetError) as refused:
        with open_sheet(path) as source:
            list(source.iter_rows())
    message = str(refused.value)
    assert "keeps its workbook at book.xml rather than xl/workbook.xml" in message
    assert "not damaged" in message
    assert "damaged or incomplete" not in message


# -- #6: a sheet stored as UTF-16 ---------------------------------------------------------------


def test_a_sheet_stored_as_utf16_is_refused_as_unreadable_not_as_empty(tmp_path: Path) -> None:
    rows = '<row r="1">' + text("Phone", "A1") + "</row>"
    rows += "".join(
        f'<row r="{i + 2}">' + text(dashed(PHONES[i]), f"A{i + 2}") + "</row>" for i in range(5)
    )
    xml = worksheet(rows).replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")
    path = build(tmp_path / "utf16.xlsx", [("Sheet1", xml)])
    for sheet in ("", "Sheet1"):
        with pytest.raises(SheetError) as refused:
            with open_sheet(path, sheet=sheet or None) as source:
                list(source.iter_rows())
        message = str(refused.value)
        assert "stored as UTF-16 text" in message
        assert "save it as .xlsx" in message
        assert "no data" not in message and "is empty" not in message


# -- #9: a line break in an .ods text -----------------------------------------------------------


def test_an_ods_line_break_reads_as_a_new_line(tmp_path: Path) -> None:
    ns = (
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
    )

    def cell(body: str) -> str:
        return f'<table:table-cell office:value-type="string">{body}</table:table-cell>'

    first, second = dashed(PHONES[8]), dashed(PHONES[9])
    rows = "".join(
        f"<table:table-row>{cells}</table:table-row>"
        for cells in (
            cell("<text:p>Phone</text:p>") + cell("<text:p>Reason</text:p>"),
            cell(f"<text:p>{dashed(PHONES[0])}</text:p>") + cell("<text:p>one</text:p>"),
            cell(f"<text:p>{first}</text:p><text:p>{second}</text:p>") + cell("<text:p>p</text:p>"),
            cell(f"<text:p>{first}<text:line-break/>{second}</text:p>")
            + cell("<text:p>line break</text:p>"),
        )
    )
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns}><office:body>'
        f'<office:spreadsheet><table:table table:name="Sheet1">{rows}</table:table>'
        "</office:spreadsheet></office:body></office:document-content>"
    )
    path = tmp_path / "breaks.ods"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("content.xml", content)
        zf.writestr(
            "META-INF/manifest.xml",
            '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:'
            'manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type='
            '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
            'manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            "</manifest:manifest>",
        )
    rows_sent = [m for m in worker_messages(path) if m[0] == "rows"]
    cells = {n: c for message in rows_sent for n, c in message[1]}
    # As two paragraphs read: both numbers, a line each (not one 20-digit number).
    assert cells[3][0] == cells[4][0] == f"{first}\n{second}"
    assert cells[4][1] == "line break"
    found = outcomes(stage_dry(path, tmp_path))
    assert found[3][1] == found[4][1].replace("row 4", "row 3")
    assert "too long" not in found[4][1]


@pytest.mark.parametrize("sep", ["/", "\\"])
def test_a_stray_cell_is_named_whatever_the_zip_calls_its_parts(tmp_path: Path, sep: str) -> None:
    # The memory refusal's look for far cells went by the name xl/workbook.xml only.
    rows = "".join(f'<row r="{r}">' + text(PHONES[r], f"A{r}") + "</row>" for r in (1, 2, 3))
    rows += '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    path = build(tmp_path / "stray.xlsx", [("Sheet1", worksheet(rows))], sep=sep)
    stray = stray_cell(path)
    assert stray is not None
    assert stray.cells == ("XFD1048576",)
    assert stray.data == "A1:A3"
