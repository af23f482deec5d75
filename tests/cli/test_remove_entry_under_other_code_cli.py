"""Black-box R2 #6 through the commands: ``dnc-desk remove`` of 07911 129992 under
``--phone-code 44`` takes off the entry "447911129992" kept under phone code 1, which
``dnc-desk evidence`` attributes to +44 7911 129992; the evidence afterwards shows no entry
and the delete in the journal. Against the sandbox over loopback HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _evidence(sandbox: Any, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    main(["evidence", "+44 7911 129992", "--base-url", sandbox.base_url, "--json"])
    held: dict[str, Any] = json.loads(capsys.readouterr().out)
    return held


def test_remove_takes_off_the_entry_evidence_attributes_to_the_number(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([("447911129992", "1", "0", "by hand", "")])
    before = _evidence(sandbox, capsys)
    assert len(before["dnc"]) == 1
    assert before["journal_entries"] == 0

    src = tmp_path / "remove.csv"
    src.write_text("Phone\n07911 129992\n")
    report = tmp_path / "report.xlsx"
    argv = ["remove", str(src), "--scope", "global", "--note", "consumer asked"]
    argv += ["--phone-code", "44", "--report", str(report)]
    code = main([*argv, "--base-url", sandbox.base_url])
    out = capsys.readouterr().out
    assert code == 0, out
    assert sandbox.store.all("SELECT id FROM dnc") == []
    # The report's row names the form it took off.
    book = CalamineWorkbook.from_path(str(report))
    cells = {
        str(cell)
        for name in book.sheet_names
        for row in book.get_sheet_by_name(name).to_python()
        for cell in row
    }
    assert (
        "on the list as 447911129992 under phone code 1, its country code 44 written in the "
        "digits; deleted in that form"
    ) in cells

    after = _evidence(sandbox, capsys)
    assert after["dnc"] == []
    # The delete's intent and its "ok" outcome, filed under the number.
    assert after["journal_entries"] == 2
    assert after["journal_verified"] is True
