"""Review RV2: the note on pandas' row numbers in column A said column A "holds the row numbers
0, 1, 2, …" also when the counter stopped further down (rows appended by hand under a frame
pandas wrote). It now says down to which row, and that no later row is taken for one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.test_pandas_index_and_table_totals import PANDAS_NOTE


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _warnings(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, object]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    out, _ = capsys.readouterr()
    data: dict[str, object] = json.loads(out)
    return data


def test_the_note_says_where_the_row_numbers_stop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        ",Phone,Reason",
        "0,303-555-0101,a",
        "1,,",  # row 3: an empty row of the frame, blank
        "2,303-555-0103,c",
        "Added by hand,303-555-0105,e",  # row 5: the counter stops here
        "4,,",  # row 6: no longer taken for a row number
    ]
    path = tmp_path / "frame.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    data = _warnings(capsys, path)
    warnings = data["warnings"]
    assert isinstance(warnings, list)
    said = [w for w in warnings if PANDAS_NOTE in w]
    assert len(said) == 1
    assert "down to row 4 (from row 5 on it holds other values" in said[0]
    assert "row 3, which holds nothing but a row number, is counted blank" in said[0]
    assert data["blank"] == 1 and data["invalid"] == 1


def test_a_counter_to_the_end_says_no_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [",Phone,Reason", "0,303-555-0101,a", "1,,", "2,303-555-0103,c"]
    path = tmp_path / "frame.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    warnings = _warnings(capsys, path)["warnings"]
    assert isinstance(warnings, list)
    said = [w for w in warnings if PANDAS_NOTE in w]
    assert len(said) == 1 and "down to row" not in said[0]
