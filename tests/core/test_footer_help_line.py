"""Black-box bb9 F6: a report's help line after its table ("Questions? Call compliance at |
201-555-0399") went onto the DNC list with no message. It is a report's footer now, as "Report
generated …" lines are: invalid, not sent, its message naming the text."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings

FOOTER = (
    "row {row}: phone: the row holds only {text!r} (column A) beside the number: a report's help "
    "line giving its own number, not a row of the table, so it is not sent; if the number is one "
    "to send, write it in a row of the table with a name"
)


def _stage(path: Path, jobs: Path) -> dict[int, tuple[str, str, str]]:
    store, summary = stage_import(JobSettings(path, Scope.global_()), jobs, connection=None)
    rows = {r.row_number: (r.state, r.national, r.message) for r in store.rows()}
    store.close()
    assert summary.rows == len(rows)
    return rows


@pytest.mark.parametrize(
    "text", ["Questions? Call compliance at", "Call us", "Helpline", "For assistance call"]
)
def test_a_help_line_after_the_table_is_a_footer_in_csv(text: str, tmp_path: Path) -> None:
    path = tmp_path / "footer.csv"
    path.write_text(
        "Name,Phone,Reason\nA,201-555-0392,stop\nB,201-555-0393,stop\n,,\n"
        f"{text},201-555-0399,\nReport generated 11/25/2026,,\n"
    )
    rows = _stage(path, tmp_path / "jobs")
    assert rows[5][1] == ""
    assert rows[5][2] == FOOTER.format(row=5, text=text)
    assert {rows[2][1], rows[3][1]} == {"2015550392", "2015550393"}


def test_a_help_line_with_a_number_cell_is_a_footer_in_xlsx(tmp_path: Path) -> None:
    path = tmp_path / "footer.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in (
        ["Name", "Phone", "Reason"],
        ["Callum Ross", 2015550392, "stop"],  # a name starting "Call…" is a row of the table
        ["Questionable Goods Ltd", 2015550393, "stop"],
        [None, None, None],
        ["Questions? Call compliance at", 2015550399, None],
    ):
        sheet.append(row)
    book.save(path)
    rows = _stage(path, tmp_path / "jobs")
    assert rows[2][1] == "2015550392" and rows[3][1] == "2015550393"
    assert rows[5][1] == ""
    assert rows[5][2] == FOOTER.format(row=5, text="Questions? Call compliance at")
