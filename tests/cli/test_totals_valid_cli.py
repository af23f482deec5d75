"""``dnc-desk import``/``remove`` of a table whose totals row holds a valid phone number (a
SUBTOTAL's saved result, black-box B26 F1): the row is invalid as a total line; it is neither
imported nor removed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.sheet_factory import write_csv
from tests.core.test_totals_valid_sums import FIVE, FOUR, SUM4, SUM5, table_with_total


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


@pytest.mark.parametrize("command", [["import"], ["remove", "--note", "asked"]])
def test_the_tables_total_is_neither_imported_nor_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    src = table_with_total(tmp_path / "table.xlsx", FOUR, SUM4)
    into = ["--into", "dnc"] if command[0] == "import" else []
    argv = [command[0], str(src), *into, *command[1:], "--scope", "global", "--dry-run", "--json"]
    data = _run(capsys, argv)
    assert (data["rows"], data["valid"], data["invalid"]) == (5, 4, 1)


def test_a_csv_total_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write_csv(tmp_path / "pasted.csv", [["Label", "Phone"], *[["", n] for n in FIVE]])
    with src.open("a", newline="") as fh:
        fh.write(f"Total,{SUM5}\r\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    data = _run(capsys, argv)
    assert (data["rows"], data["valid"], data["invalid"]) == (6, 5, 1)
