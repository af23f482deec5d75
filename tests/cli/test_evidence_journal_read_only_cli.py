"""``dnc-desk evidence NUMBER`` reads the change journal and never changes it (it opened it to
be written to, as an import does: a -wal left by a process that was stopped was folded into the
file on closing, a journal made before actors were recorded was given its actor column, a
dropped chain head table was made anew, and a data folder with no journal was given a new,
empty one). Each journal here is written by a real import against the sandbox over loopback
HTTP; the journal file's bytes (sha256) are compared before and after."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN
from tests.core.test_journal_actor import _old_journal

NUMBER = "3035550121"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _imported(sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    src = tmp_path / "numbers.csv"
    src.write_text(f"Phone,Reason\n{NUMBER},asked\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 0
    capsys.readouterr()
    return AppPaths.default().journal_db


def _evidence(sandbox: Any, capsys: pytest.CaptureFixture[str], number: str) -> dict[str, Any]:
    code = main(["evidence", number, "--base-url", sandbox.base_url, "--json"])
    out = capsys.readouterr().out
    assert code in (0, 3), out
    answer: dict[str, Any] = json.loads(out)
    return answer


def _stopped_writer(journal: Path) -> None:
    """A process (the window, an import) that wrote an entry and was stopped before it closed
    the journal: the entry is in the -wal beside it, not yet in the file."""
    script = textwrap.dedent(
        f"""
        import os
        from pathlib import Path
        from app.core.journal import ChangeJournal
        journal = ChangeJournal(Path({str(journal)!r}))
        journal.record_event(connection="c", base_url="http://127.0.0.1:1", operation="job.start")
        os._exit(0)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, timeout=60)


def test_entries_in_a_stopped_writers_wal_are_read_and_the_file_left_alone(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = _imported(sandbox, tmp_path, capsys)
    _stopped_writer(journal)
    wal = journal.with_name(journal.name + "-wal")
    assert wal.stat().st_size > 0
    before, wal_before = _digest(journal), _digest(wal)
    answer = _evidence(sandbox, capsys, NUMBER)
    assert answer["journal_verified"] is True and answer["journal_entries"] >= 2
    assert _digest(journal) == before
    assert _digest(wal) == wal_before


def test_a_journal_made_before_actors_is_read_as_it_is(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = AppPaths.default().journal_db
    journal.parent.mkdir(parents=True, exist_ok=True)
    _old_journal(journal, 3)
    before = _digest(journal)
    answer = _evidence(sandbox, capsys, "2025550001")
    # Its writes were to another service (the old journal's base URL): counted, not listed.
    assert answer["journal_verified"] is True
    assert (answer["journal_entries"], answer["journal_entries_other_services"]) == (0, 1)
    assert _digest(journal) == before


def test_a_dropped_chain_head_stays_dropped(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = _imported(sandbox, tmp_path, capsys)
    db = sqlite3.connect(journal, isolation_level=None)
    db.execute("DROP TABLE chain_head")
    db.close()
    before = _digest(journal)
    for _ in range(2):
        answer = _evidence(sandbox, capsys, NUMBER)
        assert answer["journal_verified"] is False, answer["journal_chain"]
        assert "the chain head was deleted" in answer["journal_chain"]
        assert _digest(journal) == before


def test_no_journal_is_made_and_the_pack_says_there_is_none(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = AppPaths.default().journal_db
    assert not journal.exists()
    answer = _evidence(sandbox, capsys, NUMBER)
    assert not journal.exists()
    said = answer["journal_chain"]
    assert answer["journal_verified"] is None and answer["journal_entries"] == 0
    assert f"There is no change journal yet at {journal}" in said, said
    assert "none of its entries" not in said
    code = main(["evidence", NUMBER, "--base-url", sandbox.base_url])
    assert code in (0, 3) and said in capsys.readouterr().out
