"""Values and errors shared by the spreadsheet readers and checkers.

A row travels as ``(row_number, cells)``: the 1-based row number a person sees in Excel (for CSV,
the 1-based record number) and the cell values as read (a list or tuple), empty cells as ``None``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence

CellValue = str | int | float | bool | dt.date | dt.datetime | dt.time | dt.timedelta | None
Cells = Sequence[CellValue]
Row = tuple[int, Cells]
RowIterator = Iterator[Row]


class SheetError(Exception):
    """A file that cannot be read as a spreadsheet; ``str()`` is one sentence for a person."""
