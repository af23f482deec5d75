"""An import says which column was read as the day the request was received when other
columns name a date too (black-box pass 3, finding 8): the days to insertion and lateness
count from that column, so a reader who meant another must hear which one was read."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.job_staging import JobSettings, stage


def _warnings(tmp_path: Path, header: str, row: str, kind: str = "import") -> list[str]:
    src = tmp_path / "in.csv"
    src.write_text(f"{header}\n{row}\n")
    store, _ = stage(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", kind=kind, connection=None
    )
    try:
        return [w for w in store.meta().get("warnings") or [] if "date" in w.lower()]
    finally:
        store.close()


def test_a_bare_date_beside_the_request_date_is_named(tmp_path: Path) -> None:
    (warning,) = _warnings(tmp_path, "Phone,Date,Date received", "7208020072,2026-11-20,2026-01-05")
    assert warning == (
        "Column B ('Date') could also be the day the request was received, but only column C "
        "('Date received') is read for it (the days to insertion and lateness count from it); "
        "if another is meant, give it the header 'Date received' and run the file again."
    )


def test_another_date_is_not_named_when_the_request_date_is_read(tmp_path: Path) -> None:
    header = "Phone,Last Call Date,Opt-out Request Date"
    assert _warnings(tmp_path, header, "7208020072,2026-11-20,2026-01-05") == []


def test_only_other_dates_say_no_lateness_was_checked(tmp_path: Path) -> None:
    (warning,) = _warnings(tmp_path, "Phone,Last Call Date", "7208020072,2026-11-20")
    assert warning.startswith(
        "Column B ('Last Call Date') names another date than the day the request was "
        "received, so no request date was read and no row's lateness was checked"
    )


def test_a_removal_says_nothing_of_dates(tmp_path: Path) -> None:
    assert _warnings(tmp_path, "Phone,Date,Date received", "7208020072,x,y", "removal") == []
