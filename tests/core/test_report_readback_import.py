"""Black-box B12 #2, #5, #6: DNC Desk's own import report fed back into it. Each report is
made as the tester made it, by the command line against a sandbox; the officer's edits (rows
filtered to the invalid ones, numbers corrected) are made with openpyxl, as a spreadsheet
program saves them; the file is then imported or removed by the command line or core."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.import_job import stage_import
from app.core.job_report import EVERY_PURPOSE, ROW_COLUMNS
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStatus, JobStore
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from app.core.sheet_scope import CampaignDirectory, ScopeResolver
from tests.conftest import TOKEN
from tests.core import removal_session

wire = removal_session.wire
session = removal_session.session

VENDOR = (
    "Phone,Notes,Campaign\n"
    "303-555-0201,asked again,\n"  # row 2: inserted
    "303-555-0211,new two,No Such Campaign\n"  # row 3: invalid (its campaign)
    "555-0214,local no area,\n"  # row 4: invalid, no number in the report
    "(303) 555-021,short,\n"  # row 5: invalid, no number in the report
)
# The report's Outcome, Message and Damage note columns, which say what its job did.
LOG_WORDS = ("Column F ('Outcome')", "column F ('Outcome')", "Column G ('Message')", "column G")


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def _report(
    sandbox: Any, folder: Path, capsys: pytest.CaptureFixture[str], name: str, text: str
) -> Path:
    """The report of importing ``text`` (as ``name``) by the command line, globally."""
    (folder / name).write_text(text, encoding="utf-8")
    report = folder / f"{Path(name).stem}_rep.xlsx"
    argv = ["import", str(folder / name), "--into", "dnc", "--scope", "global"]
    _cli(capsys, *argv, "--report", str(report), "--base-url", sandbox.base_url)
    return report


def _invalid_rows_corrected(report: Path, corrections: dict[str, str], out: Path) -> Path:
    """The report's Rows sheet filtered to its invalid rows, Original values corrected."""
    book = openpyxl.load_workbook(report)
    rows = book["Rows"]
    outcome = ROW_COLUMNS.index("Outcome") + 1
    original = ROW_COLUMNS.index("Original value") + 1
    for number in range(rows.max_row, 1, -1):
        if rows.cell(number, outcome).value != "invalid":
            rows.delete_rows(number)
    for number in range(2, rows.max_row + 1):
        cell = rows.cell(number, original)
        cell.value = corrections.get(str(cell.value), cell.value)
    book.save(out)
    return out


def _rows(data: dict[str, Any]) -> dict[int, JobRow]:
    with JobStore(Path(data["job_file"])) as store:
        return {r.row_number: r for r in store.rows()}


def listed(api: Any) -> set[str]:
    return {e.phone_number for e in api.iter_dnc()}


def test_a_report_filtered_to_its_invalid_rows_imports_the_numbers_corrected_there(
    sandbox: Any, api: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _report(sandbox, tmp_path, capsys, "vendor.csv", VENDOR)
    fixed = _invalid_rows_corrected(
        report,
        {"555-0214": "303-555-0214", "(303) 555-021": "(303) 555-0218"},
        tmp_path / "fixed.xlsx",
    )
    assert listed(api) == {"3035550201"}
    argv = ["import", str(fixed), "--into", "dnc", "--scope", "global"]
    data = _cli(capsys, *argv, "--base-url", sandbox.base_url)
    rows = _rows(data)
    # Rows 2 to 4 of fixed.xlsx: the report's rows 3 to 5.
    assert {n: r.outcome for n, r in rows.items()} == {
        2: "invalid",
        3: "inserted",
        4: "inserted",
    }
    assert listed(api) == {"3035550201", "3035550214", "3035550218"}
    assert rows[3].original == "303-555-0214"
    assert rows[3].message == (
        "row 3: its Normalized number is empty (its job read no number from the row), so its "
        "Original value '303-555-0214' is read"
    )
    # Its campaign is still no campaign's: the row says that alone.
    assert rows[2].message == "row 2: scope: no campaign is named 'No Such Campaign'"
    assert data["warnings"][0] == (
        "fixed.xlsx is read as a DNC Desk report (its header is a report's Rows sheet's): rows "
        "3 and 4 are read from column B ('Original value'), not column C ('Normalized "
        "number'), which is empty there (its job read no number) or holds another number than "
        "the Original value, taken as corrected in the report. Every other row is read from "
        "its Normalized number; to import a row's Normalized number instead, make its Original "
        "value the same number or empty."
    )
    # Column B is read, where it was corrected: not a column of numbers left unread.
    assert not any("also holds phone numbers" in w for w in data["warnings"])


def _report_like(path: Path, lines: list[list[str]]) -> Path:
    """A report's Rows sheet as a CSV, its columns up to the Damage note."""
    header = ROW_COLUMNS[: ROW_COLUMNS.index("Damage note") + 1]
    path.write_text(
        "".join(",".join(cells) + "\n" for cells in [list(header), *lines]), encoding="utf-8"
    )
    return path


def test_a_number_changed_in_the_original_value_is_read_and_the_wizards_correction_stands(
    tmp_path: Path,
) -> None:
    def line(row: int, original: str, national: str, damage: str = "") -> list[str]:
        return [str(row), original, national, "1", "global", "invalid", "", damage]

    wizard = "corrected in the import wizard (the file has '303-555-0399')"
    path = _report_like(
        tmp_path / "rep.csv",
        [
            # The Original value corrected to another number: it is read.
            line(2, "303-555-0302", "3035550301"),
            # The same number written otherwise (with its country code): the report's stands.
            line(3, "+1 303 555 0303", "3035550303"),
            # The file's number the import wizard corrected: the correction stands.
            line(4, "303-555-0399", "3035550304", wizard),
            # Only a number with what the report's job joined to it: the report's stands.
            line(5, "555-0305", "3035550305"),
        ],
    )
    store, _ = stage_import_offline(path, tmp_path / "jobs")
    rows = {r.row_number: r for r in store.rows()}
    assert {n: r.national for n, r in rows.items()} == {
        2: "3035550302",
        3: "3035550303",
        4: "3035550304",
        5: "3035550305",
    }
    assert rows[2].message == (
        "row 2: its Original value '303-555-0302' is read, not its Normalized number "
        "'3035550301': they are different numbers, and the Original value is taken as "
        "corrected in the report (to import the Normalized number, make the Original value "
        "the same number or empty)"
    )
    assert all(rows[n].message == "" for n in (3, 4, 5))
    store.close()


def stage_import_offline(path: Path, jobs: Path, **settings: Any) -> tuple[JobStore, Any]:
    return stage_import(JobSettings(path, Scope.global_(), **settings), jobs, connection=None)


def test_the_original_value_chosen_as_the_phone_column_is_read_as_chosen(tmp_path: Path) -> None:
    path = _report_like(
        tmp_path / "rep.csv",
        [["2", "303-555-0402", "3035550401", "1", "global", "invalid", "", ""]],
    )
    store, _ = stage_import_offline(path, tmp_path / "jobs", phone_column="Original value")
    assert [(r.national, r.message) for r in store.rows()] == [("3035550402", "")]
    store.close()


PURPOSES = (
    "Phone,Purpose,Scope\n"
    "303-555-0501,Fundraising,global\n"  # row 2: global, purpose 'Fundraising'
    "303-555-0502,Marketing,purpose:Marketing\n"  # row 3: purpose:Marketing
    "303-555-0503,O'Brien list,global\n"  # row 4: global, purpose "O'Brien list"
    "303-555-0504,,global\n"  # row 5: global
)


def test_a_reports_scope_wording_is_read_back_with_its_purpose(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _report(sandbox, tmp_path, capsys, "purp.csv", PURPOSES)
    rows_sheet = openpyxl.load_workbook(report)["Rows"]
    scope = ROW_COLUMNS.index("Scope") + 1
    assert [rows_sheet.cell(n, scope).value for n in range(2, 6)] == [
        "global, purpose 'Fundraising'",
        "purpose:Marketing",
        'global, purpose "O\'Brien list"',
        "global",
    ]
    # The whole report imported again (a dry run), its scope per row and a default purpose.
    argv = ["import", str(report), "--into", "dnc", "--scope", "campaign:Spring Renewals"]
    data = _cli(capsys, *argv, "--purpose", "Other", "--dry-run", "--base-url", sandbox.base_url)
    rows = _rows(data)
    assert {n: (r.outcome, r.scope, r.purpose) for n, r in rows.items()} == {
        2: ("", "global", "Fundraising"),
        3: ("", "purpose:Marketing", "Marketing"),
        4: ("", "global", "O'Brien list"),
        5: ("", "global", "Other"),
    }


def test_a_removal_of_a_report_with_purposes_takes_the_scope_of_each_row(
    sandbox: Any,
    api: Any,
    session: Session,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = _report(sandbox, tmp_path, capsys, "purp.csv", PURPOSES)
    assert len(listed(api)) == 4
    job = JobSettings(report, Scope.global_(), note="undo", scope_from_rows=True)
    store, _ = stage_removal(job, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    assert {r.row_number: r.outcome for r in store.rows()} == {n: "removed" for n in range(2, 6)}
    assert listed(api) == set()
    store.close()


def test_scope_cells_as_a_report_writes_them() -> None:
    resolver = ScopeResolver(
        CampaignDirectory([_Campaign("1001", "Spring Renewals")], checked=True)
    )
    assert resolver.scope_cell("global, purpose 'Fundraising'") == Scope.global_()
    assert resolver.scope_cell("campaign:1001, purpose 'Sales'") == Scope.campaign("1001")
    assert resolver.scope_cell("campaign:Spring Renewals, purpose 'a\\tb'") == Scope.campaign(
        "1001"
    )
    # A removal's every purpose, as its report says it.
    assert resolver.scope_cell(EVERY_PURPOSE) == Scope.purpose("")
    # A campaign the connection lacks is still said so.
    assert resolver.scope_cell("campaign:12, purpose 'Sales'") == (
        "campaign 12 does not exist on this connection"
    )


class _Campaign:
    def __init__(self, cid: str, name: str) -> None:
        self.id = cid
        self.name = name


def test_a_reports_own_columns_are_no_message_log_and_no_reason(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # No Reason column: the report's Damage note was read as the reason.
    report = _report(sandbox, tmp_path, capsys, "plain.csv", "Phone\n303-555-0601\n555-0602\n")
    argv = ["import", str(report), "--into", "dnc", "--scope", "global", "--dry-run"]
    data = _cli(capsys, *argv, "--base-url", sandbox.base_url)
    assert "reason" not in data["mapping"]
    said = [*data["warnings"], *(r.message for r in _rows(data).values())]
    assert not [s for s in said if any(w in s for w in LOG_WORDS)]
    # The filtered report of the first test: its Message and Outcome drew notes on every row.
    fixed = _invalid_rows_corrected(
        _report(sandbox, tmp_path, capsys, "vendor.csv", VENDOR), {}, tmp_path / "f.xlsx"
    )
    argv = ["import", str(fixed), "--into", "dnc", "--scope", "global", "--dry-run"]
    data = _cli(capsys, *argv, "--base-url", sandbox.base_url)
    assert data["mapping"]["reason"] == "Reason (column L)"
    said = [*data["warnings"], *(r.message for r in _rows(data).values())]
    assert not [s for s in said if any(w in s for w in LOG_WORDS)]


def test_the_report_wordings_kept_apart_agree_with_the_report() -> None:
    # sheet_mapping and sheet_scope keep them as text: job_report imports them (via the check).
    from app.core.sheet_mapping import REPORT_HEADER_START
    from app.core.sheet_scope import EVERY_PURPOSE_WRITTEN

    assert ROW_COLUMNS[:7] == REPORT_HEADER_START
    assert EVERY_PURPOSE == EVERY_PURPOSE_WRITTEN
