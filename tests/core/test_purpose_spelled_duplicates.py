"""One number with one purpose spelled two ways in a file is a duplicate once the purpose takes
the list's spelling (black-box B21 F5): row 5 '-1'/'Marketing' and row 7 'purpose:marketing'
were both valid in the dry run, and the real run sent row 7 to end already_present."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    return dict(json.loads(captured.out))


def _outcomes(report: str) -> list[tuple[str, str]]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        header, *rows = [tuple(r) for r in book["Rows"].iter_rows(values_only=True)]
    finally:
        book.close()
    at = {name: i for i, name in enumerate(header)}
    padded = [r + (None,) * (len(header) - len(r)) for r in rows]
    return [(str(r[at["Outcome"]]), str(r[at["Message"]] or "")) for r in padded]


@pytest.mark.parametrize("dry", [True, False])
def test_rows_spelling_one_purpose_otherwise_are_duplicates_under_the_lists_spelling(
    dry: bool, sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([("2025550901", "1", "-1", "", "Marketing")])
    src = tmp_path / "dups.csv"
    src.write_text(
        "Phone,Scope,Purpose\n"
        "7205550170,purpose:MARKETING,\n"  # taken as the list's 'Marketing'
        "7205550170,-1,Marketing\n"
        "7205550170,-1,marketing\n"
        "7205550171,-1,Marketing\n"
    )
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url, *(["--dry-run"] if dry else [])])
    assert (data["valid"], data["duplicates_in_file"], data["invalid"]) == (2, 2, 0)
    rows = _outcomes(data["report"])
    duplicate = "row {}: duplicate of row 2, its purpose being 'Marketing' as the list spells it"
    assert rows[1] == ("duplicate_in_file", duplicate.format(3))
    assert rows[2] == ("duplicate_in_file", duplicate.format(4))
    if not dry:
        assert data["inserted"] == 2
        assert data.get("already_present", 0) == 0
        listed = sandbox.store.all(
            "SELECT purpose FROM dnc WHERE phone_number = '7205550170' AND campaign_id = -1"
        )
        assert [r["purpose"] for r in listed] == ["Marketing"]
