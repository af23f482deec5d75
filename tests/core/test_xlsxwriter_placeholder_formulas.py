"""Black-box B6 #1-#3: XlsxWriter (and pandas through it) writes every formula it was given no
result for as ``<f>…</f><v>0</v>`` and marks the workbook to be calculated when opened
(``<calcPr fullCalcOnLoad="1"/>``). The placeholder 0 was read as the cell's value: a Campaign
ID ``=1000+1`` read as 0 and the row went to the global list, a reason formula became the
reason "0", a phone formula "0 does not look like a phone number". Such a cell now reads as a
formula with no saved result, as the same formula written by openpyxl (no ``<v>``) does. A
result the writer gave (non-zero) is kept, and a 0 in a workbook not marked so (Excel's own,
which drops the mark when it saves, having calculated) is a real result.

The workbooks are built part by part as XlsxWriter writes them.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStore
from app.core.sheet_reader import open_sheet

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
TYPES = (
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/'
    'sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
    'worksheet+xml"/></Types>'
)
# XlsxWriter's calcPr; Excel writes calcPr without fullCalcOnLoad once it has calculated.
XLSXWRITER_CALC = '<calcPr calcId="124519" fullCalcOnLoad="1"/>'
EXCEL_CALC = '<calcPr calcId="191029"/>'


def text(ref: str, value: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>'


def number(ref: str, value: object) -> str:
    return f'<c r="{ref}"><v>{value}</v></c>'


def formula(ref: str, f: str, value: str = "0", t: str = "") -> str:
    """A formula cell as XlsxWriter writes it: the value 0 unless the writer gave one."""
    kind = f' t="{t}"' if t else ""
    return f'<c r="{ref}"{kind}><f>{f}</f><v>{value}</v></c>'


def xlsx(path: Path, rows: list[str], calc: str = XLSXWRITER_CALC) -> Path:
    body = "".join(
        f'<row r="{n}" spans="1:{cells.count("<c ")}">{cells}</row>'
        for n, cells in enumerate(rows, 1)
    )
    sheet = (
        f'{HEAD}<worksheet xmlns="{MAIN}" xmlns:r="{REL}"><dimension ref="A1:C{len(rows)}"/>'
        f'<sheetFormatPr defaultRowHeight="15"/><sheetData>{body}</sheetData></worksheet>'
    )
    workbook = (
        f'{HEAD}<workbook xmlns="{MAIN}" xmlns:r="{REL}"><workbookPr defaultThemeVersion='
        '"124226"/><sheets><sheet name="DNC" sheetId="1" r:id="rId1"/></sheets>'
        f"{calc}</workbook>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", TYPES)
        zf.writestr(
            "_rels/.rels",
            f'{HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
            f'relationships"><Relationship Id="rId1" Type="{REL}/officeDocument" '
            'Target="xl/workbook.xml"/></Relationships>',
        )
        zf.writestr("xl/workbook.xml", workbook)
        zf.writestr(
            "xl/_rels/workbook.xml.rels",
            f'{HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
            f'relationships"><Relationship Id="rId1" Type="{REL}/worksheet" '
            'Target="worksheets/sheet1.xml"/></Relationships>',
        )
        zf.writestr("xl/worksheets/sheet1.xml", sheet)
    return path


def stage(path: Path, tmp_path: Path) -> tuple[dict[int, JobRow], list[str]]:
    settings = JobSettings(path, Scope.global_(), reason="Consumer request")
    store: JobStore
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    with store:
        return {r.row_number: r for r in store.rows()}, list(store.meta().get("warnings") or [])


def test_the_reader_empties_a_placeholder_0_and_names_its_formula(tmp_path: Path) -> None:
    path = xlsx(
        tmp_path / "xw.xlsx",
        [
            text("A1", "Phone") + text("B1", "Campaign ID") + text("C1", "Reason"),
            number("A2", 3032600001) + formula("B2", "1000+1") + text("C2", "stop"),
            # A shared formula's later cells (<f t="shared" si="0"/>), and "0.0".
            number("A3", 3032600002)
            + '<c r="B3"><f t="shared" si="0"/><v>0.0</v></c>'
            + formula("C3", "UPPER(&quot;stop&quot;)"),
            # Results the writer gave are its own: a number, and text (t="str") reading "0".
            number("A4", 3032600003)
            + formula("B4", "1000+1", "1001")
            + formula("C4", "&quot;0&quot;", "0", t="str"),
        ],
    )
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
        formulas = dict(source.notes.formulas)
    assert rows[2][1] is None and rows[3][1] is None and rows[3][2] is None
    assert rows[4][1] == 1001 and rows[4][2] == "0"
    assert formulas == {(2, 1): "1000+1", (3, 1): "", (3, 2): 'UPPER("stop")'}


def test_a_placeholder_campaign_id_makes_the_row_invalid_not_global(tmp_path: Path) -> None:
    path = xlsx(
        tmp_path / "f_campaign.xlsx",
        [
            text("A1", "Phone") + text("B1", "Campaign ID"),
            number("A2", 3032600001) + formula("B2", "1000+1"),
            number("A3", 3032600002) + formula("B3", 'VALUE("1001")'.replace('"', "&quot;")),
            number("A4", 3032600003) + number("B4", 1001),
        ],
    )
    rows, _ = stage(path, tmp_path)
    assert rows[2].outcome == "invalid"
    assert rows[2].message == (
        "row 2: campaign: cell B2 holds a formula (=1000+1) with no saved result, so it reads "
        "as empty; open and save the file in Excel (or LibreOffice) to calculate it"
    )
    assert rows[3].outcome == "invalid"
    assert rows[3].message.startswith('row 3: campaign: cell B3 holds a formula (=VALUE("1001"))')
    assert rows[4].outcome == "" and rows[4].scope == "campaign:1001"


def test_a_placeholder_reason_takes_the_default_reason_and_says_so(tmp_path: Path) -> None:
    path = xlsx(
        tmp_path / "f_reason.xlsx",
        [
            text("A1", "Phone") + text("B1", "Reason"),
            number("A2", 3032600001) + formula("B2", "&quot;STOP&quot;&amp;&quot; via SMS&quot;"),
            number("A3", 3032600002) + text("B3", "plain"),
        ],
    )
    rows, warnings = stage(path, tmp_path)
    assert rows[2].outcome == "" and rows[2].reason == "Consumer request"
    assert rows[2].message == (
        'row 2: reason: cell B2 holds a formula (="STOP"&" via SMS") with no saved result, so '
        "no reason was read from it: the default reason 'Consumer request' applies"
    )
    assert rows[3].reason == "plain"
    assert warnings and warnings[0].startswith("1 row has a reason cell holding an error value")


def test_placeholder_phones_and_dates_read_as_formulas_not_as_0(tmp_path: Path) -> None:
    path = xlsx(
        tmp_path / "f_phone.xlsx",
        [
            text("A1", "Phone") + text("B1", "Date Received"),
            formula("A2", "3032400001") + text("B2", "2026-11-20"),
            number("A3", 3032400003) + formula("B3", "DATE(2026,11,2)"),
        ],
    )
    rows, _ = stage(path, tmp_path)
    assert rows[2].outcome == "invalid"
    assert rows[2].message.startswith(
        "row 2: phone: cell A2 holds a formula (=3032400001) with no saved result"
    )
    assert rows[3].outcome == ""
    assert rows[3].message == (
        "row 3: request_date: cell B3 holds a formula (=DATE(2026,11,2)) with no saved result, "
        "so the request date could not be read and the 10-business-day limit was not checked "
        "for it"
    )


def test_a_0_excel_calculated_is_a_result(tmp_path: Path) -> None:
    path = xlsx(
        tmp_path / "excel.xlsx",
        [
            text("A1", "Phone") + text("B1", "Count"),
            number("A2", 3032600001) + formula("B2", "A2*0"),
        ],
        calc=EXCEL_CALC,
    )
    with open_sheet(path) as source:
        rows = dict(source.iter_rows())
        assert source.notes.formulas == {}
    assert rows[2][1] == 0
