"""Black-box bb16 F11: ``journal export --operation dnc.insert`` left out the
``dnc.insert.settled`` event that a look-up journals for an add whose answer was lost, so
counsel's export of "the DNC inserts" showed that add failed though the look-up found it made.
An exact operation now brings the events settling its writes; the event's own name still
selects it alone. The add made against the sandbox, whose drop fault cuts its answer."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from app.api.errors import TransportError
from app.api.scope import Scope
from app.cli.main import main
from app.core.connections import Connection
from app.core.entry_settle import SAVED, settle_unanswered_add
from app.core.entry_validation import EntryKind, ValidEntry
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.write_drops import SandboxDropsWrites


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _lost_answer_add(sandbox: Any, wired_api: Any) -> None:
    journal = ChangeJournal(AppPaths.default().journal_db)
    session = Session(
        Connection("Test", sandbox.base_url),
        wired_api(SandboxDropsWrites(sandbox, "/dnc/insert")),
        journal,
    )
    valid = ValidEntry("7185550240", "1", Scope.global_(), "", "added, answer lost")
    try:
        with pytest.raises(TransportError) as raised:
            session.insert_dnc(
                valid.phone_number, "1", valid.scope, reason=valid.reason, already_present_ok=False
            )
        assert settle_unanswered_add(session, EntryKind.DNC, valid, raised.value).state == SAVED
    finally:
        journal.close()


def _exported(tmp_path: Path, capsys: Any, operation: str) -> list[str]:
    out = tmp_path / f"{operation}.csv"
    assert main(["journal", "export", "--out", str(out), "--operation", operation]) == 0
    capsys.readouterr()
    with out.open(newline="", encoding="utf-8-sig") as fh:
        return [row["Operation"] for row in csv.DictReader(fh)]


def test_an_exact_operation_exports_the_events_settling_its_writes(
    sandbox: Any, wired_api: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _lost_answer_add(sandbox, wired_api)
    src = tmp_path / "a.csv"
    src.write_text("Phone\n3035550121\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0

    ops = _exported(tmp_path, capsys, "dnc.insert")
    # Two writes (the add and the import's row), each an intent and an outcome, and the event.
    assert sorted(ops) == ["dnc.insert"] * 4 + ["dnc.insert.settled"], ops
    assert _exported(tmp_path, capsys, "dnc.insert.settled") == ["dnc.insert.settled"]
    assert "job.start" not in ops and "sms.insert" not in ops
