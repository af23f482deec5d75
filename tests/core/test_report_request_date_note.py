"""A row's note on its request date is in the report's Message, not its Damage note column
(black-box B2 #4: Twilio's ``Opt Out Date`` ``2026-11-19T23:59:59-05:00`` left the Message empty
and the Damage note saying "… read as 2026-11-20, the day it was in this computer's time zone",
while the JSON said no cell was damaged). Kept after the row is sent, and before the sentence
counting a late request from that date."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN

# The shape of the finding's e07_twilio_iso.csv, with a request long past the limit.
TWILIO = (
    '"Phone Number","Opt Out Date","Keyword","MessagingServiceSid"\n'
    '"+13036193720","2026-11-10T03:30:00Z","STOP","MG9752274e9e519418a7406176694466fa"\n'
    '"+13036193721","2026-11-19T23:59:59-05:00","stop","MG9752274e9e519418a7406176694466fa"\n'
    '"+13036193722","2020-11-05T23:30:00-05:00","STOP","MG9752274e9e519418a7406176694466fa"\n'
)
ZONE_NOTE = "'2026-11-19T23:59:59-05:00' read as 2026-11-20, the day it was in this computer's "
LATE_NOTE = "'2020-11-05T23:30:00-05:00' read as 2020-11-06, the day it was in this computer's "


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _import(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--json", *extra]
    assert main(argv) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def _rows(report: str) -> dict[int, dict[str, Any]]:
    sheet = list(openpyxl.load_workbook(report)["Rows"].iter_rows(values_only=True))
    header = [str(h) for h in sheet[0]]
    return {int(r[0]): dict(zip(header, r, strict=False)) for r in sheet[1:]}


def test_the_dry_run_report_says_the_date_in_the_message(
    tmp_path: Path, utc: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "twilio_opt_outs.csv"
    path.write_text(TWILIO, encoding="utf-8")
    data = _import(path, capsys, "--dry-run")
    assert data["damaged"] == 0
    rows = _rows(data["report"])
    assert [r["Damage note"] for r in rows.values()] == [None, None, None]
    assert rows[3]["Request date"] == "2026-11-20"
    assert rows[3]["Message"] == f"row 3: request date: {ZONE_NOTE}time zone (UTC)"
    # A late request: the note says which day was counted from, then how late it is.
    assert rows[4]["Late"] == "late"
    assert rows[4]["Message"].startswith(
        f"row 4: request date: {LATE_NOTE}time zone (UTC); request received 2020-11-06, "
    )
    assert rows[2]["Message"] is None  # read as written: nothing to say


def test_the_note_stays_in_the_message_once_the_row_is_inserted(
    tmp_path: Path,
    utc: None,
    sandbox: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    path = tmp_path / "twilio_opt_outs.csv"
    path.write_text(TWILIO, encoding="utf-8")
    data = _import(path, capsys, "--base-url", sandbox.base_url)
    assert (data["inserted"], data["damaged"]) == (3, 0)
    rows = _rows(data["report"])
    assert [r["Outcome"] for r in rows.values()] == ["inserted"] * 3
    assert [r["Damage note"] for r in rows.values()] == [None, None, None]
    assert rows[3]["Message"].startswith(f"row 3: request date: {ZONE_NOTE}time zone (UTC)")
    assert rows[4]["Message"].startswith(
        f"row 4: request date: {LATE_NOTE}time zone (UTC); request received"
    )
    assert "business days before its insertion on" in rows[4]["Message"]
