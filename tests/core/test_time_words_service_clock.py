"""Black-box B32 F6: an entry's insert date is the service's clock while the journal's and the
copies' times are UTC; the evidence pack and the diff said neither beside the other."""

from __future__ import annotations

from pathlib import Path

from python_calamine import CalamineWorkbook

from app.api.scope import Scope
from app.core.evidence import gather_evidence, write_evidence_xlsx
from app.core.session import Session
from app.core.snapshots import EntryChange, SnapshotDiff, SnapshotEntry, write_diff_xlsx


def test_evidence_pack_says_whose_clock_each_time_is(session: Session, tmp_path: Path) -> None:
    session.insert_dnc("2025550123", "1", Scope.global_(), reason="asked")
    pack = gather_evidence(session.api, session.journal, None, "2025550123", "1")
    out = tmp_path / "evidence.xlsx"
    write_evidence_xlsx(pack, out)
    book = CalamineWorkbook.from_path(str(out))
    summary = dict(r[:2] for r in book.get_sheet_by_name("Summary").to_python())
    assert "Insert dates are by the service's clock" in summary["Times"]
    assert "the Journal's times" in summary["Times"] and "UTC" in summary["Times"]
    dnc = book.get_sheet_by_name("DNC").to_python()
    assert "Insert date (service's clock)" in dnc[0], dnc[0]
    journal = book.get_sheet_by_name("Journal").to_python()
    assert journal[0][1] == "Time (UTC)", journal[0]


def test_diff_says_insert_dates_are_the_services_clock(tmp_path: Path) -> None:
    a = SnapshotEntry("1", "2025550101", "1", "0", "", "", "asked", "2026-01-02 03:04:05")
    b = SnapshotEntry("1", "2025550101", "1", "0", "", "", "asked", "2026-01-03 03:04:05")
    gone = SnapshotEntry("2", "2025550102", "1", "0", "", "", "x", "2026-01-01 00:00:00")
    result = SnapshotDiff(
        "DNC list at 2026-01-01T00:00:00Z (a)",
        "DNC list at 2026-01-04T00:00:00Z (b)",
        [a],
        [gone],
        [EntryChange(a, b, ("insert_date",))],
    )
    out = tmp_path / "diff.xlsx"
    write_diff_xlsx(result, out)
    book = CalamineWorkbook.from_path(str(out))
    summary = dict(r[:2] for r in book.get_sheet_by_name("Summary").to_python())
    assert "insert_date: the service's clock" in summary["Times"]
    assert "(UTC)" in summary["Times"]
    for sheet in ("Added", "Removed"):
        assert "insert_date (service's clock)" in book.get_sheet_by_name(sheet).to_python()[0]
    changed = book.get_sheet_by_name("Changed").to_python()[0]
    assert "old insert_date (service's clock)" in changed
    assert "new insert_date (service's clock)" in changed
