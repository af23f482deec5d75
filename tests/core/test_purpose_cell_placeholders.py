"""Purpose cells that name no purpose, a purpose written as a Scope cell writes it, and two
purposes in one cell (black-box B21 F2, compliance).

'N/A', '-', 'None' in a Purpose cell went in as purposes of their own (a purpose-scope row with
one was sent, not refused as a row without its purpose; a global row carried it); a Purpose
cell 'purpose:Marketing' went in as the purpose 'purpose:Marketing'; 'Marketing;Surveys' as a
purpose no campaign uses, though the list has both. Now a placeholder is an empty cell, the
prefix is read as a Scope cell's is, and a cell naming two of the list's purposes is invalid.
"""

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


@pytest.fixture
def listed(sandbox: Any) -> Any:
    """The sandbox's DNC list with the purposes Marketing and Surveys."""
    sandbox.bulk_seed_dnc(
        [("2025550901", "1", "-1", "", "Marketing"), ("2025550902", "1", "-1", "", "Surveys")]
    )
    return sandbox


def _json(capsys: pytest.CaptureFixture[str], argv: list[str], status: int = 0) -> dict[str, Any]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert code == status, captured.out + captured.err
    return dict(json.loads(captured.out))


def _messages(report: str) -> dict[int, tuple[str, str]]:
    """Source row -> (outcome, message) of the report's Rows sheet."""
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        header, *rows = [tuple(r) for r in book["Rows"].iter_rows(values_only=True)]
    finally:
        book.close()
    at = {name: i for i, name in enumerate(header)}
    # Read-only sheets leave out a row's empty cells at its end.
    padded = [r + (None,) * (len(header) - len(r)) for r in rows]
    return {
        int(r[at["Source row"]]): (str(r[at["Outcome"]]), str(r[at["Message"]] or ""))
        for r in padded
    }


def _entries(sandbox: Any) -> list[tuple[str, str, str]]:
    rows = sandbox.store.all(
        "SELECT phone_number, campaign_id, purpose FROM dnc WHERE phone_number LIKE '970%' "
        "ORDER BY phone_number"
    )
    return [(r["phone_number"], str(r["campaign_id"]), r["purpose"] or "") for r in rows]


PLACEHOLDERS = ["n/a", "N/A", "-", "None", "none", "null"]


def test_a_placeholder_purpose_is_no_purpose(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "r.csv"
    lines = [f"97055501{i:02d},-1,{p}" for i, p in enumerate(PLACEHOLDERS)]
    lines += ["9705550120,0,N/A", "9705550121,global,none"]
    src.write_text("Phone,Scope,Purpose\n" + "\n".join(lines) + "\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    data = _json(capsys, [*argv, "--base-url", listed.base_url])
    assert (data["inserted"], data["invalid"]) == (2, len(PLACEHOLDERS))
    said = _messages(data["report"])
    for row, placeholder in enumerate(PLACEHOLDERS, start=2):
        outcome, message = said[row]
        assert outcome == "invalid"
        assert message.startswith(f"row {row}: purpose: a purpose scope needs a purpose")
        assert f"purpose cell {placeholder!r} read as no purpose" in message
    # Global entries with no purpose, not purpose 'N/A'.
    assert _entries(listed) == [("9705550120", "0", ""), ("9705550121", "0", "")]


def test_a_placeholder_beside_purpose_option_takes_the_option(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "d.csv"
    src.write_text("Phone,Scope,Purpose\n9705550130,-1,N/A\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--purpose", "Surveys"]
    data = _json(capsys, [*argv, "--base-url", listed.base_url])
    assert data["inserted"] == 1
    assert _entries(listed) == [("9705550130", "-1", "Surveys")]


def test_a_purpose_cell_written_as_a_scope_cell_is_its_purpose(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "q.csv"
    src.write_text(
        "Phone,Scope,Purpose\n9705550140,-1,purpose:Marketing\n"
        "9705550141,purpose,Purpose: Surveys\n"
    )
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    data = _json(capsys, [*argv, "--base-url", listed.base_url])
    assert data["inserted"] == 2
    assert _entries(listed) == [("9705550140", "-1", "Marketing"), ("9705550141", "-1", "Surveys")]
    said = _messages(data["report"])
    assert "purpose cell 'purpose:Marketing' read as 'Marketing'" in said[2][1]


def test_a_cell_naming_two_of_the_lists_purposes_is_invalid(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "m.csv"
    src.write_text(
        "Phone,Scope,Purpose\n9705550150,-1,Marketing;Surveys\n"
        '9705550151,-1,"marketing, Surveys"\n9705550152,-1,"Sales, Service"\n'
    )
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    data = _json(capsys, [*argv, "--base-url", listed.base_url])
    assert (data["valid"], data["invalid"]) == (1, 2)
    said = _messages(data["report"])
    assert said[2] == (
        "invalid",
        "row 2: purpose: 'Marketing;Surveys' names 2 of the DNC list's purposes ('Marketing' "
        "and 'Surveys'), and an entry has one purpose: put each purpose on a row of its own",
    )
    assert "names 2 of the DNC list's purposes ('marketing' and 'Surveys')" in said[3][1]
    # Neither on the list: a purpose of its own, as any other text is.
    assert said[4][0] == "valid (dry run)"
    assert any("more than one of the DNC list's purposes" in w for w in data["warnings"])


def test_offline_a_placeholder_is_no_purpose_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "o.csv"
    src.write_text("Phone,Scope,Purpose\n9705550160,-1,n/a\n9705550161,0,-\n")
    data = _json(capsys, ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"])
    assert (data["valid"], data["invalid"]) == (1, 1)
