"""`evidence --json` says whether the change journal's hash chain held and which of the
number's entries are at a break, and the plain output says so when it broke (black-box R4 #4:
an entry edited with SQLite was shown as the record, nothing said)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _evidence(sandbox: Any, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["evidence", "3035550121", "--base-url", sandbox.base_url, *extra])
    return code, capsys.readouterr().out


def test_evidence_json_gives_the_journal_chain(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "numbers.csv"
    src.write_text("Phone,Reason\n3035550121,asked\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 0
    capsys.readouterr()
    code, out = _evidence(sandbox, capsys, "--json")
    held = json.loads(out)
    assert code == 3
    assert (held["journal_verified"], held["journal_entries_at_break"]) == (True, [])

    journal = tmp_path / "data" / "journal.sqlite3"
    db = sqlite3.connect(journal)
    with db:
        edited = db.execute("SELECT min(id) FROM journal WHERE phone = '+13035550121'").fetchone()[
            0
        ]
        db.execute("UPDATE journal SET after = ? WHERE id = ?", ('{"reason": "TAMPERED"}', edited))
    db.close()
    code, out = _evidence(sandbox, capsys, "--json")
    broken = json.loads(out)
    assert broken["journal_verified"] is False
    assert edited in broken["journal_entries_at_break"]
    assert "altered" in broken["journal_chain"]
    code, out = _evidence(sandbox, capsys)
    assert broken["journal_chain"] in out
