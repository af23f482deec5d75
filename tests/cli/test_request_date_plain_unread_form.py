"""A request date written in digits and marks of no form DNC Desk reads ("1/2/3", "12.3.4")
stopped the whole import on a RecursionError (found by fxI, session 33): it is now that row's
note, "is not a date", and the rows are imported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli.main import main
from app.core.sheet_dates import parse_request_date
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.mark.parametrize("text", ["1/2/3", "12.3.4", "1/2/345", "1-2-3"])
def test_a_date_of_no_form_read_is_not_a_date(text: str) -> None:
    assert parse_request_date(text).note.startswith(f"{text!r} is not a date")


def test_an_import_with_such_a_date_imports_its_rows(
    tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "dates.csv"
    path.write_text("Phone,Date received\n3035550101,1/2/3\n3035550102,11/20/2026\n")
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["inserted"], data["invalid"]) == (2, 0), data
    assert data["warnings"][0].startswith("1 row's request date could not be read (row 2)")
    with ApiClient(sandbox.base_url, TOKEN) as api:
        assert sorted(e.phone_number for e in api.iter_dnc()) == ["3035550101", "3035550102"]
