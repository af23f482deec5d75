"""Black-box bb9 F5 through the command line against a sandbox: a letterhead's Tel and Fax
above a ``Name | Phone | Reason`` header went onto the DNC list, the real rows without their
reason, and ``--phone-column Phone`` was refused. The service now holds the real rows only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.test_letterhead_above_header import ABOVE, _xlsx


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], sandbox: Any, *argv: str) -> dict[str, Any]:
    code = main([*argv, "--scope", "global", "--json", "--base-url", sandbox.base_url])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def _held(sandbox: Any) -> dict[str, str]:
    rows = sandbox.store.all("SELECT phone_number, reason FROM dnc")
    return {r["phone_number"]: r["reason"] for r in rows}


@pytest.mark.parametrize("pick", [[], ["--phone-column", "Phone"]])
def test_import_then_remove_a_letterhead_sheet(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], pick: list[str]
) -> None:
    path = _xlsx(tmp_path / "letterhead.xlsx")
    data = _run(capsys, sandbox, "import", str(path), "--into", "dnc", *pick)
    assert data["inserted"] == 3
    assert ABOVE in data["warnings"]
    assert _held(sandbox) == {
        "2015550310": "stop",
        "2015550311": "stop",
        "2015550312": "stop calling",
    }
    # A removal reads the sheet the same way: the three rows go, nothing else is touched.
    sandbox.store.execute(
        "INSERT INTO dnc (phone_number, phone_code, campaign_id, reason, insert_date)"
        " VALUES ('8005550199', '1', -1, 'x', '2026-11-25')"
    )
    removed = _run(capsys, sandbox, "remove", str(path), "--note", "added in error", *pick)
    assert removed["rows"] == 3
    assert set(_held(sandbox)) == {"8005550199"}


def test_a_report_help_line_is_not_sent(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "footer.csv"
    path.write_text(
        "Name,Phone,Reason\nA,201-555-0392,stop\nB,201-555-0393,stop\n,,\n"
        "Questions? Call compliance at,201-555-0399,\nReport generated 11/25/2026,,\n"
    )
    data = _run(capsys, sandbox, "import", str(path), "--into", "dnc")
    assert (data["rows"], data["inserted"], data["invalid"], data["blank"]) == (5, 2, 2, 1)
    assert set(_held(sandbox)) == {"2015550392", "2015550393"}
