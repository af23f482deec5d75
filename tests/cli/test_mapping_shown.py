"""``import`` and ``remove`` say which column was read as what, before the counts.

A CRM's free-text "Notes" column is read as each entry's reason, its "Country Code" as the
phone code: the human output prints one ``columns read:`` line before the counts, and
``--json`` has ``mapping`` (role → column name, as the job's meta stores it), for dry runs,
real runs and ``--resume``.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.import_cmd import columns_read_line
from app.cli.main import main
from app.core.connections import Connection
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.paths import AppPaths
from tests.conftest import TOKEN

LINE = "  columns read: phone = 'Phone' (B), phone code = 'Country Code' (C), reason = 'Notes' (D)"
MAPPING = {
    "phone": "Phone (column B)",
    "phone_code": "Country Code (column C)",
    "reason": "Notes (column D)",
}
NUMBERS = ["303-555-0101", "202-555-0102", "415-555-0103"]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.fixture
def crm_csv(tmp_path: Path) -> Path:
    path = tmp_path / "crm.csv"
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Name", "Phone", "Country Code", "Notes"])
        for i, number in enumerate(NUMBERS):
            writer.writerow([f"Customer {i}", number, "1", f"said stop on call {i}"])
    return path


def _human(capsys: pytest.CaptureFixture[str], argv: list[str]) -> list[str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "Traceback" not in captured.err
    return captured.out.splitlines()


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    out = captured.out.strip().splitlines()
    assert len(out) == 1, out
    data: dict[str, Any] = json.loads(out[0])
    return data


def _assert_line_before_counts(lines: list[str]) -> None:
    assert lines[1] == LINE, lines
    assert lines[2].startswith("  rows: 3, valid: 3"), lines


def test_import_dry_run_says_which_columns_were_read(
    crm_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(crm_csv), "--into", "dnc", "--scope", "global", "--dry-run"]
    lines = _human(capsys, argv)
    assert lines[0] == "Dry run of crm.csv: nothing was sent."
    _assert_line_before_counts(lines)
    data = _json(capsys, argv)
    assert data["mapping"] == MAPPING
    assert data["status"] == "dry_run" and data["valid"] == 3
    # The report's Summary sheet says the same mapping.
    summary = dict(openpyxl.load_workbook(data["report"])["Summary"].iter_rows(values_only=True))
    assert summary["Mapping"] == "; ".join(f"{k}: {v}" for k, v in MAPPING.items())


def test_import_real_run_says_which_columns_were_read(
    sandbox: Any, crm_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(crm_csv), "--into", "dnc", "--scope", "global"]
    argv += ["--base-url", sandbox.base_url]
    data = _json(capsys, argv)
    assert data["mapping"] == MAPPING
    assert (data["status"], data["inserted"]) == ("finished", 3)
    reasons = {r["reason"] for r in sandbox.store.all("SELECT reason FROM dnc")}
    assert reasons == {f"said stop on call {i}" for i in range(3)}
    lines = _human(capsys, argv)
    _assert_line_before_counts(lines)
    assert "already present: 3" in lines[2]


def test_remove_says_which_columns_were_read(
    sandbox: Any, crm_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        for number in NUMBERS:
            api.insert_dnc(number.replace("-", ""), "1", Scope.global_())
    base = ["remove", str(crm_csv), "--scope", "global"]
    lines = _human(capsys, [*base, "--dry-run"])
    _assert_line_before_counts(lines)
    # A removal has no 10-business-day limit: no "late requests: 0" among its counts.
    assert "late requests" not in lines[2] and "inserted" not in lines[2]
    data = _json(capsys, [*base, "--dry-run"])
    assert data["mapping"] == MAPPING
    data = _json(capsys, [*base, "--base-url", sandbox.base_url, "--note", "Consumer asked"])
    assert data["mapping"] == MAPPING
    assert (data["status"], data["removed"]) == ("finished", 3)


def test_resume_says_the_jobs_mapping(
    sandbox: Any, crm_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A job staged and not yet run (as the GUI or an interrupted CLI leaves one).
    store, _ = stage_import(
        JobSettings(crm_csv, Scope.global_()),
        AppPaths.default().jobs_dir,
        connection=Connection("Sandbox", sandbox.base_url),
    )
    store.close()
    job = store.path.stem
    data = _json(capsys, ["import", "--resume", job, "--base-url", sandbox.base_url])
    assert data["mapping"] == MAPPING
    assert (data["status"], data["inserted"]) == ("finished", 3)
    # A resume of the ended job prints the line too, from the job's meta.
    lines = _human(capsys, ["import", "--resume", job])
    assert re.fullmatch(rf"Job {job} had already finished at .+ UTC; nothing was sent\.", lines[0])
    _assert_line_before_counts(lines)


def test_the_line_names_a_workbooks_sheet_and_columns_without_a_header() -> None:
    meta: dict[str, Any] = {
        "file": "/x/book.xlsx",
        "sheet": "Opt-outs",
        # Stored out of order: the line keeps the roles' fixed order.
        "mapping": {
            "request_date": "Received (column F)",
            "phone": "column A",
            "reason": "Notes (column E) (column C)",
        },
    }
    assert columns_read_line(meta) == (
        "columns read from sheet 'Opt-outs': phone = column A, "
        "reason = 'Notes (column E)' (C), request date = 'Received' (F)"
    )
    # A text table is named after its file: no sheet is said.
    assert columns_read_line({**meta, "file": "/x/Opt-outs.csv"}).startswith("columns read: ")
    assert columns_read_line({"file": "/x/old.csv"}) == ""


def test_remove_json_holds_every_key_of_the_contract(
    sandbox: Any, crm_csv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The issue's --json contract names the same keys for import and remove; a removal inserts
    # nothing, so its own are 0, and its human output does not print them.
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc(NUMBERS[0].replace("-", ""), "1", Scope.global_())
    base = ["remove", str(crm_csv), "--scope", "global", "--base-url", sandbox.base_url]
    base += ["--note", "Consumer asked"]
    data = _json(capsys, base)
    contract = {"rows", "valid", "invalid", "duplicates_in_file", "inserted", "already_present"}
    contract |= {"failed", "not_attempted", "report"}
    assert contract <= set(data)
    assert (data["inserted"], data["already_present"], data["removed"]) == (0, 0, 1)
    assert data["not_found"] == 2
    lines = _human(capsys, base)
    assert "inserted" not in lines[2] and "already present" not in lines[2]
    assert "not found: 3" in lines[2]
