"""The reason each row is sent with is in the report's Rows sheet (a "Reason" column, last), a
dry run's too, and a removal row's reason is in the change journal's note of its delete.

Black-box B9 #3: ``dnc-desk remove R_remove.csv`` read "reason = 'Notes' (B)", and the rows'
"consent re-obtained" / "imported Monday by mistake" were in neither the report nor the change
journal, only in the .dncjob file. B10 #8: an import's dry run did not show the reason each
row would be sent with, so a reason an encoding garbled showed only after the real import.

Run through ``main`` against a real sandbox over loopback; the report is read back with
openpyxl, the journal from the data folder's journal file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.journal import ChangeJournal
from tests.conftest import TOKEN

# The Rows sheet's columns before Reason, as their readers know them by position.
IMPORT_COLUMNS = (
    "Source row",
    "Original value",
    "Normalized number",
    "Country code",
    "Scope",
    "Outcome",
    "Message",
    "Damage note",
    "Request date",
    "Business days to insertion",
    "Late",
)
REMOVAL_COLUMNS = IMPORT_COLUMNS[:-3]
NOTE = "ticket 4411"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def _rows(report: str) -> tuple[tuple[Any, ...], dict[int, tuple[Any, ...]]]:
    book = openpyxl.load_workbook(report)
    try:
        header, *rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    return header, {int(r[0]): r for r in rows}


def _cell(report: str, row: int, column: str) -> Any:
    """The openpyxl cell of source row ``row`` in ``column`` (its style, not only its value)."""
    book = openpyxl.load_workbook(report)
    try:
        sheet = book["Rows"]
        header = [c.value for c in sheet[1]]
        for cells in sheet.iter_rows(min_row=2):
            if cells[0].value == row:
                return cells[header.index(column)]
    finally:
        book.close()
    raise AssertionError(f"row {row} not in the report")


def _import_file(tmp_path: Path) -> Path:
    path = tmp_path / "optouts.csv"
    path.write_text(
        "Phone,Reason\n"
        "3036195011,asked on the phone \u2013 2026-11-20\n"
        "3036195012,\n"  # no reason: the job's --reason
        "3036195013,=1+1\n"  # formula-like: inert text in the report
        "3036195011,another reason\n"  # a duplicate: not sent, its reason is not
        "555,never sent\n",  # invalid: nothing sent
        encoding="utf-8",
    )
    return path


IMPORT_REASONS = {
    2: "asked on the phone \u2013 2026-11-20",
    3: "web form",
    4: "=1+1",
    5: None,
    6: None,
}


@pytest.mark.parametrize("dry_run", [True, False])
def test_an_import_report_gives_each_rows_reason(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], dry_run: bool
) -> None:
    report = tmp_path / "report.xlsx"
    argv = ["import", str(_import_file(tmp_path)), "--into", "dnc", "--scope", "global"]
    argv += ["--reason", "web form", "--report", str(report), "--base-url", sandbox.base_url]
    data = _run(capsys, [*argv, "--dry-run"] if dry_run else argv)
    header, rows = _rows(data["report"])
    # Last, the columns before it in their places.
    assert header == (*IMPORT_COLUMNS, "Reason")
    reason = header.index("Reason")
    assert {n: r[reason] for n, r in rows.items()} == IMPORT_REASONS
    outcome = header.index("Outcome")
    expected = "valid (dry run)" if dry_run else "inserted"
    assert [rows[n][outcome] for n in (2, 3, 4)] == [expected] * 3
    formula = _cell(data["report"], 4, "Reason")
    assert formula.data_type == "s" and formula.quotePrefix
    if not dry_run:
        # The report says what the service stored.
        stored = {
            r["phone_number"]: r["reason"]
            for r in sandbox.store.all("SELECT phone_number, reason FROM dnc")
        }
        assert stored == {
            "3036195011": IMPORT_REASONS[2],
            "3036195012": "web form",
            "3036195013": "=1+1",
        }


def _removal_file(tmp_path: Path) -> Path:
    path = tmp_path / "R_remove.csv"
    path.write_text(
        "Phone Number,Notes\n"
        "7183852483,imported Monday by mistake\n"
        "801-703-4780,consent re-obtained\n"
        "2139568136,\n"  # no reason: the delete's note is the job's alone
        "4806083965,=1+1\n"
        "3145493536,never on any list\n"  # not found: looked up, nothing deleted
        "7183852483,a second reason\n",  # a duplicate: not sent
        encoding="utf-8",
    )
    return path


REMOVAL_REASONS = {
    2: "imported Monday by mistake",
    3: "consent re-obtained",
    4: None,
    5: "=1+1",
    6: "never on any list",
    7: None,
}


def test_a_removal_dry_run_report_gives_each_rows_reason(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["remove", str(_removal_file(tmp_path)), "--scope", "global", "--dry-run"]
    data = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    header, rows = _rows(data["report"])
    assert header == (*REMOVAL_COLUMNS, "Reason")
    reason = header.index("Reason")
    assert {n: r[reason] for n, r in rows.items()} == REMOVAL_REASONS


def test_a_removal_gives_each_rows_reason_in_the_report_and_the_journal(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc(
        [(n, "1", "0", "listed", "") for n in ("7183852483", "8017034780", "2139568136")]
        + [("4806083965", "1", "0", "listed", "")]
    )
    argv = ["remove", str(_removal_file(tmp_path)), "--scope", "global", "--note", NOTE]
    data = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (data["removed"], data["not_found"]) == (4, 1), data
    header, rows = _rows(data["report"])
    assert header == (*REMOVAL_COLUMNS, "Reason")
    reason = header.index("Reason")
    assert {n: r[reason] for n, r in rows.items()} == REMOVAL_REASONS
    formula = _cell(data["report"], 5, "Reason")
    assert formula.data_type == "s" and formula.quotePrefix
    # Each delete's journal intent (which keeps the note; its outcome points to it) carries
    # the job's note, then the row's reason; a row giving none, its row alone (bb5 F3).
    journal = ChangeJournal(tmp_path / "data" / "journal.sqlite3")
    try:
        notes: dict[str, set[str]] = {}
        for entry in journal.query(operation="dnc.delete"):
            if entry.phase == "intent":
                notes.setdefault(entry.phone, set()).add(entry.note)
        found = journal.query(text=NOTE)
    finally:
        journal.close()
    assert notes == {
        "+17183852483": {f"{NOTE} (row 2: imported Monday by mistake)"},
        "+18017034780": {f"{NOTE} (row 3: consent re-obtained)"},
        "+12139568136": {f"{NOTE} (row 4)"},
        "+14806083965": {f"{NOTE} (row 5: =1+1)"},
    }
    # The job's note still finds every delete.
    assert {e.phone for e in found if e.operation == "dnc.delete"} == set(notes)
