"""A number the list keeps with its country's trunk 0 (UK "02079460000", entered by hand or by
another tool) is found and removed, not reported "not on the list" while it stays on it
(black-box finding); the journal names it as E.164 does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session, e164


def _remove(session: Session, tmp_path: Path, lines: list[str]) -> Any:
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n" + "".join(f"{line}\n" for line in lines))
    settings = JobSettings(path, Scope.global_(), note="request by email")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    return store


def test_an_entry_kept_with_its_trunk_zero_is_removed(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [
            ("02079460000", "44", "0", "by hand", ""),
            ("0412345678", "61", "0", "by hand", ""),
            ("2079460001", "44", "0", "", ""),
        ]
    )
    store = _remove(session, tmp_path, ["+44 20 7946 0000", "+61 412 345 678", "+44 20 7946 0001"])
    s = job_summary(store)
    assert (s["removed"], s["not_found"], s["failed"]) == (3, 0, 0)
    assert sandbox.store.all("SELECT phone_number FROM dnc") == []
    deletes = [e for e in session.journal.query(job=s["job"]) if e.phase == "intent"]
    assert sorted(e.phone for e in deletes) == ["+442079460000", "+442079460001", "+61412345678"]
    uk = next(e for e in deletes if e.phone == "+442079460000")
    assert uk.before is not None and uk.before["phone_number"] == "02079460000"
    # The report says which form was taken off, beside the normalized number.
    messages = {r.national: r.message for r in store.rows()}
    assert (
        messages["2079460000"]
        == "on the list as 02079460000, its trunk 0 kept; deleted in that form"
    )
    assert messages["2079460001"] == ""


def test_a_number_listed_in_both_forms_is_not_sent(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([("02079460000", "44", "0", "", ""), ("2079460000", "44", "0", "", "")])
    store = _remove(session, tmp_path, ["+44 20 7946 0000"])
    (row,) = store.rows()
    assert row.outcome == "failed"
    assert row.message == (
        "not removed: the number is on the list in two written forms (2079460000 and "
        "02079460000), and a delete takes only one off; nothing was sent"
    )
    assert len(sandbox.store.all("SELECT phone_number FROM dnc")) == 2


def test_e164_drops_a_trunk_zero_only_where_the_country_has_one() -> None:
    assert e164("02079460000", "44") == e164("2079460000", "44") == "+442079460000"
    assert e164("2025550123", "1") == "+12025550123"
