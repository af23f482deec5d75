"""Black-box B27 on DNC Desk's own export used again: removed from, imported back.

- F5: a removal of an export with ``--scope campaign:ID`` refused the campaign's entries that
  carry a purpose ("a row naming a purpose under a scope that is not a purpose scope"): an
  export's purpose column is each entry's recorded purpose, so they are removed now. A file
  that is not an export is still refused so.
- F3: a purpose the export has with spaces, a tab or a mark around it was imported back
  without them, another purpose, and nothing said so: its row says so now.
- F4: the export's scope column showed such a purpose without them (``purpose:Alerts`` for
  "  Alerts "); it quotes it now.
- ``characters_replaced`` (values an xlsx holds as U+FFFD, by column) is in ``--json``.
"""

from __future__ import annotations

import csv
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


def _export(sandbox: Any, out: Path, *extra: str) -> int:
    return main(["export", "dnc", "--out", str(out), "--base-url", sandbox.base_url, *extra])


def _entries(sandbox: Any) -> set[tuple[str, int, str]]:
    rows = sandbox.store.all("SELECT phone_number, campaign_id, purpose FROM dnc")
    return {(r["phone_number"], r["campaign_id"], r["purpose"]) for r in rows}


def _messages(report: Path) -> dict[str, str]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    at = rows[0].index("Message")
    # A read-only sheet's row ends at its last filled cell.
    return {str(r[2]): str(r[at] or "") if len(r) > at else "" for r in rows[1:]}


def _seed(sandbox: Any) -> str:
    cid = str(sandbox.store.one("SELECT id FROM campaigns WHERE status = 'Y'")["id"])
    sandbox.bulk_seed_dnc(
        [
            ("2025550101", "1", cid, "r1", "Sales"),
            ("2025550102", "1", cid, "r2", ""),
            ("2025550103", "1", "0", "r3", "Sales"),
            ("2025550104", "1", "-1", "r4", "Marketing"),
        ]
    )
    return cid


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_a_removal_of_an_export_takes_the_scope_s_entries_whatever_their_purpose(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    cid = _seed(sandbox)
    sandbox.bulk_seed_dnc([("2025550109", "1", cid, "", "  Spaced ")])
    out = tmp_path / f"E{suffix}"
    assert _export(sandbox, out) == 0
    capsys.readouterr()
    url = ["--base-url", sandbox.base_url]
    report = tmp_path / "dry.xlsx"
    argv = ["remove", str(out), "--scope", f"campaign:{cid}", *url, "--json"]
    assert main([*argv, "--dry-run", "--report", str(report)]) == 0
    said = json.loads(capsys.readouterr().out)
    assert (said["valid"], said["invalid"]) == (3, 2)
    messages = _messages(report)
    # Nothing said of the purposes: a removal sends none beside a campaign scope.
    assert messages["2025550101"] == messages["2025550109"] == ""
    # The global entry (its purpose too) is another scope's, refused as such, not for its purpose.
    assert "the file says Global but this removal is for" in messages["2025550103"]
    assert "names purpose" not in messages["2025550103"]
    assert main([*argv, "--note", "consent given"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["removed"] == 3
    assert _entries(sandbox) == {("2025550103", 0, "Sales"), ("2025550104", -1, "Marketing")}


def test_a_file_that_is_not_an_export_still_refuses_a_purpose_beside_a_campaign(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cid = _seed(sandbox)
    sheet = tmp_path / "mine.csv"
    sheet.write_text(f"Phone,Scope,Purpose\n2025550101,campaign:{cid},Sales\n", encoding="utf-8")
    report = tmp_path / "dry.xlsx"
    argv = ["remove", str(sheet), "--scope", f"campaign:{cid}", "--dry-run", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url, "--report", str(report)]) == 0
    assert json.loads(capsys.readouterr().out)["invalid"] == 1
    assert "the row names purpose 'Sales' but its scope is" in _messages(report)["2025550101"]


def test_an_export_imported_back_keeps_each_entry_s_scope_and_purpose(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed(sandbox)
    before = _entries(sandbox)
    out = tmp_path / "E.xlsx"
    assert _export(sandbox, out) == 0
    capsys.readouterr()
    sandbox.store.execute("DELETE FROM dnc")
    argv = ["import", str(out), "--into", "dnc", "--scope", "global", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    assert json.loads(capsys.readouterr().out)["inserted"] == 4
    assert _entries(sandbox) == before


ODD = {"2025550105": "\t=Alerts", "2025550106": "  Alerts ", "2025550107": "\u200fNotices"}


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_a_purpose_sent_otherwise_than_the_export_has_it_is_said(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    cid = _seed(sandbox)
    sandbox.bulk_seed_dnc([(n, "1", "-1", "", p) for n, p in ODD.items()])
    sandbox.bulk_seed_dnc([("2025550108", "1", cid, "", "  Spaced ")])
    out = tmp_path / f"E{suffix}"
    assert _export(sandbox, out) == 0
    capsys.readouterr()
    sandbox.store.execute("DELETE FROM dnc")
    report = tmp_path / "dry.xlsx"
    argv = ["import", str(out), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url, "--report", str(report)]) == 0
    said = json.loads(capsys.readouterr().out)
    assert (said["valid"], said["invalid"]) == (8, 0)
    messages = _messages(report)
    sent = {**ODD, "2025550108": "  Spaced "}
    for number, purpose in sent.items():
        assert (
            f"purpose: the export's purpose {purpose!r} is sent as "
            f"{purpose.strip().lstrip(chr(0x200F))!r}" in messages[number]
        )
    # A purpose the export has as it is sent says nothing.
    assert messages["2025550101"] == messages["2025550104"] == ""


def test_the_scope_column_shows_a_purpose_exactly(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([(n, "1", "-1", "", p) for n, p in ODD.items()])
    sandbox.bulk_seed_dnc([("2025550104", "1", "-1", "", "Marketing")])
    out = tmp_path / "E.csv"
    assert _export(sandbox, out) == 0
    with out.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    scopes = {r["phone_number"]: r["scope"] for r in rows}
    assert scopes == {
        "2025550104": "purpose:Marketing",
        "2025550105": "purpose:'\\t=Alerts'",
        "2025550106": "purpose:'  Alerts '",
        "2025550107": "purpose:'\\u200fNotices'",
    }


def test_characters_replaced_is_in_the_json(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([("2025550101", "1", "0", "bad\x01reason", "")])
    assert _export(sandbox, tmp_path / "x.xlsx", "--json") == 0
    assert json.loads(capsys.readouterr().out)["characters_replaced"] == {"reason": 1}
    assert _export(sandbox, tmp_path / "x.csv", "--json") == 0
    assert json.loads(capsys.readouterr().out)["characters_replaced"] == {}
