"""Campaigns named with digits (black-box B21 F1, F3, F4).

A Campaign Name cell '12' was read as campaign id 12 though another campaign is named '12': an
import put the entry in campaign 12, a removal took campaign 12's entry off and left the one
asked for, and an ID/Name pair agreeing (17, '12') was refused while (12, '12') passed. Digits
that are one campaign's id and another's name now make the row invalid, naming both and how to
write each (``campaign:ID`` is the id); digits no campaign has as its id are the name of the
campaign named so (a cell '2024', ``--scope campaign:2024``); the codes 0 and -1 beside a
campaign named so are refused as the words ``all`` and ``global`` are. Offline, digits are ids.
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


def _json(capsys: pytest.CaptureFixture[str], argv: list[str], status: int = 0) -> dict[str, Any]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert code == status, captured.out + captured.err
    return dict(json.loads(captured.out))


def _rows(report: str) -> list[dict[str, Any]]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        header, *rows = [tuple(r) for r in book["Rows"].iter_rows(values_only=True)]
    finally:
        book.close()
    return [
        dict(zip(header, row + (None,) * (len(header) - len(row)), strict=True)) for row in rows
    ]


def _digit_named(sandbox: Any) -> tuple[str, str]:
    """(an existing campaign's id, the id of another campaign named with those digits)."""
    first = sandbox.seed_campaign("Digits First", active=True)
    return first, sandbox.seed_campaign(first, active=True)


def _both(cell: str, named: str) -> str:
    return (
        f"{cell!r} could mean campaign {cell} (its id) or the campaign named {cell!r} "
        f"(campaign:{named}) on this connection; write campaign:{cell} for campaign {cell}, "
        f"or campaign:{named} for the one named {cell!r}"
    )


def _entries(sandbox: Any) -> list[tuple[str, str]]:
    rows = sandbox.store.all("SELECT phone_number, campaign_id FROM dnc ORDER BY phone_number")
    return [(r["phone_number"], str(r["campaign_id"])) for r in rows]


# A Campaign Name column's digits are a name, a Campaign ID column's an id (B21 F1, see
# tests/cli/test_scope_names_campaign_columns.py): a column saying neither names both.
@pytest.mark.parametrize("header", ["Campaign", "Scope"])
def test_an_import_puts_no_entry_in_either_campaign_the_digits_name(
    header: str, sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, named = _digit_named(sandbox)
    src = tmp_path / "name12.csv"
    src.write_text(f"Phone,{header}\n7205550160,{first}\n7205550161,campaign:{first}\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (data["inserted"], data["invalid"]) == (1, 1)
    rows = _rows(data["report"])
    field = "scope" if header == "Scope" else "campaign"
    assert rows[0]["Message"] == f"row 2: {field}: {_both(first, named)}"
    # campaign:ID is the id, whatever campaign is named with its digits.
    assert _entries(sandbox) == [("7205550161", first)]


def test_a_removal_takes_off_neither_entry_for_digits_two_campaigns_answer_to(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, named = _digit_named(sandbox)
    sandbox.bulk_seed_dnc([("7205550170", "1", first, "", ""), ("7205550170", "1", named, "", "")])
    src = tmp_path / "rm12.csv"
    src.write_text(f"Phone,Campaign\n7205550170,{first}\n")
    argv = ["remove", str(src), "--scope", "global", "--per-row-scope", "--note", "B21 F1"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (data["removed"], data["invalid"]) == (0, 1)
    assert _entries(sandbox) == [("7205550170", first), ("7205550170", named)]


def test_an_id_beside_a_name_of_digits_two_campaigns_answer_to_is_not_taken_as_agreeing(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, named = _digit_named(sandbox)
    src = tmp_path / "idname.csv"
    src.write_text(f"Phone,Campaign ID,Campaign Name\n7205550221,{first},{first}\n")
    argv = ["remove", str(src), "--scope", "global", "--per-row-scope", "--dry-run"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (data["valid"], data["invalid"]) == (0, 1)
    # The ID column says campaign `first`, the Name column the campaign named so.
    assert _rows(data["report"])[0]["Message"] == (
        f"row 2: campaign: the row's scope is Campaign {first} but its 'Campaign Name' cell is "
        f"{first!r} (Campaign {named})"
    )


@pytest.mark.parametrize("cell", ["2024", "campaign:2024"])
def test_digits_no_campaign_has_as_its_id_name_the_campaign_named_so(
    cell: str, sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = sandbox.seed_campaign("2024", active=True)
    assert named != "2024"
    src = tmp_path / "y.csv"
    src.write_text(f"Phone,Scope,Campaign Name\n7205550301,{cell},\n7205550302,,{cell}\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert (data["inserted"], data["invalid"]) == (2, 0)
    assert _entries(sandbox) == [("7205550301", named), ("7205550302", named)]


def test_scope_option_of_digits_no_campaign_has_as_its_id_takes_the_campaign_named_so(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = sandbox.seed_campaign("2024", active=True)
    src = tmp_path / "v.csv"
    src.write_text("Phone\n7205550311\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "campaign:2024"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert data["inserted"] == 1
    assert _entries(sandbox) == [("7205550311", named)]


@pytest.mark.parametrize(
    ("cell", "reading"), [("0", "the global scope"), ("-1", "a purpose scope")]
)
def test_a_code_a_campaign_is_named_as_is_refused_naming_both(
    cell: str, reading: str, sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = sandbox.seed_campaign(cell, active=True)
    src = tmp_path / "code.csv"
    src.write_text(f"Phone,Campaign,Purpose\n7205550401,{cell},Marketing\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    data = _json(capsys, [*argv, "--base-url", sandbox.base_url])
    assert data["invalid"] == 1
    message = _rows(data["report"])[0]["Message"]
    assert f"{cell!r} could mean {reading} or the campaign named {cell!r}" in message
    assert f"campaign:{named} for the campaign" in message


def test_offline_digits_are_ids_unchecked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A column saying neither id nor name; a Campaign Name column's digits are names, which
    # an offline dry run cannot look up (tests/core/test_mapping_campaign_name_digits.py).
    src = tmp_path / "off.csv"
    src.write_text("Phone,Campaign\n7205550501,12\n")
    data = _json(capsys, ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"])
    assert (data["valid"], data["invalid"]) == (1, 0)
    assert _rows(data["report"])[0]["Scope"] == "campaign:12"
