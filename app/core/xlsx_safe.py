"""Writers for the spreadsheets DNC Desk produces (reports, exports) that cannot carry formulas.

Every text cell goes through :func:`neutralise`: text that begins with ``=``, ``+``, ``-``, ``@``,
tab, CR or LF gets a leading single quote in the cell *text* (OWASP "CSV injection"). That covers
E.164 numbers (``+12025550123`` is written ``'+12025550123``): the visible quote is the price of a
file that never turns a cell into a formula when a person re-saves it as CSV or edits the cell.

Phone numbers are always written as text, never as numbers, so no spreadsheet shows
``2.02555E+09`` or drops a leading zero. Workbooks use openpyxl's write-only mode (streaming,
constant memory), CSV files the standard library with UTF-8 and a BOM so Excel reads the encoding.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import errno
import io
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

FORMULA_TRIGGERS: Final = ("=", "+", "-", "@", "\t", "\r", "\n")
XLSX_CELL_LIMIT: Final = 32_767
_TRIGGER_SET: Final = frozenset(FORMULA_TRIGGERS)

SafeValue = str | int | float | bool | dt.date | dt.datetime | None


def neutralise(value: str) -> str:
    """``value`` made safe as spreadsheet cell text (quote-prefixed if it could start a formula)."""
    if value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def _xlsx_text(value: str) -> str:
    # Characters XML cannot hold would make openpyxl raise mid-export; over-long text would
    # be cut by Excel on open without a word.
    if ILLEGAL_CHARACTERS_RE.search(value):
        value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
    value = neutralise(value)
    if len(value) > XLSX_CELL_LIMIT:
        value = value[: XLSX_CELL_LIMIT - 1] + "…"
    return value


def xlsx_cell(value: object) -> SafeValue:
    """One value as a safe xlsx cell: text neutralised, numbers and dates kept as they are."""
    if value is None or isinstance(value, bool | int | float | dt.date):
        return value
    # An empty cell is not written at all (openpyxl skips None): a third fewer cells in
    # sparse rows, which is most of the write time.
    return _xlsx_text(value if isinstance(value, str) else str(value)) or None


def csv_cell(value: object) -> str:
    """One value as safe CSV text."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, bool | int | float):
        return str(value)
    return neutralise(value if isinstance(value, str) else str(value))


class SafeWorkbook:
    """A write-only xlsx workbook whose every cell passes :func:`xlsx_cell`.

    Add sheets in the order they should appear, append rows, then :meth:`save`. Rows are
    streamed to a temporary file by openpyxl, so a 100,000-row sheet costs no memory to speak of.
    """

    def __init__(self) -> None:
        self._wb = Workbook(write_only=True)

    @property
    def sheet_count(self) -> int:
        return len(self._wb.worksheets)

    def add_sheet(self, title: str, widths: Sequence[float] = ()) -> SafeSheet:
        ws = self._wb.create_sheet(title=title)
        for index, width in enumerate(widths):
            ws.column_dimensions[_letter(index)].width = width
        return SafeSheet(ws)

    def save(self, path: Path) -> None:
        """Write the workbook to ``path``; raises OSError (and leaves nothing behind) if it
        cannot be written there."""
        tmp = path.with_name(path.name + ".part")
        try:
            if path.is_dir():
                raise IsADirectoryError(errno.EISDIR, "it is a folder", str(path))
            path.parent.mkdir(parents=True, exist_ok=True)
            # Opened here, not by openpyxl: an unwritable place fails before any sheet is
            # finished, and the half-finished sheets are closed below instead of by the
            # garbage collector (which prints lxml tracebacks for each).
            with tmp.open("wb") as fh:
                self._wb.save(fh)
            # Readers never see a half-written file under the final name.
            tmp.replace(path)
        except BaseException:
            self.discard()
            tmp.unlink(missing_ok=True)
            raise

    def discard(self) -> None:
        """Give the workbook up unsaved: finish its streamed sheets and delete their temp files."""
        for ws in self._wb.worksheets:
            writer = getattr(ws, "_writer", None)
            if not getattr(ws, "closed", True):
                with contextlib.suppress(Exception):
                    ws.close()
            if writer is not None:
                with contextlib.suppress(OSError, ValueError):
                    writer.cleanup()


class SafeSheet:
    """One sheet of a :class:`SafeWorkbook`."""

    def __init__(self, ws: Any) -> None:
        self._ws = ws

    def append(self, row: Iterable[object]) -> None:
        self._ws.append([xlsx_cell(v) for v in row])

    def append_text(self, row: Sequence[str]) -> None:
        """A row known to be all text (the export's hot path: one scan of the joined row)."""
        joined = "".join(row)
        if len(joined) > XLSX_CELL_LIMIT or ILLEGAL_CHARACTERS_RE.search(joined):
            self._ws.append([_xlsx_text(v) or None for v in row])
        else:
            self._ws.append([(("'" + v) if v[:1] in _TRIGGER_SET else v) or None for v in row])


class SafeCsvWriter:
    """A CSV file (UTF-8 with BOM, comma separated) whose every cell passes :func:`csv_cell`."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._final = path
        self._tmp = path.with_name(path.name + ".part")
        self._fh: io.TextIOWrapper = open(  # noqa: SIM115 (closed in close())
            self._tmp, "w", encoding="utf-8-sig", newline=""
        )
        self._writer = csv.writer(self._fh)

    def append(self, row: Iterable[object]) -> None:
        self._writer.writerow([csv_cell(v) for v in row])

    def append_text(self, row: Sequence[str]) -> None:
        self._writer.writerow([("'" + v) if v[:1] in _TRIGGER_SET else v for v in row])

    def close(self, *, keep: bool = True) -> None:
        if self._fh.closed:
            return
        self._fh.close()
        if keep:
            self._tmp.replace(self._final)
        else:
            self._tmp.unlink(missing_ok=True)

    def __enter__(self) -> SafeCsvWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close(keep=exc_type is None)


def _letter(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters
