"""``dnc-desk remove`` takes a number listed in two written forms off in both (black-box N5).

N5: with 3036190055 and 13036190055 (phone code 1) both on the global list, ``remove R1.csv
--scope global --note …`` failed the row ("a delete takes only one off; nothing was sent") and
exited 1, the consumer staying blocked. The row is now removed, one delete a form, and the
report's row names both forms and their entries.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import TOKEN

NOTE = "Consumer asked to be called again, ticket 5120"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def test_remove_takes_a_number_off_in_both_written_forms(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc(
        [
            ("13036190055", "1", "0", "by hand", ""),
            ("3036190055", "1", "0", "", ""),
            ("3036191729", "1", "0", "", ""),
        ]
    )
    ids = {
        r["phone_number"]: str(r["id"]) for r in sandbox.store.all("SELECT * FROM dnc ORDER BY id")
    }
    src = tmp_path / "R1.csv"
    src.write_text("Phone,Country Code\n3036190055,1\n+1 303 619 1729,1\n", encoding="utf-8")
    argv = ["remove", str(src), "--scope", "global", "--note", NOTE]
    code = main([*argv, "--base-url", sandbox.base_url, "--json"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert code == 0, captured.err
    data = json.loads(captured.out)
    assert (data["removed"], data["failed"], data["not_found"]) == (2, 0, 0)
    assert sandbox.store.all("SELECT phone_number FROM dnc") == []

    book = openpyxl.load_workbook(data["report"], read_only=True)
    try:
        cells = {str(c) for ws in book.worksheets for row in ws.values for c in row if c}
    finally:
        book.close()
    assert (
        "on the list in two written forms, each taken off by its own delete: 3036190055 "
        f"(entry {ids['3036190055']}) and 13036190055 (entry {ids['13036190055']}; its country "
        "code 1 written in the digits)"
    ) in cells

    journal = ChangeJournal(AppPaths.default().journal_db)
    try:
        intents = [e for e in journal.query(job=data["job"]) if e.phase == "intent"]
    finally:
        journal.close()
    taken = sorted((e.before or {})["phone_number"] for e in intents if e.phone == "+13036190055")
    assert taken == ["13036190055", "3036190055"]
    # Each delete names its file row after the note: both forms' are of row 2.
    assert {(e.phone, e.note) for e in intents} == {
        ("+13036190055", f"{NOTE} (row 2)"),
        ("+13036191729", f"{NOTE} (row 3)"),
    }
