"""Black-box bb14 W1: the import wizard stages with the columns of its mapping page and the
sheet of its file page, and its job said nothing of what the command line warns of in the same
file: a 'Subscription' column saying 'active' (those numbers go on the list), an 'Ext' column
not read, a phone number above the header, other sheets of phone numbers (hidden ones too).
These are notes on the file's content, so they are said whatever columns and sheet were
given; notes that second-guess a guess stay the guess's. Staged and run against the sandbox
over loopback, as the wizard's Start does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from app.api.scope import Scope
from app.core.import_job import run_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings, stage
from app.core.job_store import JobStatus
from app.core.session import Session
from app.core.sheet_scope import CampaignDirectory
from app.ui.import_wizard_engine import mapping_for, probe_file

CONSENT_CSV = (
    "Opt-outs export\n"
    "Hotline: 800-555-0199\n"
    "\n"
    "Name,Phone,Ext,Subscription\n"
    "A,(202) 555-0101,12,active\n"
    "B,(202) 555-0102,,active\n"
    "C,(202) 555-0103,7,unsubscribed\n"
    "D,(202) 555-0104,,active\n"
)
CONSENT = (
    "Column D ('Subscription') says the consumer opted in, consented or is subscribed on 3 of "
    "the first 4 rows (as 'active')"
)
EXTENSION = "Column C ('Ext') holds extensions (row 5: '12' and row 7: '7') and is not read"
ABOVE = "Above the header (row 4), row 2 holds 'Hotline: 800-555-0199'"
OTHER_SHEETS = (
    "Sheet 'Contacts' and hidden sheet 'DNC' of book.xlsx also have a column of phone numbers "
    "but are not imported: only sheet 'Opt-Outs' is read."
)


def _staged_and_run(
    settings: JobSettings, session: Session, tmp_path: Path
) -> tuple[dict[str, Any], list[str], list[str]]:
    """Staged with the wizard's proposal as its mapping, then sent to the sandbox: the job's
    summary, its warnings, and those its report's Summary gives."""
    probe = probe_file(settings.file, settings.sheet)
    mapping = mapping_for(probe, probe.header_row)
    lookup = CampaignDirectory(session.api.campaigns())
    store, _ = stage(
        settings,
        tmp_path / "jobs",
        kind="import",
        connection=session.connection,
        campaign_lookup=lookup,
        mapping=mapping,
    )
    assert run_import(store, session) is JobStatus.FINISHED
    summary = job_summary(store)
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    book = openpyxl.load_workbook(summary["report"], read_only=True)
    try:
        rows = book["Summary"].iter_rows(values_only=True)
        said = [str(r[1]) for r in rows if r and str(r[0] or "").startswith("Warning")]
    finally:
        book.close()
    return summary, warnings, said


def _said(warnings: list[str], start: str) -> bool:
    return any(w.startswith(start) for w in warnings)


def test_a_chosen_mapping_says_the_consent_extension_and_above_header_notes(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    path = tmp_path / "consent.csv"
    path.write_text(CONSENT_CSV)
    settings = JobSettings(path, Scope.global_(), sheet="consent", note="bb14 W1")
    summary, warnings, report = _staged_and_run(settings, session, tmp_path)
    # Every row is sent, whatever its Subscription says: the warning is why that matters.
    assert summary["inserted"] == 4
    assert len(sandbox.store.all("SELECT * FROM dnc")) == 4
    for said in (warnings, report):
        assert _said(said, CONSENT), said
        assert _said(said, EXTENSION), said
        assert _said(said, ABOVE), said


def _workbook(path: Path) -> Path:
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "Opt-Outs"
    for row in (["Phone", "Reason"], ["2025550111", "asked"], ["2025550112", "asked"]):
        first.append(row)
    contacts = wb.create_sheet("Contacts")
    for row in (["Name", "Mobile"], ["Ann", "2025550121"], ["Bob", "2025550122"]):
        contacts.append(row)
    hidden = wb.create_sheet("DNC")
    for row in (["Number"], ["2025550131"]):
        hidden.append(row)
    hidden.sheet_state = "hidden"
    wb.save(path)
    return path


def test_a_named_sheet_names_the_other_sheets_of_phone_numbers(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    path = _workbook(tmp_path / "book.xlsx")
    settings = JobSettings(path, Scope.global_(), sheet="Opt-Outs")  # chosen, as --sheet
    summary, warnings, report = _staged_and_run(settings, session, tmp_path)
    assert summary["inserted"] == 2
    for said in (warnings, report):
        assert _said(said, OTHER_SHEETS), said
    assert not any("is hidden in the file" in w for w in warnings)


def test_the_wizards_guessed_sheet_says_what_no_sheet_named_does(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    path = _workbook(tmp_path / "book.xlsx")
    guessed = JobSettings(path, Scope.global_(), sheet="Opt-Outs", sheet_guessed=True)
    summary, warnings, _report = _staged_and_run(guessed, session, tmp_path)
    unnamed = JobSettings(path, Scope.global_())
    probe = probe_file(path)
    store, _ = stage(
        unnamed,
        tmp_path / "jobs2",
        kind="import",
        connection=None,
        mapping=mapping_for(probe, probe.header_row),
    )
    try:
        assert warnings == store.meta()["warnings"]
    finally:
        store.close()
    assert summary["inserted"] == 2
    assert _said(warnings, OTHER_SHEETS)
