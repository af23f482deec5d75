"""What a sheet holds besides its cell values, read from the file by the reader child process,
and what staging does with it: rows hidden by hand or by a filter (a removal leaves them alone,
an import takes them and says so), formula cells with no saved result, and sheets or columns
of phone numbers that are not read (a warning names them). Black-box findings 3, 8, 14, 15."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.job_report import write_report
from app.core.job_staging import JobSettings, stage
from app.core.job_store import JobStore
from app.core.sheet_check import Target
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError
from tests.core import sheet_factory as f


def filtered_review(path: Path) -> Path:
    """Finding 3's file: six numbers, an autofilter showing the two marked REMOVE."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Review"
    ws.append(["Phone", "Decision"])
    for i in range(6):
        ws.append([f"20255560{i:02d}", "REMOVE" if i < 2 else "KEEP"])
    ws.auto_filter.ref = "A1:B7"
    ws.auto_filter.add_filter_column(1, ["REMOVE"])
    for r in range(2, 8):
        if ws.cell(r, 2).value == "KEEP":
            ws.row_dimensions[r].hidden = True
    wb.save(path)
    return path


def stage_dry(path: Path, tmp_path: Path, kind: str = "import", **settings: Any) -> JobStore:
    job = JobSettings(path, Scope.global_(), target=Target.DNC, **settings)
    store, _ = stage(job, tmp_path / "jobs", kind=kind, connection=None)
    return store


def outcomes(store: JobStore) -> dict[int, tuple[str, str]]:
    return {r.row_number: (r.outcome or "pending", r.message) for r in store.rows()}


def warnings(store: JobStore) -> list[str]:
    return list(store.meta().get("warnings") or [])


# -- the reader -------------------------------------------------------------------------------


def test_rows_hidden_by_a_filter_are_reported_and_still_read(tmp_path: Path) -> None:
    path = filtered_review(tmp_path / "review.xlsx")
    with open_sheet(path) as source:
        rows = list(source.iter_rows())
        assert source.notes.hidden_known
        assert source.notes.hidden_rows == {4, 5, 6, 7}
    assert [n for n, _ in rows] == [1, 2, 3, 4, 5, 6, 7]


def test_a_hidden_row_is_known_before_the_row_arrives_far_down_a_big_sheet(
    tmp_path: Path,
) -> None:
    # Several 1 MB chunks of sheet XML, scanned in a thread while calamine parses.
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Reason"])
    for i in range(30_000):
        ws.append([f"20255{i:05d}", "asked on the phone to be taken off every list " * 2])
    hidden = {5, 2_001, 2_002, 17_500, 30_001}
    for r in hidden:
        ws.row_dimensions[r].hidden = True
    wb.save(tmp_path / "big.xlsx")
    with zipfile.ZipFile(tmp_path / "big.xlsx") as zf:
        assert zf.getinfo("xl/worksheets/sheet1.xml").file_size > 3 << 20
    with open_sheet(tmp_path / "big.xlsx") as source:
        source.preview(10)
        for number, _ in source.iter_rows():
            assert (number in source.notes.hidden_rows) == (number in hidden), number
    assert source.notes.hidden_rows == hidden


def test_hidden_rows_are_those_of_the_sheet_read_when_the_first_sheet_is_empty(
    tmp_path: Path,
) -> None:
    # The scan starts on the first sheet before calamine says it is empty; the second is read.
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "Cover"
    first.row_dimensions[2].hidden = True
    data = wb.create_sheet("Numbers")
    for i in range(5):
        data.append([f"20255500{i:02d}"])
    data.row_dimensions[4].hidden = True
    wb.save(tmp_path / "two.xlsx")
    with open_sheet(tmp_path / "two.xlsx") as source:
        assert source.sheet == "Numbers"
        assert [n for n, _ in source.iter_rows()] == [1, 2, 3, 4, 5]
        assert source.notes.hidden_known and source.notes.hidden_rows == {4}


def test_a_scan_that_fails_part_way_sends_what_it_found_then_says_the_rest_is_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import marshal
    import zlib

    from app.core import sheet_worker

    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for i in range(3_000):
        ws.append([f"20255{i:05d}", "x" * 200])
    ws.row_dimensions[3].hidden = True
    ws.row_dimensions[2_900].hidden = True
    wb.save(tmp_path / "big.xlsx")
    monkeypatch.setattr(sheet_worker, "SCAN_CHUNK", 64 << 10)
    real_chunk = sheet_worker.XmlScan._chunk
    calls = []

    def failing_chunk(self: sheet_worker.XmlScan, buf: bytes) -> None:
        calls.append(1)
        if len(calls) > 1:
            raise zlib.error("Error -3 while decompressing data")
        real_chunk(self, buf)

    monkeypatch.setattr(sheet_worker.XmlScan, "_chunk", failing_chunk)
    out = io.BytesIO()
    sheet_worker.run(str(tmp_path / "big.xlsx"), "", 0, out)
    data, messages = out.getvalue(), []
    while data:
        size = int.from_bytes(data[:4], "big")
        assert data[4:5] == b"m"
        messages.append(marshal.loads(data[5 : 4 + size]))
        data = data[4 + size :]
    kinds = [m[0] for m in messages]
    first_rows = kinds.index("rows")
    scans = [m for m in messages[:first_rows] if m[0] == "scan"]
    assert scans[0] == ("scan", [], [])  # an xlsx: hidden rows can be seen
    assert scans[1] == ("scan", [3], [])  # found before the failure
    assert scans[2] == ("scan", None, [])  # and the rest is not known
    assert sum(len(m[1]) for m in messages if m[0] == "rows") == 3_000
    assert kinds[-1] == "end"


def test_hidden_rows_of_hand_written_xml_without_row_numbers_or_with_true(
    tmp_path: Path,
) -> None:
    hidden_attr = ' hidden="true"'
    values = ["Phone", 2025550101, 2025550102, 2025550103, 2025550104]
    rows = "".join(
        f"<row{hidden_attr if n in (3, 5) else ''}>{f.cell(f'A{n}', v)}</row>"
        for n, v in enumerate(values, 1)
    )
    xml = f"{f.SHEET_HEAD}<sheetData>{rows}</sheetData></worksheet>"
    path = f.write_raw_xlsx(tmp_path / "raw.xlsx", xml)
    with open_sheet(path) as source:
        assert [n for n, _ in source.iter_rows()] == [1, 2, 3, 4, 5]
        assert source.notes.hidden_rows == {3, 5}


def test_a_text_file_has_no_hidden_rows_and_says_it_knows(tmp_path: Path) -> None:
    path = f.write_csv(tmp_path / "a.csv", [["Phone"], ["2025550101"]])
    with open_sheet(path) as source:
        list(source.iter_rows())
        assert source.notes.hidden_known and not source.notes.hidden_rows


def ods_cell(value: str) -> str:
    return (
        f'<table:table-cell office:value-type="string"><text:p>{value}</text:p></table:table-cell>'
    )


def ods_row(values: list[str], attributes: str = "") -> str:
    """One ``<table:table-row>``; ``attributes`` as written, e.g. ``table:visibility="filter"``."""
    space = " " if attributes else ""
    cells = "".join(ods_cell(v) for v in values) or "<table:table-cell/>"
    return f"<table:table-row{space}{attributes}>{cells}</table:table-row>"


def write_ods_xml(
    path: Path,
    tables: dict[str, str],
    *,
    automatic_styles: str = "",
    table_styles: dict[str, str] | None = None,
) -> Path:
    """A minimal OpenDocument spreadsheet (LibreOffice's own format) written by hand: one sheet
    per entry of ``tables``, its name (XML-escaped here) to the XML of its rows;
    ``automatic_styles`` (style XML) and ``table_styles`` (sheet name to style name) style the
    sheets, as LibreOffice hides one (``table:display="false"``)."""
    from xml.sax.saxutils import quoteattr

    styles = table_styles or {}
    sheets = "".join(
        f"<table:table table:name={quoteattr(name)}"
        + (f" table:style-name={quoteattr(styles[name])}" if name in styles else "")
        + f">{body}</table:table>"
        for name, body in tables.items()
    )
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        + (
            f"<office:automatic-styles>{automatic_styles}</office:automatic-styles>"
            if automatic_styles
            else ""
        )
        + f"<office:body><office:spreadsheet>{sheets}"
        "</office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
        'manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type='
        '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
        'manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        # The mimetype first and stored, as the format asks.
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        zf.writestr("META-INF/manifest.xml", manifest)
        zf.writestr("content.xml", content)
    return path


def write_ods(path: Path, rows: list[list[str]], hidden: frozenset[int] = frozenset()) -> Path:
    """An .ods of one sheet "Numbers", the rows in ``hidden`` hidden by hand."""
    collapse = 'table:visibility="collapse"'
    body = "".join(ods_row(row, collapse if n in hidden else "") for n, row in enumerate(rows, 1))
    return write_ods_xml(path, {"Numbers": body})


def test_an_ods_file_says_which_rows_are_hidden(tmp_path: Path) -> None:
    # More in test_sheet_ods_hidden.py.
    path = write_ods(
        tmp_path / "a.ods", [["Phone"], ["2025550101"], ["2025550102"]], frozenset({3})
    )
    with open_sheet(path) as source:
        assert [n for n, _ in source.iter_rows()] == [1, 2, 3]
        assert source.notes.hidden_known
        assert source.notes.hidden_rows == {3}


def rename_sheet(path: Path, old: str, new: str) -> None:
    """Rename a sheet in workbook.xml only: openpyxl refuses names differing only in case,
    which other programs write."""
    with zipfile.ZipFile(path) as zf:
        parts = {name: zf.read(name) for name in zf.namelist()}
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(
        f'name="{old}"'.encode(), f'name="{new}"'.encode()
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)


def test_sheet_name_matches_ignoring_case_and_spaces_and_exact_wins(tmp_path: Path) -> None:
    path = f.write_xlsx(
        tmp_path / "s.xlsx",
        [["Phone"], ["2025550101"]],
        title="Números 📞",
        more_sheets={"Data": [["Phone"], ["2025550102"]], "DATA1": [["Phone"], ["2025550103"]]},
    )
    rename_sheet(path, "DATA1", "DATA")
    for asked, got in (("números 📞", "Números 📞"), ("  NÚMEROS 📞 ", "Números 📞")):
        with open_sheet(path, asked) as source:
            assert source.sheet == got
            assert list(source.iter_rows())[1] == (2, ["2025550101"])
    with open_sheet(path, "DATA") as source:
        assert list(source.iter_rows())[1] == (2, ["2025550103"])
    with pytest.raises(SheetError, match="'Data' and 'DATA', which differ only in case"):
        open_sheet(path, "data")
    with pytest.raises(SheetError, match="has no sheet named 'Nope'"):
        open_sheet(path, "Nope")


# -- staging: hidden rows -----------------------------------------------------------------------


def test_a_removal_leaves_hidden_rows_alone_and_says_why(tmp_path: Path) -> None:
    store = stage_dry(filtered_review(tmp_path / "review.xlsx"), tmp_path, kind="removal")
    rows = outcomes(store)
    assert [rows[n][0] for n in (2, 3)] == ["pending", "pending"]
    for n in (4, 5, 6, 7):
        outcome, message = rows[n]
        assert outcome == "not_attempted"
        assert message == (
            f"row {n}: hidden in the file (hidden or filtered out); not removed unless hidden "
            "rows are included (--include-hidden)"
        )
    counts = store.counts()
    assert sum(counts.values()) == 6 and counts["not_attempted"] == 4 and counts["pending"] == 2
    assert warnings(store) == [
        "Rows 4–7 (4 rows) are hidden in sheet 'Review' of review.xlsx (hidden or filtered "
        "out); they are not removed. To remove hidden rows too, run the removal again "
        "including hidden rows (--include-hidden)."
    ]


def test_a_removal_with_include_hidden_takes_them_and_says_so(tmp_path: Path) -> None:
    path = filtered_review(tmp_path / "review.xlsx")
    store = stage_dry(path, tmp_path, kind="removal", include_hidden=True)
    rows = outcomes(store)
    assert {o for o, _ in rows.values()} == {"pending"}
    assert (
        rows[5][1] == "row 5: hidden in the file (hidden or filtered out); included in the removal"
    )
    assert warnings(store)[0].endswith("(hidden or filtered out); they are removed too.")


def test_an_import_takes_hidden_rows_and_warns(tmp_path: Path) -> None:
    store = stage_dry(filtered_review(tmp_path / "review.xlsx"), tmp_path)
    rows = outcomes(store)
    assert {o for o, _ in rows.values()} == {"pending"}
    assert (
        rows[4][1] == "row 4: hidden in the file (hidden or filtered out); included in the import"
    )
    assert warnings(store) == [
        "Rows 4–7 (4 rows) are hidden in sheet 'Review' of review.xlsx (hidden or filtered "
        "out); they are imported too."
    ]
    report = write_report(store, tmp_path / "r.xlsx")
    book = openpyxl.load_workbook(report, read_only=True)
    summary = list(book["Summary"].iter_rows(values_only=True))
    book.close()
    assert ("Warning", warnings(store)[0]) in summary


def test_a_number_on_a_hidden_row_does_not_make_its_visible_twin_a_duplicate(
    tmp_path: Path,
) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for row in (["Phone"], ["2025550101"], ["2025550199"], ["2025550101"], ["bad"], [None]):
        ws.append(row)
    ws.append(["2025550102"])
    for r in (2, 5, 6):
        ws.row_dimensions[r].hidden = True
    wb.save(tmp_path / "twin.xlsx")
    store = stage_dry(tmp_path / "twin.xlsx", tmp_path, kind="removal")
    rows = outcomes(store)
    assert rows[2][0] == "not_attempted"
    assert rows[4] == ("pending", "")  # the visible row is removed, not a "duplicate of row 2"
    assert rows[5][0] == "invalid" and rows[6][0] == "blank"  # their own verdicts stand
    assert [rows[n][0] for n in (3, 7)] == ["pending", "pending"]
    # Every hidden data row is counted, the invalid one too; a blank row is not data.
    assert "Rows 2 and 5 (2 rows) are hidden" in warnings(store)[0]


def test_a_removal_of_an_excel_xlsb_file_knows_its_hidden_rows(
    tmp_path: Path,
) -> None:
    # An .xlsb's layout is scanned (S21 G2: its rows hidden, merged or zero-padded were unseen
    # and a removal was refused): an Excel-made one with no hidden row stages every row.
    corpus = f.CORPUS / "calamine" / "date.xlsb"
    if not corpus.is_file():
        pytest.skip("the shared corpus is not here")
    path = tmp_path / "d.xlsb"
    path.write_bytes(corpus.read_bytes())
    with open_sheet(path) as source:
        list(source.iter_rows())
        assert source.notes.hidden_known
        assert source.notes.hidden_rows == set()
    store = stage_dry(path, tmp_path, kind="removal", phone_column="column:B")
    assert len(outcomes(store)) == 3
    assert warnings(store) == []
    # Including hidden rows takes the same rows, none being hidden.
    store = stage_dry(path, tmp_path, kind="removal", include_hidden=True, phone_column="column:B")
    assert len(outcomes(store)) == 3
    assert warnings(stage_dry(path, tmp_path, phone_column="column:B")) == []


# -- staging: sheets and columns not read -------------------------------------------------------


def weeks(path: Path) -> Path:
    table = [["Phone", "Reason"]]
    return f.write_xlsx(
        path,
        [*table, ["2025551001", "asked"]],
        title="Week 1",
        more_sheets={
            "Notes": [["Call list kept by the vendor"], ["see the other tabs"]],
            "Week 2": [*table, ["2025552001", "asked"]],
            "Week 3": [["Opt-outs received"], [], *table, ["(202) 555-3001", "asked"]],
        },
    )


def test_other_sheets_with_phone_numbers_are_named(tmp_path: Path) -> None:
    store = stage_dry(weeks(tmp_path / "weeks.xlsx"), tmp_path)
    assert store.counts()["pending"] == 1
    # Laid out as the sheet read, a warning counting their rows (session 32, bb4 #7).
    again = f"dnc-desk import {tmp_path / 'weeks.xlsx'} --into dnc --scope global --sheet"
    assert warnings(store) == [
        "Sheets 'Week 2' and 'Week 3' of weeks.xlsx, laid out as sheet 'Week 1', hold 2 more "
        "rows with a phone number (1 in 'Week 2', 1 in 'Week 3'), which are not imported: only "
        f"sheet 'Week 1' is read. To import them too, run {again} 'Week 2'; then {again} "
        "'Week 3'"
    ]
    removal = stage_dry(tmp_path / "weeks.xlsx", tmp_path, kind="removal")
    assert warnings(removal)[0].endswith(
        "are not removed: only sheet 'Week 1' is read. To remove their numbers, run the file "
        "again with --sheet NAME for each (as --sheet 'Week 2')."
    )


def test_a_named_sheet_still_names_the_other_sheets(tmp_path: Path) -> None:
    # Their numbers stay off the list whichever sheet is named (black-box bb14 W1); laid out
    # alike or not, they are a note, not the counted warning of a sheet the reader chose.
    store = stage_dry(weeks(tmp_path / "weeks.xlsx"), tmp_path, sheet="week 2")
    assert store.meta()["sheet"] == "Week 2"
    assert warnings(store) == [
        "Sheets 'Week 1' and 'Week 3' of weeks.xlsx also have a column of phone numbers but "
        "are not imported: only sheet 'Week 2' is read. To import them, run the file again "
        "with --sheet NAME for each (as --sheet 'Week 1')."
    ]


def test_a_second_phone_column_is_named(tmp_path: Path) -> None:
    path = tmp_path / "two.csv"
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["First", "Last", "Home Phone", "Cell Phone", "Customer ID", "Reason"])
        for i in range(4):
            writer.writerow(
                ["A", "B", f"20255571{i:02d}", f"20255572{i:02d}", f"30555730{i:02d}", ""]
            )
    store = stage_dry(path, tmp_path)
    assert store.meta()["mapping"]["phone"] == "Cell Phone (column D)"
    assert warnings(store) == [
        "Column C ('Home Phone') also holds phone numbers (on 4 rows, 4 of them not the number "
        "read from column D ('Cell Phone') on that row: each such row's message names it) but "
        "is not imported: only column D ('Cell Phone') is read. "
        "To import it too, run the file again with --phone-column "
        "column:C."
    ]
    assert warnings(stage_dry(path, tmp_path, kind="removal"))[0].endswith(
        "is not removed: only column D ('Cell Phone') is read. To remove its numbers too, run "
        "the file again with --phone-column column:C."
    )
    # Named on purpose: the person chose; nothing to warn about.
    assert warnings(stage_dry(path, tmp_path, phone_column="Cell Phone")) == []


def test_a_second_table_to_the_right_is_named(tmp_path: Path) -> None:
    rows: list[list[object]] = [["Phone", "Reason", None, "Phone", "Reason"]]
    rows += [[f"20255581{i:02d}", "x", None, f"20255582{i:02d}", "y"] for i in range(5)]
    path = f.write_xlsx(tmp_path / "side.xlsx", rows)
    store = stage_dry(path, tmp_path)
    assert warnings(store) == [
        "Column D ('Phone') also holds phone numbers (on 5 rows, 5 of them not the number read "
        "from column A ('Phone') on that row: each such row's message names it) but is not "
        "imported: only column A ('Phone') is read. "
        "To import it too, run the file again with --phone-column column:D."
    ]


def test_no_warning_for_a_plain_table(tmp_path: Path) -> None:
    rows: list[list[object]] = [["Phone", "Reason", "Account"]]
    rows += [[f"20255581{i:02d}", "x", 2025559900 + i] for i in range(5)]
    path = f.write_xlsx(tmp_path / "plain.xlsx", rows, more_sheets={"Notes": [["read me"]]})
    assert warnings(stage_dry(path, tmp_path)) == []


# -- staging: a formula never calculated --------------------------------------------------------


def test_a_formula_with_no_saved_result_is_named_not_called_empty(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Area", "Rest", "Phone"])
    ws.append([202, 5558601, "=A2&B2"])
    ws.append([202, 5558602, "2025558602"])
    ws.append([None, None, "=A2&B2"])  # nothing else on the row: not a blank row either
    ws.append([202, 5558603, "2025558603"])
    wb.save(tmp_path / "formula.xlsx")
    store = stage_dry(tmp_path / "formula.xlsx", tmp_path)
    rows = outcomes(store)
    assert rows[2] == (
        "invalid",
        "row 2: phone: cell C2 holds a formula (=A2&B2) with no saved result, so it reads as "
        "empty; open and save the file in Excel (or LibreOffice) to calculate it",
    )
    assert rows[3][0] == "pending"
    assert rows[4][0] == "invalid" and "cell C4 holds a formula (=A2&B2)" in rows[4][1]


def test_formula_only_rows_at_the_end_of_the_sheet_are_not_dropped(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Area", "Rest", "Phone"])
    ws.append([202, 5558602, "2025558602"])
    ws.append([None, None, "=A2&B2"])
    ws.append([None, None, None])
    ws.append([None, None, '=CONCAT("202","5558604")'])
    ws.row_dimensions[9].height = 30  # formatting alone does not make a row
    wb.save(tmp_path / "tail.xlsx")
    rows = outcomes(stage_dry(tmp_path / "tail.xlsx", tmp_path))
    assert sorted(rows) == [2, 3, 4, 5]
    assert rows[3][0] == rows[5][0] == "invalid" and rows[4][0] == "blank"
    assert 'cell C5 holds a formula (=CONCAT("202","5558604"))' in rows[5][1]


# -- against the sandbox: what a removal really takes off the list --------------------------------


def test_a_filtered_removal_takes_only_the_rows_shown_off_the_list(
    sandbox: Any, tmp_path: Path
) -> None:
    from app.api.client import ApiClient
    from app.core.connections import Connection
    from app.core.job_exec import job_summary
    from app.core.journal import ChangeJournal
    from app.core.removal_job import run_removal, stage_removal
    from app.core.session import Session
    from tests.conftest import TOKEN

    sandbox.bulk_seed_dnc([(f"20255560{i:02d}", "1", "0", "", "") for i in range(6)])
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    session = Session(
        Connection("Sandbox", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal
    )
    try:
        path = filtered_review(tmp_path / "review.xlsx")
        store, _ = stage_removal(
            JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=session.connection
        )
        run_removal(store, session, concurrency=2)
        summary = job_summary(store)
        assert (summary["rows"], summary["removed"], summary["not_attempted"]) == (6, 2, 4)
        left = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
        assert left == {f"20255560{i:02d}" for i in range(2, 6)}
        assert "hidden" in warnings(store)[0]
    finally:
        session.close()
        journal.close()
