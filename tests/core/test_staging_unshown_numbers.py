"""Black-box bb13 F1, staged: a phone cell whose number format shows nothing (``;;;``) goes in as
its number, as a hidden row does, but its row says so and one warning counts such rows, in xlsx,
xls and ods alike (fixtures: see tests/core/test_sheet_unshown_numbers.py)."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.mark.parametrize("ext", ["xlsx", "xls", "ods"])
def test_a_phone_its_format_hides_is_imported_with_a_row_note_and_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str
) -> None:
    report = tmp_path / "report.xlsx"
    argv = ["import", str(DATA / f"s33_lo_unshown.{ext}"), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--dry-run", "--json", "--report", str(report)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["rows"], data["valid"]) == (4, 3)
    said = [w for w in data["warnings"] if "shows as nothing" in w]
    assert said == [
        "1 row's phone cell (row 3) holds a number that the cell's number format (as ';;;') "
        "shows as nothing: the sheet shows an empty cell, yet the number goes on the list as "
        "read. Give those cells a number format that shows them (Format Cells > General) to see "
        "what is imported, or delete the numbers that were hidden on purpose, and run the file "
        "again."
    ]
    rows = openpyxl.load_workbook(report)["Rows"].iter_rows(min_row=2, values_only=True)
    messages = {r[0]: (r[5], r[6] or "") for r in rows}
    assert messages[3] == (
        "valid (dry run)",
        "row 3: cell B3 holds 2025550113 but its number format (as ';;;') shows nothing, so "
        "the sheet shows an empty cell there; the number was read",
    )
    assert "number format" not in messages[2][1] + messages[5][1]


@pytest.mark.parametrize("shared", [False, True])
def test_a_text_phone_under_a_format_hiding_text_and_a_number_under_an_empty_literal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shared: bool
) -> None:
    # black-box bb16 F3: ';;;' hides a text cell too (its fourth section, the text's, is
    # empty), and '""' shows a number as nothing; only number cells under an empty first
    # section were named. ';;;@' and ';;' show a text as it is.
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Name", "Phone"])
    cells = [
        ("201-555-0902", ";;;"),
        ("201-555-0905", ";;;@"),
        (2015550906, '""'),
        ("201-555-0907", ";;"),
        ("201-555-0908", "General"),
    ]
    for n, (value, code) in enumerate(cells):
        sheet.append([f"P{n}", value])
        sheet.cell(row=n + 2, column=2).number_format = code
    src = tmp_path / "hidden.xlsx"
    book.save(src)
    if shared:  # as Excel saves a text: in the shared strings (openpyxl: in the cell)
        src = _shared_strings(src, tmp_path / "shared.xlsx")
    report = tmp_path / "report.xlsx"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--json", "--report", str(report)]) == 0
    data = json.loads(capsys.readouterr().out)
    said = [w for w in data["warnings"] if "shows as nothing" in w]
    assert len(said) == 1 and said[0].startswith("2 rows' phone cells (rows 2 and 4) hold"), said
    rows = openpyxl.load_workbook(report)["Rows"].iter_rows(min_row=2, values_only=True)
    messages = {r[0]: r[6] or "" for r in rows}
    assert messages[2] == (
        "row 2: cell B2 holds 201-555-0902 but its number format (as ';;;') shows nothing, so "
        "the sheet shows an empty cell there; the number was read"
    )
    assert "cell B4 holds 2015550906" in messages[4]
    assert all("number format" not in messages[n] for n in (3, 5, 6))


def _shared_strings(src: Path, out: Path) -> Path:
    """``src`` with each inline-string cell of its sheet written as a shared string."""
    import re
    import zipfile

    with zipfile.ZipFile(src) as zin:
        parts = {name: zin.read(name) for name in zin.namelist()}
    texts: list[str] = []

    def shared(m: re.Match[str]) -> str:
        texts.append(m.group(2))
        return f'<c{m.group(1)} t="s"><v>{len(texts) - 1}</v></c>'

    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    pattern = r'<c([^>]*?) t="inlineStr"[^>]*><is><t>([^<]*)</t></is></c>'
    parts["xl/worksheets/sheet1.xml"] = re.sub(pattern, shared, sheet).encode()
    assert texts
    items = "".join(f"<si><t>{t}</t></si>" for t in texts)  # already escaped in the sheet
    parts["xl/sharedStrings.xml"] = (
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        f'count="{len(texts)}" uniqueCount="{len(texts)}">{items}</sst>'
    ).encode()
    types = (
        parts["[Content_Types].xml"]
        .decode()
        .replace(
            "</Types>",
            '<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
        )
    )
    parts["[Content_Types].xml"] = types.encode()
    rels = (
        parts["xl/_rels/workbook.xml.rels"]
        .decode()
        .replace(
            "</Relationships>",
            '<Relationship Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/sharedStrings" Target="sharedStrings.xml" Id="rIdS"/></Relationships>',
        )
    )
    parts["xl/_rels/workbook.xml.rels"] = rels.encode()
    with zipfile.ZipFile(out, "w") as zout:
        for name, body in parts.items():
            zout.writestr(name, body)
    return out
