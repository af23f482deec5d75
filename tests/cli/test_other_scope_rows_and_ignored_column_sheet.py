"""Black-box bb2 F12 and F13, through ``main`` against a sandbox over loopback.

- F13: ``remove`` of a campaign's export with ``--scope global`` made every row invalid ("the
  file says Campaign N but this removal is for Global…") with no summary word; a real run
  exited 0 having done nothing. A warning now counts the rows naming another scope, names the
  scopes, and says which option takes them: in the printed result, ``--json`` ``warnings`` and
  the report's Summary.
- F12: ``--ignore-column`` refusals named the workbook's first sheet ("Contacts"), not the
  opt-out sheet the import reads without ``--sheet``, and advised that sheet: they name the
  sheet read now.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _campaign(sandbox: Any) -> str:
    return str(sandbox.store.one("SELECT id FROM campaigns WHERE status = 'Y'")["id"])


def _summary_cells(report: str) -> set[str]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        return {str(c) for row in book["Summary"].values for c in row if c}
    finally:
        book.close()


def _other_scope_sentence(cid: str, rows: str) -> str:
    return (
        f"3 rows are invalid because they name another scope than this removal's, Global "
        f"({rows}): Campaign {cid} (3 rows). A removal takes only the scope it was given: to "
        f"remove them, run the file again with --scope campaign:{cid}, or with --per-row-scope "
        "to take each row's scope from the file."
    )


def test_a_removal_whose_rows_name_another_scope_says_so_and_which_option_takes_them(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cid = _campaign(sandbox)
    sandbox.bulk_seed_dnc([(f"202555010{i}", "1", cid, "", "") for i in range(1, 4)])
    out = tmp_path / "camp.xlsx"
    url = ["--base-url", sandbox.base_url]
    assert main(["export", "dnc", "--out", str(out), "--scope", f"campaign:{cid}", *url]) == 0
    capsys.readouterr()
    argv = ["remove", str(out), "--scope", "global", *url]
    said = _other_scope_sentence(cid, "rows 2, 3 and 4")
    assert main([*argv, "--dry-run"]) == 0
    assert f"  note: {said}" in capsys.readouterr().out.splitlines()
    assert main([*argv, "--note", "asked", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["invalid"], data["removed"]) == (3, 0)
    # Beside the export's own note (its reason column is not the removal's reason).
    assert said in data["warnings"] and len(data["warnings"]) == 2, data["warnings"]
    assert said in _summary_cells(data["report"])
    # Nothing was removed, and the option the warning names removes them.
    assert main([*argv[:3], f"campaign:{cid}", *url, "--note", "asked", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["removed"] == 3


def test_rows_of_several_other_scopes_are_counted_apart_and_sent_to_per_row_scope(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cid = _campaign(sandbox)
    sheet = tmp_path / "mixed.csv"
    rows = [
        f"2025550101,campaign:{cid}",
        "2025550102,purpose:Spring Sale",
        f"2025550103,campaign:{cid}",
        "2025550104,global",
    ]
    sheet.write_text("Phone,Scope\n" + "\n".join(rows) + "\n", encoding="utf-8")
    argv = ["remove", str(sheet), "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["valid"], data["invalid"]) == (1, 3)
    assert data["warnings"] == [
        "3 rows are invalid because they name another scope than this removal's, Global "
        f"(rows 2, 3 and 4): Campaign {cid} (2 rows) and Purpose: Spring Sale (1 row). A "
        "removal takes only the scope it was given: to remove them, run the file again with "
        "--per-row-scope to take each row's scope from the file."
    ]


def _workbook(tmp_path: Path) -> Path:
    """A "Contacts" sheet of leads first, then the "Do Not Call" sheet an import reads."""
    book = openpyxl.Workbook()
    leads = book.active
    assert leads is not None
    leads.title = "Contacts"
    leads.append(["Name", "Phone", "City"])
    for i in range(8):
        leads.append([f"Lead {i}", f"30355501{i:02d}", "Denver"])
    opt_outs = book.create_sheet("Do Not Call")
    opt_outs.append(["Name", "Phone", "Notes"])
    for i in range(7):
        opt_outs.append([f"Opt {i}", f"30355502{i:02d}", "asked"])
    path = tmp_path / "wb.xlsx"
    book.save(path)
    return path


@pytest.mark.parametrize(
    ("column", "status", "said"),
    [
        (
            "Nope",
            2,
            "sheet 'Do Not Call' of wb.xlsx has no column headed 'Nope'; its headers are "
            "'Name' (A), 'Phone' (B), 'Notes' (C) (a column can also be given by position, as "
            "column:A or #1).",
        ),
        (
            "column:Z",
            2,
            "sheet 'Do Not Call' of wb.xlsx has no column Z; its columns are A to C (#1 to #3).",
        ),
        (
            "Phone",
            1,
            "No column of phone numbers was found in sheet 'Do Not Call' of wb.xlsx; name it "
            "with --phone-column (a header name, or a column as column:C or #3), or choose "
            "another sheet with --sheet ('Contacts'). Column B ('Phone'), the one holding "
            "them, is set aside as a column to ignore.",
        ),
    ],
)
def test_an_ignore_column_refusal_names_the_sheet_the_import_reads(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    column: str,
    status: int,
    said: str,
) -> None:
    path = _workbook(tmp_path)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    argv += ["--base-url", sandbox.base_url, "--ignore-column", column]
    assert main(argv) == status
    assert said in capsys.readouterr().err


def test_a_column_set_aside_on_the_sheet_read_keeps_the_job_there(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(_workbook(tmp_path)), "--into", "dnc", "--scope", "global"]
    argv += ["--dry-run", "--json", "--base-url", sandbox.base_url, "--ignore-column", "Notes"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["sheet"], data["valid"]) == ("Do Not Call", 7)
    assert data["mapping"] == {
        "phone": "Phone (column B)",
        "ignored (as asked)": "Notes (column C)",
    }
