"""Values and errors shared by the spreadsheet readers and checkers.

A row travels as ``(row_number, cells)``: the 1-based row number a person sees in Excel (for CSV,
the 1-based record number) and the cell values as read (a list or tuple), empty cells as ``None``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

CellValue = str | int | float | bool | dt.date | dt.datetime | dt.time | dt.timedelta | None
Cells = Sequence[CellValue]
Row = tuple[int, Cells]
RowIterator = Iterator[Row]

# What a spreadsheet shows for a formula that failed, and its CSV export writes as text: Excel's
# and Google Sheets' error values (Bloomberg's "#N/A N/A" too), and LibreOffice's "Err:" codes.
ERROR_VALUE: Final = re.compile(
    r"(?i)#(?:N/A(?: N/A)?|NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|ERROR!|SPILL!|CALC!"
    r"|GETTING_DATA|FIELD!|BLOCKED!|CONNECT!|BUSY!|UNKNOWN!|EXTERNAL!|PYTHON!)|Err:[0-9]{3}"
)
ERROR_STARTS: Final = ("#", "Err:", "err:", "ERR:")


def error_value(text: str) -> bool:
    """Whether ``text`` (a cell's, stripped) is a spreadsheet's error value written out as
    text ("#N/A", "#REF!", "Err:502"): a formula that failed, not a value."""
    return text.startswith(ERROR_STARTS) and ERROR_VALUE.fullmatch(text) is not None


class CutCells(list[CellValue]):
    """A workbook row's cells of which a text was longer than a spreadsheet cell can hold and
    was cut to that (``sheet_worker.MAX_CELL_CHARS``) as it was read; ``lengths``: the column
    (0-based) of each such cell → the length it had.

    The reader hands the row out so, and the check's messages say the length the cell had
    (black-box R4: "the cell holds 32767 characters" for a cell of 40,000). A plain list in
    every other way: a step that builds the row anew loses only the lengths, and its message
    then says the cut length.
    """

    __slots__ = ("lengths",)

    def __init__(self, cells: Iterable[CellValue], lengths: dict[int, int]) -> None:
        super().__init__(cells)
        self.lengths = lengths


def cut_length(cells: Cells, column: int) -> int | None:
    """The length the text of ``cells[column]`` had before it was cut as it was read (see
    :class:`CutCells`), or None when it was not cut."""
    return cells.lengths.get(column) if isinstance(cells, CutCells) else None


class SheetError(Exception):
    """A file that cannot be read as a spreadsheet; ``str()`` is one sentence for a person."""


@dataclass(frozen=True)
class StrayQuote:
    """A quoted cell of a text file that runs over lines reading as rows of the file: most
    likely a stray quote mark closed by another one further down, which made those rows part
    of the cell (Excel reads them so too). Lines are the file's, 1-based."""

    row: int  # the record holding the cell, as the row numbers of the text file go
    column: int  # 0-based
    line: int  # where the cell starts
    last_line: int  # where it ends: it runs over the lines after ``line`` up to this one
    rows: int  # how many of those lines read as rows of the file
    numbers: tuple[str, ...]  # the phone numbers those lines start with (the first few)


@dataclass
class SheetNotes:
    """What a reader learns about a sheet besides its cell values, filled in as it reads.

    ``hidden_rows`` (hidden by hand or by a filter), ``formulas`` and ``errors`` only grow,
    and what concerns a row is known by the time the row is handed out. ``formulas`` lists the
    cells that read as empty though they are not: ``(row, column)`` → the formula of a cell
    with no saved result, or ``""`` for a cell holding an error value, whose error ``errors``
    gives (``(row, column)`` → ``"#N/A"``). Staging makes the rows of both invalid through
    ``formulas`` and names the error through ``errors``. ``hidden_known`` is False when the
    format does not let hidden rows be seen (an .xls older than Excel 97) or the scan
    of the sheet's layout failed. ``other_sheets`` holds the first
    non-blank rows of the workbook's other worksheets once the sheet has been read through,
    when they were asked for; otherwise None. ``other_sheets`` includes hidden
    worksheets (a hidden first sheet may hold every number). ``hidden_sheets`` names a
    workbook's hidden worksheets, known as soon as it is open (with or without
    ``other_sheets``); a reader never chooses one unless it is named.
    ``hidden_columns`` holds the 0-based indexes of the columns hidden in the file (xlsx/xlsm,
    xlsb and xls: hidden or of zero width; ods: collapsed), known before the first row is handed
    out: their values are read as any others, but a person looking at the file has not seen
    them.
    ``merged`` holds the sheet's merged ranges, ``(first_row, first_column, last_row,
    last_column)`` (rows 1-based, columns 0-based; every format), known before the first row:
    a cell a range covers is read with the value of the range's first cell, as the file
    shows it.
    ``cut_cells`` holds the workbook cells whose text was longer than a spreadsheet cell can
    hold (32,767 characters, Excel's limit) and was cut to that as it was read: ``(row,
    column)`` (row 1-based, column 0-based) → the length it had; known by the time the row is
    handed out.
    ``padded_cut`` is the first number cell of a zero-padding format ("0000000000", as UK and
    Italian lists keep a leading 0) read as the plain number it holds (0351234568 as
    351234568, another number) because the workbook holds more such cells than the reader
    keeps, or None when every one reads as the sheet shows it; known before the first row.
    """

    hidden_known: bool = False
    hidden_rows: set[int] = field(default_factory=set)
    formulas: dict[tuple[int, int], str] = field(default_factory=dict)
    errors: dict[tuple[int, int], str] = field(default_factory=dict)
    other_sheets: dict[str, list[Row]] | None = None
    hidden_sheets: set[str] = field(default_factory=set)
    hidden_columns: set[int] = field(default_factory=set)
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    # A text file not in UTF-8 whose text reads garbled as Windows-1252 (see sheet_csv).
    legacy_text: bool = False
    # A text file's quoted cells running over lines that read as rows, by row (see sheet_csv);
    # known when the row is handed out.
    stray_quotes: dict[int, StrayQuote] = field(default_factory=dict)
    cut_cells: dict[tuple[int, int], int] = field(default_factory=dict)
    padded_cut: PaddedCut | None = None
    # Workbook number cells whose number format shows nothing (";;;"): the sheet shows an
    # empty cell where the number is. (row, column) (row 1-based, column 0-based) -> the number
    # as text; known by the time the row is handed out. The cells are read as their numbers.
    unshown: dict[tuple[int, int], str] = field(default_factory=dict)
    # Workbook date cells whose number format writes the day and month in digits, by
    # (column, day first): how many, and the first one's row and format ("dd/mm/yyyy"); known
    # once every row is handed out (an xlsx's; see sheet_worker.date_order_styles).
    date_formats: dict[tuple[int, bool], FormatDates] = field(default_factory=dict)


@dataclass(frozen=True)
class FormatDates:
    """A column's date cells whose number format writes the day first, or the month first (see
    :attr:`SheetNotes.date_formats`): how many, the first one's row (1-based) and its format."""

    count: int
    row: int
    code: str


@dataclass(frozen=True)
class PaddedCut:
    """Where a sheet's zero-padded number cells stopped being read as shown (see
    :attr:`SheetNotes.padded_cut`): the first such cell read as a plain number, row 1-based
    and column 0-based, and how many were read as shown before it (the reader's limit)."""

    row: int
    column: int
    kept: int
