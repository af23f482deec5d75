"""Black-box B12 #1: a removal of an import's own report removed the numbers its rows said were
``already_present`` (on the list before that job, put there by another request) along with those
it inserted. The report is built as the tester built it: pre.csv imported, then vendor.csv, by
the command line against a sandbox; the removal is staged and run through core."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.job_report import ROW_COLUMNS
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core import removal_session

wire = removal_session.wire
session = removal_session.session

PRE = "Phone,Notes\n303-555-0201,pre-existing A\n303-555-0202,pre-existing B\n303-555-0203,C\n"
VENDOR = (
    "Phone,Notes,Campaign\n"
    "303-555-0201,asked again,\n"  # row 2: already_present
    "303-555-0202,,\n"  # row 3: already_present
    "303-555-0210,new one,\n"  # row 4: inserted
    "303-555-0211,new two,No Such Campaign\n"  # row 5: invalid (its campaign)
    "303-555-0213,new dup,\n"  # row 6: inserted
    "303-555-0213,new dup again,\n"  # row 7: duplicate_in_file
    "555-0214,local no area,\n"  # row 8: invalid, no number in the report
    "(303) 555-0216,purposeful,purpose:Surveys\n"  # row 9: inserted, its own scope
)
ALREADY = (
    "row {row}: the report says this number was already on the list before its job "
    "(already_present): removing it would take off an entry another request put there; "
    "remove it in a file of its own if that is meant"
)
WARNING = (
    "vend_rep.xlsx is read as a DNC Desk import report (its header is a report's Rows "
    "sheet's): only its rows whose Outcome is 'inserted' (3 rows) are removed, the numbers "
    "its job put on the list. 5 rows whose Outcome is not 'inserted' are left invalid, each "
    "saying why: 2 already_present (rows 2 and 3); 2 invalid (rows 5 and 8); 1 "
    "duplicate_in_file (row 7). Their numbers were not put on the list by that job (an "
    "already_present one was there before it, at another request): to remove any of them "
    "all the same, put it in a file of its own."
)


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def vendor_report(sandbox: Any, folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The report of importing vendor.csv after pre.csv (both by the command line)."""
    for name, text in (("pre.csv", PRE), ("vendor.csv", VENDOR)):
        (folder / name).write_text(text, encoding="utf-8")
        report = folder / f"{name[:-4]}_rep.xlsx"
        argv = ["import", str(folder / name), "--into", "dnc", "--scope", "global"]
        code = main([*argv, "--report", str(report), "--base-url", sandbox.base_url])
        assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    return folder / "vendor_rep.xlsx"


def listed(api: Any) -> set[str]:
    return {e.phone_number for e in api.iter_dnc()}


def _stage(path: Path, jobs: Path, session: Session | None, **settings: Any) -> JobStore:
    job = JobSettings(path, Scope.global_(), note="undo vendor import", **settings)
    store, _ = stage_removal(job, jobs, connection=session.connection if session else None)
    return store


def test_removing_an_import_report_removes_only_the_rows_its_job_inserted(
    sandbox: Any,
    api: Any,
    session: Session,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = vendor_report(sandbox, tmp_path, capsys)
    path = report.rename(tmp_path / "vend_rep.xlsx")
    assert listed(api) == {f"303555{n}" for n in ("0201", "0202", "0203", "0210", "0213", "0216")}
    store = _stage(path, tmp_path / "jobs", session, scope_from_rows=True)
    assert WARNING in store.meta()["warnings"]
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    rows = {r.row_number: r for r in store.rows()}
    # Every row of the report ends in one outcome.
    assert sorted(rows) == list(range(2, 10))
    assert {n: r.outcome for n, r in rows.items()} == {
        2: "invalid",
        3: "invalid",
        4: "removed",
        5: "invalid",
        6: "removed",
        7: "invalid",
        8: "invalid",
        9: "removed",
    }
    assert rows[2].message == ALREADY.format(row=2)
    assert rows[3].message == ALREADY.format(row=3)
    assert rows[2].original == "3035550201"
    assert rows[5].message.startswith(
        "row 5: the report says its job found this row invalid and did not insert it: "
    )
    assert rows[7].message.startswith(
        "row 7: the report says this row repeated an earlier row of its file "
        "(duplicate_in_file), so its job did not insert its number from this row"
    )
    assert rows[8].message == (
        "row 8: the report says its job found this row invalid and did not insert it: it holds "
        "no number to remove"
    )
    # The entries pre.csv put there stay; those the vendor's import inserted are gone.
    assert listed(api) == {"3035550201", "3035550202", "3035550203"}
    store.close()


def test_a_dry_run_says_the_same(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = vendor_report(sandbox, tmp_path, capsys).rename(tmp_path / "vend_rep.xlsx")
    store = _stage(path, tmp_path / "jobs", None, scope_from_rows=True)
    rows = {r.row_number: r for r in store.rows()}
    assert [n for n, r in rows.items() if r.outcome != "invalid"] == [4, 6, 9]
    assert rows[2].message == ALREADY.format(row=2)
    assert WARNING in store.meta()["warnings"]
    store.close()


def _report_like(path: Path, lines: list[list[str]], header: tuple[str, ...]) -> Path:
    path.write_text(
        "".join(",".join(cells) + "\n" for cells in [list(header), *lines]), encoding="utf-8"
    )
    return path


def test_each_outcome_is_said_and_a_blank_row_is_left_to_the_check(tmp_path: Path) -> None:
    def line(row: int, number: str, outcome: str) -> list[str]:
        return [str(row), number, number, "1" if number else "", "global", outcome, ""]

    lines = [
        line(2, "3035550301", "valid (dry run)"),
        line(3, "3035550302", "failed"),
        line(4, "3035550303", "not_attempted"),
        line(5, "3035550304", "pending"),
        line(6, "3035550305", ""),
        line(7, "", "blank"),
        line(8, "3035550306", "inserted"),
        line(9, "3035550307", "maybe"),
        line(10, "3035550308", "removed"),
    ]
    path = _report_like(tmp_path / "rep.csv", lines, ROW_COLUMNS[:7])
    store = _stage(path, tmp_path / "jobs", None, phone_column="Normalized number")
    rows = {r.row_number: r for r in store.rows()}
    said = {n: r.message.split(": removing")[0] for n, r in rows.items()}
    assert said[2] == (
        "row 2: the report says its job was a dry run (valid (dry run)), which inserted nothing"
    )
    assert said[3] == "row 3: the report says its job failed to insert this number (failed)"
    assert said[4] == "row 4: the report says its job did not attempt this row (not_attempted)"
    assert said[5].startswith("row 5: the report says its job had not sent this row")
    assert said[6] == "row 6: the report says nothing of this row (its Outcome cell is empty)"
    assert said[9] == (
        "row 9: the report says its job did not insert this row (its Outcome is 'maybe')"
    )
    assert said[10].startswith("row 10: the report says its job removed this number (removed:")
    assert {n: r.outcome for n, r in rows.items()} == {
        **{n: "invalid" for n in (2, 3, 4, 5, 6, 9, 10)},
        7: "invalid",
        8: "",  # valid: to send
    }
    # A report's blank row holds no number: the check's own verdict on it stands.
    assert "report" not in rows[7].message
    assert rows[8].national == "3035550306"
    store.close()


@pytest.mark.parametrize(
    "header",
    [
        ("Phone", "Outcome"),
        # The report's columns but one: not a report (its Outcome is some other file's).
        ("Source row", "Original value", "Number", "Country code", "Scope", "Outcome", "Message"),
    ],
)
def test_another_file_with_an_outcome_column_is_read_as_before(
    tmp_path: Path, header: tuple[str, ...]
) -> None:
    if len(header) == 2:
        lines = [["303-555-0401", "already_present"], ["303-555-0402", "called"]]
    else:
        lines = [
            ["2", "x", "3035550401", "1", "global", "already_present", ""],
            ["3", "x", "3035550402", "1", "global", "called", ""],
        ]
    path = _report_like(tmp_path / "other.csv", lines, header)
    column = "Phone" if len(header) == 2 else "Number"
    store = _stage(path, tmp_path / "jobs", None, phone_column=column)
    rows = store.rows()
    assert [(r.national, r.outcome) for r in rows] == [("3035550401", ""), ("3035550402", "")]
    assert not any("report" in w for w in store.meta().get("warnings", []))
    store.close()


def test_an_import_of_a_report_is_read_as_before(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.core.import_job import stage_import

    path = vendor_report(sandbox, tmp_path, capsys).rename(tmp_path / "vend_rep.xlsx")
    job = JobSettings(path, Scope.global_(), scope_from_rows=True)
    store, _ = stage_import(job, tmp_path / "jobs", connection=None)
    rows = {r.row_number: r for r in store.rows()}
    assert rows[2].outcome == "" and rows[2].national == "3035550201"
    assert not any("import report" in w for w in store.meta().get("warnings", []))
    store.close()
