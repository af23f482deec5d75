"""Black-box findings in ``dnc-desk import``/``remove``/``export``: bad output paths and bad
arguments are refused before any work in one sentence (no traceback, no job file left behind),
and a removal's report does not call its rows late insertions."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def dated_csv(path: Path, rows: int = 4) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone", "Date received"])
        writer.writerows([[f"202-555-{i:04d}", "2020-01-06"] for i in range(rows)])
    return path


def run(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> tuple[int, dict[str, Any] | None, str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "Exception ignored" not in captured.err
    out = captured.out.strip()
    return code, (json.loads(out) if out else None), captured.err.strip()


def refusal(status: int, sentence: str) -> dict[str, Any]:
    """What --json prints for a refusal: the sentence of stderr, and the exit status."""
    return {"error": sentence, "exit_status": status}


def jobs() -> list[Path]:
    return sorted(AppPaths.default().jobs_dir.iterdir())


def test_a_removal_has_no_late_insertions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = dated_csv(tmp_path / "remove.csv")
    report = tmp_path / "removal.xlsx"
    argv = ["remove", str(src), "--scope", "global", "--dry-run", "--json", "--report", str(report)]
    code, data, _ = run(capsys, argv)
    assert code == 0 and data is not None
    assert (data["rows"], data["valid"], data["late_requests"]) == (4, 4, 0)
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        summary = {r[0]: r[1] for r in book["Summary"].iter_rows(values_only=True)}
        rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    assert not any("later than" in str(label) for label in summary)
    header = rows[0]
    assert "Late" not in header and "Business days to insertion" not in header
    assert len(rows) == 5
    # The same file imported is late: the request dates are years old. (Its report replaces
    # the removal's, which an existing --report allows only with --overwrite.)
    code, data, _ = run(capsys, ["import", str(src), "--into", "dnc", *argv[2:], "--overwrite"])
    assert code == 0 and data is not None and data["late_requests"] == 4


@pytest.mark.parametrize(
    ("where", "status", "expected"),
    [
        ("folder", 2, "--report {path} is a folder; give a file name ending in .xlsx."),
        ("csv", 2, "--report {path} must end in .xlsx (the report is an Excel workbook)."),
        ("under-a-file", 1, "The report cannot be written to {path}: "),
    ],
)
def test_a_report_path_that_cannot_work_is_refused_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, status: int, expected: str
) -> None:
    src = dated_csv(tmp_path / "in.csv")
    (tmp_path / "folder").mkdir()
    (tmp_path / "a-file").write_text("x")
    path = {
        "folder": tmp_path / "folder",
        "csv": tmp_path / "report.csv",
        "under-a-file": tmp_path / "a-file" / "report.xlsx",
    }[where]
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code, data, err = run(capsys, [*argv, "--report", str(path)])
    assert (code, data) == (status, refusal(status, err))
    assert err.startswith(expected.format(path=path)), err
    assert "\n" not in err and ".part" not in err
    assert jobs() == []
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["a-file", "config", "data", "folder", "in.csv"]


def test_an_unknown_phone_code_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = dated_csv(tmp_path / "in.csv")
    for command in (["import", "--into", "dnc"], ["remove"]):
        argv = [command[0], str(src), *command[1:], "--scope", "global", "--dry-run", "--json"]
        code, data, err = run(capsys, [*argv, "--phone-code", "abc"])
        assert (code, data) == (2, refusal(2, err))
        assert err == "--phone-code 'abc' is not a country calling code (for example 1 or 44)."
        code, data, _ = run(capsys, [*argv, "--phone-code", "+1"])
        assert code == 0 and data is not None and data["valid"] == 4
    assert len(jobs()) == 4  # two dry runs' job files and their reports


def test_export_checks_its_arguments_and_output_first(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([(f"20255501{i:02d}", "1", "0", "", "") for i in range(20)])
    base = ["export", "dnc", "--base-url", sandbox.base_url, "--json"]
    out = tmp_path / "x.xlsx"
    code, data, err = run(capsys, [*base, "--out", str(out), "--insert-date", "2026-13-45"])
    assert (code, data) == (2, refusal(2, err))
    assert err == "--insert-date '2026-13-45' is not a date; write it as YYYY-MM-DD."
    (tmp_path / "a-file").write_text("x")
    blocked = tmp_path / "a-file" / "x.xlsx"
    code, data, err = run(capsys, [*base, "--out", str(blocked)])
    assert (code, data) == (1, refusal(1, err))
    assert err.startswith(f"The export cannot be written to {blocked}: ") and ".part" not in err
    (tmp_path / "dir.xlsx").mkdir()
    code, data, err = run(capsys, [*base, "--out", str(tmp_path / "dir.xlsx")])
    assert (code, data) == (2, refusal(2, err))
    folder = tmp_path / "dir.xlsx"
    assert err == f"--out {folder} is a folder; give a file name ending in .xlsx or .csv."
    # A number written as a person writes it finds the entry.
    code, data, err = run(capsys, [*base, "--out", str(out), "--phone-number", "(202) 555-0107"])
    assert code == 0 and data is not None and data["rows"] == 1, err
    code, data, err = run(capsys, [*base, "--out", str(out), "--phone-number", "555"])
    assert (code, data) == (2, refusal(2, err)) and err.startswith("--phone-number '555': "), err
    # x.xlsx exists now: a second export to it must say it replaces it.
    today = dt.date.today().isoformat()
    code, data, err = run(capsys, [*base, "--out", str(out), "--insert-date", today, "--overwrite"])
    assert code == 0 and data is not None and data["rows"] == 20, err


def test_a_file_with_a_header_and_no_rows_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "empty-list.csv"
    src.write_text("Phone,Reason\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    code, data, _ = run(capsys, [*argv, "--json"])
    assert code == 0 and data is not None and data["rows"] == 0
    assert data["warnings"] == [
        "empty-list.csv has no data rows below its header (row 1): nothing to import."
    ]
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0
    assert "note: empty-list.csv has no data rows below its header (row 1)" in out
    # A dry run's valid rows are not "pending": nothing will send them.
    assert "pending" not in out


def test_sheet_does_not_apply_to_a_text_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = dated_csv(tmp_path / "list.csv")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code, data, err = run(capsys, [*argv, "--sheet", "Numbers"])
    assert (code, data) == (2, refusal(2, err))
    assert err == "--sheet Numbers does not apply to list.csv: a text file has one table."
    assert jobs() == []
