"""An import or removal refuses a change journal it cannot rely on before anything is sent,
in one sentence and the JSON object under --json (black-box pass L4 #4: an import wrote 30
entries into a journal with garbage in an old page, and one emptied to 0 bytes was taken for a
new journal). An export writes nothing to the service and does not open the journal."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN
from tests.core.test_journal_damaged_refused import damage_a_middle_page, digest, filled_journal


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def numbers(path: Path) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[f"303-555-{i:04d}"] for i in range(30)])
    return path


def listed(url: str) -> int:
    with ApiClient(url, TOKEN) as api:
        return api.search_dnc(DncQuery(), offset=0, limit=1).total or 0


@pytest.mark.parametrize("damage", ["garbage", "empty"])
def test_an_import_refuses_the_journal_and_sends_nothing(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    journal = AppPaths.default().journal_db
    filled_journal(journal)
    if damage == "garbage":
        damage_a_middle_page(journal)
        start = f"The change journal at {journal} is damaged ("
    else:
        journal.write_bytes(b"")
        start = f"The change journal at {journal} is empty (0 bytes)"
    before = digest(journal)
    argv = ["import", str(numbers(tmp_path / "n.csv")), "--into", "dnc", "--scope", "global"]
    code = main([*argv, "--base-url", sandbox.base_url, "--json"])
    captured = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in captured.err
    assert captured.err.strip().splitlines()[-1].startswith(start), captured.err
    assert "nothing was sent" in captured.err
    answer = json.loads(captured.out)
    assert answer["exit_status"] == 1 and answer["error"].startswith(start)
    assert listed(sandbox.base_url) == 0
    assert digest(journal) == before


def test_an_export_is_not_stopped_by_a_damaged_journal(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc((f"30355501{i:02d}", "1", "0", "", "") for i in range(20))
    journal = AppPaths.default().journal_db
    journal.write_bytes(b"")
    out = tmp_path / "all.csv"
    code = main(["export", "dnc", "--out", str(out), "--base-url", sandbox.base_url, "--json"])
    assert code == 0, capsys.readouterr()
    assert json.loads(capsys.readouterr().out)["rows"] == 20
    assert journal.stat().st_size == 0  # not made into a new journal by the export
