"""Black-box B5 #4 (session 18) through ``dnc-desk remove``: a number listed for purposes
"Sales" and "Surveys", a file with a row for each (a Purpose column, per-row scope). Both rows
failed "also on the list for purpose …", each for the other's purpose, and the user had to run
a second removal. Now the file asks for every purpose the number is listed under, so both rows
end removed, one delete taking both entries; a dry run sends nothing, as before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.cli.main import main
from app.core.job_store import JobStore
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import TOKEN

NUMBER = "3035550319"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def _purposes(base_url: str) -> list[str]:
    with ApiClient(base_url, TOKEN) as api:
        return sorted(e.purpose for e in api.iter_dnc(DncQuery(phone_number=NUMBER)))


@pytest.mark.parametrize(
    ("header", "cells", "options"),
    [
        # The black-box pass's file: a Purpose column under --scope purpose.
        ("Phone,Purpose", ["Sales", "Surveys"], ["--scope", "purpose", "--per-row-scope"]),
        # A Scope column naming each purpose.
        (
            "Phone,Scope",
            ["purpose:Sales", "purpose:Surveys"],
            ["--scope", "global", "--per-row-scope"],
        ),
    ],
)
def test_a_file_asking_for_both_purposes_removes_both_rows(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    header: str,
    cells: list[str],
    options: list[str],
) -> None:
    sandbox.bulk_seed_dnc(
        [(NUMBER, "1", "-1", "call", "Sales"), (NUMBER, "1", "-1", "web form", "Surveys")]
    )
    src = tmp_path / "remove.csv"
    src.write_text(f"{header}\n{NUMBER},{cells[0]}\n{NUMBER},{cells[1]}\n")
    dry = _run(capsys, ["remove", str(src), *options, "--dry-run", "--json"])
    assert (dry["valid"], dry["invalid"]) == (2, 0), dry
    assert _purposes(sandbox.base_url) == ["Sales", "Surveys"]

    url = ["--base-url", sandbox.base_url, "--json"]
    data = _run(capsys, ["remove", str(src), *options, "--note", "consumer asked", *url])
    assert (data["removed"], data["failed"]) == (2, 0), data
    assert _purposes(sandbox.base_url) == []
    with JobStore(Path(data["job_file"])) as store:
        rows = {r.row_number: (r.outcome, r.message) for r in store.rows()}
    assert rows[2] == (
        "removed",
        "removed for purposes 'Sales' and 'Surveys'; the file asks for purpose 'Surveys' too "
        "(row 3)",
    )
    assert rows[3][0] == "removed"
    assert rows[3][1].startswith(
        "removed by this job's delete of the number for purpose 'Sales' (row 2): the service "
        "removes every purpose at once, and that delete took its entry for purpose 'Surveys'"
    )
    journal = ChangeJournal(AppPaths.default().journal_db)
    try:
        intents = [
            e
            for e in journal.query(job=data["job"])
            if e.operation == "dnc.delete" and e.phase == "intent"
        ]
    finally:
        journal.close()
    (intent,) = intents
    assert sorted(e["purpose"] for e in intent.before["entries"]) == ["Sales", "Surveys"]
