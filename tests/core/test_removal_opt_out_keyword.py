"""A phone cell with an opt-out keyword beside the number ("STOP 3035551216", "DNC
303-555-1215") says the consumer opted out. An import reads the number (it is the opt-out); a
removal must not take it off the list, which is the opposite of what the cell says: the row is
invalid, naming the cell and the keyword."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.phones import normalize
from app.core.removal_job import stage_removal
from app.core.sheet_check import OPT_OUT_NOTE, CheckOptions, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping

# (cell, the keyword as the message names it, the number read)
KEYWORDS = [
    ("STOP 3035551216", "STOP", "3035551216"),
    ("DNC 303-555-1215", "DNC", "3035551215"),
    ("Do not call: 303-555-1214", "Do not call", "3035551214"),
    ("opt-out 3035551213", "opt-out", "3035551213"),
    ("UNSUBSCRIBE 3035551212", "UNSUBSCRIBE", "3035551212"),
    ("3035551211 stop", "stop", "3035551211"),
]
PLAIN = ["3035551201", "Cell: 3035551202"]  # a number, and one with a label (not an opt-out)


def _why(cell: str, keyword: str) -> str:
    return (
        f"{cell!r} says {keyword}, an opt-out: a removal does not take it off the list; if the "
        "number is to be removed, enter it without the keyword"
    )


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "to-remove.csv"
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone", "Notes"])
        for cell, _, _ in KEYWORDS:
            writer.writerow([cell, "asked"])
        for cell in PLAIN:
            writer.writerow([cell, "asked"])
    return path


@pytest.mark.parametrize(("cell", "keyword", "number"), KEYWORDS)
def test_the_note_phones_puts_on_a_keyword_is_the_one_the_check_looks_for(
    cell: str, keyword: str, number: str
) -> None:
    # The check matches phones.normalize's note by its fixed words: held together here.
    result = normalize(cell, "1")
    assert (result.ok, result.national) == (True, number)
    assert result.note.startswith(OPT_OUT_NOTE) and repr(keyword) in result.note
    assert not normalize("Cell: 3035551202", "1").note.startswith(OPT_OUT_NOTE)


def test_a_removal_row_whose_cell_says_opt_out_is_invalid_and_an_import_row_is_not() -> None:
    rows = [(n, [cell]) for n, (cell, _, _) in enumerate(KEYWORDS, 2)]
    rows += [(n, [cell]) for n, cell in enumerate(PLAIN, len(rows) + 2)]
    removal, summary = check_all(rows, ColumnMapping(phone=0), CheckOptions(removal=True))
    for checked, (cell, keyword, number) in zip(removal, KEYWORDS, strict=False):
        assert checked.outcome is Outcome.INVALID
        assert checked.message == f"row {checked.row}: phone: {_why(cell, keyword)}"
        # The number itself is valid: the report shows it.
        assert (checked.phone_code, checked.national) == ("1", number)
    assert [c.outcome for c in removal[len(KEYWORDS) :]] == [Outcome.VALID] * 2
    assert (summary.invalid, summary.valid) == (len(KEYWORDS), 2)
    imported, summary = check_all(rows, ColumnMapping(phone=0), CheckOptions())
    assert [c.outcome for c in imported] == [Outcome.VALID] * len(rows)
    assert "the opt-out keyword 'STOP' was left out" in imported[0].message


def test_a_removal_dry_run_sends_none_of_them(tmp_path: Path) -> None:
    store, summary = stage_removal(
        JobSettings(_file(tmp_path), Scope.global_()), tmp_path / "jobs", connection=None
    )
    rows = list(store.rows())
    assert [r.outcome for r in rows] == ["invalid"] * len(KEYWORDS) + ["", ""]
    assert [r.national for r in rows[: len(KEYWORDS)]] == [n for _, _, n in KEYWORDS]
    assert rows[0].message == f"row 2: phone: {_why('STOP 3035551216', 'STOP')}"
    assert (summary.invalid, summary.valid) == (len(KEYWORDS), 2)
    store.close()
    # The same file imports every number.
    store, summary = stage_import(
        JobSettings(_file(tmp_path), Scope.global_()), tmp_path / "jobs", connection=None
    )
    assert (summary.invalid, summary.valid) == (0, len(KEYWORDS) + 2)
    store.close()


def test_dnc_desk_remove_dry_run_names_the_cell_and_the_keyword(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path)
    assert main(["remove", str(path), "--scope", "global", "--dry-run", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["invalid"], data["valid"], data["pending"]) == (len(KEYWORDS), 2, 2)
    book = openpyxl.load_workbook(data["report"], read_only=True)
    try:
        rows = list(book["Rows"].iter_rows(values_only=True))[1:]
    finally:
        book.close()
    assert rows[1][1:3] == ("DNC 303-555-1215", "3035551215")
    assert rows[1][5:7] == ("invalid", f"row 3: phone: {_why('DNC 303-555-1215', 'DNC')}")
    assert [r[5] for r in rows[len(KEYWORDS) :]] == ["valid (dry run)"] * 2
    # Text output: counted as invalid.
    assert main(["remove", str(path), "--scope", "global", "--dry-run"]) == 0
    assert f"invalid: {len(KEYWORDS)}" in capsys.readouterr().out


def test_a_header_less_removal_file_of_keywords_removes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "stops.csv"
    path.write_text("".join(f"{cell}\n" for cell, _, _ in KEYWORDS[:3]))
    store, summary = stage_removal(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    assert (summary.valid, summary.invalid) == (0, 3)
    store.close()
