"""Rows hidden in an OpenDocument spreadsheet (.ods), read from its content.xml by the reader
child process (:class:`app.core.sheet_worker.OdsScan`), and what staging does with them: the
same as for an xlsx (a removal leaves them alone, an import takes them and says so).

The files are written by hand (LibreOffice is not needed): see
:func:`tests.core.test_sheet_hidden_rows.write_ods_xml`."""

from __future__ import annotations

import io
import marshal
import pickle
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any

import pytest

from app.core import sheet_worker
from app.core.sheet_reader import open_sheet
from tests.core.test_sheet_hidden_rows import (
    ods_row,
    outcomes,
    stage_dry,
    warnings,
    write_ods_xml,
)

FILTER = 'table:visibility="filter"'
COLLAPSE = 'table:visibility="collapse"'


def repeated(n: int, attributes: str = "") -> str:
    return f'table:number-rows-repeated="{n}" {attributes}'.strip()


def read(path: Path, sheet: str | None = None) -> tuple[list[int], set[int], bool]:
    """The row numbers read, the hidden rows and whether they are known."""
    with open_sheet(path, sheet) as source:
        numbers = [n for n, _ in source.iter_rows()]
        return numbers, source.notes.hidden_rows, source.notes.hidden_known


def worker_messages(path: Path, sheet: str = "") -> list[tuple[Any, ...]]:
    """What the worker sends for ``path``, run in this process."""
    out = io.BytesIO()
    sheet_worker.run(str(path), sheet, 0, out)
    data, messages = out.getvalue(), []
    while data:
        size = int.from_bytes(data[:4], "big")
        body = data[4 : 4 + size]
        messages.append(marshal.loads(body[1:]) if body[:1] == b"m" else pickle.loads(body[1:]))
        data = data[4 + size :]
    return messages


def phones(first: int, count: int, attributes: str = "") -> str:
    return "".join(ods_row([f"20255501{n:02d}"], attributes) for n in range(first, first + count))


# -- the reader -------------------------------------------------------------------------------


def test_rows_hidden_by_hand_and_by_a_filter_are_reported(tmp_path: Path) -> None:
    body = (
        ods_row(["Phone"])
        + phones(2, 1)
        + phones(3, 1, COLLAPSE)  # hidden by hand
        + phones(4, 1)
        + phones(5, 2, FILTER)  # filtered out
        + phones(7, 1, "table:visibility='filter'")  # either quote
        + phones(8, 1, 'table:visibility="visible"')
    )
    path = write_ods_xml(tmp_path / "a.ods", {"Numbers": body})
    assert read(path) == ([1, 2, 3, 4, 5, 6, 7, 8], {3, 5, 6, 7}, True)


def test_repeated_rows_are_counted_as_calamine_counts_them(tmp_path: Path) -> None:
    body = (
        ods_row([], repeated(2))  # two empty rows above the header
        + ods_row(["Phone"])
        + ods_row(["2025550104"], repeated(3, FILTER))  # rows 4-6, the same number, filtered
        + ods_row([], repeated(2, COLLAPSE))  # rows 7-8, empty and hidden
        + "<table:table-row table:number-rows-repeated='2'/>"  # rows 9-10, nothing in them
        + phones(11, 1)
        + phones(12, 1, COLLAPSE)
    )
    path = write_ods_xml(tmp_path / "r.ods", {"Numbers": body})
    numbers, hidden, known = read(path)
    assert numbers == list(range(1, 13))
    assert known and hidden == {4, 5, 6, 7, 8, 12}
    with open_sheet(path) as source:
        cells = dict(source.iter_rows())
    assert cells[3] == ["Phone"] and cells[6] == ["2025550104"] and cells[11] == ["2025550111"]


def test_rows_in_row_groups_and_header_rows_are_counted(tmp_path: Path) -> None:
    body = (
        "<table:table-header-rows>"
        + ods_row(["Phone"])
        + "</table:table-header-rows><table:table-rows>"
        + phones(2, 1)
        + "</table:table-rows><table:table-row-group>"
        + phones(3, 1)
        + phones(4, 1, COLLAPSE)
        + "<table:table-row-group>"  # nested
        + phones(5, 1, FILTER)
        + phones(6, 1)
        + "</table:table-row-group></table:table-row-group>"
        # A collapsed group: its rows are hidden even when they do not say so.
        + '<table:table-row-group table:display="false">'
        + phones(7, 2)
        + "</table:table-row-group>"
        + phones(9, 1)
    )
    path = write_ods_xml(tmp_path / "g.ods", {"Numbers": body})
    assert read(path) == (list(range(1, 10)), {4, 5, 7, 8}, True)


def test_the_hidden_rows_are_those_of_the_sheet_read(tmp_path: Path) -> None:
    name = 'Q&A <"2">'  # escaped in the XML, as calamine names it
    first = ods_row(["Phone"]) + phones(2, 3, COLLAPSE) + phones(5, 1)
    # A table in a cell of the third sheet holds rows of its own: they are not its rows.
    inner = (
        "<table:table-row><table:table-cell><table:table table:name='inner'>"
        + ods_row(["x"], repeated(5, COLLAPSE))
        + "</table:table></table:table-cell></table:table-row>"
    )
    second = ods_row(["Phone"]) + phones(2, 1) + phones(3, 1, FILTER) + phones(4, 2)
    third = ods_row(["Phone"]) + phones(2, 1, FILTER)
    path = write_ods_xml(
        tmp_path / "two.ods", {"First": first, name: second, "Third": third + inner + phones(4, 1)}
    )
    assert read(path) == ([1, 2, 3, 4, 5], {2, 3, 4}, True)
    assert read(path, name) == ([1, 2, 3, 4, 5], {3}, True)
    assert read(path, "third") == ([1, 2, 3, 4], {2}, True)


def test_a_huge_hidden_block_after_the_data_is_not_listed(tmp_path: Path) -> None:
    # As LibreOffice writes a filter over the unused rows down to row 1,048,576; and a crafted
    # file's billions of rows.
    body = (
        ods_row(["Phone"])
        + phones(2, 2)
        + phones(4, 2, FILTER)
        + ods_row([], repeated(1_048_571, FILTER))  # rows 6-1,048,576
        + ods_row([], repeated(999_999_999, COLLAPSE))
        + ods_row([], repeated(2**40, COLLAPSE))
    )
    path = write_ods_xml(tmp_path / "huge.ods", {"Numbers": body})
    assert read(path) == ([1, 2, 3, 4, 5], {4, 5}, True)
    tracemalloc.start()
    try:
        messages = worker_messages(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5 << 20
    scans = [m for m in messages if m[0] == "scan"]
    assert scans == [("scan", [], []), ("scan", [4, 5], [])]


def test_the_scan_keeps_ranges_not_row_numbers(tmp_path: Path) -> None:
    body = ods_row(["Phone"]) + ods_row([], repeated(5_000_000, FILTER)) + phones(2, 1, FILTER)
    path = write_ods_xml(tmp_path / "ranges.ods", {"Numbers": body})
    scan = sheet_worker.open_scan(str(path), "Numbers")
    assert isinstance(scan, sheet_worker.OdsScan)
    scan.read_to_end()
    assert not scan.failed and scan.ranges == [[2, 5_000_002]]
    # Handed out only as far as asked, each row once.
    assert scan.advance(0) == ([], [], [])
    assert scan.advance(4) == ([2, 3, 4], [], [])
    assert scan.advance(4) == ([], [], [])
    assert scan.advance(6) == ([5, 6], [], [])


def test_hidden_rows_far_down_are_known_before_their_rows_arrive(tmp_path: Path) -> None:
    # Several batches of rows (sheet_worker.BATCH_ROWS), hidden ones across their boundaries.
    hidden = {5, *range(1_990, 2_011), 3_999, 4_000, 4_001, 5_500}
    body = ods_row(["Phone", "Reason"]) + "".join(
        ods_row([f"2025{n:06d}", "asked"], FILTER if n in hidden else "") for n in range(2, 6_001)
    )
    path = write_ods_xml(tmp_path / "big.ods", {"Numbers": body})
    with open_sheet(path) as source:
        source.preview(10)
        for number, _ in source.iter_rows():
            assert (number in source.notes.hidden_rows) == (number in hidden), number
        assert source.notes.hidden_known
    assert source.notes.hidden_rows == hidden


def test_a_sheet_not_found_in_content_xml_leaves_hidden_rows_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = ods_row(["Phone"]) + phones(2, 1, COLLAPSE)
    path = write_ods_xml(tmp_path / "a.ods", {"Numbers": body})
    monkeypatch.setattr(sheet_worker.OdsScan, "_ours", lambda self, attributes: False)
    messages = worker_messages(path)
    first_rows = [m[0] for m in messages].index("rows")
    assert messages[1:first_rows] == [("scan", [], []), ("scan", None, [])]


def test_a_zip_that_is_no_spreadsheet_has_no_scan(tmp_path: Path) -> None:
    path = tmp_path / "x.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("readme.txt", "hello")
    assert sheet_worker.open_scan(str(path), "Numbers") is None


# -- staging ------------------------------------------------------------------------------------


def review(path: Path) -> Path:
    """Six numbers, four of them filtered out (one of those by a repeated row)."""
    body = (
        ods_row(["Phone", "Decision"])
        + ods_row(["2025556000", "REMOVE"])
        + ods_row(["2025556001", "KEEP"], FILTER)
        + ods_row(["2025556002", "REMOVE"])
        + ods_row(["2025556003", "KEEP"], COLLAPSE)
        + ods_row(["2025556004", "KEEP"], repeated(2, FILTER))
        + ods_row([], repeated(1_048_569, FILTER))
    )
    return write_ods_xml(path, {"Review": body})


def test_a_removal_of_an_ods_file_leaves_hidden_rows_alone_and_says_why(tmp_path: Path) -> None:
    store = stage_dry(review(tmp_path / "review.ods"), tmp_path, kind="removal")
    rows = outcomes(store)
    assert sorted(rows) == [2, 3, 4, 5, 6, 7]
    assert rows[2] == rows[4] == ("pending", "")
    for n in (3, 5):
        assert rows[n] == (
            "not_attempted",
            f"row {n}: hidden in the file (hidden or filtered out); not removed unless hidden "
            "rows are included (--include-hidden)",
        )
    assert rows[6][0] == "not_attempted"
    # The repeated row's second is the same number: a duplicate (of a hidden row only).
    assert rows[7] == ("duplicate_in_file", "row 7: duplicate of row 6")
    assert warnings(store) == [
        "Rows 3 and 5–7 (4 rows) are hidden in sheet 'Review' of review.ods (hidden or filtered "
        "out); they are not removed. To remove hidden rows too, run the removal again "
        "including hidden rows (--include-hidden)."
    ]


def test_a_removal_of_an_ods_file_with_include_hidden_takes_them(tmp_path: Path) -> None:
    path = review(tmp_path / "review.ods")
    store = stage_dry(path, tmp_path, kind="removal", include_hidden=True)
    rows = outcomes(store)
    assert rows[3] == (
        "pending",
        "row 3: hidden in the file (hidden or filtered out); included in the removal",
    )
    assert warnings(store)[0].endswith("(hidden or filtered out); they are removed too.")


def test_an_import_of_an_ods_file_takes_hidden_rows_and_warns(tmp_path: Path) -> None:
    store = stage_dry(review(tmp_path / "review.ods"), tmp_path)
    rows = outcomes(store)
    assert rows[5] == (
        "pending",
        "row 5: hidden in the file (hidden or filtered out); included in the import",
    )
    assert warnings(store) == [
        "Rows 3 and 5–7 (4 rows) are hidden in sheet 'Review' of review.ods (hidden or filtered "
        "out); they are imported too."
    ]
