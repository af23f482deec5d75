"""Black-box finding in header detection: a first data row whose phone cell has a word in it
("303-555-2401 (cell)", "Mobile: 303-555-2401") was taken for the header, so that row and the
real header above it vanished with no outcome. A cell holding a phone number is data, never a
column name; and no header is chosen below a row holding such a number in the phone column."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.removal_job import stage_removal
from app.core.sheet_check import CheckedRow, Outcome, Target, check_all
from app.core.sheet_header import detect_header, is_label, read_preview
from app.core.sheet_mapping import ColumnMapping, propose_from_preview
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import CellValue, Row
from tests.core import sheet_factory as f

# First data rows as the tester found them in vendor files.
MESSY = [
    "303-555-2401 (cell)",
    "Mobile: 303-555-2401",
    "Tel 303 555 2401",
    "Cell 303-555-2831",
    "303-555-2310 cell",
]


def write(fmt: str, path: Path, rows: Sequence[Sequence[object]]) -> Path:
    if fmt == "xlsx":
        return f.write_xlsx(path.with_suffix(".xlsx"), rows)
    return f.write_csv(path.with_suffix(".csv"), rows)


def analyze(path: Path) -> tuple[ColumnMapping, list[CheckedRow]]:
    """As the importer does: the shared preview, the proposed mapping, then every row."""
    with open_sheet(path) as source:
        mapping = propose_from_preview(read_preview(source))
        checked, _ = check_all(source.iter_rows(), mapping)
    return mapping, checked


def assert_every_row_has_an_outcome(checked: list[CheckedRow], numbers: list[int]) -> None:
    assert [c.row for c in checked] == numbers
    for c in checked:
        # A labelled number is read (the same number twice is a duplicate of its first row).
        assert c.outcome in (Outcome.VALID, Outcome.INVALID, Outcome.DUPLICATE), c
        if c.outcome is not Outcome.VALID:
            assert c.message, c


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
@pytest.mark.parametrize("first", MESSY)
def test_a_first_data_row_with_a_word_is_data(fmt: str, first: str, tmp_path: Path) -> None:
    rows = [("Phone", "Name"), (first, "Ann"), ("303-555-2402", "Bob"), ("303-555-2403", "Cy")]
    mapping, checked = analyze(write(fmt, tmp_path / "h7", rows))
    assert mapping.header_row == 1 and mapping.phone == 0
    assert_every_row_has_an_outcome(checked, [2, 3, 4])
    assert [c.national for c in checked[1:]] == ["3035552402", "3035552403"]


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
def test_six_messy_rows_under_the_header_are_all_kept(fmt: str, tmp_path: Path) -> None:
    messy = [*MESSY, "303-555-2311 mobile"]
    rows = [("Phone", "Name")] + [(m, f"P{i}") for i, m in enumerate(messy)]
    rows += [("303-555-2402", "Bob"), ("303-555-2403", "Cy")]
    mapping, checked = analyze(write(fmt, tmp_path / "six", rows))
    assert mapping.header_row == 1 and mapping.phone == 0
    assert_every_row_has_an_outcome(checked, list(range(2, 10)))


@pytest.mark.parametrize("kind", ["import", "removal"])
def test_dry_run_stages_every_row(kind: str, tmp_path: Path) -> None:
    rows = [("Phone", "Name"), (MESSY[0], "Ann"), ("303-555-2402", "Bob"), ("303-555-2403", "Cy")]
    path = f.write_xlsx(tmp_path / "h7.xlsx", rows)
    settings = JobSettings(path, Scope.global_(), target=Target.DNC)
    stage = stage_import if kind == "import" else stage_removal
    store, _ = stage(settings, tmp_path / "jobs", connection=None)
    try:
        s = job_summary(store)
        assert (s["rows"], s["valid"], s["invalid"]) == (3, 3, 0)
        staged = list(store.rows())
        assert [r.row_number for r in staged] == [2, 3, 4]
        # The labelled number is read, and its row says what was left out of the cell.
        assert staged[0].outcome == "" and staged[0].original == MESSY[0]  # to be sent
        assert "the label 'cell' was left out" in staged[0].message
    finally:
        store.close()


def numbered(*rows: list[CellValue]) -> list[Row]:
    return [(i, list(r)) for i, r in enumerate(rows, 1)]


ABOVE: list[list[CellValue]] = [
    ["303-555-2401 cell", "Ann"],
    ["Mobile: 303-555-2404", "Dee"],
    ["Phone", "Name"],
]


def test_tagged_numbers_above_a_header_keep_the_file_headerless(tmp_path: Path) -> None:
    # Skipping rows 1-2 under a header on row 3 would lose two opt-outs with no outcome.
    rows = ABOVE + [[f"303-555-24{i:02d}", f"P{i}"] for i in range(10, 15)]
    assert detect_header(numbered(*rows)) is None
    mapping, checked = analyze(f.write_xlsx(tmp_path / "above.xlsx", rows))
    assert mapping.header_row is None and mapping.phone == 0
    assert_every_row_has_an_outcome(checked, list(range(1, 9)))
    # The two labelled numbers are read; the header row left in the data is invalid.
    assert [c.outcome for c in checked[:3]] == [Outcome.VALID, Outcome.VALID, Outcome.INVALID]


def test_a_short_headerless_file_is_read_from_its_first_row(tmp_path: Path) -> None:
    # Headerless: the labelled numbers count as numbers, so column A (four numbers of five
    # rows) is the phone column, and rows 1-2 are staged, never skipped under row 3.
    rows = [*ABOVE, ["303-555-2402", "Bob"], ["303-555-2403", "Cy"]]
    path = f.write_xlsx(tmp_path / "few.xlsx", rows)
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    try:
        staged = list(store.rows())
        assert [r.row_number for r in staged] == [1, 2, 3, 4, 5]
        assert [r.outcome == "invalid" for r in staged] == [False, False, True, False, False]
    finally:
        store.close()


def test_a_note_giving_a_number_still_sits_above_the_header() -> None:
    rows = numbered(
        ["From: Vendor X (questions: 800-555-0100 ext 4)", None],
        ["Phone", "Name"],
        ["303-555-2402", "Bob"],
    )
    assert detect_header(rows) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Phone", True),
        ("Mobile #", True),
        ("Date received 2026-01-05", True),
        ("Opt-outs 2026-01-01 - 2026-03-31", True),
        *[(m, False) for m in MESSY],
        ("(303) 555-2401 home", False),
    ],
)
def test_is_label(text: str, expected: bool) -> None:
    assert is_label(text) is expected
