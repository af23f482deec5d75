"""A headerless column whose cells ask to stop ("stop", "STOP please", "unsubscribe"), read
as the rows' reason (fxD), is the consumers' messages a "Reply" or "Status" column holds: a
removal of such a file is refused as one with a Reply column is (black-box bb16 F4), and an
import names its rows saying something else ("active") as it does a Status column's (F5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN

ROWS = (
    "Kim,201-555-0310,stop\n"
    "Lee,201-555-0311,STOP please\n"
    "Pat,201-555-0312,unsubscribe\n"
    "Jo,201-555-0313,active\n"
)
NUMBERS = ["2015550310", "2015550311", "2015550312", "2015550313"]


@pytest.fixture(autouse=True)
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any]]:
    status = main([*argv, "--json"])
    return status, dict(json.loads(capsys.readouterr().out))


def _listed(sandbox: Any) -> list[str]:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        return sorted(e.phone_number for e in api.iter_dnc())


@pytest.mark.parametrize("title", ["", "ACME Corp opt-outs March\n"])
def test_a_removal_of_headerless_stop_rows_is_refused(
    tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str], title: str
) -> None:
    src = tmp_path / "stops.csv"
    src.write_text(title + ROWS)
    url = ["--scope", "global", "--base-url", sandbox.base_url]
    assert _run(capsys, ["import", str(src), "--into", "dnc", *url])[0] == 0
    assert _listed(sandbox) == NUMBERS
    status, data = _run(capsys, ["remove", str(src), *url, "--note", "client request"])
    assert status == 1, data
    first = 2 if title else 1
    assert str(data["error"]).startswith(
        f"3 rows of stops.csv hold a consumer's message asking to stop in column C (row "
        f"{first}: 'stop'; row {first + 1}: 'STOP please'; row {first + 2}: 'unsubscribe'): "
        "those consumers opted out"
    )
    assert str(data["error"]).endswith("run the removal again with --ignore-column 'column:C'.")
    assert _listed(sandbox) == NUMBERS  # nothing was taken off
    # The column set aside as the refusal says, the removal goes ahead.
    argv = ["remove", str(src), *url, "--note", "client request", "--ignore-column", "column:C"]
    status, data = _run(capsys, argv)
    assert status == 0, data
    assert _listed(sandbox) == []


def test_an_import_names_the_headerless_stop_column_rows_saying_something_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "stops.csv"
    src.write_text("ACME Corp opt-outs March\n" + ROWS)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    status, data = _run(capsys, argv)
    assert status == 0, data
    assert data["mapping"]["reason"] == "column C"
    said = [n for n in data["warnings"] if n.startswith("Column C:")]
    assert said == [
        "Column C: 3 of the 4 rows say do not call ('stop', 'STOP please', 'unsubscribe'), the "
        "other 1 says something else ('active': row 5), yet it is imported as an opt-out too. "
        "Keep only the rows that say do not call (filter column C) and run the file again."
    ]
