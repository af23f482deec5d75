"""Open a spreadsheet or CSV file as a stream of rows: :func:`open_sheet`.

Workbooks (xlsx, xlsm, xlsb, xls, ods) pass :mod:`app.core.sheet_guard` and are then read by
python-calamine in a child process (:mod:`app.core.sheet_worker`) under a memory cap and a
timeout, because calamine's native code can be made to allocate gigabytes or abort by a crafted
file. Rows arrive in batches while the parent works on earlier ones. Text files are read in this
process by :mod:`app.core.sheet_csv`.

A source's ``notes`` (:class:`~app.core.sheet_types.SheetNotes`) say what the cell values do not:
which rows are hidden (by hand or by a filter; seen in xlsx/xlsm, xlsb, ods and xls) and
which columns (xlsx/xlsm, xlsb, ods, xls), which cells hold a formula never calculated or an
error value such as #N/A (xlsx/xlsm, ods; error values in xls and xlsb too; both read as
empty), which worksheets are hidden (``hidden_sheets``, known once the source is open),
and, when asked with ``probe_others``, the first rows of the other sheets (hidden ones too).
A sheet named by the caller matches ignoring case and surrounding spaces, as in Excel; an
exact match wins. With none named, a hidden sheet is never chosen.

A damaged or cut-short workbook is refused in one sentence of what to do
(:func:`~app.core.sheet_guard.damaged_sentence`), the reader's own words only as a trailing note
when they say something. So is every file that is not read: a format that is not (a flat
OpenDocument .fods, SYLK, DIF, Apple Numbers) says how to save it as one that is, a zip archive
names the spreadsheets inside to extract, a Google Sheets shortcut says to download the sheet,
a pipe or a device (read only once) says to save it to a file first, an xlsx too big to read
because of a stray cell far beyond its data names that cell, and a workbook whose cells hold
only formulas never calculated or error values says so rather than that it has no data. A
sheet stored as UTF-16 text (which the reader reads as empty) is refused as unreadable, not
as empty, and an xlsx that keeps its workbook elsewhere than ``xl/workbook.xml`` (which the
reader cannot follow) as unusual, not damaged: both say to save the file again as .xlsx.
:func:`resolve_sheet_path` makes a path absolute as a job records it, a loop of symbolic links,
a link to nothing (named as typed, then its target) or a pipe, which is not to be opened, a
:class:`SheetError` as :func:`open_sheet` says it.

Typical use::

    with open_sheet(path) as source:
        preview = source.preview(30)
        for row_number, cells in source.iter_rows():
            ...
"""

from __future__ import annotations

import errno
import marshal
import os
import pickle
import re
import signal
import stat
import struct
import subprocess
import sys
import threading
import time
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Final, Protocol

from app.core import sheet_worker
from app.core.sheet_csv import CsvSource
from app.core.sheet_guard import (
    ARCHIVES,
    DIF,
    EXCEL_2003_XML,
    FLAT_ODS,
    GNUMERIC,
    NUMBERS,
    SHEETS_SHORTCUT,
    SYLK,
    WEB_PAGE,
    XML_OR_HTML,
    ZIP_ARCHIVE,
    check_shared_text,
    check_zip,
    damaged_sentence,
    markup_kind,
    old_excel_kind,
    sniff_kind,
    stray_cell,
    text_format_kind,
    zip_spreadsheets,
)
from app.core.sheet_types import (
    CutCells,
    FormatDates,
    PaddedCut,
    Row,
    RowIterator,
    SheetError,
    SheetNotes,
)

WORKBOOK_SUFFIXES: Final = (".xlsx", ".xlsm", ".xlsb", ".xls", ".ods", ".xltx", ".xltm")
TEXT_SUFFIXES: Final = (".csv", ".tsv", ".txt", ".tab")
MEMORY_LIMIT: Final = 2 << 30
# calamine holds a sheet as a dense grid of ~32-byte cells; a real workbook needs at most a few
# times its compressed size, so the cap grows with the file while a small crafted one gets 2 GB.
MEMORY_PER_FILE_BYTE: Final = 16
# Start-up plus parse must finish within this; each later batch gets the same grace again
# (counted only while the reader waits for the child, not while the caller works on rows).
BASE_TIMEOUT: Final = 60.0
TIMEOUT_PER_MB: Final = 4.0
MAX_COLUMNS: Final = sheet_worker.MAX_COLUMNS
MAX_CELL_CHARS: Final = sheet_worker.MAX_CELL_CHARS
_EXCEPTION_NAME: Final = re.compile(r"^[A-Za-z_][\w.]*: ")
# calamine starts its messages with the part of it that failed ("Cfb error: ", "Xls error: ").
_READER_PART: Final = re.compile(r"^(?:[A-Z][A-Za-z]{1,5} error: )+")
_WORD: Final = re.compile(r"[A-Za-z]{2,}")


def memory_limit(size: int) -> int:
    """The address space the reader's child may use for a workbook of ``size`` bytes."""
    return MEMORY_LIMIT + MEMORY_PER_FILE_BYTE * size


def shared_text_limit(size: int) -> int:
    """The most shared-string text an xlsx of ``size`` bytes may make calamine build (it copies
    a string for every cell naming it): half the child's cap, the other half left for what it
    holds beside the text (a grid of ~32-byte cells, the strings table itself, Python and the
    rows it hands on). Past it the child would fail at the cap anyway, after minutes of work
    and GBs of memory; a real list of phone numbers builds a few MB."""
    return memory_limit(size) // 2


class SheetSource(Protocol):
    """One sheet of one file, read as rows of raw cell values."""

    path: Path
    sheet_names: tuple[str, ...]
    sheet: str
    notes: SheetNotes

    def iter_rows(self) -> RowIterator: ...
    def preview(self, n: int) -> list[Row]: ...
    def close(self) -> None: ...
    def __enter__(self) -> SheetSource: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


def open_sheet(path: Path, sheet: str | None = None, *, probe_others: bool = False) -> SheetSource:
    """Open ``path`` (choosing ``sheet``, or the first visible sheet with data) for reading.

    ``sheet`` matches ignoring case and surrounding spaces, as in Excel (an exact match wins);
    a hidden sheet is read only when named. ``notes.hidden_sheets`` names a workbook's hidden
    worksheets as soon as it is open. With ``probe_others``, reading a workbook to its end
    also fills ``notes.other_sheets``.
    Raises :class:`SheetError` with one sentence naming the file when it cannot be read (a
    file that is not there by its path as given, so the sentence says where it was looked for).
    """
    given = os.fspath(path)
    path = Path(path)
    try:
        is_file = path.is_file()
    except OSError:  # a name too long for the system (is_file says False to the rest)
        is_file = False
    if not is_file:
        raise SheetError(_not_a_file(path, given))
    kind = sniff_kind(path)
    if kind.container == "empty":
        # Black-box B30 F9: it said only that, not what to do about it.
        raise SheetError(
            f"{path.name} is empty (0 bytes): check that it is the file you meant and, if it "
            "was exported or downloaded, that the export or download finished, then run again."
        )
    if kind.password:
        raise SheetError(_password_sentence(path))
    if kind.other and kind.other != ZIP_ARCHIVE:
        raise SheetError(_not_a_spreadsheet(path, kind.other))
    if kind.container == "text" and (old := old_excel_kind(path)):
        # Black-box B6 #6: was "not a real .xls workbook (its content is not in any
        # spreadsheet format)".
        raise SheetError(
            f"{path.name} is {old}, an Excel format from before 1995 that is not read; open "
            "it in LibreOffice or Excel and save it as .xlsx, then import that file."
        )
    if kind.container == "text" and (fmt := text_format_kind(path)):
        # Whatever its name: a SYLK file named .csv was read as a CSV of its records, and
        # named no phone column (black-box B10 #7).
        raise SheetError(_not_a_spreadsheet(path, fmt))
    if kind.container == "zip":
        if not kind.workbook:
            raise SheetError(_zip_sentence(path))
        check_zip(path)
        if kind.workbook == "xlsx":
            check_shared_text(path, shared_text_limit(path.stat().st_size))
        return WorkbookSource(path, sheet, kind.workbook, probe_others)
    if kind.container == "ole2":
        return WorkbookSource(path, sheet, "xls", probe_others)
    suffix = path.suffix.lower()
    if suffix in WORKBOOK_SUFFIXES:
        markup = markup_kind(path)
        if markup == FLAT_ODS:
            raise SheetError(_flat_ods_sentence(path))
        if markup:
            raise SheetError(
                f"{path.name} is {markup} saved under a {suffix} name (as some systems' "
                '"Export to Excel" writes it), not a workbook; open it in Excel and save it '
                "as .xlsx, or export the data as CSV."
            )
        # Text under a workbook's name (a web app's "Export to Excel" writes tab-separated
        # text as .xls): read as the text table it is.
        try:
            return CsvSource(path)
        except SheetError:
            raise SheetError(
                f"{path.name} is not a real {suffix} workbook (its content is not in any "
                "spreadsheet format); open it in Excel and save it again."
            ) from None
    if suffix not in TEXT_SUFFIXES:
        raise SheetError(_other_suffix_sentence(path))
    markup = markup_kind(path)
    if markup == FLAT_ODS:
        raise SheetError(_flat_ods_sentence(path))
    if markup in (WEB_PAGE, EXCEL_2003_XML):
        # A download that was a sign-in or error page is saved under the name asked for; read
        # as text, its markup would be taken for a header and rows.
        raise SheetError(
            f"{path.name} is {markup}, not a {suffix} text table (a download that got a sign-in "
            "or error page instead of the file looks like this); download the list again, or "
            "ask for it as CSV or xlsx."
        )
    return CsvSource(path)


def _not_a_file(path: Path, given: str) -> str:
    """Why ``path`` (``given``, as the caller wrote it) is no file to read: it does not exist,
    it is a folder, it cannot be reached, or it is something else (a device, a pipe)."""
    given = given or str(path)
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return _dangling_sentence(path, given) or f"{given} does not exist."
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _loop_sentence(path, given)
        if exc.errno == errno.ENAMETOOLONG:
            return _too_long_sentence(given)
        return f"{given} cannot be reached ({exc.strerror or exc})."
    name = path.name or given
    if stat.S_ISDIR(mode):
        if path.suffix.lower() == ".numbers":  # a Numbers document kept as a package
            return _not_a_spreadsheet(path, NUMBERS)
        return f"{name} is a folder, not a file: give the path of the spreadsheet itself."
    return (
        _special_sentence(mode, given) or f"{name} is not a file that can be read as a spreadsheet."
    )


def _special_sentence(mode: int, given: str) -> str:
    """Why a pipe, a socket or a device (``mode``, at ``given``) is not read, or "" for any
    other kind of file. A list is read more than once (checked, then sent), and these give
    their bytes only once; opening a pipe no one writes to would wait for ever."""
    if stat.S_ISSOCK(mode):
        # Black-box B35: it was called a pipe.
        return (
            f"{given} is a socket (a connection point programs talk through), not a file; "
            "save the list to a file first and import that file."
        )
    if stat.S_ISFIFO(mode):
        return (
            f"{given} is a pipe (as made by mkfifo or by the shell's <(…)), not a file, and "
            "can be read only once while a list is read more than once; save the list to a "
            "file first and import that file."
        )
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return f"{given} is a device, not a file; save the list to a file first and import it."
    return ""


# What Linux and macOS allow: a name of a file or folder, and a whole path, in bytes.
_NAME_MAX: Final = 255
_PATH_MAX: Final = 4096
_SHOWN_CHARS: Final = 40


def path_too_long(path: Path | str) -> str:
    """Why ``path`` names no file the system can open, a name in it (or the whole path)
    being longer than the system allows, or "" when it is not (black-box B35: the raw
    "[Errno 36] File name too long" with the whole path). Told from the path alone, before
    the system is asked of it."""
    given = os.fspath(path)
    parts = [part for part in Path(given).parts if len(os.fsencode(part)) > _NAME_MAX]
    whole = len(os.fsencode(given))
    if not parts and whole < _PATH_MAX:
        return ""
    return _too_long_sentence(given)


def _too_long_sentence(given: str) -> str:
    """:func:`path_too_long`'s sentence, the long name shown by its start, as it may run to
    hundreds of characters."""
    parts = [part for part in Path(given).parts if len(os.fsencode(part)) > _NAME_MAX]
    if parts:
        long_name = parts[-1]
        what = f"the name {_start(long_name)} is {len(os.fsencode(long_name)):,} bytes long"
        limit = f"the {_NAME_MAX} bytes a file or folder name may have"
        fix = "rename it shorter"
    else:
        what = f"the path {_start(given)} is {len(os.fsencode(given)):,} bytes long"
        limit = f"the {_PATH_MAX:,} bytes a path may have"
        fix = "move the file to a folder with a shorter path"
    return (
        f"The file cannot be opened: {what}, more than {limit}; check the path given "
        f"(a name pasted twice makes one this long), or {fix}, and try again."
    )


def _start(text: str) -> str:
    """``text``, or its first characters and an ellipsis when it is long."""
    return repr(text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "…")


def _reader_note(detail: str) -> str:
    """The reader's complaint (the worker's "TypeName: message") as a technical note, or ""
    when it would tell nobody anything: a bare XML tag name ("c", "sheetData"), or a panic
    inside calamine ("capacity overflow"), which is about its code, not the file."""
    if detail.startswith("PanicException"):
        return ""
    # The type and the part are the library's names, not the user's.
    detail = _READER_PART.sub("", _EXCEPTION_NAME.sub("", detail, count=1))
    if len(_WORD.findall(detail)) < 3:
        return ""
    return detail[:160]


def _dangling_sentence(path: Path, given: str) -> str:
    """Why ``path`` (``given``, as typed), a symbolic link whose target is not there, names no
    file, or "" when it is no such link. The path typed comes first: the target alone (as
    following the link would name it) is a path the user never wrote."""
    try:
        if not path.is_symlink():
            return ""
        target = path.resolve()  # not strict: the missing end of the chain of links
    except (OSError, RuntimeError):
        return ""
    return f"{given} is a symbolic link to {target}, which does not exist."


def _loop_sentence(path: Path, given: str) -> str:
    """Why ``path`` names no file when following its symbolic links goes round in a circle."""
    try:
        own = path.is_symlink()
    except OSError:  # the loop is in a folder above it
        own = False
    if own:
        return f"{given} is a symbolic link that leads back to itself (a loop): it names no file."
    return (
        f"{given} cannot be reached: a folder on its path is a symbolic link that leads back "
        "to itself (a loop)."
    )


def resolve_sheet_path(path: Path) -> Path:
    """``path`` with ``~`` expanded, made absolute with its symbolic links followed, as a job
    records it; a loop of links is a :class:`SheetError` naming it, where ``Path.resolve``
    raises a bare RuntimeError (before Python 3.13) that no caller says in words."""
    expanded = path.expanduser()
    try:
        mode = expanded.stat().st_mode
    except FileNotFoundError:
        # Resolved, a link to nothing would be refused by its target's name alone.
        if dangling := _dangling_sentence(expanded, os.fspath(path)):
            raise SheetError(dangling) from None
    except (OSError, ValueError):
        pass  # not there, or a loop: resolving it or opening it says which
    else:
        # Resolved, a shell's <(…) (/dev/fd/63) becomes "/proc/…/fd/pipe:[…]", which names
        # nothing; and the file must not be opened: a pipe with no writer never answers.
        if special := _special_sentence(mode, os.fspath(path)):
            raise SheetError(special)
    try:
        return expanded.resolve()
    except RuntimeError as exc:  # "Symlink loop from …"
        raise SheetError(_loop_sentence(expanded, os.fspath(path))) from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SheetError(_loop_sentence(expanded, os.fspath(path))) from exc
        raise


WORKER_FLAG: Final = "--sheet-worker"
# The child loads the worker's file as a module rather than running it as a script: a script
# is compiled from source at every start (some 40 ms, on the way to every file's first rows),
# a module from the bytecode cached beside it. Its first argument is the worker's file.
_WORKER_BOOT: Final = (
    "import importlib.util, sys; "
    "spec = importlib.util.spec_from_file_location('sheet_worker', sys.argv.pop(1)); "
    "module = importlib.util.module_from_spec(spec); "
    "sys.modules['sheet_worker'] = module; "
    "spec.loader.exec_module(module); "
    "sys.exit(module.main(sys.argv[1:]))"
)


def worker_command() -> list[str]:
    """How to start :mod:`app.core.sheet_worker`: our interpreter, or the frozen app itself.

    A frozen build must dispatch ``WORKER_FLAG`` to ``sheet_worker.main(sys.argv[2:])`` before
    doing anything else (no Qt, no config) so the child starts fast.
    """
    if getattr(sys, "frozen", False):
        return [sys.executable, WORKER_FLAG]
    return [sys.executable, "-I", "-c", _WORKER_BOOT, sheet_worker.__file__]


def _not_a_spreadsheet(path: Path, kind: str) -> str:
    """The one sentence refusing a file that is ``kind`` ("a PDF document"), not a spreadsheet:
    no spreadsheet program opens it, so the list must come again in another form; a
    spreadsheet in a format that is not read (Numbers), or a shortcut to one, says how to get
    it as one that is."""
    if kind == NUMBERS:
        return (
            f"{path.name} is {kind}, which is not read; in Numbers, choose File → Export To → "
            "Excel (or CSV) and import the exported file."
        )
    if kind == SHEETS_SHORTCUT:
        return (
            f"{path.name} is {kind} (the link Google Drive keeps on the computer), not the "
            "sheet itself; open it in Google Sheets, download it as xlsx or CSV (File → "
            "Download) and import the downloaded file."
        )
    if kind == GNUMERIC:
        return (
            f"{path.name} is {kind}, which is not read; open it in Gnumeric and save it as "
            ".xlsx or CSV (File → Save As), then import that file."
        )
    if kind in (SYLK, DIF):
        return (
            f"{path.name} is {kind}, an old exchange format that is not read; open it in "
            "Excel or LibreOffice and save it as .xlsx or CSV, then import that file."
        )
    if kind in ARCHIVES:
        return (
            f"{path.name} is {kind}, not a spreadsheet; unpack it and import the spreadsheet "
            "inside, or ask for the list as an xlsx or CSV file."
        )
    return f"{path.name} is {kind}, not a spreadsheet; ask for the list as an xlsx or CSV file."


def _zip_sentence(path: Path) -> str:
    """The sentence refusing zip archive ``path``: the spreadsheets inside it are to be
    extracted and imported, or there are none."""
    inside = zip_spreadsheets(path)
    if not inside:
        return (
            f"{path.name} is a zip archive but not a spreadsheet, and holds no spreadsheet "
            "(xlsx, xls, ods or CSV file); ask for the list as an xlsx or CSV file."
        )
    if len(inside) == 1:
        holds, which = f"holds {inside[0]}", inside[0]
    else:
        shown = ", ".join(inside[:3]) if len(inside) <= 3 else ", ".join(inside[:3]) + ", …"
        holds, which = f"holds {len(inside)} spreadsheets ({shown})", "the one with the list"
    return (
        f"{path.name} is a zip archive but not a spreadsheet: it {holds}; extract it (on "
        f"Windows, right-click it and choose Extract All) and import {which}."
    )


def _flat_ods_sentence(path: Path) -> str:
    return (
        f"{path.name} is a flat OpenDocument spreadsheet (.fods, the single-XML form "
        "LibreOffice can save), which is not read; open it in LibreOffice and save it as .ods "
        "or .xlsx (File → Save As), then import that file."
    )


def _other_suffix_sentence(path: Path) -> str:
    """The sentence refusing ``path``, whose name is neither a workbook's nor a text
    table's: what it is when its content says so, and how to get it as a file that is read."""
    name = path.name
    markup = markup_kind(path)
    if markup == FLAT_ODS:
        return _flat_ods_sentence(path)
    if markup == EXCEL_2003_XML:
        return (
            f"{name} is {markup}, which is not read; open it in Excel and save it as .xlsx, "
            "or export the data as CSV."
        )
    if markup == WEB_PAGE:
        return (
            f"{name} is {markup}, not a spreadsheet; ask for the list as an xlsx or CSV file "
            "(or, if the page shows it as a table, open the page in Excel and save it as .xlsx)."
        )
    if markup and markup != XML_OR_HTML:
        return _not_a_spreadsheet(path, markup)
    if kind := text_format_kind(path, by_start=True):
        return _not_a_spreadsheet(path, kind)
    return (
        f"{name} is not a spreadsheet (xlsx, xlsm, xlsb, xls, ods) or a text table (csv, tsv, "
        "txt); if a spreadsheet program opens it, save it from there as .xlsx or CSV and "
        "import that file."
    )


def _stray_sentence(path: Path) -> str:
    """The sentence naming the cells far beyond the data of xlsx ``path`` that made it too big
    to read (a keystroke in the last cell after Ctrl+End), or "" when there are none."""
    stray = stray_cell(path)
    if stray is None:
        return ""
    one = len(stray.cells) == 1 and not stray.more
    cells = " and ".join(stray.cells) if len(stray.cells) <= 2 else ", ".join(stray.cells)
    cells = f"{'such as ' if stray.more else ''}{cells}"
    where = f" of the sheet {stray.sheet!r}" if stray.sheet else ""
    return (
        f"{path.name} needs more memory to read than it should because of "
        f"{'a stray cell' if one else 'stray cells'} at {cells}{where}, far beyond its data "
        f"in {stray.data} (so the sheet spans {stray.rows:,} rows by {stray.columns:,} "
        f"columns); clear {'that cell' if one else 'those cells'}, or delete the extra rows "
        "and columns, in Excel or LibreOffice and save the file, then import it again."
    )


# Enough sheets to find the ones a script filled; a workbook of more is not scanned past them.
_UNREAD_SHEETS: Final = 50


def _unread_values(path: Path, sheets: Sequence[str], name_sheets: bool) -> str:
    """Why ``sheets`` of workbook ``path``, which calamine reads as empty, hold no values
    though they hold cells: the rest of the refusal ("its cells hold …; do …"), or "" when
    they hold no formula never calculated and no error value (both read as empty), or cannot
    be scanned. ``name_sheets``: say which sheets hold them."""
    formulas: list[str] = []
    errors: list[str] = []
    shown: list[str] = []  # the error values, as "#DIV/0!"
    for sheet in sheets[:_UNREAD_SHEETS]:
        scan = sheet_worker.open_scan(str(path), sheet)
        if scan is None:
            continue
        try:
            scan.read_to_end()
        except (OSError, zipfile.BadZipFile, ValueError, EOFError, zlib.error):
            continue
        finally:
            scan.close()
        if scan.formulas:
            formulas.append(sheet)
        if scan.errors:
            errors.append(sheet)
            for *_, value in scan.errors:
                if value not in shown:
                    shown.append(value)
    held = formulas or errors
    if not held:
        return ""
    cells = "its cells"
    if name_sheets:
        listed = " and ".join(repr(sheet) for sheet in held)
        cells = f"the cells of its {'sheets' if len(held) > 1 else 'sheet'} {listed}"
    if formulas:
        # An empty saved result is a formula never calculated (a script's file) or one
        # calculated to empty text (=""): an .xls and an .ods do not tell them apart, so both
        # are said (black-box B18 F5: a re-save was advised where it changes nothing).
        return (
            f"{cells} hold formulas whose saved results are empty, which read as empty: "
            "formulas never calculated (as a file written by a script has them) are calculated "
            "by opening the file in Excel or LibreOffice and saving it, then import it again; "
            "formulas that give empty text hold no numbers to import."
        )
    return (
        f"{cells} hold only error values (such as {' and '.join(shown[:2])}), no "
        "numbers; correct the formulas in Excel or LibreOffice so they show the numbers, or "
        "ask for the list with its values, then import it again."
    )


def _password_sentence(path: Path) -> str:
    return (
        f"{path.name} is password-protected; remove the password in Excel (File → Info → "
        "Protect Workbook) or LibreOffice (File → Properties → Security) and try again."
    )


def _date_system(meta: tuple[Any, ...]) -> bool | None:
    """The date system a worker's "meta" message says (see
    :func:`~app.core.sheet_worker.date_system_1904`): True (1904), False (1900), None (not
    known, as an older worker's three- or four-item message does not say)."""
    if len(meta) <= 4 or meta[4] is None:
        return None
    return bool(meta[4])


class WorkbookSource:
    """A workbook sheet streamed from a :mod:`sheet_worker` child process.

    The first :meth:`iter_rows` (and :meth:`preview`) share the stream started by the
    constructor; a later :meth:`iter_rows` starts a fresh child and reads the sheet again.
    ``notes`` fills in as rows arrive (see :class:`SheetNotes`). ``date1904``: whether the
    workbook counts its number cells' days from 1904 (True) or 1900 (False), as an xlsx/xlsm's
    workbook part says; None for any other format, whose flag is not read.
    """

    def __init__(self, path: Path, sheet: str | None, fmt: str, probe_others: bool = False) -> None:
        self.path = path
        self.format = fmt
        self.sheet_names: tuple[str, ...] = ()
        self.sheet = ""
        self.notes = SheetNotes()
        self._buffer: list[Row] = []
        self._stream: _WorkerStream | None = _WorkerStream(
            path, sheet or "", fmt, self.notes, probe_others
        )
        self.sheet_names, self.sheet = self._stream.meta()
        # The workbook counts its day numbers from 1904 (an xlsx/xlsm's workbookPr says so):
        # a number cell read as a request date is read in that system (sheet_dates).
        self.date1904 = self._stream.date1904
        self._consumed = False

    def preview(self, n: int) -> list[Row]:
        """The first ``n`` rows (fewer if the sheet is shorter), without losing them."""
        stream = self._stream
        if stream is None or self._consumed:
            return [row for row, _ in zip(self._fresh_rows(), range(n), strict=False)]
        while len(self._buffer) < n:
            batch = stream.next_batch()
            if batch is None:
                break
            self._buffer.extend(batch)
        return self._buffer[:n]

    def iter_rows(self) -> RowIterator:
        if self._stream is None or self._consumed:
            return self._fresh_rows()
        self._consumed = True
        return self._drain(self._stream)

    def _drain(self, stream: _WorkerStream) -> RowIterator:
        buffered, self._buffer = self._buffer, []
        yield from buffered
        while (batch := stream.next_batch()) is not None:
            yield from batch
        stream.close()

    def _fresh_rows(self) -> RowIterator:
        stream = _WorkerStream(self.path, self.sheet, self.format, self.notes, primary=False)
        try:
            stream.meta()
            while (batch := stream.next_batch()) is not None:
                yield from batch
        finally:
            stream.close()

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def __enter__(self) -> WorkbookSource:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class _WorkerStream:
    """One child process reading one sheet; a watchdog kills it when it stops making progress."""

    def __init__(
        self,
        path: Path,
        sheet: str,
        fmt: str,
        notes: SheetNotes,
        probe: bool = False,
        primary: bool = True,
    ) -> None:
        self._path = path
        self._fmt = fmt
        self._notes = notes
        self._primary = primary  # a re-read only adds to the notes of the first read
        size = path.stat().st_size
        size_mb = size / (1 << 20)
        self._memory_limit = memory_limit(size)
        self._timeout = BASE_TIMEOUT + TIMEOUT_PER_MB * size_mb
        # No shell; the file name is one argv entry of our own interpreter and script.
        self._proc = subprocess.Popen(  # noqa: S603
            [
                *worker_command(),
                str(path),
                sheet,
                str(self._memory_limit),
                "1" if probe else "0",
                fmt,  # the kind its content showed: the worker reads it as that
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "RUST_BACKTRACE": "0"},
        )
        assert self._proc.stdout is not None
        self._out: IO[bytes] = self._proc.stdout
        self._deadline = time.monotonic() + self._timeout
        self._timed_out = False
        self._done = threading.Event()
        self._watchdog = threading.Thread(target=self._watch, daemon=True)
        self._watchdog.start()
        self._finished = False
        # Known once meta() has read the worker's first message (None: not known).
        self.date1904: bool | None = None
        # Row → column → the length of a text cut as read, until the row is handed out.
        self._cut: dict[int, dict[int, int]] = {}

    def _watch(self) -> None:
        while not self._done.wait(0.25):
            if time.monotonic() > self._deadline:
                self._timed_out = True
                self._proc.kill()
                return

    def _read_message(self) -> tuple[Any, ...]:
        # The clock runs only while we wait: a slow consumer leaves the child blocked on a full
        # pipe, which is not the child's fault.
        self._deadline = time.monotonic() + self._timeout
        head = self._out.read(4)
        if len(head) < 4:
            raise self._failure()
        (length,) = struct.unpack(">I", head)
        data = self._out.read(length)
        if len(data) < length:
            raise self._failure()
        self._deadline = float("inf")
        # The payload is written by our own worker from cell values; nothing else writes here.
        if data[:1] == b"m":
            message: tuple[Any, ...] = marshal.loads(data[1:])  # noqa: S302
        else:
            message = pickle.loads(data[1:])  # noqa: S301
        if message[0] == "error":
            self.close()
            raise self._error(message)
        return message

    def meta(self) -> tuple[tuple[str, ...], str]:
        """The sheet names (chart sheets left out) and the chosen sheet; the hidden worksheets
        go to the notes."""
        message = self._read_message()
        if message[0] != "meta":
            self.close()
            raise SheetError(f"{self._path.name} could not be read (unexpected reader reply).")
        if self._primary and len(message) > 3:  # ("meta", names, chosen, hidden_names)
            self._notes.hidden_sheets = set(message[3])
        self.date1904 = _date_system(message)
        names = tuple(message[1])
        if len(message) > 5:
            # A chart sheet is no sheet to offer (a hint, a sheet list): it has no cells. One
            # named and chosen stays, for its own message.
            charts = set(message[5]) - {message[2]}
            names = tuple(n for n in names if n not in charts)
        # Right after it the worker says whether it can see hidden rows (not when its scan of
        # the sheet's layout failed, or an .xls is older than BIFF8).
        scan = self._read_message()
        if scan[0] != "scan":
            self.close()
            raise SheetError(f"{self._path.name} could not be read (unexpected reader reply).")
        if scan[1] is None:
            self._notes.hidden_known = False
        elif self._primary:
            self._notes.hidden_known = True
        return names, str(message[2])

    def next_batch(self) -> list[Row] | None:
        if self._finished:
            return None
        while True:
            message = self._read_message()
            kind = message[0]
            if kind == "rows":
                rows: list[Row] = message[1]
                if self._cut:
                    self._hand_cut(rows)
                return rows
            if kind == "scan":
                self._scanned(
                    message[1],
                    message[2],
                    message[3] if len(message) > 3 else [],
                    message[4] if len(message) > 4 else [],
                )
            elif kind == "cut":  # texts longer than a spreadsheet cell, cut to it
                self._notes.cut_cells.update(((r, c), n) for r, c, n in message[1])
                for r, c, n in message[1]:
                    self._cut.setdefault(r, {})[c] = n
            elif kind == "unshown":  # number cells whose format shows nothing
                if self._primary:
                    self._notes.unshown.update(((r, c), text) for r, c, text in message[1])
            elif kind == "merged":
                if self._primary:
                    self._notes.merged = [tuple(r) for r in message[1]]
            elif kind == "padded":  # zero-padded number cells read as plain numbers from here
                if self._primary:
                    self._notes.padded_cut = PaddedCut(*message[1:4])
            elif kind == "date_formats":  # date cells by their number format's order
                if self._primary:
                    for column, day_first, count, row, code in message[1]:
                        self._notes.date_formats[column, day_first] = FormatDates(count, row, code)
            elif kind == "sheets":
                self._notes.other_sheets = dict(message[1])
                self._notes.hidden_sheets = set(message[2]) if len(message) > 2 else set()
            elif kind == "end":
                self._finished = True
                self.close()
                return None
            else:
                self.close()
                raise SheetError(f"{self._path.name} could not be read (unexpected reader reply).")

    def _hand_cut(self, rows: list[Row]) -> None:
        """The rows of ``rows`` holding a text cut as it was read, as :class:`CutCells`
        saying the length it had: the check's messages say that length, not the cut one."""
        for i, (number, cells) in enumerate(rows):
            lengths = self._cut.pop(number, None)
            if lengths is not None:
                rows[i] = (number, CutCells(cells, lengths))

    def _scanned(
        self,
        hidden: list[int] | None,
        formulas: list[tuple[int, int, str]],
        errors: list[tuple[int, int, str]],
        columns: list[tuple[int, int]],
    ) -> None:
        notes = self._notes
        for first, last in columns:  # 1-based, as in the file
            notes.hidden_columns.update(range(max(first, 1) - 1, min(last, MAX_COLUMNS)))
        if hidden is None:  # the scan failed part way: the rows after it are not known
            notes.hidden_known = False
            return
        notes.hidden_rows.update(hidden)
        for row, column, formula in formulas:
            notes.formulas[(row, column)] = formula
        for row, column, error in errors:
            # In formulas too: staging catches a cell that reads as empty by that.
            notes.errors[(row, column)] = error
            notes.formulas.setdefault((row, column), "")

    def _failure(self) -> SheetError:
        self._done.set()
        code = self._proc.wait()
        self.close()
        name = self._path.name
        if self._timed_out:
            return SheetError(
                f"{name} took longer than {self._timeout:.0f} seconds to read and was stopped; "
                "it may be damaged or crafted to hang readers."
            )
        if code == -signal.SIGABRT:
            # calamine aborts (Rust's out-of-memory handler) when the address-space cap bites.
            if stray := self._stray():
                return SheetError(stray)
            return SheetError(
                f"{name} needs more memory to read than a spreadsheet of its size should "
                f"(limit {self._memory_limit / (1 << 30):.0f} GB); it is damaged or crafted, so "
                "reading stopped."
            )
        if code != 0:
            return SheetError(
                damaged_sentence(name, f"the spreadsheet reader stopped on it, exit status {code}")
            )
        return SheetError(f"{name} could not be read (the reader stopped unexpectedly).")

    def _error(self, message: tuple[Any, ...]) -> SheetError:
        kind, detail = message[1], message[2]
        names: list[str] = list(message[3]) if len(message) > 3 else []
        name = self._path.name
        if kind == "password":
            return SheetError(_password_sentence(self._path))
        if kind == "no_sheet":
            listed = ", ".join(repr(n) for n in names) or "none"
            return SheetError(f"{name} has no sheet named {detail!r}; its sheets are {listed}.")
        if kind == "ambiguous_sheet":
            key = str(detail).strip().casefold()
            alike = " and ".join(repr(n) for n in names if n.strip().casefold() == key)
            return SheetError(
                f"{name} has sheets {alike}, which differ only in case; give the sheet name "
                "exactly as written."
            )
        if kind == "empty":
            hidden: list[str] = list(message[4]) if len(message) > 4 else []
            if not hidden:
                unread = _unread_values(self._path, names, len(names) > 1)
                return SheetError(
                    f"{name} has no values to read: {unread}"
                    if unread
                    # With a next step: it may not be the file meant (black-box bb2 F11).
                    else f"{name} has no data in any visible sheet: check that it is the file "
                    "you meant and that it was saved with its rows, then run again."
                )
            listed = " and ".join(repr(n) for n in hidden)
            many = len(hidden) > 1
            return SheetError(
                f"{name} has no data in any visible sheet; its hidden "
                f"{'sheets' if many else 'sheet'} {listed} {'hold' if many else 'holds'} data "
                f"but {'are' if many else 'is'} read only when named (as --sheet {hidden[0]!r} "
                "on the command line) or once unhidden in the file."
            )
        if kind == "empty_sheet":
            unread = _unread_values(self._path, [str(detail)], False)
            if unread:
                return SheetError(f"The sheet {detail!r} of {name} has no values to read: {unread}")
            return SheetError(f"The sheet {detail!r} of {name} is empty.")
        if kind == "encoding":
            return SheetError(
                f"{name} could not be read: its sheet {detail!r} is stored as UTF-16 text, "
                "which the spreadsheet reader does not read (it is not empty); open the file "
                "in Excel or LibreOffice and save it as .xlsx, then import it again."
            )
        if kind == "layout":
            note = _reader_note(str(message[4])) if len(message) > 4 else ""
            tail = f" (the reader said: {note.rstrip('.')})" if note else ""
            return SheetError(
                f"{name} could not be read: it keeps its workbook at {detail} rather than "
                "xl/workbook.xml, where Excel and LibreOffice keep it, and the spreadsheet "
                "reader cannot follow that (the file is not damaged); open it in Excel or "
                f"LibreOffice and save it as .xlsx, then import it again{tail}."
            )
        if kind == "memory":
            if stray := self._stray():
                return SheetError(stray)
            return SheetError(f"{name} needs more memory to read than it should; reading stopped.")
        note = _reader_note(str(detail))
        return SheetError(damaged_sentence(name, f"the reader said: {note}" if note else ""))

    def _stray(self) -> str:
        """:func:`_stray_sentence` of an xlsx (the other formats are not scanned for it)."""
        return _stray_sentence(self._path) if self._fmt == "xlsx" else ""

    def close(self) -> None:
        self._done.set()
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        self._out.close()
