"""The change journal refusing writes in the middle of a run (its disk full: black-box B35 F1).

Rows whose insert went out before the journal failed to record its outcome ended ``failed``
with "the change was not made" while they were on the list, and the job finished (exit 0)
without ever sending the rows whose intent could not be written. Now the job stops (paused,
exit 1), a row that was not sent is pending and a row whose outcome was not recorded stays
"sending"; the resume sends the first and looks up the second, so every number is on the list
once and no row says it was not made.

The journal's own SQLite connection is set read-only at the chosen outcome (``PRAGMA
query_only``), so the failure is SQLite's real refusal, reaching the journal's real error path.
"""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import TOKEN

ROWS = 40
NUMBERS = [f"30355501{n:02d}" for n in range(ROWS)]


def _csv(path: Path) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[n] for n in NUMBERS])
    return path


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any], str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def _fail_journal_at_outcome(monkeypatch: pytest.MonkeyPatch, nth: int) -> None:
    """From the ``nth`` outcome on, the journal's database refuses every write."""
    real = ChangeJournal.record_outcome
    seen = {"outcomes": 0}

    def record_outcome(self: ChangeJournal, intent_id: int, **kwargs: Any) -> int:
        seen["outcomes"] += 1
        if seen["outcomes"] == nth:
            with self._lock:
                self._db.execute("PRAGMA query_only = 1")
        return real(self, intent_id, **kwargs)

    monkeypatch.setattr(ChangeJournal, "record_outcome", record_outcome)


def test_a_journal_failing_mid_run_stops_the_job_and_the_resume_settles_every_row(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    src = _csv(tmp_path / "optouts.csv")
    base = ["--base-url", sandbox.base_url, "--json"]
    with monkeypatch.context() as patch:
        _fail_journal_at_outcome(patch, 10)
        argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--note", "B35"]
        code, first, err = _run(capsys, [*argv, "--concurrency", "4", *base])
    # Stopped for a resume, not finished, and no row failed for the journal.
    assert code == 1, err
    assert first.get("status") == "paused", (first, err)
    assert first["failed"] == 0
    assert "change journal could not be written" in err
    job_file = Path(first["job_file"])
    with sqlite3.connect(job_file) as db:
        states = dict(db.execute("SELECT national, state FROM rows").fetchall())
        messages = [m for (m,) in db.execute("SELECT message FROM rows") if m]
    assert not [m for m in messages if "not made" in m or "JournalError" in m]
    listed = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
    # The 10th outcome's insert went out: on the list, its row not done but "sending".
    open_rows = {n for n in listed if states[n] != "done"}
    assert open_rows and {states[n] for n in open_rows} == {"sending"}
    assert any(state == "pending" for state in states.values())

    code, data, err = _run(capsys, ["import", "--resume", first["job"], *base])
    assert code == 0, err
    assert data["status"] == "finished"
    assert data["failed"] == data["pending"] == data["not_attempted"] == 0
    assert data["inserted"] + data["already_present"] == ROWS
    # The rows whose outcome went unrecorded are found on the list by this job's own insert.
    assert data["already_present_maybe_inserted"] >= len(open_rows)
    numbers = [r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")]
    assert sorted(numbers) == NUMBERS
    journal = ChangeJournal(AppPaths.default().journal_db)
    try:
        entries = journal.query(job=first["job"], limit=10_000)
    finally:
        journal.close()
    # Every number's insert is on record as done or found there, none as failed.
    outcomes = {e.phone: e.outcome for e in entries if e.phase == "outcome"}
    assert {p for p, o in outcomes.items() if o == "failed"} == set()
    assert {f"+1{n}" for n in NUMBERS} <= {e.phone for e in entries}
