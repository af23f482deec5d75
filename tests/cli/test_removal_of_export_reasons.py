"""Black-box bb2 F7: ``dnc-desk remove`` of DNC Desk's own export read the export's ``reason``
column (why each entry was put on the list: "Known litigator") as the removal's reason, so the
change journal's delete said "counsel approved removal, ticket 9 (row 2: Known litigator)" and
the report's Reason column "Known litigator": the tamper-evident record said the number came
off *because* it was a known litigator. The export's reason column is now set aside, as
docs/cli.md promises for an export ("any column but phone_number, scope, campaign_id and
purpose set aside"), and a warning says so. A removal file of the officer's own keeps its
Reason column as the removal's reason (that is what an officer writes there)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import TOKEN

NOTE = "counsel approved removal, ticket 9"
NUMBER = "6153439744"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _delete_notes(job: str) -> list[str]:
    journal = ChangeJournal(AppPaths.default().journal_db)
    try:
        entries = journal.query(job=job)
    finally:
        journal.close()
    return [e.note for e in entries if e.phase == "intent" and e.operation == "dnc.delete"]


def _report_reasons(report: Path) -> list[str]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    if "Reason" not in rows[0]:
        return [""] * (len(rows) - 1)  # a job that reads no reasons writes no such column
    at = rows[0].index("Reason")
    return [str(r[at] or "") if len(r) > at else "" for r in rows[1:]]


def _remove(
    sandbox: Any, path: Path, report: Path, capsys: pytest.CaptureFixture[str]
) -> dict[str, Any]:
    argv = ["remove", str(path), "--scope", "global", "--note", NOTE, "--json"]
    assert main([*argv, "--base-url", sandbox.base_url, "--report", str(report)]) == 0
    said: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert said["removed"] == 1
    return said


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_a_removal_of_an_export_does_not_journal_the_entry_s_reason_as_its_own(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    sandbox.bulk_seed_dnc([(NUMBER, "1", "0", "Known litigator", "")])
    out = tmp_path / f"one{suffix}"
    argv = ["export", "dnc", "--out", str(out), "--base-url", sandbox.base_url]
    assert main([*argv, "--phone-number", NUMBER]) == 0
    capsys.readouterr()
    report = tmp_path / "removal.xlsx"
    said = _remove(sandbox, out, report, capsys)
    # The entry's reason is not the delete's: its note is the job's and the file row.
    assert _delete_notes(said["job"]) == [f"{NOTE} (row 2)"]
    assert "reason" not in said["mapping"]
    assert _report_reasons(report) == [""]
    warning = (
        f"one{suffix} is read as a DNC Desk export: its column G ('reason'), why each entry "
        "was put on the list, is not read as the removal's reason: each delete's change "
        "journal note is the job's --note alone."
    )
    assert warning in said["warnings"]


def test_a_removal_file_s_own_reason_column_is_still_the_removal_s_reason(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([(NUMBER, "1", "0", "Known litigator", "")])
    path = tmp_path / "mine.csv"
    path.write_text(f"Phone,Reason\n{NUMBER},consent re-obtained\n", encoding="utf-8")
    report = tmp_path / "removal.xlsx"
    said = _remove(sandbox, path, report, capsys)
    assert said["mapping"]["reason"] == "Reason (column B)"
    assert _delete_notes(said["job"]) == [f"{NOTE} (row 2: consent re-obtained)"]
    assert _report_reasons(report) == ["consent re-obtained"]
    assert not any("DNC Desk export" in w for w in said["warnings"])
