"""Black-box Q3 #5: the report's Summary names the default purpose and reason given with
``--purpose`` and ``--reason`` (it said only "Scope | global")."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.job_report import DEFAULT_CODE_LABEL, DEFAULT_PURPOSE_LABEL, DEFAULT_REASON_LABEL
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _summary(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[Any, Any]:
    code = main([*argv, "--dry-run", "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out.strip().splitlines()[-1])
    return dict(openpyxl.load_workbook(data["report"])["Summary"].iter_rows(values_only=True))


@pytest.fixture
def uk_csv(tmp_path: Path) -> Path:
    path = tmp_path / "uk.csv"
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([["+44 20 7946 0018"], ["+44 20 7946 0019"]])
    return path


def test_the_summary_names_the_default_purpose_and_reason(
    uk_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(uk_csv), "--into", "dnc", "--scope", "global"]
    summary = _summary(capsys, [*argv, "--purpose", "Marketing", "--reason", "UK batch"])
    assert summary["Scope"] == "global"
    assert summary[DEFAULT_PURPOSE_LABEL] == "Marketing"
    assert summary[DEFAULT_REASON_LABEL] == "UK batch"


def test_no_default_given_no_row(uk_csv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary = _summary(capsys, ["import", str(uk_csv), "--into", "dnc", "--scope", "global"])
    assert DEFAULT_PURPOSE_LABEL not in summary
    assert DEFAULT_REASON_LABEL not in summary


def test_a_purpose_scope_is_not_said_twice(
    uk_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(uk_csv), "--into", "dnc", "--scope", "purpose", "--purpose", "Survey"]
    summary = _summary(capsys, argv)
    assert "Survey" in str(summary["Scope"])
    assert DEFAULT_PURPOSE_LABEL not in summary


def test_the_summary_names_the_default_country_code(
    uk_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Black-box B22 F6: a --phone-code 44 run's Summary did not say +44, so its bare numbers'
    country was evidence only row by row."""
    argv = ["import", str(uk_csv), "--into", "dnc", "--scope", "global"]
    assert _summary(capsys, [*argv, "--phone-code", "44"])[DEFAULT_CODE_LABEL] == "+44"
    assert _summary(capsys, argv)[DEFAULT_CODE_LABEL] == "+1"
    removal = ["remove", str(uk_csv), "--scope", "global", "--phone-code", "49"]
    assert _summary(capsys, removal)[DEFAULT_CODE_LABEL] == "+49"
