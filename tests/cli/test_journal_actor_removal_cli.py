"""A removal's journal says who ran it, from which version of which file, and the file row of
each delete, against the sandbox (black-box bb5 F2, F3: no actor; the row of a delete only in
the job file, and only when the file had a reason column; no hash of the source file)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.journal import ChangeJournal, current_actor
from tests.conftest import TOKEN

NUMBERS = ("3035550141", "3035550142", "3035550143")


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    held: dict[str, Any] = json.loads(captured.out)
    return held


def _journal() -> ChangeJournal:
    return ChangeJournal(Path(os.environ["DNC_DESK_DATA_DIR"]) / "journal.sqlite3")


def _start_event(journal: ChangeJournal, job: str) -> dict[str, Any]:
    (start,) = journal.query(operation="job.start", job=job)
    assert start.actor == current_actor()
    assert start.after is not None
    return start.after


def test_a_removal_journals_its_actor_file_hash_and_each_row(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    added = tmp_path / "added.csv"
    added.write_text("Phone\n" + "".join(f"{n}\n" for n in NUMBERS))
    base = ["--json", "--base-url", sandbox.base_url]
    imported = _run_json(
        capsys, ["import", str(added), "--into", "dnc", "--scope", "global", *base]
    )
    # No reason column: the delete's row was named only in the job file.
    source = tmp_path / "removals.csv"
    source.write_text("Phone\n2025550100\n" + "".join(f"{n}\n" for n in NUMBERS))
    argv = ["remove", str(source), "--scope", "global", "--note", "Ticket 4411", *base]
    removed = _run_json(capsys, argv)
    assert removed["removed"] == 3

    data = source.read_bytes()
    with _journal() as journal:
        assert journal.verify().ok
        details = _start_event(journal, removed["job"])
        assert details["file_sha256"] == hashlib.sha256(data).hexdigest()
        assert details["file_size"] == len(data)
        deletes = journal.query(operation="dnc.delete", job=removed["job"])
        intents = sorted((e.phone, e.note) for e in deletes if e.phase == "intent")
        assert intents == [
            (f"+1{n}", f"Ticket 4411 (row {row})") for row, n in enumerate(NUMBERS, start=3)
        ]
        assert {e.actor for e in deletes} == {current_actor()}
        # An import's inserts name their file row too, and its start the file.
        inserts = journal.query(operation="dnc.insert", job=imported["job"])
        rows = sorted(e.note for e in inserts if e.phase == "intent")
        assert rows == ["row 2", "row 3", "row 4"]
        added_bytes = added.read_bytes()
        start = _start_event(journal, imported["job"])
        assert start["file_sha256"] == hashlib.sha256(added_bytes).hexdigest()

    argv = ["evidence", NUMBERS[0], "--out", str(tmp_path / "pack.xlsx"), *base]
    held = _run_json(capsys, argv)
    assert {w["operation"]: w["actor"] for w in held["writes"]} == {
        "dnc.insert": current_actor(),
        "dnc.delete": current_actor(),
    }
    book = openpyxl.load_workbook(tmp_path / "pack.xlsx", read_only=True)
    try:
        rows = list(book["Journal"].iter_rows(values_only=True))
    finally:
        book.close()
    actor = [str(c) for c in rows[0]].index("Actor")
    assert len(rows) > 1 and {r[actor] for r in rows[1:]} == {current_actor()}
