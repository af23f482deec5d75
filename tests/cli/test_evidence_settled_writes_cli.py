"""`dnc-desk evidence --json` gives each write of the number with its recorded outcome and what
it settled as, and counts the writes by settled result; the plain output counts them too
(black-box B9 #4: a delete the service did, its answer lost, read "failed" in the evidence).

The removal runs in the app's own data folder through a transport that loses the answers of
one number's deletes (forwarded, then a ReadTimeout), as the sandbox cannot on cue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.cli.main import main
from app.core.connections import Connection
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.test_journal_settled_events_evidence import Lossy


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def test_evidence_json_says_a_delete_whose_answers_were_lost_was_removed(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    number = "2025550431"
    sandbox.bulk_seed_dnc([(number, "1", "0", "", ""), ("2025550432", "1", "0", "", "")])
    wire = Lossy()
    wire.lose = {number: 2}
    journal = ChangeJournal(tmp_path / "data" / "journal.sqlite3")
    retry = RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.01)
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=retry)
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    source = tmp_path / "remove.csv"
    source.write_text(f"Phone\n{number}\n2025550432\n")
    settings = JobSettings(source, Scope.global_(), note="consumer asked")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    try:
        assert run_removal(store, session, concurrency=1) is JobStatus.FINISHED
    finally:
        session.close()
        journal.close()
    assert job_summary(store)["removed"] == 2

    code = main(["evidence", number, "--base-url", sandbox.base_url, "--json"])
    held = json.loads(capsys.readouterr().out)
    assert code == 0  # on no list: the service agrees it was removed
    (write,) = held["writes"]
    assert (write["operation"], write["outcome"], write["recorded"], write["settled"]) == (
        "dnc.delete",
        "failed",
        "failed (answer lost)",
        "removed",
    )
    event = write["settled_by_entry"]
    assert write["settled_because"] == (
        f"a look-up after the lost answer found the number gone (event #{event})"
    )
    assert held["writes_by_settled"] == {"removed": 1}
    assert held["journal_verified"] is True

    main(["evidence", number, "--base-url", sandbox.base_url])
    out = capsys.readouterr().out
    assert "Writes recorded in the change journal, as settled: 1 removed." in out


def test_evidence_json_names_an_inserts_job_and_its_request(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "requests.csv"
    source.write_text("Phone,Request Date\n2025550461,2026-01-05\n")
    argv = ["import", str(source), "--into", "dnc", "--scope", "global", "--name", "Desk"]
    assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 0
    imported = json.loads(capsys.readouterr().out)
    code = main(["evidence", "2025550461", "--base-url", sandbox.base_url, "--json"])
    held = json.loads(capsys.readouterr().out)
    assert code == 3
    (write,) = held["writes"]
    assert (write["operation"], write["recorded"], write["settled"]) == (
        "dnc.insert",
        "ok",
        "inserted",
    )
    details = write["job_details"]
    assert (details["job"], details["name"], details["row"]) == (imported["job"], "Desk", 2)
    assert (details["request_date"], details["late"]) == ("2026-01-05", True)
    assert details["report"] == imported["report"]
