"""The command a dry run prints for another sheet laid out as the one read runs as pasted
(black-box bb12 F1): it dropped the job's ``--base-url`` (pasted: exit 2, no service named)
and its ``--dry-run`` (with a connection, a real import where the person was checking). It
now ends with the job's service option and ``--dry-run``, as a resume's command names it."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _months(path: Path) -> Path:
    wb = Workbook()
    jan = wb.active
    assert jan is not None
    jan.title = "Jan"
    feb = wb.create_sheet("Feb")
    for sheet, base in ((jan, 100), (feb, 200)):
        sheet.append(["Phone"])
        for i in range(4):
            sheet.append([f"303555{base + i:04d}"])
    wb.save(path)
    return path


def _printed(capsys: pytest.CaptureFixture[str], argv: list[str]) -> list[str]:
    """The run's ``--json`` result and the command its other-sheets warning gives."""
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (said,) = [w for w in data["warnings"] if "To import it too, run " in w]
    command = shlex.split(said.split("To import it too, run ", 1)[1])
    assert command[:2] == ["dnc-desk", "import"]
    return command[1:]


def test_a_dry_runs_other_sheet_command_checks_that_sheet_on_its_service(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _months(tmp_path / "months.xlsx")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    pasted = _printed(capsys, [*argv, "--base-url", sandbox.base_url, "--dry-run"])
    assert pasted[-5:] == ["--base-url", sandbox.base_url, "--dry-run", "--sheet", "Feb"]
    # Pasted, it checks Feb on the same service (a dry run: nothing sent).
    assert main([*pasted, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["status"], data["sheet"], data["rows"]) == ("dry_run", "Feb", 4)


def test_an_offline_dry_runs_command_stays_a_dry_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _months(tmp_path / "months.xlsx")
    pasted = _printed(
        capsys, ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    )
    assert pasted[-3:] == ["--dry-run", "--sheet", "Feb"]
    assert not any(re.fullmatch("--(base-url|connection)", w) for w in pasted)
    assert main([*pasted, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "dry_run"


def test_a_real_runs_other_sheet_command_names_its_service(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _months(tmp_path / "months.xlsx")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    pasted = _printed(capsys, [*argv, "--base-url", sandbox.base_url])
    assert "--dry-run" not in pasted
    assert pasted[-4:] == ["--base-url", sandbox.base_url, "--sheet", "Feb"]
    assert main([*pasted, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["status"], data["sheet"], data["inserted"]) == ("finished", "Feb", 4)
