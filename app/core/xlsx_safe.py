"""Writers for the spreadsheets DNC Desk produces (reports, exports) that cannot carry formulas.

Every text cell goes through :func:`needs_neutralising`: text that begins with ``=``, ``+``,
``-``, ``@``, tab, CR or LF could start a formula (OWASP "CSV injection") — except a plain
negative number such as ``-1`` or ``-12.5`` (the service's own ``campaign_id`` of a purpose
entry), which no spreadsheet reads as anything but that number.

- In CSV, such text gets a leading single quote (``+12025550123`` is written ``'+12025550123``):
  a CSV cell has no type, so the quote is the only way to keep it from becoming a formula.
  DNC Desk's import takes one quote off again (:func:`app.core.sheet_scope.cell_text`), so
  text that already is a run of quotes followed by one of those characters (``'=1+1``,
  ``''-x``) gets one more too (``''=1+1``): without it, ``'=1+1`` would be written as ``=1+1``
  is and read back as ``=1+1`` (black-box N1 #2). Leading spaces and invisible characters
  before the run, which the import passes over, are passed over here too (the quote goes
  before the run). A quote before anything else is the text's own and is written as it is.
- In xlsx, a :class:`SafeWorkbook` made with ``quote_prefix=True`` keeps the exact text in a
  string cell with Excel's *quotePrefix* style (the style Excel gives a cell typed with a
  leading ``'``): the cell shows, and reads back as, the text the file had, and Excel and
  LibreOffice keep it text when a person edits it. Every xlsx the app writes uses it: the
  export, the job report, the change journal's export, the campaign audit report, the
  evidence pack and the snapshot diff. Without it (the default) the quote goes into the cell
  text as in CSV, as :func:`xlsx_cell` does. A string cell is never evaluated either way;
  what is left is a person re-saving the sheet as CSV from Excel, which writes quotePrefix
  cells without their quote.

Phone numbers are always written as text, never as numbers, so no spreadsheet shows
``2.02555E+09`` or drops a leading zero. A text cell in General format still turns into a
number when a person edits or re-types it in Excel or LibreOffice, so a sheet's
``text_columns`` (the export's phone numbers) have the Text number format ``"@"``, on their
cells and on the columns themselves (for rows a person adds): what is typed there stays text.
Workbooks use openpyxl's write-only mode (streaming, constant memory), CSV files the standard
library with UTF-8 and a BOM so Excel reads the encoding.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import errno
import io
import re
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell

FORMULA_TRIGGERS: Final = ("=", "+", "-", "@", "\t", "\r", "\n")
XLSX_CELL_LIMIT: Final = 32_767
# Excel's Text number format (built-in format 49): what is typed into such a cell stays text.
TEXT_FORMAT: Final = "@"
_TRIGGER_SET: Final = frozenset(FORMULA_TRIGGERS)
# "-1", "-12.5": a number, never a formula (ASCII digits only; "-1+2" and "-A1" are formulas).
_PLAIN_NEGATIVE: Final = re.compile(r"-[0-9]+(?:\.[0-9]+)?")

SafeValue = str | int | float | bool | dt.date | dt.datetime | None


def needs_neutralising(value: str) -> bool:
    """Whether ``value`` as cell text could start a formula."""
    if value[:1] not in _TRIGGER_SET:
        return False
    return not (value[0] == "-" and _PLAIN_NEGATIVE.fullmatch(value))


def guard_quoted(text: str) -> bool:
    """Whether ``text`` (a cell's text from its first apostrophe on, invisible format characters
    left out) is a run of apostrophes followed by a character that could start a formula: what
    :func:`neutralise` writes for text beginning with that character, or for such a run."""
    rest = text.lstrip("'")
    return len(rest) < len(text) and rest[:1] in _TRIGGER_SET


def neutralise(value: str) -> str:
    """``value`` as safe CSV cell text: quote-prefixed if it could start a formula, and one
    more quote before a run of quotes followed by such a character (see the module
    docstring), so that reading one quote off gives ``value`` back."""
    if needs_neutralising(value):
        return "'" + value
    start = _quote_run_start(value)
    if start is None:
        return value
    return value[:start] + "'" + value[start:]


def _quote_run_start(value: str) -> int | None:
    """Where the run of apostrophes :func:`guard_quoted` tells of starts in ``value`` (after
    any leading spaces and invisible format characters), or None when there is none."""
    for index, char in enumerate(value):
        if char == "'":
            rest = value[index:]
            if not rest.isascii():
                rest = "".join(c for c in rest if unicodedata.category(c) != "Cf")
            return index if guard_quoted(rest) else None
        if not (char.isspace() or unicodedata.category(char) == "Cf"):
            return None
    return None


def _fit(value: str) -> str:
    # Characters XML cannot hold would make openpyxl raise mid-export; over-long text would
    # be cut by Excel on open without a word.
    if ILLEGAL_CHARACTERS_RE.search(value):
        value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
    if len(value) > XLSX_CELL_LIMIT:
        value = value[: XLSX_CELL_LIMIT - 1] + "…"
    return value


def _xlsx_text(value: str) -> str:
    value = _fit(value)
    if needs_neutralising(value):
        value = _fit("'" + value)
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

    def __init__(self, *, quote_prefix: bool = False) -> None:
        self._wb = Workbook(write_only=True)
        self._quote_prefix = quote_prefix

    @property
    def sheet_count(self) -> int:
        return len(self._wb.worksheets)

    def add_sheet(
        self, title: str, widths: Sequence[float] = (), *, text_columns: Sequence[int] = ()
    ) -> SafeSheet:
        """A new sheet; ``text_columns`` (0-based) get the Text number format (see the module
        docstring): columns of digit strings that must stay text, such as phone numbers."""
        ws = self._wb.create_sheet(title=title)
        for index, width in enumerate(widths):
            ws.column_dimensions[_letter(index)].width = width
        for index in text_columns:
            ws.column_dimensions[_letter(index)].number_format = TEXT_FORMAT
        return SafeSheet(ws, quote_prefix=self._quote_prefix, text_columns=text_columns)

    def save(self, path: Path) -> None:
        """Write the workbook to ``path``; raises OSError (and leaves nothing behind) if it
        cannot be written there."""
        tmp = path.with_name(path.name + ".part")
        sink: _Sink | None = None
        try:
            if path.is_dir():
                raise IsADirectoryError(errno.EISDIR, "it is a folder", str(path))
            path.parent.mkdir(parents=True, exist_ok=True)
            # Opened here, not by openpyxl: an unwritable place fails before any sheet is
            # finished, and the half-finished sheets are closed below instead of by the
            # garbage collector (which prints lxml tracebacks for each).
            with tmp.open("wb") as fh:
                sink = _Sink(fh)
                self._wb.save(sink)
            # Readers never see a half-written file under the final name.
            tmp.replace(path)
        except BaseException:
            if sink is not None:
                sink.give_up()
            self.discard()
            with contextlib.suppress(OSError):
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


class _Sink:
    """The file a workbook's zip is written into, which can be given up.

    openpyxl leaves its zip unclosed when a write fails (a full disk): the zip's ``__del__``
    then seeks in and writes to the file closed meanwhile, and Python prints "Exception
    ignored in: ZipFile.__del__ … ValueError: seek of closed file" on stderr (black-box pass
    L4 #6). Given up, writes go nowhere and seeks only move a position kept here, which the
    zip's end record is computed from (it refuses a position before its start).
    """

    def __init__(self, fh: io.BufferedWriter) -> None:
        self._fh = fh
        self._live = True
        self._pos = fh.tell()

    def give_up(self) -> None:
        self._live = False

    def write(self, data: bytes) -> int:
        if self._live:
            self._fh.write(data)
        self._pos += len(data)
        return len(data)

    def seek(self, offset: int, whence: int = 0) -> int:
        if self._live:
            self._pos = self._fh.seek(offset, whence)
        elif whence == io.SEEK_SET:
            self._pos = offset
        elif whence == io.SEEK_CUR:
            self._pos += offset
        return self._pos

    def tell(self) -> int:
        return self._pos

    def flush(self) -> None:
        if self._live:
            self._fh.flush()

    def seekable(self) -> bool:
        return True


class _TextCell(Cell):  # type: ignore[misc]  # openpyxl has no type hints
    """A string cell in the Text number format: one per text column of a :class:`SafeSheet`,
    given each row's text in turn.

    Its style is registered once. openpyxl's writer asks every styled cell for ``has_style``
    and ``style_id`` (which hashes the style each time), and formats the cell into an error it
    raises and catches for every cell object it is given: answered here without that work,
    as they are asked on every row of an export (a third of what the style costs a row).
    """

    has_style = True

    def __init__(self, ws: Any) -> None:
        super().__init__(ws, column=1, row=1)
        self.number_format = TEXT_FORMAT
        self.data_type = "s"
        self._style_index: int = ws.parent._cell_styles.add(self._style)

    @property
    def style_id(self) -> int:
        return self._style_index

    def __repr__(self) -> str:
        return "<text cell>"


class SafeSheet:
    """One sheet of a :class:`SafeWorkbook`.

    Cells of ``text_columns`` get the Text number format. A styled cell costs openpyxl far
    more than a plain value, so the style is made once: each text column has one
    :class:`_TextCell`, given the next row's text just before that row is appended (openpyxl's
    write-only ``append`` writes the row out before it returns, so the next row can reuse it).
    """

    def __init__(
        self, ws: Any, *, quote_prefix: bool = False, text_columns: Sequence[int] = ()
    ) -> None:
        self._ws = ws
        self._quote_prefix = quote_prefix
        self._text_cells = [(index, _TextCell(ws)) for index in sorted(set(text_columns))]

    def _quoted(self, text: str) -> object:
        """``text`` (fitted, and one that could start a formula) as a safe cell."""
        if not self._quote_prefix:
            return _fit("'" + text)
        cell = WriteOnlyCell(self._ws, value=text)
        cell.data_type = "s"  # openpyxl reads "=…" as a formula; this cell is text
        cell.quotePrefix = True
        return cell

    def _write(self, cells: list[Any]) -> None:
        """Append ``cells``, the text of text columns in their Text-formatted cells."""
        width = len(cells)
        for index, cell in self._text_cells:
            if index >= width:
                break
            value = cells[index]
            if type(value) is str:
                # Already fitted (length, characters XML cannot hold): set as it stands, not
                # through openpyxl's value setter, which would check the text again.
                cell._value = value
                cells[index] = cell
            elif isinstance(value, Cell):  # a quote-prefixed cell of this row
                value.number_format = TEXT_FORMAT
        self._ws.append(cells)

    def _text(self, value: str) -> object:
        text = _fit(value)
        if needs_neutralising(text):
            return self._quoted(text)
        return text or None

    def append(self, row: Iterable[object]) -> None:
        self._write(
            [
                xlsx_cell(v)
                if v is None or isinstance(v, bool | int | float | dt.date)
                # An empty cell is not written at all (openpyxl skips None).
                else self._text(v if isinstance(v, str) else str(v))
                for v in row
            ]
        )

    def append_text(self, row: Sequence[str]) -> None:
        """A row known to be all text (the export's hot path: one scan of the joined row)."""
        joined = "".join(row)
        if len(joined) > XLSX_CELL_LIMIT or ILLEGAL_CHARACTERS_RE.search(joined):
            self._write([self._text(v) for v in row])
        else:
            self._write(
                [
                    (self._quoted(v) if needs_neutralising(v) else v)
                    if v[:1] in _TRIGGER_SET
                    else (v or None)
                    for v in row
                ]
            )


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
        # Only text starting with a trigger or an apostrophe, or with a space or an invisible
        # character before one, can need a quote (neutralise); the rest is most cells.
        self._writer.writerow([v if v[:1].isalnum() else neutralise(v) for v in row])

    def close(self, *, keep: bool = True) -> None:
        """Finish the file: with ``keep`` move it into place (raising OSError, with the
        partial file removed, when it cannot be finished: the last buffered rows are written
        here, and a full disk fails here too); without, delete it without a word."""
        if not keep:
            # Closing flushes the buffer, which fails again on a full disk; the file is
            # closed all the same, and deleted (black-box pass L4 #6: a 300 KB all.csv.part
            # was left behind).
            with contextlib.suppress(OSError, ValueError):
                self._fh.close()
            with contextlib.suppress(OSError):
                self._tmp.unlink(missing_ok=True)
            return
        if self._fh.closed:
            return
        try:
            self._fh.close()
            self._tmp.replace(self._final)
        except BaseException:
            with contextlib.suppress(OSError):
                self._tmp.unlink(missing_ok=True)
            raise

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
