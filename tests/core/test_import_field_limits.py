"""Import jobs against the sandbox (black-box findings 5 and 11): a long reason no longer
keeps a number off the list, a long purpose is refused before sending, and the service's own
campaign_id codes read back in."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.session import Session
from app.core.sheet_check import Target


def write_csv(path: Path, header: list[str], rows: list[list[Any]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def test_a_long_reason_is_cut_and_the_number_is_listed(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    path = write_csv(
        tmp_path / "longreason.csv",
        ["Phone", "Reason"],
        [["2025551001", "a" * 255], ["2025551002", "b" * 256], ["2025551003", "ok"]],
    )
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    assert (summary.valid, summary.invalid) == (3, 0)
    staged = {r.row_number: r for r in store.rows()}
    assert staged[3].message == "row 3: reason cut to 255 characters (it had 256)"
    assert staged[3].reason == "b" * 255
    run_import(store, session)
    s = job_summary(store)
    assert (s["inserted"], s["failed"]) == (3, 0)
    got = {r["phone_number"]: r["reason"] for r in sandbox.store.all("SELECT * FROM dnc")}
    assert got["2025551002"] == "b" * 255
    # Sending keeps the check's note: the report still says the reason was cut.
    done = {r.row_number: r for r in store.rows()}
    assert done[3].outcome == "inserted"
    assert done[3].message == "row 3: reason cut to 255 characters (it had 256)"
    assert done[2].message == ""


def test_a_long_purpose_is_refused_before_sending(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    path = write_csv(
        tmp_path / "longpurpose.csv",
        ["Phone", "Purpose"],
        [["2025551011", "Surveys"], ["2025551012", "p" * 300]],
    )
    store, summary = stage_import(
        JobSettings(path, Scope.purpose(""), target=Target.SMS_OPT_OUT),
        tmp_path / "jobs",
        connection=session.connection,
    )
    assert (summary.valid, summary.invalid) == (1, 1)
    staged = {r.row_number: r for r in store.rows()}
    assert staged[3].message == "row 3: purpose: 300 characters, at most 255"
    run_import(store, session)
    assert (job_summary(store)["inserted"], job_summary(store)["failed"]) == (1, 0)


def test_campaign_codes_from_an_export_import(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    path = write_csv(
        tmp_path / "codes.csv",
        ["phone_number", "phone_code", "campaign_id", "purpose"],
        [
            ["2025551021", "1", "0", ""],
            ["2025551022", "1", "-1", "Surveys"],
            ["2025551023", "1", "'-1", "Surveys"],
            ["2025551024", "1", "'0", ""],
        ],
    )
    store, summary = stage_import(
        JobSettings(path, Scope.global_(), target=Target.SMS_OPT_OUT),
        tmp_path / "jobs",
        connection=session.connection,
    )
    assert (summary.valid, summary.invalid) == (4, 0), [r.message for r in store.rows()]
    run_import(store, session)
    got = {
        (r["phone_number"], str(r["campaign_id"]), r["purpose"] or "")
        for r in sandbox.store.all("SELECT * FROM sms_opt_out")
    }
    assert {
        ("2025551021", "0", ""),
        ("2025551022", "-1", "Surveys"),
        ("2025551023", "-1", "Surveys"),
        ("2025551024", "0", ""),
    } <= got
