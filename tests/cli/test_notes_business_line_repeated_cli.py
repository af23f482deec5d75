"""``dnc-desk import`` of a file whose Notes name the business's own line on most rows ("called
from our line 800-555-0199"): the note names the line once with its count, no row's message in
the report tells the officer to add it, the rows naming a consumer's second number still do,
and every row goes in as before (S20 N2: N1's fix named the line on every row)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient, DncQuery
from app.cli.main import main
from tests.conftest import TOKEN

LINE = "(800) 555-0199"
SAID = (
    "(800) 555-0199 is named in the reason cells of 15 rows, in column C ('Notes'): rows 2, 3, "
    "4 and 12 more. A number named on so many rows is likely the business's or a vendor's own "
    "line (one that called, a hotline) rather than a consumer's, so the rows' messages do not "
    "suggest adding it. If consumers did ask for it, import it as a row of its own."
)
SECOND = (
    "row 5: its Notes cell C5 names another number, (480) 555-5504: if the consumer asked for "
    "it too, add it as a row of its own"
)
NUMBERS = [f"480555{6000 + row}" for row in range(2, 22)]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _file(tmp_path: Path) -> Path:
    """Rows 2-21: 15 name the business line, rows 5 and 12 a second number of their own."""
    lines = ["Name,Phone,Notes"]
    for row in range(2, 22):
        if row == 5:
            notes = "also cell 480-555-5504"
        elif row == 12:
            notes = "called from our line 800-555-0199; wife 602-555-0188"
        elif row in (8, 15, 20, 21):
            notes = "stop calling"
        else:
            notes = "called from our line 800-555-0199"
        lines.append(f"c{row},480-555-{6000 + row},{notes}")
    path = tmp_path / "opt_outs.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _messages(report: Path) -> dict[int, tuple[str, str]]:
    """Each row's (Outcome, Message) in the report's Rows sheet."""
    rows = CalamineWorkbook.from_path(str(report)).get_sheet_by_name("Rows").to_python()
    header = rows[0]
    row_at, outcome_at = header.index("Source row"), header.index("Outcome")
    message_at = header.index("Message")
    return {
        int(r[row_at]): (str(r[outcome_at]), str(r[message_at]))
        for r in rows[1:]
        if r and r[0] != ""
    }


def test_a_dry_run_names_the_business_line_once(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "dry.xlsx"
    argv = ["import", str(_file(tmp_path)), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--base-url", sandbox.base_url, "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert out.count(LINE) == 1
    assert SAID in out
    assert "would be sent: 20" in out
    by_row = _messages(report)
    assert sorted(by_row) == list(range(2, 22))
    assert [n for n, (_, message) in by_row.items() if LINE in message] == []
    assert by_row[5][1] == SECOND
    assert "(602) 555-0188" in by_row[12][1]
    assert [n for n, (_, message) in by_row.items() if message] == [5, 12]


def test_every_row_goes_in_once_as_before(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "sent.xlsx"
    argv = ["import", str(_file(tmp_path)), "--into", "dnc", "--scope", "global", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url, "--report", str(report)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["valid"], data["inserted"]) == (20, 20)
    assert [w for w in data["warnings"] if LINE in w] == [
        next(w for w in data["warnings"] if w.endswith(SAID))
    ]
    with ApiClient(sandbox.base_url, TOKEN) as api:
        entries = api.search_dnc(DncQuery()).items
    # The rows' own numbers, each once; the business line is not put on the list.
    assert sorted(e.phone_number for e in entries) == NUMBERS
    by_row = _messages(report)
    assert sorted(by_row) == list(range(2, 22))
    assert {outcome for outcome, _ in by_row.values()} == {"inserted"}
    assert [n for n, (_, message) in by_row.items() if LINE in message] == []
    assert SECOND in by_row[5][1]
