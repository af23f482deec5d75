"""The export's About sheet says its filters as --json does, as typed (black-box B4 #4), and
--json counts the searches that asked how many rows match (B4 #3: an empty list's export said
"searches": 0)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from tests.conftest import TOKEN


def _export(
    capsys: pytest.CaptureFixture[str], sandbox: Any, out: Path, *args: str
) -> dict[str, Any]:
    capsys.readouterr()
    status = main(
        ["export", "dnc", "--out", str(out), "--json", *args, "--base-url", sandbox.base_url]
    )
    captured = capsys.readouterr()
    assert status == 0, captured.err
    result: dict[str, Any] = json.loads(captured.out)
    return result


def test_the_about_sheet_says_the_number_as_typed_as_json_does(
    sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc("2079460009", "44", Scope.global_())
    out = tmp_path / "e.xlsx"
    result = _export(capsys, sandbox, out, "--phone-number", "+44 20 7946 0009")
    typed = "+44 20 7946 0009 (searched as 2079460009 under phone code 44)"
    assert result["filters"] == {"phone_number": typed}
    about = dict(openpyxl.load_workbook(out)["About"].iter_rows(values_only=True))
    assert about["Filters"] == f"phone_number={typed}"
    assert result["rows"] == 1 and result["counting_searches"] >= 1


def test_an_empty_lists_export_says_in_json_that_the_service_was_asked(
    sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    result = _export(capsys, sandbox, tmp_path / "empty.csv")
    assert result["rows"] == 0 and result["searches"] == 0
    assert result["counting_searches"] >= 1
