"""Black-box B27 on ``dnc-desk export``.

- F2: entries under a phone code that is no country's (999) could not be exported at all: the
  export's warning on rows it could not reach advised ``--phone-code CODE``, and export refused
  ``--phone-code 999`` as not a country calling code. A code the list holds entries under is
  exported now, with a note on stderr; one it holds none under is refused as before.
- F1: an xlsx export's values that lost control characters are said on stderr (with
  ``--json`` too), counted by column.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _export(sandbox: Any, out: Path, *extra: str) -> int:
    return main(["export", "dnc", "--out", str(out), "--base-url", sandbox.base_url, *extra])


def test_a_code_no_country_has_exports_the_entries_under_it(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([(f"5551{i:06d}", "999", "0", "", "") for i in range(6)])
    sandbox.bulk_seed_dnc([("2025550101", "1", "0", "", "")])
    out = tmp_path / "odd.csv"
    assert _export(sandbox, out, "--phone-code", "999", "--json") == 0
    captured = capsys.readouterr()
    said = json.loads(captured.out)
    assert (said["rows"], said["total"], said["unreachable"]) == (6, 6, 0)
    assert said["filters"]["phone_code"] == "999"
    assert (
        "--phone-code '999' is not a country calling code, but the DNC list holds 6 entries "
        "under it: they are exported as the list holds them." in captured.err
    )
    with out.open(encoding="utf-8-sig", newline="") as fh:
        assert {row[1] for row in list(csv.reader(fh))[1:]} == {"999"}


def test_a_code_no_country_has_and_no_entry_holds_is_refused(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([("2025550101", "1", "0", "", "")])
    assert _export(sandbox, tmp_path / "none.csv", "--phone-code", "990") == 2
    err = capsys.readouterr().err
    assert "--phone-code '990' is not a country calling code (for example 1 or 44)." in err
    assert "The DNC list holds no entry under it either." in err
    assert not (tmp_path / "none.csv").exists()
    # Text that is no code at all is refused before connecting, as before.
    assert _export(sandbox, tmp_path / "x.csv", "--phone-code", "abc") == 2
    assert "--phone-code 'abc' is not a country calling code" in capsys.readouterr().err


def test_xlsx_values_that_lost_characters_are_said(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([("2025550101", "1", "0", "bad\x01reason", "")])
    assert _export(sandbox, tmp_path / "x.xlsx", "--json") == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["rows"] == 1
    assert "Warning: 1 value holds characters an xlsx file cannot hold (reason: 1)" in (
        captured.err
    )
    assert _export(sandbox, tmp_path / "x.csv", "--json") == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["rows"] == 1
    assert "cannot hold" not in captured.err
