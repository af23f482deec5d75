"""An import row's purpose is in the report's Scope when its scope does not name it (re-test
R1 #4).

R1 #4: ``dnc-desk import s1_dnc.xlsx --into dnc --scope campaign:1005`` row 23 (Scope
"global", Purpose "Fundraising") went in as campaign 0 with purpose 'Fundraising', row 24
(Campaign 1001, Purpose "Marketing") as campaign 1001 with purpose 'Marketing'; the report's
Scope said "global" and "campaign:1001" and nothing in the Rows sheet named either purpose.

Run through the real import job against a sandbox over loopback; the report is read back with
openpyxl.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_report import ROW_COLUMNS, write_report
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def _stage(tmp_path: Path, campaign: str) -> JobStore:
    path = tmp_path / "requests.csv"
    rows = [
        ["Phone", "Scope", "Purpose"],
        ["3036195001", "global", "Fundraising"],  # R1 #4's row 23
        ["3036195002", f"campaign:{campaign}", "Marketing"],  # R1 #4's row 24
        ["3036195003", "purpose:Surveys", ""],  # its scope names its purpose
        ["3036195004", "global", ""],  # sent with no purpose
        ["3036195001", "global", "Other"],  # a duplicate: not sent, its purpose is not
        ["555", "global", "Fundraising"],  # invalid: nothing sent
    ]
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    store, _ = stage_import(
        JobSettings(path, Scope.campaign(campaign)), tmp_path / "jobs", connection=None
    )
    return store


def _scopes(report: Path) -> dict[int, str]:
    book = openpyxl.load_workbook(report)
    try:
        header, *rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    # The columns keep their places (tests and people read them by position).
    assert header == ROW_COLUMNS
    scope = header.index("Scope")
    return {int(r[0]): str(r[scope] or "") for r in rows}


EXPECTED = {
    2: "global, purpose 'Fundraising'",
    4: "purpose:Surveys",
    5: "global",
    6: "global",
    # An invalid row keeps the scope its Scope cell names (not the purpose: it is not sent).
    7: "global",
}


def test_the_scope_names_the_purpose_each_row_was_sent_with(
    sandbox: Any, journal: ChangeJournal, tmp_path: Path
) -> None:
    campaign = sandbox.seed_campaign("Solar Savings Outreach")
    store = _stage(tmp_path, campaign)
    api = ApiClient(sandbox.base_url, TOKEN)
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    try:
        assert run_import(store, session, concurrency=1) is JobStatus.FINISHED
    finally:
        session.close()
    outcomes = {r.row_number: r.outcome for r in store.rows()}
    assert outcomes == {
        2: "inserted",
        3: "inserted",
        4: "inserted",
        5: "inserted",
        6: "duplicate_in_file",
        7: "invalid",
    }, outcomes
    # What the service holds is what the report says.
    listed = {
        (r["phone_number"], r["campaign_id"], r["purpose"])
        for r in sandbox.store.all("SELECT phone_number, campaign_id, purpose FROM dnc")
    }
    assert {
        ("3036195001", 0, "Fundraising"),
        ("3036195002", int(campaign), "Marketing"),
        ("3036195004", 0, ""),
    } <= listed, listed
    report = write_report(store, tmp_path / "report.xlsx")
    assert _scopes(report) == {**EXPECTED, 3: f"campaign:{campaign}, purpose 'Marketing'"}


def test_rows_not_sent_yet_name_the_purpose_they_will_be_sent_with(tmp_path: Path) -> None:
    store = _stage(tmp_path, "1001")
    try:
        report = write_report(store, tmp_path / "report.xlsx")
    finally:
        store.close()
    assert _scopes(report) == {**EXPECTED, 3: "campaign:1001, purpose 'Marketing'"}
