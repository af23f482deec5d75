"""``dnc-desk import`` of a month-per-sheet workbook says the other months as a counted
``warning:`` (session 32, fx1, on black-box bb4 #7: 'Escalations' was imported and the 60
numbers of 'Nov 2026' and 'Oct 2026' were named in one ``note:`` line). Before the first row
and in the result, in ``--json`` ``warnings`` and in the report's Summary; the command it gives
imports the other month. Run through ``main`` against a sandbox over loopback.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN
from tests.core import sheet_factory as f

HEADER = ["Phone", "Name", "Date"]


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def month(base: int, count: int) -> list[list[object]]:
    return [HEADER, *([f"(415) 555-{base + i:04d}", f"N {i}", "2026-10-01"] for i in range(count))]


def summary_warnings(report: str) -> list[str]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        rows = book["Summary"].iter_rows(values_only=True)
        return [str(r[1]) for r in rows if r and str(r[0] or "").startswith("Warning")]
    finally:
        book.close()


def test_the_other_months_are_a_warning_whose_command_imports_them(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = f.write_xlsx(
        tmp_path / "months.xlsx",
        month(100, 8),
        title="Escalations",
        more_sheets={"Nov 2026": month(200, 30), "Oct 2026": month(300, 30)},
    )
    url = ["--base-url", sandbox.base_url]
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", *url]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if "laid out as sheet 'Escalations'" in line]
    assert len(lines) == 1 and lines[0].startswith("warning: Sheets 'Nov 2026' and 'Oct 2026'")
    assert "hold 60 more rows with a phone number (30 in 'Nov 2026', 30 in 'Oct 2026')" in err
    assert "  warning: Sheets 'Nov 2026' and 'Oct 2026' of months.xlsx" in out
    assert "note: Sheets 'Nov 2026'" not in out + err

    # The command the warning gives, run as given: it imports that month's 30 numbers.
    said = lines[0].removeprefix("warning: ")
    command = said.rpartition("run ")[2].split("; then ")[0]
    words = shlex.split(command)
    assert words[:2] == ["dnc-desk", "import"] and words[-2:] == ["--sheet", "Nov 2026"]
    assert main([*words[1:], *url, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["rows"], data["inserted"]) == (30, 30)
    assert not any("laid out as sheet" in w for w in data["warnings"])

    # A dry run's commands are dry runs too, so pasting one checks the sheet (fxE, session 33).
    assert main([*argv, "--dry-run", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    dry = said.replace(" --sheet ", " --dry-run --sheet ")
    assert dry != said and dry in data["warnings"]
    assert dry in summary_warnings(data["report"])
