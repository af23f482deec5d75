"""The sheet worker's batched row conversion against the plain per-row rules it replaced.

:func:`_row_batches` numbers rows as Excel does, turns calamine's "" into None, fills merged
ranges, sends blank rows in the middle as all-None rows and leaves out blank rows after the last
row with data. The reference below is the one-row-at-a-time loop it replaced; hypothesis holds
the two to the same rows for every batch size, so batch edges cannot change what is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.sheet_worker import _blank, _merged_fill, _row_batches


class FakeSheet:
    """What _row_batches uses of a python-calamine sheet."""

    def __init__(
        self,
        rows: list[list[Any]],
        start: tuple[int, int] | None,
        merged: list[tuple[tuple[int, int], tuple[int, int]]] | None = None,
    ) -> None:
        self._rows = rows
        self.start = start
        self.merged_cell_ranges = merged

    def iter_rows(self) -> Iterator[list[Any]]:
        # calamine hands out a fresh list per row
        return iter([list(r) for r in self._rows])


def reference_rows(sheet: FakeSheet) -> Iterator[tuple[int, list[Any]]]:
    start = sheet.start
    if start is None:
        return
    pad: list[None] = [None] * start[1]
    merged = _merged_fill(sheet)
    top_left: dict[tuple[int, int], Any] = {}
    pending: list[int] = []
    for index, raw in enumerate(sheet.iter_rows()):
        cells = raw if "" not in raw else [None if v == "" else v for v in raw]
        if pad:
            cells = pad + cells
        for r0, c0, _r1, c1 in merged.get(index, []):
            if index == r0:
                top_left[(r0, c0)] = cells[c0] if c0 < len(cells) else None
            value = top_left.get((r0, c0))
            for c in range(c0, min(c1 + 1, len(cells))):
                if cells[c] is None:
                    cells[c] = value
        if _blank(cells):
            pending.append(index + 1)
            continue
        for number in pending:
            yield number, [None] * len(cells)
        pending.clear()
        yield index + 1, cells


CELLS = st.one_of(
    st.just(""),
    st.just(""),
    st.sampled_from([" ", "\t", "\u00a0", "x", " 2025550123 "]),
    st.floats(allow_nan=False, width=32),
    st.just(0.0),
    st.booleans(),
    st.text(max_size=3),
)


@st.composite
def sheets(draw: st.DrawFn) -> FakeSheet:
    width = draw(st.integers(1, 4))
    # Runs of blank rows are the interesting part: make them common.
    row = st.one_of(
        st.lists(CELLS, min_size=width, max_size=width),
        st.just([""] * width),
        st.just([" "] + [""] * (width - 1)),
    )
    rows = draw(st.lists(row, max_size=25))
    start = None if not rows else (0, draw(st.integers(0, 2)))
    merged = []
    for _ in range(draw(st.integers(0, 2))):
        if not rows:
            break
        r0 = draw(st.integers(0, len(rows) - 1))
        r1 = draw(st.integers(r0, min(len(rows) - 1, r0 + 3)))
        c0 = draw(st.integers(0, width + 1))
        c1 = draw(st.integers(c0, width + 2))
        merged.append(((r0, c0), (r1, c1)))
    return FakeSheet(rows, start, merged)


@settings(max_examples=400, deadline=None)
@given(sheet=sheets(), size=st.integers(1, 7))
def test_batches_give_the_rows_of_the_per_row_rules(sheet: FakeSheet, size: int) -> None:
    batches = list(_row_batches(sheet, size))
    assert all(batches), "no empty batch is sent"
    got = [row for batch in batches for row in batch]
    assert got == list(reference_rows(sheet))


def test_blank_rows_after_the_data_are_left_out_across_batches() -> None:
    rows = [["a"], [""], [" "], ["b"], *([[""]] * 10)]
    got = [row for batch in _row_batches(FakeSheet(rows, (0, 0)), 2) for row in batch]
    assert got == [(1, ["a"]), (2, [None]), (3, [None]), (4, ["b"])]


def test_a_first_used_column_pads_every_row() -> None:
    got = [row for batch in _row_batches(FakeSheet([["x", ""]], (4, 2))) for row in batch]
    assert got == [(1, [None, None, "x", None])]


def test_open_scan_closes_a_zip_it_cannot_scan(tmp_path: Any, monkeypatch: Any) -> None:
    import zipfile

    from app.core import sheet_worker

    opened: list[zipfile.ZipFile] = []

    class Tracking(zipfile.ZipFile):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            opened.append(self)

    monkeypatch.setattr(sheet_worker.zipfile, "ZipFile", Tracking)
    plain = tmp_path / "plain.zip"
    with zipfile.ZipFile(plain, "w") as zf:
        zf.writestr("notes.txt", "not a workbook")
    assert sheet_worker.open_scan(str(plain), "Sheet1") is None
    # A workbook part that cannot be read (a damaged member) is not a scan either.
    monkeypatch.setattr(sheet_worker, "sheet_part", lambda zf, sheet: zf.read("missing.xml"))
    assert sheet_worker.open_scan(str(plain), "Sheet1") is None
    assert opened and all(zf.fp is None for zf in opened)  # every one it opened is closed
