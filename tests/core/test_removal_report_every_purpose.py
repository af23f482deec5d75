"""Black-box pass L2 #5: a removal in every purpose says so in its report.

``--scope purpose`` without text removes the number's entry for every purpose; the report's
Scope (its Summary and each row) read ``purpose:``, as if a purpose had been left blank.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from python_calamine import CalamineWorkbook

from app.api.scope import Scope
from app.core.job_exec import job_summary
from app.core.job_report import EVERY_PURPOSE
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session


def _report(path: str) -> dict[str, list[list[Any]]]:
    book = CalamineWorkbook.from_path(path)
    return {name: book.get_sheet_by_name(name).to_python() for name in ("Summary", "Rows")}


def test_every_purpose_is_named_in_the_removal_report(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [("7205550193", "1", "-1", "", "Marketing"), ("7205550193", "1", "-1", "", "Surveys")]
    )
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n7205550193\n3036193448\n", encoding="utf-8")
    settings = JobSettings(path, Scope.purpose(""), note="all purposes")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session) is JobStatus.FINISHED
    report = _report(job_summary(store)["report"])
    summary = {row[0]: row[1] for row in report["Summary"]}
    assert summary["Scope"] == EVERY_PURPOSE == "purpose (every purpose)"
    header, *rows = report["Rows"]
    scopes = [row[header.index("Scope")] for row in rows]
    assert scopes == [EVERY_PURPOSE, EVERY_PURPOSE]
    assert [row[header.index("Outcome")] for row in rows] == ["removed", "not_found"]


def test_one_purpose_is_named_as_before(sandbox: Any, session: Session, tmp_path: Path) -> None:
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n3036193448\n", encoding="utf-8")
    settings = JobSettings(path, Scope.purpose("Surveys"), note="surveys")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session) is JobStatus.FINISHED
    report = _report(job_summary(store)["report"])
    assert {row[0]: row[1] for row in report["Summary"]}["Scope"] == "purpose:Surveys"
    header, *rows = report["Rows"]
    assert [row[header.index("Scope")] for row in rows] == ["purpose:Surveys"]
