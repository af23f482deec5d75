"""Black-box L4 #7: a stray NUL in a CSV file that is text.

One NUL inside a phone cell at row 2,902 of 3,000 refused the whole file as "binary data",
naming no row (the 64 KiB sample of a small file is the whole file, so the NUL test reached its
last rows); past the sample, a NUL inside a reason cell was sent to the service. A file that is
text by its start is read now: a phone cell holding a NUL or another C0 control character makes
its row invalid, naming the cell and the character, and reason and purpose text lose such
characters, with a note on the row. A file that is binary by its start is still refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow, JobStore
from app.core.sheet_check import CheckOptions, CheckSummary, Outcome, check_all, check_rows
from app.core.sheet_csv import CsvSource, binary_start
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import CellValue, Row, SheetError


def _rows(store: JobStore) -> dict[int, JobRow]:
    return {r.row_number: r for r in store.rows()}


def _numbers(count: int, damaged: int, text: bytes) -> bytes:
    """A CSV of ``count`` numbers whose row ``damaged`` (a record number) has a NUL inside
    its phone cell, as nul_late.csv had."""
    lines = [b"Phone,Name"]
    for i in range(count):
        phone = b"720-555-%04d" % (1000 + i)
        if i + 2 == damaged:
            phone = phone[:-2] + text + phone[-2:]
        lines.append(phone + b",P%d" % i)
    return b"\n".join(lines) + b"\n"


def test_a_late_nul_in_a_phone_cell_makes_only_its_row_invalid(tmp_path: Path) -> None:
    path = tmp_path / "nul_late.csv"
    path.write_bytes(_numbers(3000, 2902, b"\x00"))
    assert path.stat().st_size < 64 << 10  # within the sample: the whole file was refused
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        rows = _rows(store)
    assert (summary.rows, summary.valid, summary.invalid) == (3000, 2999, 1)
    bad = rows[2902]
    assert bad.outcome == "invalid"
    assert bad.message == (
        "row 2902: phone: cell A2902 holds a NUL character ('720-555-39\\x0000'), a sign of a "
        "damaged file: check the number against where it came from and enter it again"
    )
    assert rows[2901].outcome == rows[2903].outcome == ""


def test_a_nul_early_in_a_small_file_names_its_row(tmp_path: Path) -> None:
    # nul_phone_early.csv: a NUL on row 7 of 11 lines.
    path = tmp_path / "nul_phone_early.csv"
    path.write_bytes(_numbers(10, 7, b"\x00"))
    checked = list(open_sheet(path).iter_rows())
    assert checked[6] == (7, ["720-555-10\x0005", "P5"])
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        rows = _rows(store)
    assert (summary.valid, summary.invalid) == (9, 1)
    assert rows[7].message.startswith("row 7: phone: cell A7 holds a NUL character (")


def test_another_control_character_in_a_phone_cell_is_named() -> None:
    mapping = ColumnMapping(phone=0, header_row=1, headers=("Phone",))
    rows: list[Row] = [(1, ["Phone"]), (2, ["303-619\x1f-3400"]), (3, ["303-619-3401"])]
    checked, summary = check_all(rows, mapping, CheckOptions())
    assert (summary.valid, summary.invalid) == (1, 1)
    assert checked[0].message == (
        "row 2: phone: cell A2 holds the control character U+001F ('303-619\\x1f-3400'), a sign "
        "of a damaged file: check the number against where it came from and enter it again"
    )


def test_a_nul_in_a_reason_cell_is_left_out_with_a_note(tmp_path: Path) -> None:
    # nul_reason.csv: past the 64 KiB sample, "asked\0stop" was stored as the reason.
    lines = [b"Phone,Name,Reason"]
    lines += [b"619-555-%04d,P%d,asked stop" % (1000 + i, i) for i in range(3000)]
    lines[2901] = b"619-555-3900,P2900,asked\x00stop"
    path = tmp_path / "nul_reason.csv"
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert path.stat().st_size > 64 << 10
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        rows = _rows(store)
    assert (summary.valid, summary.invalid) == (3000, 0)
    assert all("\x00" not in r.reason for r in rows.values())
    assert rows[2902].reason == "askedstop"
    assert rows[2902].message == (
        "row 2902: reason: cell C2902 holds a NUL character, a sign of a damaged file; control "
        "characters were left out of the reason (check it in the file)"
    )
    assert rows[2903].message == ""


def test_a_purpose_cell_loses_its_control_characters() -> None:
    mapping = ColumnMapping(
        phone=0,
        purpose=1,
        header_row=1,
        headers=("Phone", "Purpose"),
        default_scope=Scope.purpose(""),
    )
    rows: list[Row] = [(1, ["Phone", "Purpose"]), (2, ["3036193400", "Sur\x00veys"])]
    (row,), summary = check_all(rows, mapping, CheckOptions())
    assert row.outcome is Outcome.VALID and summary.valid == 1
    assert row.purpose == "Surveys" and row.scope == Scope.purpose("Surveys")
    assert row.message == (
        "row 2: purpose: cell B2 holds a NUL character, a sign of a damaged file; control "
        "characters were left out of the purpose (check it in the file)"
    )


@pytest.mark.parametrize(
    "data",
    [
        b"\x00\x01\x02binary\x00" * 100,  # the reader's own test
        b"Pho\x00ne,Name\n3036193400,A\n",  # a NUL in the first line
        b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10,  # control bytes all through
        b"Phone\n" + b"303\x00619\n" * 50,  # a NUL on most lines
    ],
)
def test_a_file_binary_by_its_start_is_still_refused(tmp_path: Path, data: bytes) -> None:
    assert binary_start(data[: 64 << 10])
    path = tmp_path / "data.csv"
    path.write_bytes(data)
    with pytest.raises(SheetError, match=r"^data\.csv is not a text or spreadsheet file"):
        CsvSource(path)


# ---- the inline path for plain rows gives the same verdicts as the general one --------------

phone_cells = st.sampled_from(
    ["3036193400", "303-619-34\x0000", "\x00", "303\x01619\x023400", " 3036193401\x1f", 3036193402]
)
reason_cells = st.sampled_from(
    [None, "asked stop", "asked\x00stop", "\x00", "line\x0bbreak", "a\tb", "#N/A", "Err:502"]
)


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(phone_cells, reason_cells), max_size=20))
def test_plain_rows_with_control_characters_get_the_general_verdict(
    rows: list[tuple[CellValue, CellValue]],
) -> None:
    from app.core.sheet_check import _Checker

    mapping = ColumnMapping(phone=0, reason=1, default_reason="requested")
    options = CheckOptions()
    numbered: list[Row] = [(i, list(r)) for i, r in enumerate(rows, 1)]
    general = _Checker(mapping, options)
    assert general.plain_rows_possible()
    expected = [general.check(n, list(c)) for n, c in numbered]
    assert list(check_rows(numbered, mapping, options, CheckSummary())) == expected
