"""The command line on black-box findings 3, 8 and 15: a removal of a filtered sheet leaves the
hidden rows on the list, ``--sheet`` ignores case, and the warnings reach the output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.core.sheet_factory import write_xlsx
from tests.core.test_sheet_hidden_rows import filtered_review


@pytest.fixture(autouse=True)
def _dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def dry_run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main([*argv, "--scope", "global", "--dry-run", "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_a_dry_run_removal_of_a_filtered_sheet_leaves_the_hidden_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = dry_run(capsys, "remove", str(filtered_review(tmp_path / "review.xlsx")))
    assert (data["rows"], data["not_attempted"], data["pending"]) == (6, 4, 2)
    book = openpyxl.load_workbook(data["report"], read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))[1:]
    book.close()
    by_row = {r[0]: (r[5], r[6] if len(r) > 6 else None) for r in rows}
    assert by_row[2][0] == by_row[3][0] == "valid (dry run)"
    assert by_row[4] == (
        "not_attempted",
        "row 4: hidden in the file (hidden or filtered out); not removed unless hidden rows "
        "are included (--include-hidden)",
    )


def test_sheet_is_matched_ignoring_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_xlsx(
        tmp_path / "tabs.xlsx",
        [["Phone"], ["2025550101"]],
        title="Números 📞",
        more_sheets={"Week 2": [["Phone"], ["2025550102"], ["2025550103"]]},
    )
    data = dry_run(capsys, "import", str(path), "--into", "dnc", "--sheet", " week 2 ")
    assert data["rows"] == 2
    data = dry_run(capsys, "import", str(path), "--into", "dnc", "--sheet", "números 📞")
    assert data["rows"] == 1


def test_warnings_reach_the_json_and_the_note_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = filtered_review(tmp_path / "review.xlsx")
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert any("are hidden in sheet 'Review'" in w for w in data["warnings"])
    assert main(["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]) == 0
    assert "note: Rows 4–7 (4 rows) are hidden" in capsys.readouterr().out


def test_include_hidden_removes_the_hidden_rows_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = filtered_review(tmp_path / "review.xlsx")
    data = dry_run(capsys, "remove", str(path), "--include-hidden")
    assert (data["rows"], data["not_attempted"], data["pending"]) == (6, 0, 6)
    assert any("are hidden in sheet 'Review'" in w and "removed too" in w for w in data["warnings"])
