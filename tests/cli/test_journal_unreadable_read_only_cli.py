"""Commands that send no write run with an emptied or damaged change journal (black-box bb2
F15: health, snapshot, diff, audit and evidence all refused with the import's "so nothing was
sent"). health, snapshot, diff and audit do not open the journal at all; an evidence pack is
made and says in its Summary, its JSON and its output that the journal was not read, and why.
The journal is left as it was, for review."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN
from tests.core.test_audit import seed_campaign_with_conflicts
from tests.core.test_journal_damaged_refused import damage_a_middle_page, digest, filled_journal

NUMBER = "3035550121"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def spoil(damage: str) -> tuple[Path, str]:
    """Spoil the data folder's journal; returns it and how its refusal begins."""
    journal = AppPaths.default().journal_db
    filled_journal(journal)
    if damage == "garbage":
        damage_a_middle_page(journal)
        return journal, f"The change journal at {journal} is damaged ("
    journal.write_bytes(b"")
    return journal, (
        f"The change journal at {journal} is empty (0 bytes): the record of earlier changes it "
        "held is gone, and a new journal is not started over it unnoticed, so none of its "
        "entries are in this evidence pack. Keep the file for review"
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("damage", ["garbage", "empty"])
def test_reading_commands_run_and_leave_the_journal_alone(
    sandbox: Any, api: Any, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    seeded = seed_campaign_with_conflicts(api)
    journal, _ = spoil(damage)
    before = digest(journal)
    url = ["--base-url", sandbox.base_url]
    code, out, err = run(capsys, "health", *url, "--json")
    assert code in (0, 3) and "journal" not in err, err
    code, out, err = run(capsys, "snapshot", "dnc", *url, "--json")
    assert code == 0, err
    taken = json.loads(out)["path"]
    code, out, err = run(capsys, "diff", taken, *url, "--json")
    assert code == 0, err
    code, out, err = run(capsys, "audit", "campaign", seeded.campaign, *url, "--json")
    assert code == 3 and "journal" not in err, err
    assert digest(journal) == before


@pytest.mark.parametrize("damage", ["garbage", "empty"])
def test_an_evidence_pack_says_the_journal_was_not_read(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    sandbox.bulk_seed_dnc([(NUMBER, "1", "0", "", "")])
    journal, start = spoil(damage)
    before = digest(journal)
    url = ["--base-url", sandbox.base_url]
    code, out, err = run(capsys, "evidence", NUMBER, *url, "--json")
    assert code in (0, 3), err
    answer = json.loads(out)
    said = answer["journal_chain"]
    assert answer["journal_verified"] is None and answer["journal_entries"] == 0
    assert said.startswith("Not checked. " + start), said
    assert "none of its entries are in this evidence pack" in said
    assert "nothing was sent" not in said
    book = openpyxl.load_workbook(answer["report"], read_only=True)
    summary = {row[0]: row[1] for row in book["Summary"].iter_rows(values_only=True) if row}
    book.close()
    assert summary["Journal chain"] == said
    code, out, err = run(capsys, "evidence", NUMBER, *url)
    assert code in (0, 3) and said in out, out + err
    assert digest(journal) == before
