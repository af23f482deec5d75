"""Every xlsx writer keeps the exact text of a cell that could start a formula.

The change journal's export, the campaign audit report, the evidence pack and the snapshot
diff write ``+44 7400 123456`` or ``-called twice`` as that exact text in a string cell with
Excel's quotePrefix style (no ``'`` added to the text), never as a formula. Read back with
openpyxl, python-calamine and (when installed) LibreOffice.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from app.api.models import Lead, LeadList
from app.api.scope import Scope
from app.core.audit_report import write_report
from app.core.audit_types import (
    AuditResult,
    Conflict,
    LeadNumber,
    ListKind,
    ListTotals,
    OptOutRecord,
    ScopeSource,
    Strategy,
)
from app.core.evidence import EvidencePack, LeadHit, SnapshotPresence, write_evidence_xlsx
from app.core.journal import ChangeJournal, JournalEntry
from app.core.snapshots import EntryChange, SnapshotDiff, SnapshotEntry, write_diff_xlsx
from app.core.xlsx_safe import needs_neutralising

PHONE = "+44 7400 123456"
REASON = "-called twice"
FORMULA = '=HYPERLINK("http://evil","x")'
AT = "@SUM(A1)"
TAB = "\ttabbed"
HOSTILE = [PHONE, REASON, FORMULA, AT, TAB]


def _check(path: Path, expected: dict[str, list[str]]) -> openpyxl.Workbook:
    """Every hostile value in ``expected[sheet]`` reads back exactly as a quotePrefix text
    cell; no cell anywhere is a formula or has a quote added to its text."""
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            if name.startswith("xl/worksheets/"):
                xml = zf.read(name).decode()
                assert "<f>" not in xml and "<f " not in xml, name
    wb = openpyxl.load_workbook(path)
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate)
                if isinstance(cell.value, str):
                    assert not cell.value.startswith("'"), (ws.title, cell.coordinate)
                    # quotePrefix on exactly the text that could start a formula.
                    assert bool(cell.quotePrefix) == needs_neutralising(cell.value), (
                        ws.title,
                        cell.coordinate,
                        cell.value,
                    )
    calamine = CalamineWorkbook.from_path(str(path))
    for sheet, values in expected.items():
        cells = {c.value: c for row in wb[sheet].iter_rows() for c in row if c.value is not None}
        read = {v for row in calamine.get_sheet_by_name(sheet).to_python() for v in row}
        for value in values:
            assert value in cells, (sheet, value)
            cell = cells[value]
            assert cell.data_type == "s" and cell.quotePrefix, (sheet, value)
            assert value in read, (sheet, value)
            assert "'" + value not in read
    return wb


def _record(kind: ListKind, scope: Scope, reason: str, purpose: str = "") -> OptOutRecord:
    return OptOutRecord(
        kind, "55", "7400123456", "44", scope, "", "2026-01-02 03:04:05", reason, purpose
    )


def _lead() -> Lead:
    return Lead("101", "7", "DNC", PHONE, "44", "07400123456", "", FORMULA, "")


# -- the change journal's export ----------------------------------------------------------


def _journal_file(tmp_path: Path) -> tuple[Path, int]:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    try:
        intent = journal.record_intent(
            connection=AT,
            base_url="https://api.example.com",
            operation="dnc.insert",
            target=FORMULA,
            phone=PHONE,
            before={"reason": "old"},
            after={"reason": REASON},
            job=TAB,
            note=REASON,
        )
        journal.record_outcome(intent, outcome="ok", error="-1+2")
        out = tmp_path / "journal.xlsx"
        assert journal.export_xlsx(out, journal.query()) == 2
    finally:
        journal.close()
    return out, intent


def test_journal_export_keeps_exact_text(tmp_path: Path) -> None:
    out, intent = _journal_file(tmp_path)
    wb = _check(out, {"Change journal": [*HOSTILE, "-1+2"]})
    rows = {r[0].value: r for r in wb["Change journal"].iter_rows(min_row=2)}
    row = rows[intent]
    assert isinstance(row[0].value, int)  # entry ids stay numbers
    assert [c.value for c in row[4:9]] == [
        AT,
        "https://api.example.com",
        "dnc.insert",
        FORMULA,
        PHONE,
    ]
    assert row[8].data_type == "s" and row[14].value == REASON and row[13].value == TAB
    assert row[10].value == '{"reason": "-called twice"}' and not row[10].quotePrefix
    outcome = rows[intent + 1]
    assert outcome[3].value == intent and outcome[12].value == "-1+2"
    calamine = CalamineWorkbook.from_path(str(out)).get_sheet_by_index(0).to_python()
    by_id = {int(r[0]): r for r in calamine[1:]}
    assert by_id[intent][8] == PHONE and by_id[intent][14] == REASON
    assert by_id[intent][7] == FORMULA and by_id[intent][13] == TAB


# -- the campaign audit report ------------------------------------------------------------


def _audit_file(tmp_path: Path) -> Path:
    lead = _lead()
    number = LeadNumber(lead, "phone_number", PHONE, "44", ("44", "7400123456"), True)
    entry = _record(ListKind.DNC, Scope.global_(), REASON)
    junk = LeadNumber(lead, "alt_phone_2", "-1+2", "44", None, False, TAB)
    result = AuditResult(
        connection=AT,
        base_url="https://api.example.com",
        campaign_id="1001",
        campaign_name="Spring",
        started_at="2026-01-02T03:04:05Z",
        finished_at="2026-01-02T03:05:05Z",
        lists=[ListTotals(LeadList("7", FORMULA, True, "1001", "", ""), 1, 2, 1, 1)],
        leads=1,
        numbers=2,
        unparseable=[junk],
        conflicts=[Conflict(number, entry, FORMULA)],
        sources=[ScopeSource(ListKind.DNC, Scope.global_(), Strategy.DOWNLOAD, 1, 1, 1, REASON)],
    )
    out = tmp_path / "audit.xlsx"
    assert len(write_report(result, out)) == 64
    return out


def test_audit_report_keeps_exact_text(tmp_path: Path) -> None:
    out = _audit_file(tmp_path)
    wb = _check(
        out,
        {
            "Summary": [AT, FORMULA, REASON],
            "Conflicts": [PHONE, "+447400123456", FORMULA, REASON],
            "Unparseable": [FORMULA, "-1+2", TAB],
        },
    )
    summary = {r[0].value: r for r in wb["Summary"].iter_rows() if r[0].value}
    assert summary["Connection"][1].value == AT and summary["Leads"][1].value == 1
    conflict = [c.value for c in next(wb["Conflicts"].iter_rows(min_row=2))]
    assert conflict[:9] == [
        "101",
        "7",
        FORMULA,
        FORMULA,
        "DNC",
        "phone_number",
        PHONE,
        "+447400123456",
        "DNC",
    ]
    assert conflict[12] == REASON
    calamine = CalamineWorkbook.from_path(str(out))
    assert calamine.get_sheet_by_name("Conflicts").to_python()[1][6:8] == [PHONE, "+447400123456"]


# -- the evidence pack --------------------------------------------------------------------


def _evidence_file(tmp_path: Path) -> Path:
    entry = JournalEntry(
        7, "2026-01-02T03:04:05.000000Z", "intent", None, AT, "https://api.example.com",
        "dnc.insert", FORMULA, "+447400123456", None, None, "", "", TAB, REASON, "0" * 64, "1" * 64,
    )  # fmt: skip
    snap = SnapshotEntry("55", "7400123456", "44", "-1", "", "+Sales", REASON, "2026-01-02")
    pack = EvidencePack(
        number=PHONE,
        phone_code="44",
        national="7400123456",
        e164="+447400123456",
        connection=AT,
        base_url="https://api.example.com",
        taken_at="2026-01-02T03:04:05Z",
        dnc=[_record(ListKind.DNC, Scope.global_(), REASON)],
        sms=[_record(ListKind.SMS, Scope.purpose("+Sales"), "STOP", "+Sales")],
        leads=[LeadHit(_lead(), "phone_number", FORMULA, TAB)],
        journal=[entry],
        snapshots=[
            SnapshotPresence(Path("dnc.sqlite3"), ListKind.DNC, "whole list", "2026", AT, [snap])
        ],
    )
    out = tmp_path / "evidence.xlsx"
    assert len(write_evidence_xlsx(pack, out)) == 64
    return out


def test_evidence_pack_keeps_exact_text(tmp_path: Path) -> None:
    out = _evidence_file(tmp_path)
    wb = _check(
        out,
        {
            "Summary": [PHONE, "+447400123456", AT],
            "DNC": [REASON],
            "SMS opt-out": ["+Sales"],
            "Leads": [FORMULA, PHONE, TAB],
            "Journal": [AT, FORMULA, TAB, REASON],
            "Snapshots": [AT],
        },
    )
    summary = {r[0].value: r[1] for r in wb["Summary"].iter_rows()}
    assert summary["Evidence for"].value == "+447400123456"
    assert summary["As entered"].value == PHONE and summary["DNC entries"].value == 1
    dnc = list(next(wb["DNC"].iter_rows(min_row=2)))
    # Phone numbers stay text, national forms included.
    assert dnc[1].value == "7400123456" and dnc[1].data_type == "s"
    lead = [c.value for c in next(wb["Leads"].iter_rows(min_row=2))]
    assert lead[:6] == ["101", "7", FORMULA, FORMULA, "phone_number", PHONE]
    assert next(wb["Journal"].iter_rows(min_row=2))[0].value == 7
    calamine = CalamineWorkbook.from_path(str(out))
    summary_rows = {r[0]: r[1] for r in calamine.get_sheet_by_name("Summary").to_python()}
    assert summary_rows["Evidence for"] == "+447400123456" and summary_rows["As entered"] == PHONE
    assert calamine.get_sheet_by_name("DNC").to_python()[1][6] == REASON


# -- the snapshot diff --------------------------------------------------------------------


def _diff_file(tmp_path: Path) -> Path:
    a = SnapshotEntry("1", "7400123456", "44", "-1", FORMULA, "+Sales", REASON, "2026-01-02")
    b = SnapshotEntry("1", "7400123456", "44", "-1", FORMULA, "+Sales", TAB, "2026-01-03")
    gone = SnapshotEntry("2", "07400123457", "44", "1001", AT, "", "-1+2", "2026-01-01")
    result = SnapshotDiff(AT, FORMULA, [a], [gone], [EntryChange(a, b, ("reason", "insert_date"))])
    out = tmp_path / "diff.xlsx"
    write_diff_xlsx(result, out)
    return out


def test_snapshot_diff_keeps_exact_text(tmp_path: Path) -> None:
    out = _diff_file(tmp_path)
    wb = _check(
        out,
        {
            "Summary": [AT, FORMULA],
            "Added": [FORMULA, "+Sales", REASON],
            "Removed": [AT, "-1+2"],
            "Changed": [FORMULA, "+Sales", REASON, TAB],
        },
    )
    added = next(wb["Added"].iter_rows(min_row=2))
    assert [c.value for c in added] == [
        "1",
        "7400123456",
        "44",
        "-1",
        FORMULA,
        "+Sales",
        REASON,
        "2026-01-02",
        "purpose:+Sales",  # scope, as export writes it (black-box bb5 S1)
        "yes",  # certain: both copies complete
    ]
    # A plain negative campaign id is text, as before, with no quote and no quotePrefix.
    assert added[3].data_type == "s" and not added[3].quotePrefix
    removed = next(wb["Removed"].iter_rows(min_row=2))
    assert removed[1].value == "07400123457" and removed[1].data_type == "s"
    assert wb["Summary"]["B3"].value == 1
    calamine = CalamineWorkbook.from_path(str(out))
    assert calamine.get_sheet_by_name("Added").to_python()[1][3:7] == [
        "-1",
        FORMULA,
        "+Sales",
        REASON,
    ]


# -- LibreOffice: the first sheet of each file shows the text and computes nothing ---------


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) not installed")
def test_libreoffice_reads_the_exact_text(tmp_path: Path) -> None:
    files = [
        _journal_file(tmp_path / "j")[0],
        _audit_file(tmp_path),
        _evidence_file(tmp_path),
        _diff_file(tmp_path),
    ]
    subprocess.run(
        [
            "soffice",
            "--headless",
            "--norestore",
            f"-env:UserInstallation=file://{tmp_path / 'profile'}",
            "--convert-to",
            "csv:Text - txt - csv (StarCalc):44,34,76,1",
            "--outdir",
            str(tmp_path / "lo"),
            *map(str, files),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    seen: set[str] = set()
    for path in files:
        with (tmp_path / "lo" / f"{path.stem}.csv").open(encoding="utf-8", newline="") as fh:
            lo_rows = list(csv.reader(fh))
        seen.update(v for row in lo_rows for v in row)
        wb = openpyxl.load_workbook(path, read_only=True)
        ours = [
            ["" if v is None else str(v) for v in row]
            for row in wb.worksheets[0].iter_rows(values_only=True)
        ]
        wb.close()
        assert len(lo_rows) == len(ours), path.name
        for lo, mine in zip(lo_rows, ours, strict=True):
            while mine and mine[-1] == "":
                mine.pop()
            assert lo[: len(mine)] == mine, path.name
    # Each file's first sheet carries some of the hostile text, which LibreOffice shows as is.
    assert {PHONE, FORMULA, AT} <= seen


# -- phone numbers stay text when edited --------------------------------------------------


@pytest.mark.parametrize(
    ("make", "columns"),
    [
        (_journal_file, {"Change journal": ["Phone"]}),
        (_audit_file, {"Conflicts": ["Number", "Normalized"], "Unparseable": ["Number"]}),
        (_evidence_file, {"DNC": ["Number"], "SMS opt-out": ["Number"], "Leads": ["Number"]}),
        (
            _diff_file,
            {"Added": ["phone_number"], "Changed": ["old phone_number", "new phone_number"]},
        ),
    ],
)
def test_phone_cells_have_the_text_format(
    tmp_path: Path, make: object, columns: dict[str, list[str]]
) -> None:
    # As the export's (595a071): re-typing such a cell in Excel keeps it text, so a leading
    # zero or the 16th digit is not lost; the other columns stay General.
    made = make(tmp_path)  # type: ignore[operator]
    path = made[0] if isinstance(made, tuple) else made
    wb = openpyxl.load_workbook(path)
    for sheet, names in columns.items():
        rows = list(wb[sheet].iter_rows())
        headers = [c.value for c in rows[0]]
        for name in names:
            index = headers.index(name)
            cells = [row[index] for row in rows[1:] if row[index].value is not None]
            assert cells, (sheet, name)
            assert all(c.number_format == "@" for c in cells), (sheet, name)
        others = [c for row in rows[1:] for i, c in enumerate(row) if headers[i] not in names]
        assert all(c.number_format == "General" for c in others), sheet
