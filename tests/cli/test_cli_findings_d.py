"""Black-box findings on exit statuses of ``import`` and ``remove``.

``--phone-column`` naming a column the sheet does not have (or two) is a bad argument: exit 2,
as documented, with the sentence naming the columns that exist (it was 1, the status of a
command that could not run).
"""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from tests.cli.test_phone_column import dry_run, vendor_xlsx

# -- --phone-column naming no column: exit 2 -------------------------------------------------

HEADERS_SENTENCE = (
    "'Account' (A), 'Office phone' (B), 'Tel' (C), 'CC' (D), 'Notes' (E) (a column can also "
    "be given by position, as column:A or #1)."
)


@pytest.mark.parametrize("command", ["import", "remove"])
@pytest.mark.parametrize("wanted", ["Z", "Ph", "column:Z", "#9"])
def test_a_phone_column_the_sheet_lacks_is_a_bad_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, wanted: str
) -> None:
    src = vendor_xlsx(tmp_path / "vendor.xlsx")
    argv = [command, str(src), "--scope", "global", "--dry-run", "--json"]
    if command == "import":
        argv += ["--into", "dnc"]
    code = main([*argv, "--phone-column", wanted])
    out = capsys.readouterr()
    assert code == 2, out.err
    assert json.loads(out.out) == {"error": out.err.strip(), "exit_status": 2}
    assert len(out.err.strip().splitlines()) == 1
    if wanted.startswith(("column:", "#")):
        assert "its columns are A to E (#1 to #5)." in out.err
    else:
        assert out.err.strip() == (
            f"vendor.xlsx has no column headed {wanted!r}; its headers are {HEADERS_SENTENCE}"
        )


def test_a_csv_and_a_headerless_file_refuse_a_missing_column_with_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    headed = tmp_path / "headed.csv"
    headed.write_text("Name,Phone\nAnn,3035550101\nBob,3035550102\n")
    code, data, err = dry_run(capsys, str(headed), "--phone-column", "Mobile")
    assert (code, data["exit_status"]) == (2, 2), err
    assert "headed.csv has no column headed 'Mobile'; its headers are 'Name' (A)" in err
    bare = tmp_path / "bare.csv"
    bare.write_text("3035550101\n3035550102\n")
    code, data, err = dry_run(capsys, str(bare), "--phone-column", "Phone")
    assert (code, data["exit_status"]) == (2, 2), err
    assert err == (
        "bare.csv has no header row, so 'Phone' names no column; give it by letter or number "
        "instead: it has one column, A (#1)."
    )


def test_a_workbook_whose_other_sheets_lack_the_column_too_refuses_with_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The other sheets are tried before the first sheet's sentence is given.
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "List"
    first.append(["Name", "Phone"])
    first.append(["Ann", "3035550101"])
    wb.create_sheet("Notes").append(["read me"])
    path = tmp_path / "two-sheets.xlsx"
    wb.save(path)
    code, data, err = dry_run(capsys, str(path), "--phone-column", "Mobile")
    assert (code, data["exit_status"]) == (2, 2), err
    assert err.startswith("sheet 'List' of two-sheets.xlsx has no column headed 'Mobile'")


def test_ambiguous_and_the_refusals_that_are_not_about_the_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = vendor_xlsx(tmp_path / "two.xlsx", ["Account", "Tel", "tel", "CC", "Notes"])
    code, _, err = dry_run(capsys, str(src), "--phone-column", "Tel")
    assert code == 2 and "'Tel' heads 2 columns of two.xlsx (B and C)" in err
    # A file with no phone column to find is not a bad argument: still 1.
    names = tmp_path / "names.csv"
    names.write_text("Name,City\nAnn,Austin\n")
    code, data, err = dry_run(capsys, str(names))
    assert (code, data["exit_status"]) == (1, 1), err
    # Nor is a column found only on a hidden sheet (the refusal names the sheet: --sheet).
    wb = openpyxl.Workbook()
    shown = wb.active
    assert shown is not None
    shown.title = "Instructions"
    shown.append(["Read me first"])
    hidden = wb.create_sheet("Old list")
    hidden.append(["Tel"])
    hidden.append(["3035550101"])
    hidden.sheet_state = "hidden"
    path = tmp_path / "hidden.xlsx"
    wb.save(path)
    code, data, err = dry_run(capsys, str(path), "--phone-column", "Tel")
    assert (code, data["exit_status"]) == (1, 1), err
    assert "the hidden sheet 'Old list' has one" in err
