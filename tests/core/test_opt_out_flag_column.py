"""A yes/no opt-out column ("Do Not Call: No") that the job does not read is named in a
warning when some rows say no or nothing: every row is sent whatever it says (black-box
finding: a CRM export's 'Do Not Call' column was ignored without a word)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings


def _warnings(path: Path, tmp_path: Path) -> list[str]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return warnings


@pytest.mark.parametrize(
    ("header", "flags", "unsaid"),
    [
        ("Do Not Call", ["Yes", "No", ""], "2 of the 3 rows do not say yes (rows 3 and 4)"),
        ("DNC", ["Y", "Y", "N"], "1 of the 3 rows does not say yes (row 4)"),
        ("Opted Out", ["TRUE", "", "TRUE"], "1 of the 3 rows does not say yes (row 3)"),
        ("SMS Opt-Out", ["1", "0", "1"], "1 of the 3 rows does not say yes (row 3)"),
    ],
)
def test_a_flag_column_some_rows_say_no_to_is_named(
    header: str, flags: list[str], unsaid: str, tmp_path: Path
) -> None:
    path = tmp_path / "crm.csv"
    lines = [f"Name,Phone,{header}"]
    lines += [f"N{i},303555010{i},{flag}" for i, flag in enumerate(flags)]
    path.write_text("\n".join(lines) + "\n")
    # The rows of the whole file are named, in words fit for either list (re-test R1 #3: the
    # note read the first rows, named none, and said "asked not to be called" of SMS lists).
    expected = (
        f"Column C ('{header}') marks each row yes or no: {unsaid}, yet every row is imported "
        "as an opt-out, whatever it says. Keep only the rows where it says yes: delete the "
        "others from the file (rows hidden by a filter are imported too) and run it again."
    )
    assert [w for w in _warnings(path, tmp_path) if "yes or no" in w] == [expected]


def test_a_flag_column_of_booleans_in_a_workbook_is_named(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Do Not Call"])
    ws.append(["3035550101", True])
    ws.append(["3035550102", False])
    wb.save(tmp_path / "crm.xlsx")
    warnings = _warnings(tmp_path / "crm.xlsx", tmp_path)
    assert any(
        w.startswith(
            "Column B ('Do Not Call') marks each row yes or no: 1 of the 2 rows does not say "
            "yes (row 3)"
        )
        for w in warnings
    ), warnings


@pytest.mark.parametrize(
    ("header", "flags"),
    [
        ("Do Not Call", ["Yes", "yes", "YES"]),  # every row asked: nothing to say
        ("Do Not Call Reason", ["asked", "no", "email"]),  # not yes/no values
        ("Status", ["No", "No", "Yes"]),  # not headed as an opt-out
    ],
)
def test_other_columns_are_not_named(header: str, flags: list[str], tmp_path: Path) -> None:
    path = tmp_path / "crm.csv"
    lines = [f"Name,Phone,{header}"]
    lines += [f"N{i},303555010{i},{flag}" for i, flag in enumerate(flags)]
    path.write_text("\n".join(lines) + "\n")
    assert not [w for w in _warnings(path, tmp_path) if "marks rows yes or no" in w]


def test_a_removal_is_told_the_rows_marked_yes_come_off_too(tmp_path: Path) -> None:
    from app.core.removal_job import stage_removal

    path = tmp_path / "d.csv"
    path.write_text("Name,Phone,DNC\nA,303-555-0801,yes\nB,303-555-0802,no\nC,303-555-0803,\n")
    settings = JobSettings(path, Scope.global_(), note="consent given again")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    assert (
        "Column C ('DNC') marks rows yes or no, and some say no or nothing: every row is "
        "removed whatever it says, the rows marked yes too. If only the rows marked no are to "
        "come off the list, delete the other rows from the file and run it again."
    ) in store.meta()["warnings"]
    store.close()
