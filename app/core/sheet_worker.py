"""Child process that reads one workbook sheet with python-calamine and streams its rows.

Run as a script (``python -I sheet_worker.py PATH SHEET MEMORY_LIMIT [PROBE]``); it imports only
the standard library and python_calamine so it starts fast and is independent of the app package.
A frozen (PyInstaller) build has no separate interpreter: its entry point must call
:func:`main` with the remaining arguments when started as ``APP --sheet-worker PATH SHEET LIMIT``
(see :func:`app.core.sheet_reader.worker_command`).
calamine builds a dense grid of the sheet in native code, and a crafted file (cells at A1 and
XFD1048576, a bogus record length in an .xls) makes it allocate gigabytes or abort the process.
So that never touches the app, the read happens here under an address-space limit; the parent
(:mod:`app.core.sheet_reader`) turns a crash or a timeout into one sentence.

SHEET is matched as Excel does: an exact name first, else the one name equal to it ignoring case
and surrounding spaces.

With SHEET empty, the first visible worksheet with data is read: a hidden sheet is never chosen
unless named (whoever looks at the file has not seen it), and a sheet whose name says it is not to
be used ("DO NOT USE", "Old DNC", "Archive", "Dupes": :func:`do_not_use_sheet`) only when no other
visible sheet has data. The other sheets probed are listed with such sheets last, after those
whose name says they are front matter ("Cover", "Instructions", "README":
:func:`front_matter_sheet`), which staging tries after the rest (:func:`usable_first`).

Messages on stdout: a 4-byte big-endian length, then a pickle of one tuple: ``("meta", sheet_names,
chosen_sheet, hidden_names, date1904, not_worksheets)`` (``hidden_names``: the hidden worksheets,
known from the workbook's sheet list at no cost; ``date1904``: whether an xlsx/xlsm counts its
day numbers in the 1904 date system, True, or the 1900 one, False, or None when the reader does
not learn it,
:func:`date_system_1904`; ``not_worksheets``: the chart, dialog and macro sheets among
``sheet_names``, which hold no cells to read; a reader must accept the older three-, four- and
five-item forms too, which do not say); ``("scan", ...)``
messages (below); ``("rows", [(row_number, cells), ...])`` repeatedly (before the first,
``("merged", [(first_row, first_column, last_row, last_column), ...])`` when the sheet has merged
ranges: rows 1-based, columns 0-based, the cells they cover showing their first cell's value;
before a batch holding a text longer than ``MAX_CELL_CHARS``, Excel's limit, which is cut to it,
``("cut", [(row, column, length), ...])``, rows 1-based, columns 0-based); with
PROBE ``1``, ``("sheets", {name: rows}, hidden_names)`` holding the first non-blank rows of every
other worksheet, hidden ones too, and the names of the hidden worksheets; ``("end", row_count)``;
or ``("error", kind, detail, sheet_names)`` with kind ``password``, ``no_sheet``,
``ambiguous_sheet``, ``empty``, ``empty_sheet``, ``encoding``, ``layout``, ``memory`` or
``corrupt`` (a panic in calamine's native code, pyo3's ``PanicException``, too). With SHEET
empty, ``empty`` (no visible sheet holds data) has a fifth item: the hidden worksheets that
hold data, which were not read. ``encoding`` (detail: the sheet) comes instead of ``empty`` or
``empty_sheet`` when the sheet calamine reads as empty is stored as UTF-16 text, which the
format allows and calamine does not read; ``layout`` (detail: the workbook part) instead of
``corrupt`` when calamine fails on an xlsx whose package keeps its workbook elsewhere than
``xl/workbook.xml`` (valid, unusual), calamine's words as a fifth item.

python-calamine tells neither which rows are hidden nor which cells hold a formula with no saved
result or an error value (both read as empty), so for an xlsx/xlsm the sheet's XML part is scanned
for them (:class:`XmlScan`: the part found as the package's relationships name it, its zip
entry named with "/" or "\\"; any namespace prefix; cells and rows placed as calamine places
them, with or without references), for an .ods the sheet's table in ``content.xml``
(:class:`OdsScan`), for an .xls the sheet's BIFF8 records (:class:`XlsScan`: hidden rows
and columns, error values and formulas whose saved result is empty, as xlwt writes every
formula), and for an .xlsb its worksheet part's records (:class:`XlsbScan`: hidden rows and
columns, error values, merged ranges, which calamine does not give for an .xlsb, and padded
number formats), in a thread while calamine parses (:class:`ScanAhead`). Right after "meta",
``("scan", [], [])`` says the scan ran (``("scan", None, [])``: a file of no other kind, or a
part the scan could not find or read: hidden rows are not known). ``("scan", hidden_rows, formulas[,
errors[, columns]])`` gives what it found, if anything, always before the "rows" batch holding
those rows: row numbers hidden by hand or by a filter (``hidden="1"``, or a zero height of the
row's own, ``ht="0" customHeight="1"``; in an .ods ``table:visibility="collapse"`` or
``"filter"``; in an .xls a ``ROW`` record's fDyZero; in an xlsx and an .xls only rows holding
cells), ``(row, column, formula)`` for cells whose formula has no saved value, as a fourth item
only when there are any (or columns follow), ``(row, column, error)`` for cells holding an error
value such as ``#N/A`` (``t="e"``), and as a fifth only when there are any, ``(first, last)``
ranges of hidden columns, 1-based as in ``<col min max>`` (``hidden="1"`` or ``width="0"``; in an
.ods ``table:visibility="collapse"`` or a collapsed column group; in an .xls a ``COLINFO`` record's
fHidden or zero width); at most ``MAX_FORMULAS`` cells of each kind and ``MAX_COLUMNS`` ranges. An
xlsx's and an .xls's findings all go before the first batch, as do an .ods's cells and columns;
its hidden rows go a batch at a time, only as far as the rows sent (a hidden block repeated to row
1,048,576 is not listed past the data). A scan that failed half way (or an .ods whose sheet's
table was not found, an .xls not in BIFF8) says ``("scan", None, [])`` after what it had sent; an
.ods's scan goes on sending, batch by batch, the hidden rows it found before failing.

calamine also reads an .ods cell with no ``office:value-type`` as empty, though such a cell holds
its text paragraphs (valid OpenDocument, as odfpy-style generators write every text cell, and
LibreOffice shows the text): the :class:`OdsScan` keeps the text of those cells and the worker
puts it into the rows before sending them (:class:`_TextFill`), so they read as in LibreOffice,
a sheet of nothing else too. So does a text cell whose paragraph holds a ``<text:line-break/>``,
which calamine reads with the break left out (two numbers on two lines then read as one
20-digit number): it reads with a new line there, as two paragraphs do. Other sheets probed
with PROBE are read without it.

An xlsx that asks to be calculated when opened (``<calcPr fullCalcOnLoad="1"/>``, as XlsxWriter
and openpyxl write every workbook) may hold the number 0 as the saved result of a formula whose
result its writer did not know: XlsxWriter's placeholder. The :class:`XmlScan` reports such a
cell as a formula with no saved result, and the worker empties it before sending its row
(calamine reads the 0), so it reads as the same formula written with no value does. A
non-zero result in such a file was given by the writer and is kept; a 0 in a workbook
without the flag (Excel drops it when it saves, having calculated) is a real result.

Two kinds of file calamine misreads are given to it as a corrected copy held in memory
(:func:`_open_workbook`): an .xlsb holding MS-XLSB's short cell records (no column: SheetJS
writes every cell after a row's first so), which calamine skips, so that only column A was
read, with those records written as the full ones (:func:`xlsb_full_cells`); and an .ods
whose content.xml is indented (SheetJS), on which calamine fails, without the whitespace
between its tables' tags (:func:`ods_without_indent`, only once the file itself failed).

An .xls LibreOffice saved from a file holding calculated results (an .ods, its own .xlsx) holds
the result of a formula giving text (``=B2&"-"&C2``, ``=TEXT(A2,"0")``) as the number 0 and no
text: calamine reads 0, where LibreOffice and Excel, calculating again, show the text. The
:class:`XlsScan` keeps such formulas (one whose outermost operation gives only text, saved as 0)
and the worker works them out from the cells they join (:class:`_FormulaFill`) before sending
the rows; one it cannot work out is emptied and sent as a formula with no saved result.

A number cell whose number format pads it with zeros ("0000000000", "0##########",
``"0"##########``: :func:`padded_shape`), as UK and Italian lists keep a leading 0, shows
0351234568 where it holds 351234568, which calamine reads (another number). In an xlsx the
:class:`XmlScan` notes such cells (their ``s="N"``, through the styles part's ``<cellXfs>`` and
``<numFmts>``: :func:`padded_styles`), in an .xls the :class:`XlsScan` (their XF, through the
globals' ``FORMAT`` and ``XF`` records), in an .xlsb the :class:`XlsbScan` (their iStyleRef,
through styles.bin's ``BrtXF`` and ``BrtFmt``: :func:`xlsb_padded_styles`), in an .ods the
:class:`OdsScan` (their cell style's, or their column's default cell style's, data style:
``number:min-integer-digits``, a ``number:text`` digit, a ``style:map`` for a positive number:
:func:`ods_padded_styles`), and the worker sends a whole number above 0 in them as the text the
format shows (:func:`_pad_cells`), as Excel shows it. A workbook without such a format searches
no cell for it. Only cells holding a number are noted (not the empty cells of a formatted
range, nor text), at most ``MAX_PLACEHOLDERS``: past it a scan stops noting them (its
``padded_cut``: the first cell not noted) and the rest read as the numbers they hold, the file
read all the same; the worker sends that cell (``("padded", row, column, kept)``) before the
rows, for staging to warn that the numbers from that row on lost their leading zeros.

Date cells whose number format writes the day and month in digits ("dd/mm/yyyy", "mm/dd/yyyy":
:func:`format_day_first`) are counted by column and order the same way, the formats read once
per style (an xlsx's custom ``<numFmts>``: :func:`date_order_styles`, not the built-in short
date, which shows the reader's locale; an .xls's ``FORMAT`` and ``XF`` records; an .ods's
``number:date-style``: :func:`ods_date_styles`), at most ``MAX_DATE_CELLS``, and sent after the
rows (``("date_formats", [(column, day_first, count, row, code), …])``): a request-date
column's order when its text dates do not tell it (black-box bb13 F8).
"""

from __future__ import annotations

import array
import bisect
import contextlib
import functools
import html
import io
import itertools
import marshal
import os
import pickle
import posixpath
import re
import shutil
import struct
import sys
import threading
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any, BinaryIO, Final

BATCH_ROWS = 2000
# Rows and columns of each other sheet sent with PROBE: enough to find a header and numbers.
PROBE_ROWS = 60
PROBE_COLUMNS = 200
SCAN_CHUNK = 1 << 20
# The most of a part kept from one chunk for the next (a cell or a row still open): far more
# than any cell a spreadsheet program writes, whose text is at most 32,767 characters.
MAX_SCAN_TAIL = 4 * SCAN_CHUNK
MAX_FORMULAS = 10_000
MAX_MERGED = 100_000  # merged ranges sent to the parent
_P = rb"(?:[A-Za-z_][\w.-]*:)?"  # an optional namespace prefix, as in <x:row>
_ROW_TAG = re.compile(rb"<" + _P + rb"row\b([^>]*)>")
# A row's and a cell's attributes, in either quote (XML allows both; calamine reads both).
_ROW_NUMBER = re.compile(rb"""\br\s*=\s*(["'])(\d+)\1""")  # group 2: the number
_HIDDEN = re.compile(rb"""\bhidden\s*=\s*(["'])(?:1|true)\1""")
# A row of zero height is hidden too, when the height is its own (customHeight): without it,
# Excel sizes the row to its content, so ht="0" alone hides nothing.
# Where a row tag may hide its row: a hidden attribute that says so, or a height that may be
# zero. Not the bare word: LibreOffice writes hidden="false" on every row tag, and testing
# each of those tags cost 0.3 s per 100,000 rows. No leading \b, which would cost re its
# search for the literal start (ten times slower); _row_hidden decides on the whole tag.
_HIDE_HINT = re.compile(rb"""hidden\s*=\s*(["'])(?:1|true)\1|ht\s*=\s*["']\s*[-+]?[0.]""")
_HEIGHT = re.compile(rb"""\bht\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_CUSTOM_HEIGHT = re.compile(rb"""\bcustomHeight\s*=\s*(["'])(?:1|true)\1""")
# A cell's tag and the row of its reference (r="B7", lower case too; empty if it has none):
# calamine places the cell there.
_CELL_ROW = re.compile(rb"<" + _P + rb"""c\b(?:[^>]*?\br\s*=\s*["'][A-Za-z]*(\d+)["'])?""")
# Columns: <col min="3" max="5" hidden="1"/> in <cols>, which comes before <sheetData>.
_COL_TAG = re.compile(rb"<" + _P + rb"col\b([^>]*)>")
_SHEET_DATA = re.compile(rb"<" + _P + rb"sheetData\b")
MAX_COLUMNS = 16_384  # Excel's last column, XFD
# Excel's limit on a cell's text: no cell a spreadsheet program made is longer. A longer one
# (crafted, or a generator's) is cut to it here, before it is sent: a 120 MB cell took the
# parent over a minute and a gigabyte, and filled the job file (black-box R3 #1).
MAX_CELL_CHARS = 32_767
# A cell whose formula is followed by no value, or by an empty one: never calculated. Group 1:
# the cell's attributes (its reference, if it has one), group 2: the formula.
_NO_VALUE = re.compile(
    rb"<" + _P + rb"c\b([^>]*)>\s*<" + _P + rb"f\b[^>]*?"
    rb"(?:/>|>([^<]*)</"
    + _P
    + rb"f>)\s*(?:<"
    + _P
    + rb"v\s*/>|<"
    + _P
    + rb"v>\s*</"
    + _P
    + rb"v>)?\s*</"
    + _P
    + rb"c>"
)
# A value element, as _NO_VALUE's match holds one after its formula (empty, or <v/>).
_VALUE_TAG = re.compile(rb"<" + _P + rb"v\b")


def _empty_text_result(match: re.Match[bytes]) -> bool:
    """Whether a _NO_VALUE match is a formula calculated to empty text (``t="str"`` and an
    empty saved value, as Excel and LibreOffice save ``=IF(B2="","",B2)`` giving ""), which
    reads as the empty cell it shows, not a formula never calculated (re-test U2 F3: such rows
    were invalid, told to re-save a file re-saving cannot change). A script writes no type."""
    kind = _CELL_TYPE.search(match.group(1))
    if kind is None or (kind.group(1) or kind.group(2)) != b"str":
        return False
    return _VALUE_TAG.search(match.string, match.end(1), match.end()) is not None


# A formula cell whose saved value is the number 0 (no type, or t="n"): in a workbook that
# asks to be calculated when opened (fullCalcOnLoad), the placeholder XlsxWriter (and pandas
# through it) writes for every formula it was given no result for (black-box B6 #1-#3).
# Groups as _NO_VALUE's.
_ZERO_VALUE = re.compile(
    rb"<" + _P + rb"c\b([^>]*)>\s*<" + _P + rb"f\b[^>]*?"
    rb"(?:/>|>([^<]*)</"
    + _P
    + rb"f>)\s*<"
    + _P
    + rb"v>\s*0(?:\.0*)?\s*</"
    + _P
    + rb"v>\s*</"
    + _P
    + rb"c>"
)
_CELL_TYPE = re.compile(rb"""\bt\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_CALC_PR = re.compile(rb"<" + _P + rb"calcPr\b([^>]*)>")
_WORKBOOK_PR = re.compile(rb"<" + _P + rb"workbookPr\b([^>]*)>")
# How much of an xlsx's workbook part is searched for <workbookPr>: the schema puts it before
# <sheets>, after only the file's version, sharing and a writer's path, so a large workbook
# part (thousands of defined names) is not read through.
_WORKBOOK_HEAD = 1 << 16
# The most placeholder cells kept to empty (each an int): past it the worker stops, as for
# other scans with too much to hold (no program writes a sheet of millions of formulas).
# Also the most number cells noted as padded by their format: past it the rest are read as
# the numbers they hold, as before such formats were read, and a warning names the first
# (see XmlScan.padded_cut).
MAX_PLACEHOLDERS = 2_000_000
# What follows the tag of a cell that holds a value: an optional formula, then a value not
# empty. Only such a cell (and no text: no t="s", "str", "inlineStr") can be a padded number;
# an empty styled cell (<c r="B2" s="1"/>, as Excel writes every cell of a formatted range)
# cannot.
_HAS_VALUE = re.compile(
    rb"(?:\s*<" + _P + rb"f\b[^<>]*?(?:/>|>[^<]*</" + _P + rb"f>))?"
    rb"\s*<" + _P + rb"v\b[^<>/]*>\s*[^<\s]"
)
# A cell holding an error value (t="e"), as #N/A: calamine reads it as empty. After the cell's
# tag, an optional formula, then the value: the error's text.
_ERROR_HINTS = (b'"e"', b"'e'")
_CELL_TAG = re.compile(rb"<" + _P + rb"c\b([^>]*)>")
# A cell's reference, as calamine reads it: either quote, lower case letters too.
_CELL_REF = re.compile(rb"""\br\s*=\s*["']([A-Za-z]{1,3})(\d+)["']""")
_ERROR_TYPE = re.compile(rb"""\bt\s*=\s*(["'])e\1""")
_ERROR_VALUE = re.compile(
    rb"(?:\s*<" + _P + rb"f\b[^>]*?(?:/>|>[^<]*</" + _P + rb"f>))?"
    rb"\s*<" + _P + rb"v\b[^>/]*>([^<]+)</" + _P + rb"v>"
)
_SHEET_TAG = re.compile(rb"<" + _P + rb"sheet\b([^>]*)>")
# xl/styles.xml: the number formats (<numFmts>) and the cell formats (<cellXfs>), whose
# order gives a cell's s="N" its format; <cellStyleXfs> holds <xf> tags too, not the cells'.
# A tag's attributes never hold "<": a tag left open (crafted: 80,000 "<numFmt " in 3 KB)
# ends the match at the next one, where "[^>]*" rescanned to the end of the part from each
# (a minute of CPU). A closing tag is found once (_element_body), not from every opening.
_NUM_FMT = re.compile(rb"<" + _P + rb"numFmt\b([^<>]*)>")
_CELL_XFS = re.compile(rb"<(" + _P + rb")cellXfs\b([^<>]*)>")
_XF = re.compile(rb"<" + _P + rb"xf\b([^<>]*)>")
MAX_STYLES_PART = 64 << 20  # a styles part larger than this (crafted) is not read
_RELATIONSHIP = re.compile(rb"<" + _P + rb"Relationship\b([^>]*)>")
_ATTRIBUTE = re.compile(rb"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
# OpenDocument: the table namespace's prefix (always "table:" in practice) is read from its
# declaration, else from the first <…:table>; then _ods_tags finds the tags that place rows in
# a sheet. Attributes may be in either quote.
ODS_PART = "content.xml"
_ODS_NAMESPACE = re.compile(
    rb"""\sxmlns:([A-Za-z_][\w.-]*)\s*=\s*["']"""
    rb"""urn:oasis:names:tc:opendocument:xmlns:table:1\.0["']"""
)
_ODS_TABLE = re.compile(rb"<(" + _P + rb")table(?=[\s/>])")
_ODS_ATTRIBUTE = re.compile(rb"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def _ods_tags(prefix: bytes) -> re.Pattern[bytes]:
    """Openings of tables, rows, columns and their groups (group 1: ``-row``, ``-row-group``,
    ``-column``, ``-column-group`` or None; group 2: the attributes), closings of tables and
    of row and column groups (group 3), with the namespace ``prefix``. Cells and closings of
    rows, most of the part, are not matched."""
    p = re.escape(prefix)
    return re.compile(
        rb"<"
        + p
        + rb"table(-row-group|-row|-column-group|-column)?(?=[\s/>])([^>]*)>|</"
        + p
        + rb"table(-row-group|-column-group)?\s*>"
    )


# In a row of an .ods, what makes its cells worth reading one by one: an error value (as
# LibreOffice marks it), a formula (maybe never calculated), a merged range, a line break in a
# text (calamine drops it: "303-555-1109<text:line-break/>303-555-1110" read as one number).
_ODS_CELL_HINT = re.compile(
    rb"""value-type\s*=\s*["']error|formula\s*=|-spanned\s*=|:line-break\b"""
)
_ODS_STRING = re.compile(rb"""value-type\s*=\s*["']string["']""")
# A number cell, whose data style may pad it with zeros (see ods_padded_styles).
_ODS_FLOAT = re.compile(rb"""value-type\s*=\s*["']float["']""")
_ODS_DATE_TYPE = re.compile(rb"""value-type\s*=\s*["']date["']""")
# A data style for numbers and its parts, and a named or automatic style (a cell's).
# Openings only, their closings found by _element_body (see _NUM_FMT).
_ODS_NUMBER_STYLE = re.compile(rb"<(" + _P + rb")number-style(?=[\s/>])([^<>]*)>")
_ODS_TEXT_STYLE = re.compile(rb"<(" + _P + rb")text-style(?=[\s/>])([^<>]*)>")
_ODS_PIECE = re.compile(rb"<(/?)(?:[A-Za-z_][\w.-]*:)?([\w.-]+)([^<>]*)>|([^<]+)")
_ODS_STYLE = re.compile(rb"<" + _P + rb"style(?=[\s/>])([^<>]*)>")
_ODS_BODY = re.compile(rb"<" + _P + rb"body\b")
_ODS_MARKUP = re.compile(rb"<[^>]*>")
_ODS_PARAGRAPH = re.compile(rb"<(?:[\w.-]+:)?p\b")  # a cell's paragraph, ``<text:p/>`` too
# A cell with no value type holds its text paragraphs (calamine reads it as empty): at most this
# many runs of such cells are kept, a run being one cell element, repeated or not; past it the
# file is refused as needing too much memory (a crafted one: real files hold far fewer).
MAX_TEXTS = 2_000_000
ODS_MAX_ROWS = 1 << 20  # rows of text filled in, as far as LibreOffice's sheet goes
# The attribute holding a cell's value, by its office:value-type; a string's value is its text.
_ODS_VALUE_ATTRIBUTE = {
    "float": "value",
    "percentage": "value",
    "currency": "value",
    "date": "date-value",
    "time": "time-value",
    "boolean": "boolean-value",
}
# The tags (group 1: "/" of a closing one, 2: the local name, 3: the attributes) and the
# character data (group 4) of a cell's content.
_ODS_TEXT_TOKEN = re.compile(rb"<(/?)(?:[\w.-]+:)?([\w.-]+)([^>]*)>|([^<]+)")
_XML_SPACE = re.compile(r"[ \t\r\n]+")


def _ods_text(body: bytes) -> str:
    """The text of an .ods cell's content ``body`` as LibreOffice shows it: its paragraphs one
    a line, ``<text:s text:c="N"/>`` N spaces, ``<text:tab/>`` a tab, ``<text:line-break/>`` a
    new line, other markup (spans, links) read through, a comment (``office:annotation``)
    left out. Runs of white space in the character data are one space, none at a paragraph's
    start (the format's white-space rule)."""
    paragraphs: list[list[str]] = []
    inside = False  # in a paragraph: its character data is text
    skipped = 0  # annotations open
    for closing, name, attributes, data in _ODS_TEXT_TOKEN.findall(body):
        if name == b"annotation" and not attributes.rstrip().endswith(b"/"):
            skipped += -1 if closing else 1
        elif skipped:
            continue
        elif name in (b"p", b"h"):
            if not closing:
                paragraphs.append([])
            inside = not closing and not attributes.rstrip().endswith(b"/")
        elif not inside or closing:
            continue
        elif data:
            text = _XML_SPACE.sub(" ", html.unescape(data.decode("utf-8", "replace")))
            line = paragraphs[-1]
            if text.startswith(" ") and (not line or line[-1].endswith(" ")):
                text = text[1:]
            line.append(text)
        elif name == b"s":
            spaces = _repeat(_ods_attributes(attributes).get("c", "1"))
            paragraphs[-1].append(" " * min(spaces, 1000))
        elif name == b"tab":
            paragraphs[-1].append("\t")
        elif name == b"line-break":
            paragraphs[-1].append("\n")
    return "\n".join("".join(line) for line in paragraphs)


def _send(out: BinaryIO, message: tuple[Any, ...]) -> None:
    # marshal is about twice as fast as pickle for rows of str/float; dates need pickle.
    try:
        data = b"m" + marshal.dumps(message)
    except ValueError:
        data = b"p" + pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(struct.pack(">I", len(data)))
    out.write(data)


def _limit_memory(limit: int) -> None:
    if limit <= 0:
        return
    try:
        import resource
    except ImportError:  # Windows: the parent's timeout is the only bound there.
        return
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _attributes(text: bytes) -> dict[str, str]:
    return {
        k.decode("utf-8", "replace"): html.unescape((d or q).decode("utf-8", "replace"))
        for k, d, q in _ATTRIBUTE.findall(text)
    }


def _member_names(zf: zipfile.ZipFile) -> dict[str, str]:
    """The zip's members by their part name: "/" for "\\" (some writers' zip tools store
    ``xl\\workbook.xml``, which calamine reads), no leading "/", in lower case (part names
    match ignoring case in an Open Packaging package)."""
    names: dict[str, str] = {}
    for name in zf.namelist():
        names.setdefault(_part_name(name), name)
    return names


def _rels_part(part: str) -> str:
    """The relationships part of ``part``: xl/_rels/workbook.xml.rels for xl/workbook.xml."""
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def _relationships(zf: zipfile.ZipFile, names: dict[str, str], part: str) -> dict[str, str]:
    """Relationship Id → the part its Target names (relative to ``part``'s folder, or from the
    package's root for a Target starting with "/"), lower case as :func:`_member_names`;
    external targets left out."""
    member = names.get(_rels_part(part).lower())
    if member is None:
        return {}
    targets: dict[str, str] = {}
    for match in _RELATIONSHIP.finditer(zf.read(member)):
        attrs = _attributes(match.group(1))
        target = attrs.get("Target", "").replace("\\", "/")
        if not target or attrs.get("TargetMode", "").lower() == "external":
            continue
        targets.setdefault(attrs.get("Id", ""), _target(part, target))
    return targets


def _target(part: str, target: str) -> str:
    """The part a relationship of ``part`` names with ``target`` (relative to ``part``'s
    folder, or from the package's root when it starts with "/"), as :func:`_member_names`
    keys it."""
    base = "" if target.startswith("/") else posixpath.dirname(part)
    resolved = posixpath.normpath(posixpath.join(base, target.lstrip("/")))
    return resolved.lstrip("/").lower()


def styles_part(zf: zipfile.ZipFile) -> str | None:
    """The zip member holding an xlsx's styles: where the workbook's relationships point
    their styles, else ``xl/styles.xml``; None when there is no such part."""
    names = _member_names(zf)
    workbook = workbook_part(zf)
    if workbook is None:
        return None
    part = _part_name(workbook)
    member = names.get(_rels_part(part))
    if member is not None:
        for match in _RELATIONSHIP.finditer(zf.read(member)):
            attrs = _attributes(match.group(1))
            target = attrs.get("Target", "").replace("\\", "/")
            if (
                target
                and attrs.get("Type", "").endswith("/styles")
                and attrs.get("TargetMode", "").lower() != "external"
            ):
                found = names.get(_target(part, target))
                if found is not None:
                    return found
    return names.get("xl/styles.xml")


def _element_bodies(
    opening: re.Pattern[bytes], name: bytes, text: bytes
) -> Iterator[tuple[bytes, bytes]]:
    """The attributes and the content of each element of ``text`` whose opening tag
    ``opening`` matches (group 1: its namespace prefix, group 2: its attributes) and that is
    closed by ``</`` prefix ``name>``, in order; elements of this kind do not nest. Each
    closing tag is looked for once, and none after one is missing (no later element can
    have one then): a part of openings never closed is read once, not once per opening."""
    at = 0
    while (tag := opening.search(text, at)) is not None:
        attributes = tag.group(2)
        if attributes.rstrip().endswith(b"/"):
            at = tag.end()
            continue  # <cellXfs/>: empty
        close = text.find(b"</" + tag.group(1) + name + b">", tag.end())
        if close < 0:
            return
        yield attributes, text[tag.end() : close]
        at = close


def padded_styles(zf: zipfile.ZipFile) -> tuple[dict[int, int], list[Shape]]:
    """The cell formats (a cell's s="N") whose number format pads a number with zeros
    (:func:`padded_shape`), each to its shape's place in the list returned; nothing for a
    workbook without such a format (the cell formats are then not read), or whose styles
    cannot be read (the cells are read as their numbers, as before)."""
    try:
        member = styles_part(zf)
        if member is None or zf.getinfo(member).file_size > MAX_STYLES_PART:
            return {}, []
        text = zf.read(member)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, KeyError, zlib.error):
        return {}, []
    shapes: list[Shape] = []
    by_id: dict[int, int] = {}  # numFmtId -> its shape's place
    for tag in _NUM_FMT.finditer(text):
        attrs = _attributes(tag.group(1))
        shape = padded_shape(attrs.get("formatCode", ""))
        if shape is None or len(shapes) >= MAX_PADDED_STYLES:
            continue
        try:
            by_id[int(attrs.get("numFmtId", ""))] = len(shapes)
        except ValueError:
            continue
        shapes.append(shape)
    if not by_id:
        return {}, []
    styles: dict[int, int] = {}
    xfs = next(_element_bodies(_CELL_XFS, b"cellXfs", text), None)
    if xfs is not None:
        for index, tag in enumerate(_XF.finditer(xfs[1])):
            number = _attributes(tag.group(1)).get("numFmtId", "0")
            try:
                place = by_id.get(int(number))
            except ValueError:
                continue
            if place is not None:
                styles[index] = place
    return styles, shapes


# A date format's parts: quoted text, escaped and bracketed ([$-809], [h]) parts said nothing of
# the order; runs of d, m, y, h and s letters do.
_FORMAT_NOISE = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]')
_FORMAT_RUNS = re.compile(r"d+|m+|y+|h+|s+", re.I)


# Date cells counted by their format's order, at most: plenty to tell a column's order.
MAX_DATE_CELLS = 100_000


class DateFormats:
    """A sheet's date cells whose number format writes day and month in digits, by column and
    order (True: day first): how many, and the first one's row and format code; sent to the
    reader as ``("date_formats", [(column, day_first, count, row, code), …])``."""

    def __init__(self) -> None:
        self.found: dict[tuple[int, bool], list[Any]] = {}
        self.count = 0

    def room(self) -> bool:
        return self.count < MAX_DATE_CELLS

    def add(self, column: int, row: int, day_first: bool, code: str) -> None:
        self.count += 1
        entry = self.found.setdefault((column, day_first), [0, row, code])
        entry[0] += 1
        if row < entry[1]:
            entry[1:] = [row, code]

    def said(self) -> list[tuple[int, bool, int, int, str]]:
        return [(c, order, n, row, code) for (c, order), (n, row, code) in self.found.items()]


def format_day_first(code: str) -> bool | None:
    """Whether the number format ``code`` shows a date's day before its month in digits
    ("dd/mm/yyyy": True), the month first ("mm/dd/yyyy", "m/d/yy h:mm": False), or neither
    (None: not a date, a month's name, the year first, as "yyyy-mm-dd"). An "m" after an hour
    or before seconds is minutes."""
    runs = [r.group().lower() for r in _FORMAT_RUNS.finditer(_FORMAT_NOISE.sub("", code))]
    dated = []
    for i, run in enumerate(runs):
        minutes = run[0] == "m" and (
            (i and runs[i - 1][0] == "h") or (i + 1 < len(runs) and runs[i + 1][0] == "s")
        )
        if run[0] in "dmy" and not minutes:
            dated.append(run)
    days = [i for i, r in enumerate(dated) if r[0] == "d" and len(r) <= 2]
    months = [i for i, r in enumerate(dated) if r[0] == "m" and len(r) <= 2]
    if len(days) != 1 or len(months) != 1 or (dated[0][0] == "y"):
        return None
    return days[0] < months[0]


def date_order_styles(zf: zipfile.ZipFile) -> dict[int, tuple[bool, str]]:
    """The cell formats (a cell's s="N") whose custom number format writes a date's day and
    month in digits, each to whether the day comes first and the format's code: read once per
    workbook, as :func:`padded_styles` reads its formats. A built-in format (14, "m/d/yyyy")
    shows the date in the reader's own locale, so it says nothing of the file's order."""
    try:
        member = styles_part(zf)
        if member is None or zf.getinfo(member).file_size > MAX_STYLES_PART:
            return {}
        text = zf.read(member)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, KeyError, zlib.error):
        return {}
    by_id: dict[int, tuple[bool, str]] = {}
    for tag in _NUM_FMT.finditer(text):
        attrs = _attributes(tag.group(1))
        code = attrs.get("formatCode", "")
        if (order := format_day_first(code)) is None:
            continue
        with contextlib.suppress(ValueError):
            by_id[int(attrs.get("numFmtId", ""))] = (order, code)
    if not by_id:
        return {}
    styles: dict[int, tuple[bool, str]] = {}
    xfs = next(_element_bodies(_CELL_XFS, b"cellXfs", text), None)
    if xfs is not None:
        for index, tag in enumerate(_XF.finditer(xfs[1])):
            with contextlib.suppress(ValueError):
                found = by_id.get(int(_attributes(tag.group(1)).get("numFmtId", "0")))
                if found is not None:
                    styles[index] = found
    return styles


def workbook_part(zf: zipfile.ZipFile) -> str | None:
    """The zip member holding an xlsx's workbook: where the package's relationships
    (``_rels/.rels``) point its officeDocument, else ``xl/workbook.xml``; None when there is
    no such part."""
    names = _member_names(zf)
    member = names.get("_rels/.rels")
    if member is not None:
        for match in _RELATIONSHIP.finditer(zf.read(member)):
            attrs = _attributes(match.group(1))
            if attrs.get("Type", "").endswith("/officeDocument"):
                target = attrs.get("Target", "").replace("\\", "/")
                part = posixpath.normpath(target.lstrip("/")).lower()
                if part in names:
                    return names[part]
    return names.get("xl/workbook.xml")


def recalculated_on_load(zf: zipfile.ZipFile) -> bool:
    """Whether an xlsx's workbook asks to be calculated in full when opened
    (``<calcPr fullCalcOnLoad="1"/>``), as XlsxWriter and openpyxl write every workbook: its
    saved formula results may be placeholders (:data:`_ZERO_VALUE`). Excel drops the flag
    when it saves, having calculated."""
    workbook = workbook_part(zf)
    if workbook is None:
        return False
    tag = _CALC_PR.search(zf.read(workbook))
    return tag is not None and _attributes(tag.group(1)).get("fullCalcOnLoad") in ("1", "true")


def date_system_1904(path: str) -> bool | None:
    """Whether an xlsx/xlsm counts its day numbers in the 1904 date system
    (``<workbookPr date1904="1"/>``, as Excel for Mac made workbooks until 2011): True; False
    when its workbook part says the 1900 system (no such flag, or ``date1904="0"``); None when
    the reader does not learn it: a file of any other kind (the .xls, .xlsb and .ods flags are
    not read), or a workbook part that cannot be read. calamine reads date cells in their
    system, but not a plain number, which the request-date check reads as a day number: in the
    1904 system (black-box B28 F5), in the 1900 one alone, or, not known, in the 1900 one with
    the 1904 reading beside it."""
    try:
        with open(path, "rb") as fh:
            if fh.read(8) == _OLE_MAGIC or not zipfile.is_zipfile(path):
                return None
        with zipfile.ZipFile(path) as zf:
            part = workbook_part(zf)
            if part is None or not part.lower().endswith(".xml"):
                return None
            with zf.open(part) as member:
                head = member.read(_WORKBOOK_HEAD)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, KeyError, zlib.error):
        return None
    tag = _WORKBOOK_PR.search(head)
    if tag is None:
        # No workbookPr: the 1900 system, the default, when the whole part was read.
        return False if len(head) < _WORKBOOK_HEAD else None
    flag = _attributes(tag.group(1)).get("date1904", "")
    return flag.strip().lower() in ("1", "true")


def _part_name(member: str) -> str:
    """A zip member's part name, as :func:`_member_names` keys it."""
    return member.replace("\\", "/").lstrip("/").lower()


def sheet_part(zf: zipfile.ZipFile, sheet: str) -> str | None:
    """The zip member holding worksheet ``sheet``, from the workbook part and its relations,
    wherever the package's relationships put them and however the zip names them
    (:func:`_member_names`)."""
    names = _member_names(zf)
    workbook = workbook_part(zf)
    if workbook is None:
        return None
    rel_id = None
    for match in _SHEET_TAG.finditer(zf.read(workbook)):
        attrs = _attributes(match.group(1))
        if attrs.get("name") == sheet:
            rel_id = next((v for k, v in attrs.items() if k.endswith(":id")), None)
            break
    if rel_id is None:
        return None
    part = _relationships(zf, names, _part_name(workbook)).get(rel_id)
    return None if part is None else names.get(part)


# What a scan hands out: hidden rows, (row, column, formula) and (row, column, error) cells.
Findings = tuple[list[int], list[tuple[int, int, str]], list[tuple[int, int, str]]]


def _column_index(letters: bytes) -> int:
    index = 0
    for ch in letters:
        index = index * 26 + (ch - 64)
    return index - 1


class XmlScan:
    """What calamine does not tell, read from a worksheet's XML part.

    :meth:`read_to_end` inflates the part a chunk at a time, keeping only what it finds, so
    memory stays flat; :class:`ScanAhead` runs it while calamine parses. Plain byte searches
    decide that most chunks hold nothing; the regular expressions only run around a hit.

    A row is hidden when its own tag says so: ``hidden="1"``, or a height of zero set for it
    (``ht="0" customHeight="1"``; without customHeight Excel fits the row to its content). A
    sheet whose rows are hidden by default (``<sheetFormatPr zeroHeight="1">``: Excel writes it
    when most rows are hidden, XlsxWriter's ``hide_unused_rows``) hides the rows *absent* from
    ``<sheetData>``; the spec has such a sheet "only write out the rows that are not hidden",
    and a row written there is shown at the default height unless it is hidden itself. That
    is how LibreOffice imports it, and how files checked against Excel's own (XlsxWriter's
    tests) write their visible data rows: with no ``ht``. So zeroHeight hides no row that
    holds data, and nothing is listed for it. Rows whose tag holds no cells are not listed
    either, whatever hides them: they hold nothing to read, and a sheet can hide a million.

    A hidden row is listed under the numbers calamine gives its cells, which is where its
    values arrive. ``r="N"`` on a row tag is optional: calamine numbers a row tag by its
    ``r``, else as the previous row tag's number + 1 (the first one 1), empty tags such as
    ``<row/>`` counted too, and places a cell by its own reference (``r="B7"``) if it has
    one, else in its row tag's row. Writers omit ``r`` on every row, or on some (the rows
    after a numbered one follow it), and may give cells references that skip rows their
    row tags do not. So a row tag's number is counted where it has no ``r`` (only when a
    hidden row needs it, or the chunk's last row tag has none), and a hidden row's cells are
    read for their own rows. A hidden row cut by the end of a chunk stays open
    (:attr:`_open`): the cells that start the next chunk are its own.

    Cells holding an error value or a formula never calculated are placed the same way
    (:meth:`_where`): by their reference, else in their row tag's row and the column after
    the previous cell's in it (the first column for the row's first cell), as calamine places
    them and as writers that leave out ``r`` (SheetJS, some .NET ones) mean them. Tags may
    carry any namespace prefix (``<x:c>``, as the Open XML SDK writes), attributes either
    quote.
    """

    def __init__(
        self,
        zf: zipfile.ZipFile,
        part: str,
        recalculated: bool = False,
        styles: tuple[dict[int, int], list[Shape]] | None = None,
    ) -> None:
        self._zf = zf
        # Number cells whose format pads them with zeros (:func:`padded_styles`): their cells,
        # as row << 14 | column as placeholders, and their shapes' places in :attr:`shapes`,
        # for the worker to read as the text they show. A sheet without such a format is not
        # searched for them.
        self._styles, self.shapes = styles or ({}, [])
        self.padded = array.array("q")
        self.padded_shapes = bytearray()
        self.padded_sorted = True  # cells written in the sheet's order, as they always are
        # More such cells than MAX_PLACEHOLDERS: the first not noted, (row, column), the rest
        # read as their numbers, the file read all the same (and a warning says so).
        self.padded_cut: tuple[int, int] | None = None
        self._styled: re.Pattern[bytes] | None = None
        self._style_hints: tuple[bytes, ...] = ()
        if self._styles:
            numbers = sorted(self._styles)
            self._styled = re.compile(
                rb"<"
                + _P
                + rb"c\b([^>]*?\bs\s*=\s*[\"']("
                + b"|".join(b"%d" % n for n in numbers)
                + rb")[\"'][^>]*)>"
            )
            self._style_hints = (
                tuple(b's="%d"' % n for n in numbers) + tuple(b"s='%d'" % n for n in numbers)
                if len(numbers) <= 16
                else (b"s=",)
            )
        # Date cells whose number format writes day and month in digits (date_order_styles):
        # column -> its counts, found by :meth:`_dated`.
        self._dates: dict[int, tuple[bool, str]] = {}
        self._dated_cell: re.Pattern[bytes] | None = None
        self.date_formats = DateFormats()
        # The workbook is calculated when opened (fullCalcOnLoad): a formula's saved 0 is a
        # writer's placeholder, no result (see _ZERO_VALUE).
        self._recalculated = recalculated
        # Those cells, as row << 14 | column (1-based row, 0-based column), for the worker to
        # empty: calamine reads the 0. Not capped at MAX_FORMULAS, as the cells listed are.
        self.placeholders: list[int] = []
        self.too_many = False
        self._fh: IO[bytes] | None = zf.open(part)
        self._tail = b""
        self._row_tag = b"<row"  # with the sheet's namespace prefix, once a row is seen
        self._row_close = b"</row"
        self._prefix = b""  # that prefix, as b"x:" (Open XML SDK writes it), else b""
        self._rows_seen = False
        self.last = 0  # the number of the last row tag scanned, as calamine numbers it
        # The column (0-based) of the last cell of the row still open at the end of the last
        # chunk, -1 if it has none: a cell without r="B7" goes in the column after it.
        self._carry = -1
        # The row tags of the chunk being read, (where each starts, its number), counted once
        # a cell without a reference needs them; None until then.
        self._numbered: tuple[list[int], list[int]] | None = None
        # Cheap tests that a chunk may hold a formula never calculated (most hold none), with
        # the prefix: a formula, then an empty end of a cell or an empty value.
        self._formula_hints = (b"</f>", b"<f ")
        self._no_value_hints: tuple[bytes, ...] = (b"f></", b"/></c>", b"<v></v>", b"<v/>")
        # A hidden row whose end was not in the last chunk: its number, and the rows listed
        # for its cells so far.
        self._open: tuple[int, set[int]] | None = None
        self.hidden: list[int] = []
        self.formulas: list[tuple[int, int, str]] = []
        self.errors: list[tuple[int, int, str]] = []  # (row, column, "#N/A")
        # Hidden columns, (first, last) 1-based as in <col min max>; read before <sheetData>.
        self.columns: list[tuple[int, int]] = []
        self._head = True  # <sheetData> not reached yet: <cols> may still come
        # Every row found with a formula never calculated or an error value, for the last rows.
        self.unread_rows: set[int] = set()
        self._formula_count = 0
        self._error_count = 0
        self.stop: threading.Event | None = None  # set: stop reading (the scan is not wanted)
        self.failed = False  # reading stopped on an error: later rows are not known

    def read_to_end(self) -> None:
        """Scan the whole part (until :attr:`stop` is set); the findings stay in the scan."""
        self._read(0)

    def date_styles(self, styles: dict[int, tuple[bool, str]]) -> None:
        """Count the number cells in ``styles`` (:func:`date_order_styles`) by column."""
        self._dates = styles
        if styles:
            numbers = b"|".join(b"%d" % n for n in sorted(styles))
            self._dated_cell = re.compile(
                rb"<" + _P + rb"c\b([^>]*?\bs\s*=\s*[\"'](" + numbers + rb")[\"'][^>]*)>"
            )

    def advance(self, row: int) -> Findings:
        """Scan on past ``row`` (to the end for 0); the hidden rows, formula cells and error
        cells found since the last call."""
        self._read(row)
        found = self.hidden, self.formulas, self.errors
        self.hidden, self.formulas, self.errors = [], [], []
        return found

    def _read(self, row: int) -> None:
        while self._fh is not None and (row == 0 or self.last <= row):
            if self.stop is not None and self.stop.is_set():
                self.close()
                return
            chunk = self._fh.read(SCAN_CHUNK)
            buf = self._tail + chunk
            if not chunk:
                self._fh.close()
                self._fh = None
                self._zf.close()
                self._chunk(buf)
                break
            # Tags never hold "<": everything before the last one is whole tags.
            last = buf.rfind(b"<")
            cut = self._whole_cells(buf, last)
            if len(buf) - cut > MAX_SCAN_TAIL:
                # A text far longer than any cell's (a 120 MB one: black-box R3 #1) would be
                # carried and copied chunk after chunk: its cell is read cut, as a tag
                # that long (crafted) is.
                cut = last if len(buf) - last <= MAX_SCAN_TAIL else len(buf)
            if cut <= 0:
                self._tail = buf
                continue
            self._tail = buf[cut:]
            self._chunk(buf[:cut])

    def _whole_cells(self, buf: bytes, cut: int) -> int:
        """``cut`` moved back to the start of a cell still open there, so that a cell's
        formula and value are read together (0: all of ``buf`` waits for more). A cell
        starting far back (crafted: it never ends) is left cut."""
        prefix = self._prefix
        low = max(cut - (1 << 18), 0)
        start = buf.rfind(b"<" + prefix + b"c", low, cut)
        # <c r="A1">, <c>, <c\tt="e"> (a cell without a reference): not <cfRule>.
        while start >= 0 and buf[start + len(prefix) + 2 : start + len(prefix) + 3] not in (
            b" ",
            b">",
            b"\t",
            b"\r",
            b"\n",
        ):
            start = buf.rfind(b"<" + prefix + b"c", low, start)
        if start < 0:
            return cut
        end = buf.find(b">", start, cut)
        if end < 0 or buf[end - 1] == 0x2F or buf.find(b"</" + prefix + b"c>", end, cut) >= 0:
            return cut  # <c …/>, or a cell closed before the cut
        return start

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
            self._zf.close()

    def _chunk(self, buf: bytes) -> None:
        if self._head:
            self._columns(buf)
        if not self._rows_seen:
            first = _ROW_TAG.search(buf)
            if first is None:
                return
            self._row_tag = first.group(0)[: first.group(0).find(b"row") + 3]
            self._row_close = b"</" + self._row_tag[1:]
            p = self._prefix = self._row_tag[1:-3]
            self._formula_hints = (b"</" + p + b"f>", b"<" + p + b"f ")
            self._no_value_hints = (
                b"f></",
                b"/></" + p + b"c>",
                b"<" + p + b"v></" + p + b"v>",
                b"<" + p + b"v/>",
            )
            if self._recalculated:
                self._no_value_hints += (b"<" + p + b"v>0</" + p + b"v>",)
            self._rows_seen = True
        start = self.last
        self._numbered = None
        if self._open is not None:
            number, listed = self._open
            end, closed = self._row_end(buf, 0)
            self._cells(buf, 0, end, number, listed)
            if closed:
                self._open = None
        hint = _HIDE_HINT.search(buf)
        if hint is not None:
            self._hidden_rows(buf, start, hint.start())
        if (
            (self._formula_count < MAX_FORMULAS or self._recalculated)
            and any(hint in buf for hint in self._formula_hints)
            and any(hint in buf for hint in self._no_value_hints)
        ):
            self._formulas(buf, start)
        if self._error_count < MAX_FORMULAS and any(hint in buf for hint in _ERROR_HINTS):
            self._errors(buf, start)
        if (
            self._styled is not None
            and self.padded_cut is None
            and any(hint in buf for hint in self._style_hints)
        ):
            self._padded(buf, start, self._styled)
        if self._dated_cell is not None and self.date_formats.room():
            self._dated(buf, start, self._dated_cell)
        self.last = self._last_row(buf, start)
        self._carry = self._end_column(buf)

    def _hidden_rows(self, buf: bytes, start: int, first: int) -> None:
        """Note the rows of ``buf`` that hold cells and are hidden by hand or by a filter
        (``hidden="1"``) or by a zero height of their own (see :class:`XmlScan`); ``start``
        is the number of the last row tag before ``buf``, ``first`` where the first
        :data:`_HIDE_HINT` is."""
        tags: dict[int, re.Match[bytes]] = {}  # a row's tag by where it starts
        for hint in _HIDE_HINT.finditer(buf, first):
            position = hint.start()
            tag_start = buf.rfind(b"<", 0, position)
            if tag_start >= 0 and tag_start not in tags:
                tag = _ROW_TAG.match(buf, tag_start)
                if tag is not None and tag.end() > position and _row_hidden(tag.group(1)):
                    tags[tag_start] = tag
        if not tags:
            return
        numbers: dict[int, int] = {}  # a row's number by where its tag starts
        for tag_start, tag in tags.items():
            number = _ROW_NUMBER.search(tag.group(1))
            if number is not None:
                numbers[tag_start] = int(number.group(2))
        if len(numbers) < len(tags):  # some have no r="N": count the row tags up to them
            last = start
            for tag in _ROW_TAG.finditer(buf, 0, max(t.end() for t in tags.values())):
                number = _ROW_NUMBER.search(tag.group(1))
                last = int(number.group(2)) if number is not None else last + 1
                if tag.start() in tags:
                    numbers[tag.start()] = last
        for tag_start in sorted(tags):
            tag = tags[tag_start]
            if tag.group(1).rstrip().endswith(b"/"):
                continue  # <row …/>: no cells
            listed: set[int] = set()
            end, closed = self._row_end(buf, tag.end())
            self._cells(buf, tag.end(), end, numbers[tag_start], listed)
            if not closed:
                self._open = numbers[tag_start], listed

    def _row_end(self, buf: bytes, begin: int) -> tuple[int, bool]:
        """Where the row open at ``begin`` ends in ``buf`` (its closing tag, or the next row's
        tag if it has none), and whether it does; else ``len(buf)`` and False."""
        close = buf.find(self._row_close, begin)
        bound = len(buf) if close < 0 else close
        after = buf.find(self._row_tag, begin, bound)  # a row never closed (not well formed)
        if after >= 0:
            return after, True
        return bound, close >= 0

    def _cells(self, buf: bytes, begin: int, end: int, number: int, listed: set[int]) -> None:
        """List the rows calamine places the cells of ``buf[begin:end]`` in: a cell's own
        reference's row, else ``number``, its row tag's (each row once: ``listed``)."""
        # Most often one row: its cells all name it, or none names any.
        for digits in dict.fromkeys(_CELL_ROW.findall(buf, begin, end)):
            row = int(digits) if digits else number
            if row not in listed:
                listed.add(row)
                self.hidden.append(row)

    def _columns(self, buf: bytes) -> None:
        """Note the hidden columns (``hidden="1"`` or a width of zero) of ``<cols>``, which
        comes before ``<sheetData>``; from there on, no more are looked for."""
        data = _SHEET_DATA.search(buf)
        end = len(buf) if data is None else data.start()
        if data is not None:
            self._head = False
        if buf.find(b"col", 0, end) < 0:
            return
        for tag in _COL_TAG.finditer(buf, 0, end):
            if len(self.columns) >= MAX_COLUMNS:
                return
            attrs = _attributes(tag.group(1))
            hidden = attrs.get("hidden") in ("1", "true")
            if not hidden:
                try:
                    hidden = float(attrs.get("width", "1")) == 0
                except ValueError:
                    hidden = False
            if not hidden:
                continue
            try:
                first = int(attrs.get("min", ""))
                last = int(attrs.get("max", attrs.get("min", "")))
            except ValueError:
                continue
            first, last = max(first, 1), min(last, MAX_COLUMNS)
            if first <= last:
                self.columns.append((first, last))

    def _errors(self, buf: bytes, start: int) -> None:
        positions = sorted(
            position
            for hint in _ERROR_HINTS
            for position in (m.start() for m in re.finditer(re.escape(hint), buf))
        )
        for position in positions:
            if self._error_count >= MAX_FORMULAS:
                return
            tag_start = buf.rfind(b"<", 0, position)
            tag = _CELL_TAG.match(buf, tag_start) if tag_start >= 0 else None
            if tag is not None and tag.end() > position:
                self._error(buf, tag, start)

    def _error(self, buf: bytes, tag: re.Match[bytes], start: int) -> None:
        """Note the cell whose tag is ``tag`` if it holds an error value."""
        attrs = tag.group(1)
        if attrs.rstrip().endswith(b"/") or _ERROR_TYPE.search(attrs) is None:
            return
        value = _ERROR_VALUE.match(buf, tag.end())
        if value is None:  # no value: nothing to name
            return
        text = html.unescape(value.group(1).decode("utf-8", "replace")).strip()
        if not text:
            return
        row, column = self._where(buf, tag.start(), attrs, start)
        self.errors.append((row, column, text[:40]))
        self.unread_rows.add(row)
        self._error_count += 1

    def _padded(self, buf: bytes, start: int, styled: re.Pattern[bytes]) -> None:
        """Note the number cells of ``buf`` whose format pads a number with zeros."""
        padded, shapes, styles = self.padded, self.padded_shapes, self._styles
        for match in styled.finditer(buf):
            attrs = match.group(1)
            if attrs.rstrip().endswith(b"/"):
                continue
            kind = _CELL_TYPE.search(attrs) if b"t" in attrs else None
            said = (kind.group(1) or kind.group(2) or b"n") if kind is not None else b"n"
            if said == b"n":
                if _HAS_VALUE.match(buf, match.end()) is None:
                    continue
            # A text cell only when its format shows no text either (";;;"), to be named: its
            # value (an inline one has no <v>) is looked at by the worker.
            elif (
                said not in _TEXT_TYPES or self.shapes[styles[int(match.group(2))]] != UNSHOWN_TEXT
            ):
                continue
            row, column = self._where(buf, match.start(), attrs, start)
            if len(padded) >= MAX_PLACEHOLDERS:
                self.padded_cut = (row, column)
                return
            key = row << 14 | min(column, MAX_COLUMNS - 1)
            if padded and key <= padded[-1]:
                self.padded_sorted = False
            padded.append(key)
            shapes.append(styles[int(match.group(2))])

    def _dated(self, buf: bytes, start: int, dated: re.Pattern[bytes]) -> None:
        """Count the number cells of ``buf`` whose format writes a date's day and month."""
        for match in dated.finditer(buf):
            attrs = match.group(1)
            if attrs.rstrip().endswith(b"/") or _HAS_VALUE.match(buf, match.end()) is None:
                continue
            kind = _CELL_TYPE.search(attrs) if b"t" in attrs else None
            if kind is not None and (kind.group(1) or kind.group(2) or b"n") != b"n":
                continue
            row, column = self._where(buf, match.start(), attrs, start)
            self.date_formats.add(column, row, *self._dates[int(match.group(2))])

    def _formulas(self, buf: bytes, start: int) -> None:
        for match in _NO_VALUE.finditer(buf):
            if self._formula_count >= MAX_FORMULAS:
                break
            if match.group(1).rstrip().endswith(b"/"):
                continue  # <c …/>: an empty cell, whatever follows it
            if _empty_text_result(match):
                continue
            row, column = self._where(buf, match.start(), match.group(1), start)
            self._formula(match, row, column)
        if not self._recalculated:
            return
        for match in _ZERO_VALUE.finditer(buf):
            attrs = match.group(1)
            kind = _CELL_TYPE.search(attrs)
            if attrs.rstrip().endswith(b"/") or (
                kind is not None and (kind.group(1) or kind.group(2) or b"n") != b"n"
            ):
                continue  # a value of another type (t="str": text the writer gave) is its own
            row, column = self._where(buf, match.start(), attrs, start)
            if len(self.placeholders) >= MAX_PLACEHOLDERS:
                self.too_many = True
                return
            self.placeholders.append(row << 14 | min(column, MAX_COLUMNS - 1))
            if self._formula_count < MAX_FORMULAS:
                self._formula(match, row, column)

    def _formula(self, match: re.Match[bytes], row: int, column: int) -> None:
        """List the cell at ``row``, ``column`` as a formula with no saved result."""
        text = html.unescape((match.group(2) or b"").decode("utf-8", "replace"))
        self.formulas.append((row, column, text[:80]))
        self.unread_rows.add(row)
        self._formula_count += 1

    def _where(self, buf: bytes, tag_start: int, attrs: bytes, start: int) -> tuple[int, int]:
        """The row (1-based) and column (0-based) calamine places the cell whose tag starts at
        ``tag_start`` in: its reference (r="B7"), else its row tag's row (``start``: the
        number of the last row tag before ``buf``) and the column after the previous cell's
        in that row (the first, A, if none), as the schema has a cell without one."""
        ref = _CELL_REF.search(attrs)
        if ref is not None:
            return int(ref.group(2)), _column_index(ref.group(1).upper())
        numbered = self._row_numbers(buf, start)
        at = bisect.bisect_left(numbered[0], tag_start) - 1
        if at < 0:  # the row opened in an earlier chunk
            number, column, begin = start, self._carry, 0
        else:
            number, column = numbered[1][at], -1
            begin = buf.find(b">", numbered[0][at]) + 1
        return number, self._column_after(buf, begin, tag_start, column) + 1

    def _row_numbers(self, buf: bytes, start: int) -> tuple[list[int], list[int]]:
        """Where each row tag of ``buf`` starts and its number, as calamine counts them (see
        :meth:`_last_row`), once for the chunk."""
        if self._numbered is None:
            positions: list[int] = []
            numbers: list[int] = []
            last = start
            for tag in _ROW_TAG.finditer(buf):
                number = _ROW_NUMBER.search(tag.group(1))
                last = int(number.group(2)) if number is not None else last + 1
                positions.append(tag.start())
                numbers.append(last)
            self._numbered = positions, numbers
        return self._numbered

    @staticmethod
    def _column_after(buf: bytes, begin: int, end: int, column: int) -> int:
        """The column of the last cell whose tag lies in ``buf[begin:end]``, ``column`` that
        of the cell before them: each cell's reference's, else the one after the previous."""
        for tag in _CELL_TAG.finditer(buf, begin, end):
            ref = _CELL_REF.search(tag.group(1))
            column = _column_index(ref.group(1).upper()) if ref is not None else column + 1
        return column

    def _end_column(self, buf: bytes) -> int:
        """The column of the last cell of the row open at the end of ``buf`` (-1: none), to
        place the cells without a reference that start the next chunk. Only the last row's
        cells are read (all of ``buf``'s if no row starts in it)."""
        begin = buf.rfind(self._row_tag)
        while begin >= 0 and _ROW_TAG.match(buf, begin) is None:
            begin = buf.rfind(self._row_tag, 0, begin)  # <rowBreaks>, past the rows
        if begin < 0:
            return self._column_after(buf, 0, len(buf), self._carry)
        return self._column_after(buf, buf.find(b">", begin) + 1, len(buf), -1)

    def _last_row(self, buf: bytes, last: int) -> int:
        """The number of the last row tag in ``buf``, the rows before it ending at ``last``:
        its r="N", else counted on from the last row tag that has one (or from ``last``)."""
        start = buf.rfind(self._row_tag)
        if start < 0:
            return last
        final = _ROW_TAG.match(buf, start)
        number = _ROW_NUMBER.search(final.group(1)) if final is not None else None
        if number is not None:  # the usual case: every row tag says its number
            return int(number.group(2))
        for tag in _ROW_TAG.finditer(buf):
            number = _ROW_NUMBER.search(tag.group(1))
            last = int(number.group(2)) if number is not None else last + 1
        return last


def _row_hidden(attributes: bytes) -> bool:
    """Whether a row tag's attributes hide the row: ``hidden="1"``, or a height of zero set
    for the row (``ht="0" customHeight="1"``)."""
    if _HIDDEN.search(attributes):
        return True
    height = _HEIGHT.search(attributes)
    if height is None or _CUSTOM_HEIGHT.search(attributes) is None:
        return False
    try:
        value = height.group(1) if height.group(1) is not None else height.group(2)
        return float(value) == 0
    except ValueError:
        return False


def _ods_attributes(text: bytes) -> dict[str, str]:
    """A tag's attributes by local name (``table:name`` as ``name``), entities unescaped."""
    out: dict[str, str] = {}
    for key, double, single in _ODS_ATTRIBUTE.findall(text):
        local = key.rsplit(b":", 1)[-1].decode("ascii", "replace")
        out.setdefault(local, html.unescape((double or single).decode("utf-8", "replace")))
    return out


# The conditions under which a data style's <style:map> gives the style of a positive number,
# as LibreOffice and Gnumeric write a format of two or more sections ("0000000000;[Red]-0…").
_ODS_POSITIVE = frozenset({"value()>=0", "value()>0"})
_ODS_OTHERS = frozenset({"value()<0", "value()<=0", "value()=0"})  # a number < 0, or 0


def _ods_shape(body: bytes) -> tuple[Shape | None, str | None]:
    """The shape of an .ods data style for numbers (the inside of ``<number:number-style>``)
    if it shows a whole number with zeros: a ``<number:number>`` of no decimal places and no
    grouping, its ``number:min-integer-digits`` the zeros (as "0000000000" in Excel), with
    ``<number:text>`` literals around it; None for any other (decimals, grouping, embedded
    text). Second, the data style a ``<style:map>`` gives a positive number, if any, whose
    shape is then the one shown (None for both under any other condition)."""
    parts: list[str] = []
    numbers = 0
    positive: str | None = None
    literal: list[str] | None = None  # inside <number:text>
    for close, name, attrs, text in _ODS_PIECE.findall(body):
        if text:
            if literal is not None:
                literal.append(html.unescape(text.decode("utf-8", "replace")))
            elif text.strip():
                return None, None
            continue
        if name == b"text":
            if close:
                parts.append("'" + "".join(literal or []))
                literal = None
            elif attrs.rstrip().endswith(b"/"):
                continue
            else:
                literal = []
        elif name == b"number" and not close and attrs.rstrip().endswith(b"/"):
            local = _ods_attributes(attrs)
            if local.get("decimal-places") != "0" or local.get("grouping") == "true":
                return None, positive
            try:
                digits = min(int(local.get("min-integer-digits", "1")), 30)
            except ValueError:
                return None, positive
            parts.extend(["0"] * digits if digits else ["#"])
            numbers += 1
        elif name == b"map" and not close:
            local = _ods_attributes(attrs)
            condition = local.get("condition", "").replace(" ", "")
            if condition in _ODS_POSITIVE:
                positive = local.get("apply-style-name")
            elif condition not in _ODS_OTHERS:
                return None, None
        elif name != b"text-properties":
            return None, positive
    if numbers == 0 and literal is None and all(p == "'" for p in parts):
        return UNSHOWN, positive  # <number:text/> alone, as LibreOffice saves ";;;"
    if numbers != 1 or literal is not None:
        return None, positive
    return padded_shape_of(tuple(parts)), positive


def _ods_styles_head(zf: zipfile.ZipFile) -> bytes:
    """The start of an .ods's content.xml up to its body: its automatic styles."""
    head = b""
    with zf.open(ODS_PART) as fh:
        while len(head) < MAX_STYLES_PART:
            chunk = fh.read(SCAN_CHUNK)
            if not chunk:
                break
            head += chunk
            # Only the new chunk (and a tag cut at its start) is searched: a part without a
            # body (crafted) is not searched again and again.
            at = _ODS_BODY.search(head, max(len(head) - len(chunk) - 256, 0))
            if at is not None:
                return head[: at.start()]
    return head


def _ods_style_texts(zf: zipfile.ZipFile) -> list[bytes] | None:
    """The parts of an .ods that hold its styles, styles.xml's (when not too large) before
    content.xml's automatic styles (:func:`_ods_styles_head`); None when they cannot be read."""
    try:
        texts = [_ods_styles_head(zf)]
        if "styles.xml" in zf.namelist() and (
            zf.getinfo("styles.xml").file_size <= MAX_STYLES_PART
        ):
            texts.insert(0, zf.read("styles.xml"))
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, KeyError, zlib.error):
        return None
    return texts


def ods_padded_styles(zf: zipfile.ZipFile) -> tuple[dict[str, int], list[Shape]]:
    """The cell styles of an .ods (by name) whose data style pads a number with zeros (a
    ``number:min-integer-digits`` or a literal digit before the number: :func:`_ods_shape`),
    each to its shape's place in the list returned; the automatic styles of content.xml and
    the styles of styles.xml, a style without a data style of its own taking its parent's.
    Nothing for a workbook without such a data style (the cell styles are then not read)."""
    texts = _ods_style_texts(zf)
    if texts is None:
        return {}, []
    shapes: list[Shape] = []
    # Data styles by name (content.xml's after styles.xml's): their shape, and the data style
    # a positive number takes (a <style:map>), whose shape is shown instead.
    found: dict[str, tuple[Shape | None, str | None]] = {}
    for text in texts:
        for attributes, body in _element_bodies(_ODS_NUMBER_STYLE, b"number-style", text):
            name = _ods_attributes(attributes).get("name")
            if name is not None:
                found[name] = _ods_shape(body)
        # LibreOffice saves ";;;" as a text style whose maps give numbers empty styles.
        for attributes, body in _element_bodies(_ODS_TEXT_STYLE, b"text-style", text):
            name = _ods_attributes(attributes).get("name")
            if name is not None and b"map" in body:
                found[name] = (None, _ods_shape(body)[1])
    data: dict[str, int] = {}  # a data style's name -> its shape's place
    for name, (shape, positive) in found.items():
        if positive is not None:
            shape = found.get(positive, (None, None))[0]
        if shape is not None and len(shapes) < MAX_PADDED_STYLES:
            data[name] = len(shapes)
            shapes.append(shape)
    if not data:
        return {}, []
    cells: dict[str, tuple[str | None, str | None]] = {}  # name -> (data style, parent)
    for text in texts:
        for match in _ODS_STYLE.finditer(text):
            attrs = _ods_attributes(match.group(1))
            if attrs.get("family") == "table-cell" and "name" in attrs:
                cells[attrs["name"]] = attrs.get("data-style-name"), attrs.get("parent-style-name")
    styles: dict[str, int] = {}
    for name in cells:
        own, parent = cells[name]
        for _ in range(8):  # a chain of parents (a loop, crafted, ends here)
            if own is not None or parent is None or parent not in cells:
                break
            own, parent = cells[parent]
        if own is not None and own in data:
            styles[name] = data[own]
    return styles, shapes


_ODS_DATE_STYLE = re.compile(rb"<(" + _P + rb")date-style(?=[\s/>])([^<>]*)>")
# The parts of a date style, in order: a textual month (a name) says nothing of the order.
_ODS_DATE_PART = re.compile(rb"<" + _P + rb"(day|month|year)\b([^<>]*)>")


def _ods_day_first(body: bytes) -> bool | None:
    """Whether a ``<number:date-style>``'s body writes the day before the month in digits
    (True), the month first (False) or neither (None), as :func:`format_day_first`."""
    parts = [
        (m.group(1), b"textual" in m.group(2) and b"true" in m.group(2))
        for m in _ODS_DATE_PART.finditer(body)
    ]
    names = [name for name, textual in parts if not textual]
    if names.count(b"day") != 1 or names.count(b"month") != 1 or names[0] == b"year":
        return None
    if any(textual for name, textual in parts if name == b"month"):
        return None
    return names.index(b"day") < names.index(b"month")


def ods_date_styles(zf: zipfile.ZipFile) -> dict[str, tuple[bool, str]]:
    """The cell styles of an .ods (by name) whose date style writes the day and month in
    digits, each to whether the day comes first and the style's order in words
    ("dd/mm/yyyy" or "mm/dd/yyyy"): as :func:`date_order_styles`, read once per workbook."""
    texts = _ods_style_texts(zf)
    if texts is None:
        return {}
    data: dict[str, bool] = {}
    for text in texts:
        for attributes, body in _element_bodies(_ODS_DATE_STYLE, b"date-style", text):
            name = _ods_attributes(attributes).get("name")
            if name is not None and (order := _ods_day_first(body)) is not None:
                data[name] = order
    if not data:
        return {}
    styles: dict[str, tuple[bool, str]] = {}
    for text in texts:
        for match in _ODS_STYLE.finditer(text):
            attrs = _ods_attributes(match.group(1))
            own = attrs.get("data-style-name")
            if attrs.get("family") == "table-cell" and "name" in attrs and own in data:
                order = data[own]
                styles[attrs["name"]] = (order, "dd/mm/yyyy" if order else "mm/dd/yyyy")
    return styles


def _open_group(groups: list[bool], attributes: bytes) -> None:
    """Open a row or column group of an .ods (unless it is empty): hidden when collapsed
    (``table:display="false"``) or inside a hidden one."""
    if attributes.rstrip().endswith(b"/"):
        return
    display = _ods_attributes(attributes).get("display") if b"display" in attributes else None
    groups.append((bool(groups) and groups[-1]) or display == "false")


def _ods_span(attributes: bytes, what: str, groups: list[bool]) -> tuple[int, bool]:
    """How many rows or columns (``what``) an .ods row or column tag stands for, and whether
    they are hidden (collapsed, filtered out, or in a hidden group)."""
    count, hidden = 1, bool(groups) and groups[-1]
    # Most tags say only their style: the attributes are read for the others.
    if b"repeated" in attributes or b"visibility" in attributes:
        attrs = _ods_attributes(attributes)
        count = _repeat(attrs.get(f"number-{what}-repeated", "1"))
        hidden = hidden or attrs.get("visibility", "visible") in ("collapse", "filter")
    return count, hidden


def _no_value(local: dict[str, str]) -> bool:
    """Whether an .ods cell's attributes (by local name) give a value type but not the value
    it needs (a string's value is its text, so it needs none)."""
    wanted = _ODS_VALUE_ATTRIBUTE.get(local.get("value-type", ""))
    return wanted is not None and wanted not in local


def _repeat(text: str) -> int:
    """A ``number-rows-repeated`` count: 1 when not a number; a crafted count of thousands
    of digits (which ``int()`` refuses) still just a very long block."""
    digits = text.strip().lstrip("0")
    if not text.strip().isdigit() or not digits:
        return 1
    return int(digits) if len(digits) <= 18 else 10**18


class OdsScan:
    """The hidden rows and columns, error cells, formulas never calculated and merged ranges
    of one sheet of an OpenDocument spreadsheet (.ods), read from its ``content.xml``.

    Every sheet is a ``<table:table table:name="…">`` of ``<table:table-row>`` elements, some
    inside ``<table:table-row-group>``, ``<table:table-header-rows>`` or ``<table:table-rows>``
    wrappers. A row is hidden when it says ``table:visibility="collapse"`` (by hand) or
    ``"filter"`` (filtered out), or sits in a row group with ``table:display="false"``
    (collapsed); ``table:number-rows-repeated="N"`` makes one element stand for N rows.
    Rows are counted as calamine counts them, so the numbers match the rows it yields.

    Like :class:`XmlScan`, :meth:`read_to_end` inflates the part a chunk at a time and keeps
    only what it finds, and it stops at the end of the sheet's table. What it keeps are
    ranges ``[first, last]`` of hidden rows, adjacent ones merged, never the row numbers:
    LibreOffice writes the unused rows down to row 1,048,576 as one repeated element, and a
    filter or a hidden block there hides a million rows (a crafted file: billions) with no
    data. The numbers are only handed out by :meth:`advance` as far as the rows sent, a
    batch at a time, so what is listed (here and in the parent's ``hidden_rows``) is never
    more than the rows read, and rows after the last data row are never listed at all.

    Columns are counted from the ``<table:table-column>`` elements before the rows
    (``table:visibility="collapse"``, or in a column group of ``table:display="false"``:
    hidden). Cells are read only in a row that holds a hint of something to find (an error
    mark, a formula, a merged range), their columns counted as calamine places them: a
    ``number-columns-repeated`` cell for as many, a covered cell of a merged range for one.
    A chunk ends before its last row's tag so that a row is read whole.
    """

    def __init__(
        self,
        zf: zipfile.ZipFile,
        sheet: str,
        styles: tuple[dict[str, int], list[Shape]] | None = None,
    ) -> None:
        self._zf = zf
        self._fh: IO[bytes] | None = zf.open(ODS_PART)
        # Number cells whose data style pads them with zeros, as :class:`XmlScan`'s: the cell
        # styles that do (:func:`ods_padded_styles`), and the columns whose cells without a
        # style of their own take one of them (0-based first, last, the shape's place).
        self._pad_styles, self.shapes = styles or ({}, [])
        # Cell styles writing a date's day and month in digits (ods_date_styles), and the
        # date cells in them counted by column.
        self.date_styles: dict[str, tuple[bool, str]] = {}
        self.date_formats = DateFormats()
        self._pad_columns: list[tuple[int, int, int]] = []
        self.padded = array.array("q")
        self.padded_shapes = bytearray()
        self.padded_sorted = True
        self.padded_cut: tuple[int, int] | None = None  # past MAX_PLACEHOLDERS, as XmlScan's
        self._sheet = sheet
        self._tail = b""
        self._prefix: bytes | None = None  # the table namespace's declared prefix, b"" if none
        self._tags: re.Pattern[bytes] | None = None  # known from the first table's prefix
        self._depth = 0  # <table:table> elements open (a table in a cell nests one)
        self._inside = False  # in the sheet's own table, at its top level
        self.found = False  # the sheet's table was seen
        self.done = False  # ... and its end
        self._groups: list[bool] = []  # row groups open in it: collapsed (or inside one)?
        self.last = 0  # the number of the last row counted
        self.ranges: list[list[int]] = []  # [first, last] of hidden rows, in order
        self._given = 0  # hidden rows up to this one have been handed out
        self._next = 0  # the first range not wholly handed out
        # Hidden columns, (first, last) 1-based as in an xlsx's <col min max>.
        self.columns: list[tuple[int, int]] = []
        self._column = 0  # columns counted so far
        self._column_groups: list[bool] = []  # column groups open: collapsed (or inside one)?
        self.formulas: list[tuple[int, int, str]] = []  # (row, column, formula), no value
        self.errors: list[tuple[int, int, str]] = []  # (row, column, "#N/A")
        # Merged ranges ((first row, first column), (last row, last column)), 0-based as
        # calamine's merged_cell_ranges (which it does not fill in for an .ods).
        self.merged: list[tuple[tuple[int, int], tuple[int, int]]] = []
        self._merged_cells = 0
        self._formula_count = 0
        self._error_count = 0
        self._row_close = b"</table:table-row>"  # with the sheet's prefix, once known
        self._row_open = b"<table:table-row"
        self._cell_tag: re.Pattern[bytes] | None = None
        self._cell_close = b"</table:table-cell>"
        self._plain_cell = re.compile(b"")  # one paragraph of plain text: with the prefix
        self._row_plain = re.compile(b"")
        self._nested = b"<table:table "
        self.unread_rows: set[int] = set()  # rows found with a formula or an error value
        # Cells with no value type holding text, which calamine reads as empty: runs of
        # (first row, last row, first column, last column, text), rows 1-based and columns
        # 0-based as calamine places them, in the sheet's order (see _TextFill).
        self.texts: list[tuple[int, int, int, int, str]] = []
        self.too_many = False  # more than MAX_TEXTS runs: not all of them were kept
        self._untyped: re.Pattern[bytes] | None = None  # such cells' tags, with the prefix
        self.stop: threading.Event | None = None  # set: stop reading (the scan is not wanted)
        self.failed = False  # stopped on an error, or the sheet not found: rows not known

    def read_to_end(self) -> None:
        """Scan to the end of the sheet's table (until :attr:`stop` is set)."""
        while self._fh is not None:
            if self.stop is not None and self.stop.is_set():
                self.close()
                return
            chunk = self._fh.read(SCAN_CHUNK)
            buf = self._tail + chunk
            if not chunk:
                self.close()
                self._chunk(buf)
                break
            # Tags never hold "<": everything before the last one is whole tags. Once rows
            # are known, a chunk ends before the last row's tag, so that its cells are read
            # together (the columns of an error value are counted from the row's start); a
            # row longer than that (crafted) is cut anyway.
            cut = -1
            if self._tags is not None:
                cut = buf.rfind(self._row_open)
                if len(buf) - cut > 4 * SCAN_CHUNK:
                    cut = -1
            if cut <= 0:
                cut = buf.rfind(b"<")
            if cut <= 0:
                self._tail = buf
                continue
            self._tail = buf[cut:]
            self._chunk(buf[:cut])
            if self.done:
                self.close()
        if not self.done:
            # The sheet was not found, or its table never ended: which rows are hidden in it
            # (or in the rest of it) is not known.
            self.failed = True

    def advance(self, row: int) -> Findings:
        """The hidden rows after those handed out before, up to ``row`` (none for 0: before
        any row is sent), and the formula and error cells not handed out yet (all of them
        at the first call: the sheet has been read through)."""
        out: list[int] = []
        ranges = self.ranges
        while self._next < len(ranges):
            first, last = ranges[self._next]
            first = max(first, self._given + 1)
            if first > row:
                break
            out.extend(range(first, min(last, row) + 1))
            if last > row:
                break
            self._next += 1
        self._given = max(self._given, row)
        formulas, errors = self.formulas, self.errors
        self.formulas, self.errors = [], []
        return out, formulas, errors

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
            self._zf.close()

    def _chunk(self, buf: bytes) -> None:
        start = 0
        if self._tags is None:
            if self._prefix is None:  # the root element's declarations are in the first chunk
                declared = _ODS_NAMESPACE.search(buf)
                self._prefix = declared.group(1) + b":" if declared is not None else b""
            if self._prefix:
                table = re.search(b"<" + re.escape(self._prefix) + rb"table(?=[\s/>])", buf)
            else:
                table = _ODS_TABLE.search(buf)
            if table is None:
                return
            prefix = self._prefix or table.group(1)
            self._tags, start = _ods_tags(prefix), table.start()
            p = re.escape(prefix)
            self._cell_tag = re.compile(rb"<" + p + rb"(covered-)?table-cell(?=[\s/>])([^>]*)>")
            self._row_open = b"<" + prefix + b"table-row"
            self._row_close = b"</" + prefix + b"table-row>"
            self._cell_close = b"</" + prefix + b"table-cell>"
            self._plain_cell = re.compile(
                rb"<(?:[\w.-]+:)?p>([^<&]*)</(?:[\w.-]+:)?p>" + re.escape(self._cell_close)
            )
            # A cell's attributes (group 1) and, if it is one paragraph of plain text, that.
            self._row_plain = re.compile(
                rb"<" + p + rb"table-cell(?=[\s/>])([^>]*)>"
                rb"(?:<(?:[\w.-]+:)?p>([^<&]*)</(?:[\w.-]+:)?p>(?="
                + re.escape(self._cell_close)
                + rb"))?"
            )
            self._nested = b"<" + prefix + b"table "
            # A cell opened with content and no value type: it holds text calamine does not
            # read. A literal start, so it costs a fraction of the pass over the tags.
            self._untyped = re.compile(
                rb"<" + p + rb"table-cell(?=[\s>])(?![^>]*value-type)[^>]*(?<!/)>"
            )
        hints = (
            [m.start() for m in _ODS_CELL_HINT.finditer(buf, start)]
            if b"formula" in buf or b"error" in buf or b"spanned" in buf or b"line-break" in buf
            else []
        )
        assert self._untyped is not None
        untyped = [m.start() for m in self._untyped.finditer(buf, start)]
        if untyped:
            hints = sorted(hints + untyped) if hints else untyped
        if self._pad_styles:  # number cells may be padded: rows holding one are read
            floats = [m.start() for m in _ODS_FLOAT.finditer(buf, start)]
            if floats:
                hints = sorted(hints + floats) if hints else floats
        if self.date_styles and self.date_formats.room():  # rows of date cells are read
            dated = [m.start() for m in _ODS_DATE_TYPE.finditer(buf, start)]
            if dated:
                hints = sorted(hints + dated) if hints else dated
        hint = 0  # the first of the hints not yet passed
        for match in self._tags.finditer(buf, start):
            kind, rest, closed = match.groups()
            if rest is None:  # </table:table> or </table:table-row-group> (-column-group)
                if closed:
                    if self._inside and self._depth == 1:
                        groups = self._groups if closed == b"-row-group" else self._column_groups
                        if groups:
                            groups.pop()
                    continue
                self._depth = max(self._depth - 1, 0)
                if self._inside and self._depth == 0:
                    self._inside = False
                    self.done = True
                    return
                continue
            if kind is None:  # <table:table …>
                if rest.rstrip().endswith(b"/"):  # an empty table
                    if self._depth == 0 and not self.found and self._ours(rest):
                        self.found = self.done = True
                        return
                    continue
                self._depth += 1
                if self._depth == 1 and not self.found and self._ours(rest):
                    self.found = self._inside = True
                continue
            if not self._inside or self._depth != 1:
                continue
            if kind is not None and kind.startswith(b"-column"):
                self._table_column(kind, rest)
                continue
            if kind == b"-row-group":
                _open_group(self._groups, rest)
                continue
            count, hidden = _ods_span(rest, "rows", self._groups)
            first = self.last + 1
            self.last += count
            if hint < len(hints) and hints[hint] < match.end():
                hint = bisect.bisect_left(hints, match.end(), hint)  # a hint a cell: many
            if hint < len(hints) and not rest.rstrip().endswith(b"/"):
                end = buf.find(self._row_close, match.end())
                end = len(buf) if end < 0 else end
                if hints[hint] < end:
                    self._row_cells(buf, match.end(), end, first, count)
                    hint = bisect.bisect_left(hints, end, hint)
            if hidden:
                if self.ranges and self.ranges[-1][1] == first - 1:
                    self.ranges[-1][1] = self.last
                else:
                    self.ranges.append([first, self.last])

    def _ours(self, attributes: bytes) -> bool:
        return _ods_attributes(attributes).get("name") == self._sheet

    def _table_column(self, kind: bytes, rest: bytes) -> None:
        """Count the columns of a ``<table:table-column>`` (noting those hidden: collapsed,
        or in a collapsed column group) or open a column group."""
        if kind == b"-column-group":
            _open_group(self._column_groups, rest)
            return
        count, hidden = _ods_span(rest, "columns", self._column_groups)
        first = self._column + 1
        self._column = min(self._column + count, MAX_COLUMNS)
        if self._pad_styles and b"default-cell-style-name" in rest and first <= self._column:
            place = self._pad_styles.get(_ods_attributes(rest).get("default-cell-style-name", ""))
            if place is not None:
                self._pad_columns.append((first - 1, self._column - 1, place))
        if hidden and first <= self._column:
            if self.columns and self.columns[-1][1] == first - 1:
                self.columns[-1] = (self.columns[-1][0], self._column)
            elif len(self.columns) < MAX_COLUMNS:
                self.columns.append((first, self._column))

    def _row_cells(self, buf: bytes, begin: int, end: int, first: int, count: int) -> None:
        """Read the cells of the row ``buf[begin:end]`` (rows ``first`` onwards, ``count`` of
        them) for error values, formulas never calculated and merged ranges, counting columns
        as calamine does: ``number-columns-repeated`` cells, covered cells too."""
        assert self._cell_tag is not None
        if buf.find(self._nested, begin, end) >= 0:
            return  # a table in a cell: its cells are not the row's
        column = 0
        rows = range(first, first + min(count, MAX_FORMULAS))
        last = min(first + count - 1, ODS_MAX_ROWS)  # the last row text is kept for
        breaks = buf.find(b"line-break", begin, end) >= 0
        pads = bool(self._pad_styles)  # number cells are read cell by cell
        dates = bool(self.date_styles) and self.date_formats.room()
        if (
            not breaks
            and not pads
            and not dates
            and self._plain_row(buf, begin, end, (first, last))
        ):
            return
        for tag in self._cell_tag.finditer(buf, begin, end):
            raw = tag.group(2)
            untyped = b"value-type" not in raw and tag.group(1) is None and not raw.endswith(b"/")
            # A text with a line break, which calamine reads without it: read as untyped.
            untyped = untyped or (breaks and self._broken(buf, tag, end))
            plain = not (b"repeated" in raw or b"spanned" in raw or b"formula" in raw)
            if plain:
                # Most cells: one column, nothing to read, or (odfpy) a text cell of one.
                if untyped and column < MAX_COLUMNS and first <= last:
                    self._text_cell(buf, tag.end(), end, (first, last), column, column)
                if (
                    pads
                    and self.padded_cut is None  # the first cell past the limit is the one named
                    and tag.group(1) is None
                    and _ODS_FLOAT.search(raw) is not None
                ):
                    self._pad_cell(_ods_attributes(raw), first, count, column, 1)
                if dates and tag.group(1) is None and b"date" in raw:
                    self._date_cell(_ods_attributes(raw), first, count, column, 1)
                column += 1
                continue
            attrs: dict[str, str] = {}
            for key, double, single in _ODS_ATTRIBUTE.findall(raw):
                value = html.unescape((double or single).decode("utf-8", "replace"))
                attrs.setdefault(key.decode("ascii", "replace"), value)
            local = {k.rsplit(":", 1)[-1]: v for k, v in reversed(attrs.items())}
            repeat = min(_repeat(local.get("number-columns-repeated", "1")), MAX_COLUMNS)
            if column >= MAX_COLUMNS:
                return
            if tag.group(1) is None:
                spans = (
                    _repeat(local.get("number-rows-spanned", "1")),
                    _repeat(local.get("number-columns-spanned", "1")),
                )
                if spans != (1, 1) and self._merged_cells <= 5_000_000:
                    last_row = min(first - 1 + spans[0] - 1, 1 << 40)
                    last_column = min(column + spans[1] - 1, MAX_COLUMNS - 1)
                    self._merged_cells += (last_row - first + 2) * (last_column - column + 1)
                    self.merged.append(((first - 1, column), (last_row, last_column)))
                if "formula" in local:
                    self._formula_cell(buf, tag, end, attrs, local, rows, column, repeat)
                if untyped and first <= last:
                    columns = column, min(column + repeat, MAX_COLUMNS) - 1
                    self._text_cell(buf, tag.end(), end, (first, last), *columns)
                if pads and self.padded_cut is None and local.get("value-type") == "float":
                    self._pad_cell(local, first, count, column, repeat)
                if dates:
                    self._date_cell(local, first, count, column, repeat)
            column += repeat

    def _date_cell(
        self, local: dict[str, str], first: int, count: int, column: int, repeat: int
    ) -> None:
        """Count a date cell (``repeat`` columns from ``column``, in ``count`` rows from
        ``first``) whose own style writes the day and month in digits."""
        if local.get("value-type") != "date":
            return
        found = self.date_styles.get(local.get("style-name", ""))
        if found is None:
            return
        for c in range(column, min(column + repeat, MAX_COLUMNS)):
            for _ in range(min(count, MAX_FORMULAS)):
                self.date_formats.add(c, first, *found)

    def _pad_cell(
        self, local: dict[str, str], first: int, count: int, column: int, repeat: int
    ) -> None:
        """Note a number cell (``repeat`` columns from ``column``, in rows ``first`` on,
        ``count`` of them) if its style, or its column's when it has none, pads it."""
        style = local.get("style-name")
        last = min(column + repeat, MAX_COLUMNS) - 1
        if style is not None:
            place = self._pad_styles.get(style)
            spans = [] if place is None else [(column, last, place)]
        else:
            spans = [
                (max(c0, column), min(c1, last), place)
                for c0, c1, place in self._pad_columns
                if c0 <= last and c1 >= column
            ]
        for row in range(first, first + min(count, MAX_FORMULAS)):
            for c0, c1, place in spans:
                if len(self.padded) + c1 - c0 + 1 > MAX_PLACEHOLDERS:
                    # The rest read as their numbers, as before, and a warning says so.
                    self.padded_cut = (row, c0)
                    return
                for c in range(c0, c1 + 1):
                    key = row << 14 | c
                    if self.padded and key <= self.padded[-1]:
                        self.padded_sorted = False
                    self.padded.append(key)
                    self.padded_shapes.append(place)

    def _broken(self, buf: bytes, tag: re.Match[bytes], end: int) -> bool:
        """Whether the cell whose tag is ``tag`` (its row ending at ``end``) is a text whose
        paragraphs hold a ``<text:line-break/>`` (LibreOffice shows a new line there;
        calamine reads nothing), its text in them, not in an ``office:string-value``."""
        raw = tag.group(2)
        if tag.group(1) is not None or raw.endswith(b"/") or b"string-value" in raw:
            return False
        if _ODS_STRING.search(raw) is None:
            return False
        close = buf.find(self._cell_close, tag.end(), end)
        return buf.find(b"line-break", tag.end(), end if close < 0 else close) >= 0

    def _plain_row(self, buf: bytes, begin: int, end: int, rows: tuple[int, int]) -> bool:
        """Keep the texts of a row of single cells (none repeated, covered, spanned or a
        formula) whose cells with no value type each hold one paragraph of plain text, as
        odfpy writes them, with one match of the row: True if it is such a row. A sheet of
        them is read in a third of the time the cell-by-cell walk takes."""
        row = buf[begin:end]
        if rows[0] > rows[1] or any(
            word in row for word in (b"repeated", b"covered", b"spanned", b"formula")
        ):
            return False
        found = []
        for column, (raw, data) in enumerate(self._row_plain.findall(buf, begin, end)):
            if b"value-type" in raw or raw.endswith(b"/"):
                continue
            text = data.decode("utf-8", "replace")
            if not text or not text.isprintable() or "  " in text or text[:1] == " ":
                return False  # markup, or white space to collapse: cell by cell
            found.append((*rows, column, column, text))
        if len(self.texts) + len(found) > MAX_TEXTS:
            return False
        self.texts.extend(found)
        return True

    def _text_cell(
        self, buf: bytes, begin: int, end: int, rows: tuple[int, int], first: int, last: int
    ) -> None:
        """Keep the text of a cell with no value type, its content starting at ``begin``
        (rows ``rows``, columns ``first`` to ``last``), which calamine reads as empty, as one
        run. Called for each such cell of a sheet (odfpy writes every text cell so): the
        usual content, one paragraph of plain text, is read by one match."""
        plain = self._plain_cell.match(buf, begin, end)
        if plain is not None:
            text = plain.group(1).decode("utf-8", "replace")
            if not text.isprintable() or "  " in text or text[:1] == " ":
                text = _ods_text(plain.group(0))  # white space to collapse
        else:
            close = buf.find(self._cell_close, begin, end)
            text = _ods_text(buf[begin : end if close < 0 else close])
        if not text:
            return
        if len(self.texts) >= MAX_TEXTS:
            self.too_many = True
            return
        self.texts.append((*rows, first, last, text))

    def _formula_cell(
        self,
        buf: bytes,
        tag: re.Match[bytes],
        end: int,
        attrs: dict[str, str],
        local: dict[str, str],
        rows: range,
        column: int,
        repeat: int,
    ) -> None:
        """Note a formula cell that holds an error value or has no saved value.

        LibreOffice marks an error result ``calcext:value-type="error"`` beside an
        ``office:value-type="string"`` of an empty ``office:string-value`` (which calamine
        reads), the error's text (``#N/A``, ``Err:502``) in the cell's paragraph; a writer
        without the ``calcext`` mark leaves the empty string value with that text. A formula
        with no text and no value type, or a value type but not its value (a float without
        ``office:value``, as odfpy writes a formula it cannot calculate), was never
        calculated: calamine reads it as empty. LibreOffice saves a formula calculated to empty
        text (``=IFERROR(VLOOKUP(…);"")`` filled down) with no value type and an empty
        paragraph, ``<text:p/>``: the empty cell it shows, not one to calculate (black-box
        bb13 F9), as a never calculated one has no paragraph at all."""
        types = [v for k, v in attrs.items() if k.rsplit(":", 1)[-1] == "value-type"]
        text = ""
        shown = False  # the cell holds a paragraph: what its formula gave is saved
        if not tag.group(0).endswith(b"/>"):
            close = buf.find(self._cell_close, tag.end(), end)
            body = buf[tag.end() : end if close < 0 else close]
            text = html.unescape(_ODS_MARKUP.sub(b"", body).decode("utf-8", "replace")).strip()
            shown = _ODS_PARAGRAPH.search(body) is not None
        formula = local.get("formula", "")
        if ":=" in formula[:8]:  # the formula's syntax, as of:=, oooc:=, msoxl:=
            formula = formula.split(":", 1)[1]
        formula = formula[1:] if formula.startswith("=") else formula
        error = "error" in types or (
            bool(text)
            and types == ["string"]
            and local.get("string-value") == ""
            and (text.startswith("#") or text.startswith("Err:"))
        )
        if error:
            found, kept = self.errors, (text or "#VALUE!")[:40]
            if self._error_count >= MAX_FORMULAS:
                return
        elif not text and ((not types and not shown) or _no_value(local)):
            found, kept = self.formulas, formula[:80]
            if self._formula_count >= MAX_FORMULAS:
                return
        else:
            return
        for row in rows:
            for col in range(column, min(column + repeat, column + MAX_FORMULAS, MAX_COLUMNS)):
                found.append((row, col, kept))
                self.unread_rows.add(row)
                if error:
                    self._error_count += 1
                else:
                    self._formula_count += 1
                if max(self._error_count, self._formula_count) >= MAX_FORMULAS:
                    return


# .xls (BIFF8 in an OLE2 compound file): calamine reads an error value (#N/A, a formula whose
# result is an error) as empty, and says nothing of hidden rows and columns. The sheet's records
# say which cells hold an error, which rows and columns are hidden.
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_OLE_END = 0xFFFFFFFE
_XLS_ERRORS = {
    0x00: "#NULL!",
    0x07: "#DIV/0!",
    0x0F: "#VALUE!",
    0x17: "#REF!",
    0x1D: "#NAME?",
    0x24: "#NUM!",
    0x2A: "#N/A",
    0x2B: "#GETTING_DATA",
}
# The records of one cell each (or of a run of cells in one row, MULRK and MULBLANK), their row
# first: FORMULA, MULRK, MULBLANK, RSTRING, LABELSST, BLANK, NUMBER, LABEL, BOOLERR, RK.
_XLS_CELLS = frozenset(
    {0x0006, 0x00BD, 0x00BE, 0x00D6, 0x00FD, 0x0201, 0x0203, 0x0204, 0x0205, 0x027E}
)
_XLS_BOF, _XLS_EOF, _XLS_ROW, _XLS_COLINFO = 0x0809, 0x000A, 0x0208, 0x007D
_XLS_HIDDEN_ROW = 0x0020  # ROW's fDyZero: hidden by hand or by a filter (MS-XLS 2.4.221)
_XLS_HIDDEN_COLUMNS = 0x0001  # COLINFO's fHidden (MS-XLS 2.4.53)
_XLS_DEFAULT_ROW = 0x0225  # DEFAULTROWHEIGHT: its options first (MS-XLS 2.4.87)
_XLS_HIDDEN_BY_DEFAULT = 0x0002  # its fDyZero: rows without a ROW record are hidden
_XLS_COLUMNS = 256  # BIFF8's columns, A to IV: COLINFO's "to the end" says 256
_XLS_HEAD = struct.Struct("<HHH")  # a record's kind and size, and its body's first 16 bits
_XLS_COLINFO_FIELDS = struct.Struct("<HHHHH")  # first, last, width, format, options
_XLS_SHRFMLA = 0x04BC  # a shared formula's tokens, after the FORMULA of its first cell
_XLS_ZERO = bytes(8)  # a FORMULA's saved result, the number 0
# The globals' number formats and cell formats (MS-XLS 2.4.126 FORMAT, 2.4.353 XF: a cell's
# ixfe is its XF's place among them), and the records of cells holding a number (FORMULA,
# MULRK, NUMBER, RK), whose format may pad it with zeros.
_XLS_FORMAT, _XLS_XF = 0x041E, 0x00E0
_XLS_NUMBERS = frozenset({0x0006, 0x00BD, 0x0203, 0x027E})
_XLS_MULRK = 0x00BD
# LibreOffice (seen in 7.x) writes the result of a formula whose text result it loaded, not
# calculated (an .ods, or its own .xlsx, converted to .xls), as the number 0 with no STRING
# record: the text is not in the file, and calamine reads 0. LibreOffice and Excel calculate
# the formula again on opening. A formula whose outermost operation can only give text (&, a
# string, one of these functions) cannot give the number 0, so such a saved result is wrong.
_XLS_TEXT_FUNCTIONS = frozenset(
    {13, 14, 30, 31, 48, 111, 112, 113, 114, 115, 116, 118, 119, 120, 130, 162, 336}
)  # DOLLAR FIXED REPT MID TEXT CHAR LOWER UPPER PROPER LEFT RIGHT TRIM REPLACE SUBSTITUTE T
# CLEAN CONCATENATE, by their BIFF function numbers (MS-XLS 2.5.198.17 Ftab)
_XLS_TEXT, _XLS_CONCATENATE = 48, 336
# Sizes of the formula tokens (MS-XLS 2.5.198 Ptg) by their number, the class bits (0x60) of
# operand and function tokens dropped; not listed (0x18 extended tokens, a PtgAttr's choose
# table, 0x20 arrays…): the formula is not read.
_PTG_SIZES = {
    **dict.fromkeys(range(0x03, 0x17), 1),  # operators, parentheses, a missing argument
    0x1C: 2,  # an error
    0x1D: 2,  # a boolean
    0x1E: 3,  # an integer
    0x1F: 9,  # a number
    0x21: 3,  # a function of fixed arguments
    0x22: 4,  # a function of a variable number of arguments
    0x23: 5,  # a defined name
    0x24: 5,  # a cell
    0x25: 9,  # a range
    0x26: 7,  # PtgMemArea and kin: the tokens of their expression follow inline
    0x27: 7,
    0x28: 7,
    0x29: 3,
    0x2A: 5,
    0x2B: 9,
    0x2C: 5,  # a cell relative to the formula's (a shared formula's)
    0x2D: 9,
    0x39: 7,  # names and cells in other sheets
    0x3A: 7,
    0x3B: 11,
    0x3C: 7,
    0x3D: 11,
}
_PTG_CONCAT, _PTG_PAREN, _PTG_STR, _PTG_ATTR, _PTG_EXP = 0x08, 0x15, 0x17, 0x19, 0x01
_PTG_ATTR_SPACE = 0x40  # a PtgAttr that only keeps the formula's spacing
_UNKNOWN: Final = object()  # a cell a formula reads whose value is not known
_XLS_FORMATS_AS_IS = frozenset({"0", "@", "general"})  # TEXT(n, format) gives n's digits


def _ptgs(rgce: bytes) -> list[tuple[int, int]] | None:
    """The tokens of a formula's ``rgce`` as (number, offset), the class bits dropped and the
    spacing attributes left out; None when a token is not known or the tokens run short."""
    out: list[tuple[int, int]] = []
    at = 0
    while at < len(rgce):
        kind = rgce[at]
        base = kind if kind < 0x20 else (kind & 0x1F) | 0x20
        if base == _PTG_STR:
            if at + 3 > len(rgce):
                return None
            size = 3 + rgce[at + 1] * (2 if rgce[at + 2] & 1 else 1)
        elif base == _PTG_ATTR:
            if at + 2 > len(rgce) or rgce[at + 1] & 0x04:  # a choose table: not read
                return None
            size = 4
            if rgce[at + 1] == _PTG_ATTR_SPACE:
                at += size
                continue
        else:
            found = _PTG_SIZES.get(base)
            if found is None:
                return None
            size = found
        if at + size > len(rgce):
            return None
        out.append((base, at))
        at += size
    return out


def _function(rgce: bytes, kind: int, at: int) -> tuple[int, int | None]:
    """A function token's function number and count of arguments (None: not known here)."""
    if kind == 0x21:  # fixed arguments: known for TEXT only
        number = struct.unpack_from("<H", rgce, at + 1)[0]
        return number, 2 if number == _XLS_TEXT else None
    return struct.unpack_from("<H", rgce, at + 2)[0] & 0x7FFF, rgce[at + 1] & 0x7F


def _gives_text(rgce: bytes) -> bool:
    """Whether the formula's outermost operation can only give text."""
    tokens = _ptgs(rgce)
    while tokens and tokens[-1][0] == _PTG_PAREN:
        tokens.pop()
    if not tokens:
        return False
    kind, at = tokens[-1]
    if kind in (0x21, 0x22):
        return _function(rgce, kind, at)[0] in _XLS_TEXT_FUNCTIONS
    return kind in (_PTG_CONCAT, _PTG_STR)


def _cell_text(value: Any) -> str | None:
    """A cell's value as a formula joins it to text (Excel's General form), None when that
    is not sure to be right (a fraction, a date: their text depends on formats)."""
    if value is None:
        return ""
    kind = value.__class__
    if kind is str:
        return str(value)
    if kind is bool:
        return "TRUE" if value else "FALSE"
    if kind is int or (kind is float and value.is_integer()):
        return str(int(value)) if abs(value) < 1e15 else None
    return None


def _evaluate(rgce: bytes, row: int, column: int, cell: Callable[[int, int], Any]) -> str | None:
    """The text a formula gives, for the few it is sure of: cells (``cell(row, column)``,
    0-based: their value, or ``_UNKNOWN``), strings and whole numbers joined by ``&`` or
    CONCATENATE, and TEXT(a whole number, "0"). ``row`` and ``column``: the formula's cell,
    which a shared formula's relative cells are counted from. None for any other formula."""
    tokens = _ptgs(rgce)
    if tokens is None:
        return None
    stack: list[Any] = []
    for kind, at in tokens:
        if kind == _PTG_STR:
            count, wide = rgce[at + 1], rgce[at + 2] & 1
            raw = rgce[at + 3 : at + 3 + count * (2 if wide else 1)]
            stack.append(raw.decode("utf-16-le" if wide else "latin-1"))
        elif kind == 0x1E:
            stack.append(struct.unpack_from("<H", rgce, at + 1)[0])
        elif kind == 0x1F:
            stack.append(struct.unpack_from("<d", rgce, at + 1)[0])
        elif kind in (0x24, 0x2C):
            at_row, at_column = struct.unpack_from("<HH", rgce, at + 1)
            if kind == 0x2C and at_column & 0x8000:  # relative row: signed 16 bits
                at_row = (row + (at_row if at_row < 0x8000 else at_row - 0x10000)) & 0xFFFF
            if kind == 0x2C and at_column & 0x4000:  # relative column: signed 8 bits
                offset = at_column & 0xFF
                at_column = (column + (offset if offset < 0x80 else offset - 0x100)) & 0xFF
            else:
                at_column &= 0x3FFF
            value = cell(at_row, at_column)
            if value is _UNKNOWN:
                return None
            stack.append(value)
        elif kind == _PTG_CONCAT:
            if len(stack) < 2:
                return None
            parts = [_cell_text(stack[-2]), _cell_text(stack[-1])]
            del stack[-2:]
            if None in parts:
                return None
            stack.append("".join(p for p in parts if p is not None))
        elif kind in (0x21, 0x22):
            number, arguments = _function(rgce, kind, at)
            if arguments is None or not 0 < arguments <= len(stack):
                return None
            args = stack[len(stack) - arguments :]
            del stack[len(stack) - arguments :]
            if number == _XLS_CONCATENATE:
                parts = [_cell_text(v) for v in args]
                if None in parts:
                    return None
                stack.append("".join(p for p in parts if p is not None))
            elif number == _XLS_TEXT and arguments == 2:
                value, shape = args
                text = _cell_text(value)
                if (
                    value.__class__ not in (int, float)
                    or text is None
                    or shape.__class__ is not str
                    or shape.strip().casefold() not in _XLS_FORMATS_AS_IS
                ):
                    return None
                stack.append(text)
            else:
                return None
        elif kind != _PTG_PAREN:
            return None
    if len(stack) != 1 or stack[0].__class__ is not str:
        return None
    return str(stack[0])


def _cell_formats(stream: bytes, body: int, kind: int, size: int) -> tuple[int, int, list[int]]:
    """The row, the first column and each cell's format index (ixfe) of a number cell record,
    a run of them for ``MULRK``."""
    row, column = struct.unpack_from("<HH", stream, body)
    if kind == _XLS_MULRK:
        formats = [
            struct.unpack_from("<H", stream, at)[0] for at in range(body + 4, body + size - 2, 6)
        ]
    else:
        formats = [struct.unpack_from("<H", stream, body + 4)[0]]
    return row, column, formats


class XlsScan:
    """What calamine does not tell of one sheet of an .xls, read from the workbook's BIFF8
    records: the cells holding an error value (``BOOLERR``, 0x0205, with its error flag set,
    and ``FORMULA``, 0x0006, whose saved result is an error), the formulas whose saved result
    is empty (never calculated, as xlwt writes them), the hidden rows and the hidden columns,
    and (:attr:`stale`) the formulas giving text whose saved result is the number 0, as
    LibreOffice writes a text result it loaded rather than calculated.

    A row is hidden when its ``ROW`` record (0x0208) says fDyZero: Excel and LibreOffice set
    it for a row hidden by hand and for one an AutoFilter hides alike. As in an xlsx, only
    the hidden rows that hold a cell record are listed: LibreOffice writes a ``ROW`` for an
    empty hidden row too, and there is nothing in it to read. When ``DEFAULTROWHEIGHT`` says
    fDyZero (rows hidden unless said otherwise), a row holding cells but no ``ROW`` record of
    its own is hidden too, as LibreOffice reads it; Excel writes a ``ROW`` for every row with
    cells, and a minimal writer may not. Columns are hidden by a ``COLINFO``
    record (0x007D) that says fHidden or gives them no width, as an xlsx's ``<col>``; its
    range ends at BIFF8's last column. A row number is 16 bits, so neither list can grow
    past 65,536 however crafted the file.

    Anything not as expected (BIFF5 and older, an encrypted workbook, a damaged container, a
    record cut short or running past the stream, a sheet without its end) leaves the scan
    :attr:`failed`: the rows it did not get to are not known."""

    def __init__(self, path: str, sheet: str) -> None:
        self._path = path
        self._sheet = sheet
        self.columns: list[tuple[int, int]] = []
        self.formulas: list[tuple[int, int, str]] = []
        self.errors: list[tuple[int, int, str]] = []
        self.unread_rows: set[int] = set()
        # Formulas saved with an empty result (1-based row, column, ""), and whether any
        # formula of the sheet holds another: see :meth:`_settle`.
        self._empty: list[tuple[int, int, str]] = []
        self._calculated = False
        self._hidden: set[int] = set()  # 0-based rows whose ROW record hides them
        self._filled: set[int] = set()  # 0-based rows holding a cell record
        self._rowed: set[int] = set()  # 0-based rows with a ROW record
        self._hidden_by_default = False
        # Formulas giving text whose saved result is the number 0 (see _XLS_TEXT_FUNCTIONS):
        # (0-based row, column, tokens), in the sheet's order; the tokens of a shared formula
        # are its SHRFMLA's, shared by its cells.
        self.stale: list[tuple[int, int, bytes]] = []
        self.too_many = False  # more of them than MAX_TEXTS: crafted
        self._shared: dict[tuple[int, int], bytes | None] = {}  # first cell -> text tokens
        self._anchor: tuple[int, int] | None = None  # a shared formula's first cell, before it
        # Number cells whose format pads them with zeros, as :class:`XmlScan`'s; the cell
        # formats (ixfe) that do, to their shape's place, from the globals.
        self.shapes: list[Shape] = []
        self.padded = array.array("q")
        self.padded_shapes = bytearray()
        self.padded_sorted = True
        self.padded_cut: tuple[int, int] | None = None  # past MAX_PLACEHOLDERS, as XmlScan's
        self._pad_xfs: dict[int, int] = {}
        # Cell formats (XF) writing a date's day and month in digits (see date_order_styles),
        # and the date cells in them counted by column.
        self._date_ifmts: dict[int, tuple[bool, str]] = {}
        self._date_xfs: dict[int, tuple[bool, str]] = {}
        self.date_formats = DateFormats()
        self.stop: threading.Event | None = None
        self.failed = False

    def read_to_end(self) -> None:
        try:
            stream = self._workbook_stream()
            offset = self._sheet_offset(stream) if stream is not None else None
            if stream is None or offset is None:
                self.failed = True
                return
            self._cells(stream, offset)
        except (struct.error, IndexError, ValueError, OSError):
            self.failed = True
        self._settle()

    def advance(self, row: int) -> Findings:
        """Every hidden row (1-based, as Excel numbers it), formula never calculated and error
        cell found, at the first call (none after): the sheet was walked to its end before."""
        hidden = self._hidden & self._filled
        if self._hidden_by_default:
            hidden |= self._filled - self._rowed
        self._hidden, self._filled, self._rowed = set(), set(), set()
        errors, self.errors = self.errors, []
        formulas, self.formulas = self.formulas, []
        return sorted(r + 1 for r in hidden), formulas, errors

    def close(self) -> None:
        """Nothing is held open: the workbook stream was read whole by :meth:`read_to_end`."""

    def _workbook_stream(self) -> bytes | None:
        with open(self._path, "rb") as fh:
            data = fh.read()
        if data[:8] != _OLE_MAGIC or len(data) < 512:
            return None
        shift, mini_shift = struct.unpack_from("<HH", data, 0x1E)
        if not 7 <= shift <= 16 or not 2 <= mini_shift < shift:
            return None
        size = 1 << shift
        sectors = (len(data) - 512 + size - 1) // size + 1

        def sector(n: int) -> bytes:
            return data[(n + 1) * size : (n + 2) * size]

        fat_count, directory = struct.unpack_from("<II", data, 0x2C)
        cutoff, mini_fat, mini_count, difat, difat_count = struct.unpack_from("<IIIII", data, 0x38)
        fat_sectors = list(struct.unpack_from("<109I", data, 0x4C))
        seen = 0
        while difat not in (_OLE_END, 0xFFFFFFFF) and seen <= difat_count and seen < sectors:
            block = sector(difat)
            ids = struct.unpack(f"<{len(block) // 4}I", block)
            fat_sectors.extend(ids[:-1])
            difat, seen = ids[-1], seen + 1
        fat: list[int] = []
        for n in fat_sectors[: min(fat_count, sectors)]:
            block = sector(n)
            fat.extend(struct.unpack(f"<{len(block) // 4}I", block))

        def chain(start: int, table: list[int], limit: int) -> list[int]:
            out: list[int] = []
            while 0 <= start < len(table) and len(out) < limit:
                out.append(start)
                start = table[start]
            return out

        entries = b"".join(sector(n) for n in chain(directory, fat, sectors))
        root: tuple[int, int] | None = None
        found: tuple[int, int] | None = None
        for at in range(0, len(entries) - 127, 128):
            name_size = struct.unpack_from("<H", entries, at + 64)[0]
            name = entries[at : at + max(min(name_size, 64) - 2, 0)].decode("utf-16-le", "replace")
            kind = entries[at + 66]
            start, length = struct.unpack_from("<II", entries, at + 116)
            if kind == 5:
                root = start, length
            elif kind == 2 and name.casefold() == "workbook" and found is None:
                found = start, length
        if found is None:
            return None  # BIFF5's "Book", or not a workbook
        start, length = found
        if length < cutoff and root is not None:  # in the mini stream
            mini = b"".join(sector(n) for n in chain(root[0], fat, sectors))
            table: list[int] = []
            for n in chain(mini_fat, fat, min(mini_count, sectors)):
                block = sector(n)
                table.extend(struct.unpack(f"<{len(block) // 4}I", block))
            step = 1 << mini_shift
            parts = [mini[n * step : (n + 1) * step] for n in chain(start, table, len(table))]
            return b"".join(parts)[:length]
        return b"".join(sector(n) for n in chain(start, fat, sectors))[:length]

    def _sheet_offset(self, stream: bytes) -> int | None:
        """Where the sheet's substream starts, from the globals' BOUNDSHEET records."""
        if stream[:2] != b"\x09\x08" or struct.unpack_from("<H", stream, 4)[0] != 0x0600:
            return None  # not BIFF8
        at = 0
        formats: dict[int, int] = {}  # a padding number format's ifmt -> its shape's place
        xfs = 0  # XF records seen: the next one's ixfe
        while at + 4 <= len(stream):
            kind, size = struct.unpack_from("<HH", stream, at)
            body = at + 4
            if kind == 0x002F:  # FILEPASS: encrypted
                return None
            if kind == 0x000A:  # EOF of the globals
                return None
            if kind == _XLS_FORMAT and size >= 5:
                self._format(stream[body : body + size], formats)
            elif kind == _XLS_XF and size >= 4:
                ifmt = struct.unpack_from("<H", stream, body + 2)[0]
                place = formats.get(ifmt)
                if place is not None:
                    self._pad_xfs[xfs] = place
                if (dated := self._date_ifmts.get(ifmt)) is not None:
                    self._date_xfs[xfs] = dated
                xfs += 1
            if kind == 0x0085 and size >= 8:
                offset: int = struct.unpack_from("<I", stream, body)[0]
                chars, flags = stream[body + 6], stream[body + 7]
                raw = stream[body + 8 : body + size]
                name = (
                    raw[: chars * 2].decode("utf-16-le", "replace")
                    if flags & 1
                    else raw[:chars].decode("latin-1")
                )
                if name == self._sheet:
                    return offset
            at = body + size
        return None

    def _format(self, body: bytes, formats: dict[int, int]) -> None:
        """Keep a ``FORMAT`` record's number format if it pads numbers with zeros."""
        ifmt, chars, flags = struct.unpack_from("<HHB", body)
        raw = body[5:]
        code = (
            raw[: chars * 2].decode("utf-16-le", "replace")
            if flags & 1
            else raw[:chars].decode("latin-1")
        )
        shape = padded_shape(code)
        if shape is not None and len(self.shapes) < MAX_PADDED_STYLES:
            formats[ifmt] = len(self.shapes)
            self.shapes.append(shape)
        if (order := format_day_first(code)) is not None:
            self._date_ifmts[ifmt] = (order, code)

    def _dated(self, stream: bytes, body: int, kind: int, size: int) -> None:
        """Count a number cell (a run of them, for ``MULRK``) whose format writes a date's day
        and month in digits."""
        row, column, formats = _cell_formats(stream, body, kind, size)
        for offset, ixfe in enumerate(formats):
            if (found := self._date_xfs.get(ixfe)) is not None:
                self.date_formats.add(min(column + offset, MAX_COLUMNS - 1), row + 1, *found)

    def _pad(self, stream: bytes, body: int, kind: int, size: int) -> None:
        """Note a number cell (a run of them, for ``MULRK``) whose format pads it."""
        row, column, formats = _cell_formats(stream, body, kind, size)
        for offset, ixfe in enumerate(formats):
            place = self._pad_xfs.get(ixfe)
            if place is None:
                continue
            if len(self.padded) >= MAX_PLACEHOLDERS:
                # The rest read as their numbers, as before, and a warning says so.
                self.padded_cut = (row + 1, min(column + offset, MAX_COLUMNS - 1))
                return
            key = (row + 1) << 14 | min(column + offset, MAX_COLUMNS - 1)
            if self.padded and key <= self.padded[-1]:
                self.padded_sorted = False
            self.padded.append(key)
            self.padded_shapes.append(place)

    def _cells(self, stream: bytes, at: int) -> None:
        """Walk the sheet's substream, from its ``BOF`` at ``at`` to its ``EOF``.

        Cell records are most of it, so they are tested first, a record's kind, size and
        first field (a cell's or a ``ROW``'s row, ``DEFAULTROWHEIGHT``'s options) read at once,
        and the stop event only every
        ``SCAN_CHUNK`` bytes: per record, each of these cost as much as the rest of the walk.
        """
        if stream[at : at + 2] != b"\x09\x08":
            self.failed = True  # BOUNDSHEET points at no sheet
            return
        depth = 0
        end = len(stream)
        head = _XLS_HEAD.unpack_from
        padded = stream + b"\x00\x00"  # a last record with no body has a "first field" too
        cells, filled = _XLS_CELLS, self._filled.add
        pads = bool(self._pad_xfs)  # a workbook without padding formats skips the test
        dates = bool(self._date_xfs)
        check = at
        while at + 4 <= end:
            if at >= check:
                if self.stop is not None and self.stop.is_set():
                    return
                check = at + SCAN_CHUNK
            kind, size, row = head(padded, at)
            body = at + 4
            at = body + size
            if at > end:
                break  # cut short: a hidden row may be in what is missing
            if kind in cells:
                if depth != 1:  # an embedded chart's
                    continue
                if size < 6:  # a cell's row, column and format at the least
                    break
                filled(row)
                if pads and kind in _XLS_NUMBERS and self.padded_cut is None:
                    self._pad(stream, body, kind, size)
                if dates and kind in _XLS_NUMBERS and self.date_formats.room():
                    self._dated(stream, body, kind, size)
                if kind == 0x0205 and size >= 8 and stream[body + 7] == 1:  # BOOLERR, an error
                    self._found(stream, body, stream[body + 6])
                elif (  # FORMULA whose saved result is not a number
                    kind == 0x0006 and size >= 14 and stream[body + 12 : body + 14] == b"\xff\xff"
                ):
                    self._formula(stream, body)
                elif kind == 0x0006:
                    self._calculated = True  # a number: xlwt saves none
                    if size >= 22 and stream[body + 6 : body + 14] == _XLS_ZERO:
                        self._zero(stream, body, size)
            elif kind == _XLS_BOF:  # the sheet's, or an embedded chart's
                depth += 1
            elif kind == _XLS_EOF:
                depth -= 1
                if depth <= 0:
                    return
            elif depth != 1:
                continue
            elif kind == _XLS_SHRFMLA:
                if size < 10:
                    break
                self._share(stream, body, size)
            elif kind == _XLS_ROW:
                if size < 14:
                    break
                self._rowed.add(row)
                if stream[body + 12] & _XLS_HIDDEN_ROW:
                    self._hidden.add(row)
            elif kind == _XLS_DEFAULT_ROW:
                if size < 2:
                    break
                self._hidden_by_default = bool(row & _XLS_HIDDEN_BY_DEFAULT)
            elif kind == _XLS_COLINFO:
                if size < 10:
                    break
                first, last, width, _xf, options = _XLS_COLINFO_FIELDS.unpack_from(stream, body)
                if options & _XLS_HIDDEN_COLUMNS or width == 0:
                    self._hide_columns(first, last)
        # The stream ended, or a record was damaged, before the sheet's EOF.
        self.failed = True

    def _hide_columns(self, first: int, last: int) -> None:
        """Note 0-based columns ``first`` to ``last`` as hidden: 1-based in :attr:`columns`,
        as an xlsx's, adjacent ranges joined."""
        first, last = first + 1, min(last, _XLS_COLUMNS - 1) + 1
        if first > last:
            return
        if self.columns and self.columns[-1][1] + 1 >= first >= self.columns[-1][0]:
            self.columns[-1] = (self.columns[-1][0], max(last, self.columns[-1][1]))
        elif len(self.columns) < MAX_COLUMNS:
            self.columns.append((first, last))

    def _formula(self, stream: bytes, body: int) -> None:
        """Note a ``FORMULA`` record whose saved result is an error value, or is empty (its
        result's type, MS-XLS 2.5.133 FormulaValue: 2 an error, 3 an empty string). xlwt
        writes every formula with an empty result, never calculated, and calamine reads it
        as empty; an empty result is held in :attr:`_empty` until the sheet's end tells
        which (:meth:`_settle`). Any other result (text 0, boolean 1, an error) is one a
        program calculated."""
        result = stream[body + 6]
        if result != 3:
            self._calculated = True
        if result == 2:
            self._found(stream, body, stream[body + 8])
        elif result == 3 and len(self._empty) < MAX_FORMULAS:
            row, column = struct.unpack_from("<HH", stream, body)
            self._empty.append((row + 1, column, ""))

    def _settle(self) -> None:
        """Name the formulas saved with an empty result as never calculated unless another
        formula of the sheet holds a calculated result: LibreOffice and Excel save a formula
        calculated to empty text (``=IFERROR(VLOOKUP(…),"")`` filled down) with the same
        empty result xlwt gives every formula, and such a cell is the empty cell the sheet
        shows, as an xlsx's ``t="str"`` with ``<v></v>`` (black-box bb13 F9). A sheet of only
        empty results stays named: nothing tells them apart there."""
        if not self._calculated:
            self.formulas.extend(self._empty)
            self.unread_rows.update(row for row, _column, _text in self._empty)
        self._empty = []

    def _zero(self, stream: bytes, body: int, size: int) -> None:
        """Note a ``FORMULA`` record whose saved result is the number 0 if its formula gives
        text (LibreOffice's writing of a text result it did not calculate): its own tokens,
        or those of the shared formula its PtgExp names, which follows the shared formula's
        first cell in a ``SHRFMLA`` record."""
        row, column = struct.unpack_from("<HH", stream, body)
        count = struct.unpack_from("<H", stream, body + 20)[0]
        if 22 + count > size:
            return
        rgce = stream[body + 22 : body + 22 + count]
        if count == 5 and rgce[0] == _PTG_EXP:
            first = struct.unpack_from("<HH", rgce, 1)
            if first == (row, column):
                self._anchor = first  # its SHRFMLA is next
                return
            shared = self._shared.get(first)
            if shared is not None:
                self._keep(row, column, shared)
        elif _gives_text(rgce):
            self._keep(row, column, rgce)

    def _share(self, stream: bytes, body: int, size: int) -> None:
        """Keep a ``SHRFMLA``'s tokens if its formula gives text, for its cells; its first
        cell, whose ``FORMULA`` came just before, is noted now."""
        first_row, _last_row, first_column = struct.unpack_from("<HHB", stream, body)
        count = struct.unpack_from("<H", stream, body + 8)[0]
        rgce = stream[body + 10 : body + 10 + min(count, size - 10)]
        shared = rgce if len(rgce) == count and _gives_text(rgce) else None
        self._shared[(first_row, first_column)] = shared
        if self._anchor == (first_row, first_column) and shared is not None:
            self._keep(first_row, first_column, shared)
        self._anchor = None

    def _keep(self, row: int, column: int, rgce: bytes) -> None:
        if len(self.stale) >= MAX_TEXTS:
            self.too_many = True
            return
        self.stale.append((row, column, rgce))

    def _found(self, stream: bytes, body: int, code: int) -> None:
        if len(self.errors) >= MAX_FORMULAS:
            return
        row, column = struct.unpack_from("<HH", stream, body)
        self.errors.append((row + 1, column, _XLS_ERRORS.get(code, "#VALUE!")))
        self.unread_rows.add(row + 1)


# .xlsb (MS-XLSB records in a zip): calamine says nothing of hidden rows and columns, nor of
# merged ranges (its merged_cell_ranges is None), and reads a number cell whose format pads
# it with zeros as the number (black-box B13 #2, #3). The worksheet part's records say them.
_XLSB_ROW = 0  # BrtRowHdr (2.4.726): rw, ixfe, miyRw, then flags; fDyZero in byte 11
_XLSB_HIDDEN_ROW = 0x10
# Cell records: the full ones (column first, then the Cell's 24-bit iStyleRef) and the short
# ones (no column: the iStyleRef first), as ``_FULL_CELLS`` and ``_SHORT_CELLS``; the records
# of a number (BrtCellRk, BrtCellReal, BrtFmlaNum, BrtShortRk, BrtShortReal) may be padded.
_XLSB_NUMBERS = frozenset({2, 5, 9, 13, 16})
# The records of a cell holding an error value (BrtCellError, BrtFmlaError: its BErr after the
# Cell; BrtShortError: after the short one), which calamine reads as empty.
_XLSB_ERRORS, _XLSB_SHORT_ERROR = frozenset({3, 11}), 14
_XLSB_COL_INFO, _XLSB_BEGIN_COL_INFOS, _XLSB_END_COL_INFOS = 60, 390, 391
_XLSB_MERGE, _XLSB_BEGIN_MERGES, _XLSB_END_MERGES = 176, 177, 178
_XLSB_END_SHEET = 130  # BrtEndSheet: the sheet's records are all read
_XLSB_ROWS = 1 << 20  # Excel's rows: a row number past it is crafted
_XLSB_NEED = 24  # the most of a record's body looked at (BrtRowHdr's flags, a merge's range)
# styles.bin: BrtFmt (a number format: ifmt, its code), BrtXF, the cell formats between
# BrtBeginCellXfs and BrtEndCellXfs (a cell's iStyleRef is its place among them);
# workbook.bin: BrtBundleSh (a sheet: hsState, iTabID, its relationship Id, its name).
_XLSB_FMT, _XLSB_XF, _XLSB_BEGIN_XFS, _XLSB_END_XFS = 44, 47, 617, 618
_XLSB_BUNDLE_SHEET = 156


def _xlsb_records(data: bytes) -> Iterator[tuple[int, int, int]]:
    """The records of a whole (small) .xlsb part: (type, where its body starts, its size);
    ValueError for a record running past the part."""
    at, end = 0, len(data)
    try:
        while at < end:
            kind = data[at]
            at += 1
            if kind & 0x80:
                kind = (kind & 0x7F) | (data[at] & 0x7F) << 7
                at += 1
            size = 0
            for shift in (0, 7, 14, 21):
                byte = data[at]
                at += 1
                size |= (byte & 0x7F) << shift
                if not byte & 0x80:
                    break
            if at + size > end:
                raise ValueError("record cut short")
            yield kind, at, size
            at += size
    except IndexError:
        raise ValueError("record cut short") from None


def _xlsb_text(data: bytes, at: int, end: int) -> tuple[str | None, int]:
    """An XLWideString (a 4-byte count of UTF-16 units, then them) at ``at``: the text (None
    for the nullable one's 0xFFFFFFFF, or one running past ``end``) and where it ends."""
    if at + 4 > end:
        return None, end
    (count,) = _COLUMN.unpack_from(data, at)
    if count == 0xFFFFFFFF or at + 4 + 2 * count > end:
        return None, at + 4
    return data[at + 4 : at + 4 + 2 * count].decode("utf-16-le", "replace"), at + 4 + 2 * count


def xlsb_sheet_part(zf: zipfile.ZipFile, sheet: str) -> str | None:
    """The zip member holding worksheet ``sheet`` of an .xlsb: its BrtBundleSh in the
    workbook part names its relationship; None when not found (or not an .xlsb)."""
    workbook = workbook_part(zf)
    if workbook is None or not workbook.lower().endswith(".bin"):
        return None
    if zf.getinfo(workbook).file_size > MAX_STYLES_PART:
        return None
    data = zf.read(workbook)
    rel_id = None
    for kind, at, size in _xlsb_records(data):
        if kind != _XLSB_BUNDLE_SHEET or size < 8:
            continue
        rel, after = _xlsb_text(data, at + 8, at + size)
        name, _ = _xlsb_text(data, after, at + size)
        if name == sheet:
            rel_id = rel
            break
    if rel_id is None:
        return None
    names = _member_names(zf)
    part = _relationships(zf, names, _part_name(workbook)).get(rel_id)
    return None if part is None else names.get(part)


def xlsb_padded_styles(zf: zipfile.ZipFile) -> tuple[dict[int, int], list[Shape]]:
    """As :func:`padded_styles`, for an .xlsb's styles part: the cell formats (a cell's
    iStyleRef) whose number format (BrtFmt) pads a number with zeros, each to its shape's
    place; nothing when there is none, or the part cannot be read."""
    try:
        member = styles_part(zf)
        if member is None or zf.getinfo(member).file_size > MAX_STYLES_PART:
            return {}, []
        data = zf.read(member)
        shapes: list[Shape] = []
        by_id: dict[int, int] = {}  # ifmt -> its shape's place
        styles: dict[int, int] = {}
        xfs = -1  # the next BrtXF's place among the cell formats; -1 outside them
        for kind, at, size in _xlsb_records(data):
            if kind == _XLSB_FMT and size >= 6:
                code, _ = _xlsb_text(data, at + 2, at + size)
                shape = padded_shape(code or "")
                if shape is not None and len(shapes) < MAX_PADDED_STYLES:
                    by_id[struct.unpack_from("<H", data, at)[0]] = len(shapes)
                    shapes.append(shape)
            elif kind == _XLSB_BEGIN_XFS:
                xfs = 0
            elif kind == _XLSB_END_XFS:
                xfs = -1
            elif kind == _XLSB_XF and xfs >= 0 and size >= 4:
                place = by_id.get(struct.unpack_from("<H", data, at + 2)[0])
                if place is not None:
                    styles[xfs] = place
                xfs += 1
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, KeyError, zlib.error):
        return {}, []
    return (styles, shapes) if styles else ({}, [])


class XlsbScan:
    """What calamine does not tell of one sheet of an .xlsb, read from its worksheet part's
    records (MS-XLSB 2.1.4: a type of one or two bytes of 7 bits, a size of up to four): the
    cells holding an error value (read as empty), the hidden rows (a ``BrtRowHdr`` saying
    fDyZero, by hand or by a filter; as in an xlsx, only rows holding a cell record), the
    hidden columns (``BrtColInfo`` saying fHidden, or of no width), the merged ranges
    (``BrtMergeCell``, which calamine does not give for an .xlsb: :attr:`merged`, as
    :attr:`OdsScan.merged`) and the number cells whose format pads them with zeros (their
    iStyleRef, through :func:`xlsb_padded_styles`), as :class:`XlsScan` does for an .xls.
    Short cell records (no column, SheetJS) are placed in the column after the previous
    cell's, as :func:`xlsb_full_cells` places them for calamine.

    The part is inflated a chunk at a time and only the first bytes of a record's body are
    kept (a record of a 200 MB size, crafted, is skipped, not held); a row number past
    Excel's last, a record cut short or a sheet without its ``BrtEndSheet`` leaves the scan
    :attr:`failed`: the rows it did not get to are not known."""

    def __init__(
        self, zf: zipfile.ZipFile, part: str, styles: tuple[dict[int, int], list[Shape]]
    ) -> None:
        self._zf = zf
        self._part = part
        self._styles, self.shapes = styles
        self.columns: list[tuple[int, int]] = []
        self.formulas: list[tuple[int, int, str]] = []
        self.errors: list[tuple[int, int, str]] = []
        self.unread_rows: set[int] = set()
        self.merged: list[tuple[tuple[int, int], tuple[int, int]]] = []
        # 1-based rows; a set, as a crafted part may repeat a row's header (review RV2).
        self._hidden: set[int] = set()
        self.padded = array.array("q")
        self.padded_shapes = bytearray()
        self.padded_sorted = True
        self.padded_cut: tuple[int, int] | None = None
        self.too_many = False
        self.stop: threading.Event | None = None
        self.failed = False

    def read_to_end(self) -> None:
        try:
            with self._zf.open(self._part) as fh:
                if not self._walk(fh):
                    self.failed = True
        except (struct.error, IndexError, ValueError, OSError, zipfile.BadZipFile, zlib.error):
            self.failed = True
        finally:
            self._zf.close()

    def advance(self, row: int) -> Findings:
        """Every hidden row and error cell found, at the first call (none after): the part
        was read whole."""
        hidden, self._hidden = sorted(self._hidden), set()
        errors, self.errors = self.errors, []
        return hidden, [], errors

    def close(self) -> None:
        self._zf.close()

    def _walk(self, fh: IO[bytes]) -> bool:
        """Read the records to ``BrtEndSheet`` (True), or to the part's end without it, or
        until :attr:`stop` is set (False)."""
        buf = b""
        row = -1  # the 0-based row of the last BrtRowHdr
        hide = False  # that row is hidden and no cell of it was seen yet
        column = -1
        in_columns = in_merges = False
        styles = self._styles
        numbers, short_cells, full_cells = _XLSB_NUMBERS, _SHORT_CELLS, _FULL_CELLS
        head, need, chunk = _RECORD_HEAD, _XLSB_NEED, SCAN_CHUNK
        while True:
            if self.stop is not None and self.stop.is_set():
                return False
            more = fh.read(chunk)
            buf += more
            n = len(buf)
            at = 0
            while at < n:
                start = at
                if more and n - at < head + need:
                    break  # the header, or the first of the body, may go on in the next chunk
                kind = buf[at]
                at += 1
                if kind & 0x80:
                    kind = (kind & 0x7F) | (buf[at] & 0x7F) << 7
                    at += 1
                size = buf[at]
                at += 1
                if size & 0x80:
                    size &= 0x7F
                    for shift in (7, 14, 21):
                        byte = buf[at]
                        at += 1
                        size |= (byte & 0x7F) << shift
                        if not byte & 0x80:
                            break
                if at + min(size, need) > n:
                    if more:
                        at = start
                        break
                    raise ValueError("record cut short")
                if kind in short_cells:
                    column += 1
                    if hide:
                        self._hidden.add(row + 1)
                        hide = False
                    if styles and kind in numbers and size >= 3:
                        self._pad(row, column, buf[at] | buf[at + 1] << 8 | buf[at + 2] << 16)
                    elif kind == _XLSB_SHORT_ERROR and size >= 5:
                        self._error(row, column, buf[at + 4])
                elif kind in full_cells:
                    if size < 7:
                        raise ValueError("cell record cut short")
                    (column,) = _COLUMN.unpack_from(buf, at)
                    if hide:
                        self._hidden.add(row + 1)
                        hide = False
                    if styles and kind in numbers:
                        self._pad(row, column, buf[at + 4] | buf[at + 5] << 8 | buf[at + 6] << 16)
                    elif kind in _XLSB_ERRORS and size >= 9:
                        self._error(row, column, buf[at + 8])
                elif kind == _XLSB_ROW:
                    if size < 12:
                        raise ValueError("row record cut short")
                    (row,) = _COLUMN.unpack_from(buf, at)
                    if row >= _XLSB_ROWS:
                        raise ValueError("row past the sheet's last")
                    column = -1
                    hide = bool(buf[at + 11] & _XLSB_HIDDEN_ROW)
                elif kind == _XLSB_BEGIN_COL_INFOS:
                    in_columns = True
                elif kind == _XLSB_END_COL_INFOS:
                    in_columns = False
                elif kind == _XLSB_COL_INFO and in_columns and size >= 18:
                    first, last, width = struct.unpack_from("<III", buf, at)
                    if buf[at + 16] & 0x01 or width == 0:
                        self._hide_columns(first, last)
                elif kind == _XLSB_BEGIN_MERGES:
                    in_merges = True
                elif kind == _XLSB_END_MERGES:
                    in_merges = False
                elif kind == _XLSB_MERGE and in_merges and size >= 16:
                    self._merge(*struct.unpack_from("<IIII", buf, at))
                elif kind == _XLSB_END_SHEET:
                    return True
                at += size
            if at > n:
                # A body longer than what is held: the rest of it is passed over unread.
                self._skip(fh, at - n)
                at = n
            buf = buf[at:]
            if not more:
                return False

    @staticmethod
    def _skip(fh: IO[bytes], count: int) -> None:
        while count > 0:
            passed = fh.read(min(count, SCAN_CHUNK))
            if not passed:
                raise ValueError("record cut short")
            count -= len(passed)

    def _pad(self, row: int, column: int, style: int) -> None:
        place = self._styles.get(style)
        if place is None or self.padded_cut is not None or row < 0:
            return
        column = min(column, MAX_COLUMNS - 1)
        if len(self.padded) >= MAX_PLACEHOLDERS:
            # The rest read as their numbers, as before, and a warning says so.
            self.padded_cut = (row + 1, column)
            return
        key = (row + 1) << 14 | column
        if self.padded and key <= self.padded[-1]:
            self.padded_sorted = False
        self.padded.append(key)
        self.padded_shapes.append(place)

    def _error(self, row: int, column: int, code: int) -> None:
        """Note a cell holding an error value (BErr: the codes of an .xls's), which calamine
        reads as empty."""
        if len(self.errors) >= MAX_FORMULAS or row < 0:
            return
        self.errors.append(
            (row + 1, min(column, MAX_COLUMNS - 1), _XLS_ERRORS.get(code, "#VALUE!"))
        )
        self.unread_rows.add(row + 1)

    def _hide_columns(self, first: int, last: int) -> None:
        """Note 0-based columns ``first`` to ``last`` as hidden, 1-based in :attr:`columns`,
        adjacent ranges joined (as :meth:`XlsScan._hide_columns`)."""
        first, last = first + 1, min(last, MAX_COLUMNS - 1) + 1
        if first > last:
            return
        if self.columns and self.columns[-1][1] + 1 >= first >= self.columns[-1][0]:
            self.columns[-1] = (self.columns[-1][0], max(last, self.columns[-1][1]))
        elif len(self.columns) < MAX_COLUMNS:
            self.columns.append((first, last))

    def _merge(self, first_row: int, last_row: int, first_column: int, last_column: int) -> None:
        """Keep a merged range (0-based, as calamine's merged_cell_ranges) if it is one."""
        if (
            first_row <= last_row < _XLSB_ROWS
            and first_column <= last_column < MAX_COLUMNS
            and (first_row, first_column) != (last_row, last_column)
            and len(self.merged) < MAX_MERGED
        ):
            self.merged.append(((first_row, first_column), (last_row, last_column)))


Scan = XmlScan | OdsScan | XlsScan | XlsbScan


def open_scan(path: str, sheet: str) -> Scan | None:
    """An :class:`XmlScan` of ``sheet`` for an xlsx/xlsm, an :class:`OdsScan` for an .ods, an
    :class:`XlsScan` for an .xls, or an :class:`XlsbScan` for an .xlsb, or None for any other
    file (or a sheet whose part is not found)."""
    zf: zipfile.ZipFile | None = None
    try:
        # The compound file's signature first: is_zipfile looks for a zip's end record in the
        # last 64 KB, and an .xls may hold those bytes (a few of the corpus's do).
        with open(path, "rb") as fh:
            if fh.read(8) == _OLE_MAGIC:
                return XlsScan(path, sheet)
        if not zipfile.is_zipfile(path):
            return None
        zf = zipfile.ZipFile(path)
        part = sheet_part(zf, sheet)
        if part is not None:
            scan = XmlScan(zf, part, recalculated_on_load(zf), padded_styles(zf))
            scan.date_styles(date_order_styles(zf))
            return scan
        if ODS_PART in zf.namelist() and "xl/workbook.xml" not in zf.namelist():
            ods = OdsScan(zf, sheet, ods_padded_styles(zf))
            ods.date_styles = ods_date_styles(zf)
            return ods
        part = xlsb_sheet_part(zf, sheet)
        if part is not None:
            return XlsbScan(zf, part, xlsb_padded_styles(zf))
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, KeyError, zlib.error):
        pass
    if zf is not None:
        zf.close()  # no scan took it
    return None


class ScanAhead:
    """:func:`open_scan` of ``sheet`` inflated to its end in a thread, started before calamine
    parses the sheet: calamine releases the GIL while it parses, so the scan costs no time
    on the way to the first rows. :meth:`wait` hands over the scan, its findings held."""

    def __init__(self, path: str, sheet: str) -> None:
        self.sheet = sheet
        self._path = path
        self._scan: Scan | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        scan = open_scan(self._path, self.sheet)
        if scan is None:
            return
        scan.stop = self._stop
        try:
            scan.read_to_end()
        except (OSError, zipfile.BadZipFile, ValueError, EOFError, zlib.error):
            scan.close()
            scan.failed = True
        self._scan = scan

    def wait(self) -> Scan | None:
        """The finished scan (None: not an xlsx, .xlsb, .ods or .xls), the thread joined."""
        self._thread.join()
        return self._scan

    def cancel(self) -> None:
        self._stop.set()
        self._thread.join()
        if self._scan is not None:
            self._scan.close()


def _advance(scan: Scan | None, row: int, out: BinaryIO) -> Scan | None:
    """Send what the scan finds up to ``row``; a scan that fails is dropped (None), except an
    :class:`OdsScan`, which goes on handing out the hidden rows it found before failing."""
    if scan is None:
        return None
    failed = scan.failed
    try:
        hidden, formulas, errors = scan.advance(row)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, zlib.error):
        scan.close()
        hidden, formulas, errors, failed = [], [], [], True
        if isinstance(scan, XmlScan):
            hidden, formulas, errors = scan.hidden, scan.formulas, scan.errors
    # Found before the rows, so sent with the first findings.
    columns, scan.columns = scan.columns, []
    if columns:
        _send(out, ("scan", hidden, formulas, errors, columns))
    elif errors:
        _send(out, ("scan", hidden, formulas, errors))
    elif hidden or formulas:
        _send(out, ("scan", hidden, formulas))
    if failed:
        # Rows reported stay reported; the rest are not known.
        _send(out, ("scan", None, []))
        if not isinstance(scan, OdsScan):
            return None
        scan.failed = False  # said once
    return scan


def match_sheet(names: Sequence[str], wanted: str) -> tuple[str | None, list[str]]:
    """``wanted`` among ``names`` as Excel matches sheet names: exact, else ignoring case and
    surrounding spaces. Returns the name (None if none) and the equally good names when more
    than one is (two sheets differing only by case, neither written as asked)."""
    if wanted in names:
        return wanted, []
    key = wanted.strip().casefold()
    hits = [n for n in names if n.strip().casefold() == key]
    if len(hits) == 1:
        return hits[0], []
    return None, hits


# A sheet name saying its rows are not to be used: "DO NOT USE", "Don't use", "DNU", "Old DNC",
# "Archive(d)", "Obsolete", "Superseded", "Dupes", "Duplicates", "Test", "Backup",
# "Deprecated". Words end at anything but a letter or digit ("old_DNC", "DNC-archive");
# "Do Not Call" names an opt-out sheet and is no such name.
_DO_NOT_USE: Final = re.compile(
    r"(?<![^\W_])(?:do[\s_.-]*not[\s_.-]*use|don[\u2019']?t[\s_.-]*use|dnu|old|"
    r"archived?|archives|obsolete|superseded|dupes?|duplicates?|tests?|backups?|deprecated)"
    r"(?![^\W_])",
    re.IGNORECASE,
)


def do_not_use_sheet(name: str) -> bool:
    """Whether sheet ``name`` says its rows are not to be used (see :data:`_DO_NOT_USE`): such a
    sheet is never read ahead of another with data unless named."""
    return _DO_NOT_USE.search(name) is not None


# A sheet name saying the sheet is front matter, not a list: "Cover", "Cover sheet", "Cover
# page", "Instructions", "Read me", "README", "About", "Info", "Notes", "Contact info", "Vendor
# contact", "Title", "Summary". Matched as the whole name (numbering and punctuation around it
# aside: "1. Instructions", "_README_"), so "Contacts", a list's common name, and "Opt-out
# notes" are none. Black-box Q1 #1: a vendor workbook's "Cover" sheet, first, held the
# vendor's two contact phones under "Phone", and those were imported instead of the 25
# opt-outs on "Sheet2". Black-box S1 #2: so did a "Legend" sheet before "Week 1" and "Week
# 2": "Legend", "Key", "Glossary", "Definitions", "Help", "Introduction", "Start here", "Read
# first", "Terms", "Disclaimer", "Changelog" and "Version history" are front matter too.
_FRONT_MATTER: Final = re.compile(
    r"[\W_\d]*(?:"
    r"cover(?:[\s_.-]*(?:sheet|page|letter|note))?"
    r"|instructions?|how[\s_.-]*to(?:[\s_.-]*use)?"
    r"|read[\s_.-]*(?:me[\s_.-]*)?first|read[\s_.-]*me"
    r"|about(?:[\s_.-]*this[\s_.-]*(?:file|workbook|report|list))?"
    r"|info(?:rmation)?|notes?|title(?:[\s_.-]*page)?|summary|overview"
    r"|legend|keys?|glossary|definitions?|help|intro(?:duction)?|start[\s_.-]*here"
    r"|terms(?:[\s_.-]*(?:of[\s_.-]*use|and[\s_.-]*conditions|&[\s_.-]*conditions))?"
    r"|disclaimers?|change[\s_.-]*log|version[\s_.-]*history|revision[\s_.-]*history"
    r"|(?:vendor|supplier|sender)[\s_.-]*(?:contacts?|info(?:rmation)?|details)"
    r"|contact[\s_.-]*(?:info(?:rmation)?|details)"
    r")[\W_\d]*",
    re.IGNORECASE,
)


def front_matter_sheet(name: str) -> bool:
    """Whether sheet ``name`` says it is front matter (see :data:`_FRONT_MATTER`): a cover,
    instructions or contact sheet, whose phone numbers are most often the sender's own. With
    no sheet named, staging reads such a sheet only when no other visible sheet has a phone
    column, but before one of :func:`do_not_use_sheet`
    (:func:`app.core.job_staging.open_mapped`)."""
    return _FRONT_MATTER.fullmatch(name) is not None


def usable_first(names: Sequence[str]) -> list[str]:
    """``names`` in their order, those of :func:`front_matter_sheet` moved after the rest and
    those of :func:`do_not_use_sheet` after them."""
    return sorted(names, key=lambda name: 2 if do_not_use_sheet(name) else front_matter_sheet(name))


def _probe_rows(sheet: Any) -> list[tuple[int, list[Any]]]:
    kept: list[tuple[int, list[Any]]] = []
    for number, cells in _rows(sheet):
        if _blank(cells):
            continue
        kept.append((number, cells[:PROBE_COLUMNS]))
        if len(kept) >= PROBE_ROWS:
            break
    return kept


def _probe_others(workbook: Any, chosen: str) -> dict[str, list[tuple[int, list[Any]]]]:
    """The first rows of the other worksheets, hidden ones too (a hidden first sheet may hold
    every number), so the parent can tell which of them also hold phone numbers. A sheet that
    cannot be read is left out. Sheets named as not to be used come last, so the first named
    to the user is one to read."""
    out: dict[str, list[tuple[int, list[Any]]]] = {}
    for name in usable_first(_worksheets(workbook)):
        if name == chosen:
            continue
        try:
            rows = _probe_rows(workbook.get_sheet_by_name(name))
        except Exception:  # noqa: S112 - a damaged other sheet is simply not reported
            continue
        if rows:
            out[name] = rows
    return out


def _text_only(ahead: ScanAhead, path: str, sheet: str) -> tuple[ScanAhead, bool]:
    """Whether ``sheet``, which calamine reads as empty, is a sheet of an .ods holding cells
    with no value type (text calamine does not read), and the scan ahead of it: ``ahead``,
    or a new one if ``ahead`` scans another sheet of the same .ods. Asked only of a sheet
    calamine finds empty, so no other file waits for its scan here."""
    if ahead.sheet != sheet:
        if not isinstance(ahead.wait(), OdsScan):
            return ahead, False
        ahead.cancel()
        ahead = ScanAhead(path, sheet)
    scan = ahead.wait()
    return ahead, isinstance(scan, OdsScan) and bool(scan.texts or scan.too_many)


def _utf16_sheet(path: str, sheets: Sequence[str]) -> str | None:
    """The first of ``sheets`` of an xlsx whose part is UTF-16 text (a byte-order mark, or a
    zero byte in its first two), which calamine reads as empty though the format allows it
    and LibreOffice reads it; None if none is (or the file is no such zip)."""
    try:
        with zipfile.ZipFile(path) as zf:
            for sheet in sheets[:50]:
                part = sheet_part(zf, sheet)
                if part is None:
                    continue
                with zf.open(part) as fh:
                    head = fh.read(2)
                if head in (b"\xff\xfe", b"\xfe\xff") or (len(head) == 2 and 0 in head):
                    return sheet
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, KeyError, zlib.error):
        pass
    return None


def _unusual_workbook(path: str) -> str | None:
    """The workbook part of an xlsx calamine could not open, when the package's
    relationships put it elsewhere than ``xl/workbook.xml`` (valid, but calamine looks
    only there for its relationships): that part's name; else None. An .xlsb's
    ``xl/workbook.bin`` is where calamine looks for one: such a file failing is damaged."""
    try:
        with zipfile.ZipFile(path) as zf:
            part = workbook_part(zf)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, KeyError, zlib.error):
        return None
    if part is None or _part_name(part) in ("xl/workbook.xml", "xl/workbook.bin"):
        return None
    return part


def _has_content(sheet: Any) -> bool:
    if sheet.start is None:
        return False
    return any(any(v != "" for v in row) for row in sheet.iter_rows())


def _visible_worksheets(workbook: Any) -> list[str]:
    names = []
    for meta in workbook.sheets_metadata:
        if str(meta.visible).endswith("Visible") and str(meta.typ).endswith("WorkSheet"):
            names.append(meta.name)
    return names


def _worksheets(workbook: Any) -> list[str]:
    """Every worksheet, visible or not (chart sheets and the like left out)."""
    return [m.name for m in workbook.sheets_metadata if str(m.typ).endswith("WorkSheet")]


def _not_worksheets(workbook: Any) -> list[str]:
    """The sheets holding no cells to read: chart sheets, dialog and macro sheets (an .ods's
    chart is on a worksheet, so none there)."""
    return [m.name for m in workbook.sheets_metadata if not str(m.typ).endswith("WorkSheet")]


def _hidden_worksheets(workbook: Any) -> list[str]:
    visible = set(_visible_worksheets(workbook))
    return [name for name in _worksheets(workbook) if name not in visible]


def _with_data(workbook: Any, names: list[str]) -> list[str]:
    """Those of ``names`` whose sheet holds data (one that cannot be read is left out)."""
    out = []
    for name in names:
        try:
            if _has_content(workbook.get_sheet_by_name(name)):
                out.append(name)
        except Exception:  # noqa: S112 - a damaged hidden sheet is simply not named
            continue
    return out


def _merged_fill(
    sheet: Any, ranges: list[tuple[tuple[int, int], tuple[int, int]]] | None = None
) -> dict[int, list[tuple[int, int, int, int]]]:
    """Row index -> merged ranges (r0, c0, r1, c1) covering it, so covered cells show the value.
    ``ranges``: the sheet's merged ranges when calamine does not know them (an .ods)."""
    ranges = (sheet.merged_cell_ranges or []) if ranges is None else ranges
    by_row: dict[int, list[tuple[int, int, int, int]]] = {}
    covered = 0
    for (r0, c0), (r1, c1) in ranges:
        covered += (r1 - r0 + 1) * (c1 - c0 + 1)
        if covered > 5_000_000:  # merged ranges are a formatting nicety, not worth memory
            return {}
        for r in range(r0, r1 + 1):
            by_row.setdefault(r, []).append((r0, c0, r1, c1))
    return by_row


class _TextFill:
    """Puts the text of an .ods's cells with no value type (:attr:`OdsScan.texts`), which
    calamine reads as empty, into the rows: a batch at a time, where calamine's cell is
    empty, widening a row that ends before it, and in rows past calamine's last one (up to
    :attr:`last`)."""

    def __init__(self, runs: list[tuple[int, int, int, int, str]]) -> None:
        self._runs = runs
        self._next = 0  # the first run not wholly filled in yet
        self.last = max(run[1] for run in runs)  # the last row (1-based) holding such text

    def fill(self, cells_list: list[list[Any]], index: int) -> None:
        """Fill rows ``index + 1`` onwards (1-based), ``cells_list`` being their cells."""
        low, high = index + 1, index + len(cells_list)
        runs = self._runs
        while self._next < len(runs) and runs[self._next][1] < low:
            self._next += 1
        for k in range(self._next, len(runs)):
            first, last, c0, c1, text = runs[k]
            if first > high:
                break  # runs are in the sheet's order: the rest are further down
            if first == last and c0 == c1 and first >= low:  # most runs: one cell
                cells = cells_list[first - low]
                if len(cells) <= c0:
                    cells.extend([None] * (c0 + 1 - len(cells)))
                if cells[c0] is None or _unbroken(cells[c0], text):
                    cells[c0] = text
                continue
            for number in range(max(first, low), min(last, high) + 1):
                cells = cells_list[number - low]
                if len(cells) <= c1:
                    cells.extend([None] * (c1 + 1 - len(cells)))
                for col in range(c0, c1 + 1):
                    if cells[col] is None or _unbroken(cells[col], text):
                        cells[col] = text


def _unbroken(value: Any, text: str) -> bool:
    """Whether calamine's ``value`` is ``text`` with its line breaks (``<text:line-break/>``)
    left out: the cell then reads as ``text``, as LibreOffice shows it."""
    return (
        type(value) is str
        and "\n" in text
        and value != text
        and value.replace("\n", "") == text.replace("\n", "")
    )


class _FormulaFill:
    """Puts the text of an .xls's formulas whose saved result is a wrong 0
    (:attr:`XlsScan.stale`) into the rows, a batch at a time, where calamine read that 0:
    the formula worked out by :func:`_evaluate` from the cells it joins, which must be in the
    same batch. A formula it cannot work out leaves its cell empty and is listed in
    :attr:`unread` (1-based row, column, ``""``), to be reported as a formula with no saved
    result before the batch is sent; :attr:`rows` keeps their rows."""

    def __init__(self, stale: list[tuple[int, int, bytes]]) -> None:
        self._stale = sorted(stale, key=lambda cell: cell[:2])
        self._next = 0
        self.unread: list[tuple[int, int, str]] = []
        self.rows: set[int] = set()

    def fill(self, cells_list: list[list[Any]], index: int) -> None:
        """Fill rows ``index`` onwards (0-based), ``cells_list`` being their cells."""
        low, high = index, index + len(cells_list)
        stale = self._stale
        first = self._next
        while self._next < len(stale) and stale[self._next][0] < high:
            self._next += 1
        here = stale[first : self._next]
        # Cells whose text is not known (yet): a formula joining one is not worked out.
        unknown = {(row, column) for row, column, _ in here}

        def cell(row: int, column: int) -> Any:
            if not low <= row < high or (row, column) in unknown:
                return _UNKNOWN
            cells = cells_list[row - low]
            return cells[column] if column < len(cells) else None

        for row, column, rgce in here:
            if row < low:
                continue
            cells = cells_list[row - low]
            value = cells[column] if column < len(cells) else None
            if value.__class__ not in (int, float) or value != 0:
                unknown.discard((row, column))  # calamine read something else: keep it
                continue
            text = _evaluate(rgce, row, column, cell)
            cells[column] = text
            if text is None:
                self.unread.append((row + 1, column, ""))
                self.rows.add(row + 1)
            else:
                unknown.discard((row, column))

    def take(self) -> list[tuple[int, int, str]]:
        unread, self.unread = self.unread, []
        return unread


def _longest_text(cells_list: list[list[Any]]) -> int:
    """The length of the longest text among the cells (0 when there is none), in C loops:
    it runs on every batch."""
    texts = filter(str.__instancecheck__, itertools.chain.from_iterable(cells_list))
    return max(map(len, texts), default=0)


def _cut_long_texts(
    cells_list: list[list[Any]], index: int, cut: list[tuple[int, int, int]] | None
) -> None:
    """Cut the texts longer than ``MAX_CELL_CHARS`` of rows ``index`` onwards (0-based) to
    that, noting each in ``cut`` as (row, column, its length): rows 1-based, columns
    0-based, as the notes."""
    for offset, cells in enumerate(cells_list):
        for column, value in enumerate(cells):
            if value.__class__ is str and len(value) > MAX_CELL_CHARS:
                cells[column] = value[:MAX_CELL_CHARS]
                if cut is not None:
                    cut.append((index + offset + 1, column, len(value)))


def _row_batches(
    sheet: Any,
    size: int = BATCH_ROWS,
    merged_ranges: list[tuple[tuple[int, int], tuple[int, int]]] | None = None,
    texts: list[tuple[int, int, int, int, str]] | None = None,
    formulas: _FormulaFill | None = None,
    cut: list[tuple[int, int, int]] | None = None,
    zeros: list[int] | None = None,
    padded: Padded | None = None,
    unshown: list[tuple[int, int, str]] | None = None,
) -> Iterator[list[tuple[int, list[Any]]]]:
    """The sheet's rows in batches, numbered as in Excel, empty cells as None; blank rows
    after the last row with data are left out. A cell covered by a merged range (calamine's,
    or ``merged_ranges``) shows the range's value, in every format. ``texts``: an .ods's
    cells with no value type, read as their text (:class:`_TextFill`), in a sheet calamine
    finds empty too. ``formulas``: an .xls's formulas whose text calamine reads as 0
    (:class:`_FormulaFill`). A text longer than ``MAX_CELL_CHARS`` is cut to it, and noted in
    ``cut`` (see :func:`_cut_long_texts`) before its batch is yielded. ``zeros``: cells to
    empty, sorted, as :attr:`XmlScan.placeholders` holds them. ``padded``: number cells
    whose format pads them with zeros, read as the text they show (:func:`_pad_cells`);
    ``unshown``: filled with the number cells whose format shows nothing, before their batch
    is yielded.

    Done a batch at a time with list comprehensions: the per-row loop this replaces cost
    more than calamine's own parse of the rows.
    """
    start = sheet.start
    text_fill = _TextFill(texts) if texts else None
    if start is None and text_fill is None:
        return
    first_column = 0 if start is None else start[1]
    pad: list[None] = [None] * first_column
    merged = _merged_fill(sheet, merged_ranges)
    top_left: dict[tuple[int, int], Any] = {}
    pending: list[int] = []  # blank rows, sent only when data follows
    index = 0  # python-calamine yields rows from row 0 (absolute), columns from the first used
    source = iter(()) if start is None else sheet.iter_rows()
    while True:
        chunk: list[Any] = list(itertools.islice(source, size))
        if not chunk and text_fill is not None and index < text_fill.last:
            # Text below calamine's last row: rows of it alone.
            chunk = [[None] for _ in range(min(size, text_fill.last - index))]
        if not chunk:
            break
        cells_list: list[Any] = [
            r if "" not in r else [None if v == "" else v for v in r] for r in chunk
        ]
        if pad:
            cells_list = [pad + cells for cells in cells_list]
        if text_fill is not None:
            text_fill.fill(cells_list, index)
        if formulas is not None:
            formulas.fill(cells_list, index)
        if zeros:
            _empty_cells(cells_list, index, zeros)
        if padded is not None:
            _pad_cells(cells_list, index, *padded, unshown)
        if merged:
            _fill_merged(cells_list, index, merged, top_left)
        if _longest_text(cells_list) > MAX_CELL_CHARS:
            _cut_long_texts(cells_list, index, cut)
        # Only a row whose first cell is empty can be blank: the full test runs for those.
        c = first_column
        blank = [
            i
            for i, cells in enumerate(cells_list)
            if (cells[c] is None or (cells[c].__class__ is str and cells[c].isspace()))
            and _blank(cells)
        ]
        numbered = list(zip(range(index + 1, index + 1 + len(chunk)), cells_list, strict=True))
        index += len(chunk)
        if blank:
            width = len(cells_list[0])
            for i in blank:
                numbered[i] = (numbered[i][0], [None] * width)
            blank_set = set(blank)
            last_data = len(numbered) - 1
            while last_data >= 0 and last_data in blank_set:
                last_data -= 1
            held = numbered[last_data + 1 :]
            numbered = numbered[: last_data + 1]
        else:
            width, held = 0, []
        if numbered:
            # Blank rows count only when data follows: formatting alone can stretch the range.
            if pending:
                width = len(numbered[0][1])
                numbered = [(n, [None] * width) for n in pending] + numbered
                pending = []
            yield numbered
        pending.extend(n for n, _ in held)


def _empty_cells(cells_list: list[list[Any]], index: int, zeros: list[int]) -> None:
    """Empty the cells of ``zeros`` (sorted, row << 14 | column, rows 1-based) that lie in
    ``cells_list``, whose first row is row ``index`` + 1."""
    at = bisect.bisect_left(zeros, (index + 1) << 14)
    end = bisect.bisect_left(zeros, (index + 1 + len(cells_list)) << 14)
    for key in zeros[at:end]:
        cells = cells_list[(key >> 14) - index - 1]
        column = key & (MAX_COLUMNS - 1)
        if column < len(cells):
            cells[column] = None


# A number cell whose number format pads it with zeros ("0000000000", "0##########",
# "\"0\"##########"): UK and Italian lists keep a number's leading 0 so, and the sheet shows
# 0351234568 where the cell holds 351234568, which reads as another number (black-box B10 #1).
# Such a cell is read as the text it shows. A format is a list of parts: "0" and "#" digit
# placeholders, or literal text after a "'" (a literal "0" is no placeholder).
Shape = tuple[str, ...]
# Unquoted characters Excel shows as they are; "/" (a fraction), "," (thousands) and "."
# (decimals) are not among them: a format holding one is not read.
_FORMAT_LITERALS = frozenset(" -+()")
# A colour, or a locale with no currency symbol ([$-409]), change nothing of the digits.
_FORMAT_BRACKET = re.compile(
    r"\[(?:black|blue|cyan|green|magenta|red|white|yellow|color\d{1,2}|\$-[0-9a-f]{1,8})\]",
    re.IGNORECASE,
)
MAX_PADDED_STYLES = 255  # a workbook's padded formats kept (one byte each per cell)
# The shape of a format that shows a positive number as nothing (``;;;``, an empty first
# section): its cells are read as their number and named (``unshown``), as the sheet shows an
# empty cell where a number is (black-box bb13 F1).
UNSHOWN: Final[Shape] = ("",)
# A format that shows nothing of a text either (";;;": an empty fourth section, the text's):
# its text cells are named too (black-box bb16 F3: '201-555-0902' so formatted was read
# unsaid).
UNSHOWN_TEXT: Final[Shape] = ("", "")
# An xlsx cell type holding a text: shared, inline, a formula's.
_TEXT_TYPES: Final = frozenset({b"s", b"inlineStr", b"str"})
# The sections of a format code, split at the semicolons outside quotes.
_FORMAT_SECTIONS: Final = re.compile(r';(?=(?:[^"]*"[^"]*")*[^"]*$)')


def padded_shape(code: str) -> Shape | None:
    """The parts of number format ``code``'s first section (the one for a positive number) if
    it shows a whole number with zeros (or digits) the number does not have; None for any
    other format, or one not read here (decimals, percent, exponent, dates, thousands, text,
    conditions), whose cells are read as their number. :data:`UNSHOWN` for a format whose
    first section shows nothing (empty, or only an empty literal: ``""``),
    :data:`UNSHOWN_TEXT` when its text section (the fourth) shows nothing too."""
    if code.startswith(";") or code.startswith('"";') or code == '""':
        sections = _FORMAT_SECTIONS.split(code)
        text = len(sections) >= 4 and sections[3] in ("", '""')
        return UNSHOWN_TEXT if text else UNSHOWN
    parts: list[str] = []
    at, size = 0, len(code)
    while at < size:
        ch = code[at]
        if ch == ";":
            break
        if ch in "0#":
            parts.append(ch)
            at += 1
        elif ch == '"':
            end = code.find('"', at + 1)
            if end < 0:
                return None
            parts.append("'" + code[at + 1 : end])
            at = end + 1
        elif ch == "\\" and at + 1 < size:
            parts.append("'" + code[at + 1])
            at += 2
        elif ch == "_" and at + 1 < size:  # the width of the next character: a space
            parts.append("' ")
            at += 2
        elif ch in _FORMAT_LITERALS:
            parts.append("'" + ch)
            at += 1
        elif ch == "[":
            bracket = _FORMAT_BRACKET.match(code, at)
            if bracket is None:
                return None
            at = bracket.end()
        else:
            return None
    return padded_shape_of(tuple(parts))


def padded_shape_of(parts: Shape) -> Shape | None:
    """``parts`` if a format of them shows digits a number does not have: zeros where the
    number has no digit (a "0" placeholder left of the last one), or a literal digit
    ("0"##########, shown whatever the number); else None."""
    placeholders = [p for p in parts if p in ("0", "#")]
    if not placeholders:
        return None
    pads = "0" in placeholders[:-1] or any(
        p not in ("0", "#") and any(c.isdigit() for c in p) for p in parts
    )
    return parts if pads else None


def shown_number(number: int, shape: Shape) -> str:
    """``number`` (whole, not negative) as a format of ``shape`` shows it, as Excel does: its
    digits fill the placeholders from the right, the leftmost one taking all that are left; a
    placeholder with no digit shows "0" for a "0" and nothing for a "#"."""
    digits = str(number)
    run = _run_of(shape)
    if run is not None:  # the usual shape: one run of placeholders
        before, fills, after = run
        return before + fills[max(len(fills) - 1 - len(digits), 0)] + digits + after
    slots = sum(1 for p in shape if p in ("0", "#"))
    out: list[str] = []
    left = len(digits) - slots  # digits beyond the placeholders, all in the first one
    seen = 0
    for part in shape:
        if part not in ("0", "#"):
            out.append(part[1:])
            continue
        # This placeholder's digits: from the right, slot k (0-based from the left) shows
        # digit len - slots + k, the first slot also every digit before it.
        position = left + seen
        if seen == 0 and left > 0:
            out.append(digits[: left + 1])
        elif position >= 0:
            out.append(digits[position])
        elif part == "0":
            out.append("0")
        seen += 1
    return "".join(out)


# Cells to read as the text their format shows: sorted cells (row << 14 | column, rows
# 1-based), each one's shape's place, the shapes.
Padded = tuple[Sequence[int], bytearray, list[Shape]]


def _padded(scan: Scan | None) -> Padded | None:
    """The cells a scan found whose format pads them with zeros, in the sheet's order; None
    when there are none."""
    if scan is None or not scan.padded:
        return None
    keys, which = scan.padded, scan.padded_shapes
    if not scan.padded_sorted:
        order = sorted(range(len(keys)), key=keys.__getitem__)
        keys = array.array("q", (keys[k] for k in order))
        which = bytearray(which[k] for k in order)
    return keys, which, scan.shapes


@functools.lru_cache(maxsize=MAX_PADDED_STYLES)
def _run_of(shape: Shape) -> tuple[str, list[str], str] | None:
    """A shape whose placeholders are one run, literals only around it, as the text before
    it, what its placeholders show for each count of them left without a digit (0 to all),
    and the text after it; None for another shape. Per cell, the sum shown_number works out
    part by part costs more than the rest of the read (black-box B10 #1's 100,000 rows)."""
    slots = [k for k, part in enumerate(shape) if part in ("0", "#")]
    if slots[-1] - slots[0] + 1 != len(slots):
        return None
    run = "".join(shape[slots[0] : slots[-1] + 1])
    before = "".join(part[1:] for part in shape[: slots[0]])
    after = "".join(part[1:] for part in shape[slots[-1] + 1 :])
    return before, [run[:empty].replace("#", "") for empty in range(len(run) + 1)], after


def _pad_cells(
    cells_list: list[list[Any]],
    index: int,
    keys: Sequence[int],
    which: bytearray,
    shapes: list[Shape],
    unshown: list[tuple[int, int, str]] | None = None,
) -> None:
    """Give the number cells of ``keys`` (sorted, row << 14 | column, rows 1-based) in
    ``cells_list`` (whose first row is row ``index`` + 1) the text their format
    ``shapes[which[k]]`` shows, when it shows a whole number not negative with digits the
    number does not have. Text, booleans and the rest are left as they are. A number whose
    format shows nothing (:data:`UNSHOWN`) is left too, and listed in ``unshown`` (row, column,
    the number as text)."""
    at = bisect.bisect_left(keys, (index + 1) << 14)
    end = bisect.bisect_left(keys, (index + 1 + len(cells_list)) << 14)
    for k in range(at, end):
        key = keys[k]
        cells = cells_list[(key >> 14) - index - 1]
        column = key & (MAX_COLUMNS - 1)
        if column >= len(cells):
            continue
        value = cells[column]
        kind = value.__class__
        shape = shapes[which[k]]
        if not shape[0]:  # UNSHOWN or UNSHOWN_TEXT: no padded shape starts empty
            if unshown is None:
                continue
            if (kind is int or kind is float) and value:
                whole = kind is int or value.is_integer()
                text = repr(int(value)) if whole else repr(value)
                unshown.append((key >> 14, column, text))
            elif kind is str and len(shape) > 1 and value.strip():
                unshown.append((key >> 14, column, value.strip()))
            continue
        if kind is float:
            if not value.is_integer() or not 0 <= value < 1e15:
                continue
            value = int(value)
        elif kind is not int or value < 0:
            continue
        if not value:
            continue  # a format's third section may show 0 otherwise ("0000000000;;;@")
        text = shown_number(value, shapes[which[k]])
        digits = str(value)
        # Most texts are digits alone: compared as they are, not filtered.
        if text != digits and (text.isdigit() or "".join(filter(str.isdigit, text)) != digits):
            cells[column] = text


def _fill_merged(
    cells_list: list[list[Any]],
    index: int,
    merged: dict[int, list[tuple[int, int, int, int]]],
    top_left: dict[tuple[int, int], Any],
) -> None:
    """Give the cells a merged range covers its top-left value (rows ``index`` onwards)."""
    for offset, cells in enumerate(cells_list):
        spans = merged.get(index + offset)
        if not spans:
            continue
        row = index + offset
        for r0, c0, _r1, c1 in spans:
            if row == r0:
                top_left[(r0, c0)] = cells[c0] if c0 < len(cells) else None
            value = top_left.get((r0, c0))
            for col in range(c0, min(c1 + 1, len(cells))):
                if cells[col] is None:
                    cells[col] = value


def _rows(sheet: Any) -> Iterator[tuple[int, list[Any]]]:
    """The sheet's rows one by one (see :func:`_row_batches`)."""
    for batch in _row_batches(sheet):
        yield from batch


def _blank(cells: list[Any]) -> bool:
    # A plain loop, not all(<generator>): most rows are decided by their first cell, and the
    # generator's set-up costs more than that per row.
    for v in cells:  # noqa: SIM110
        if v is not None and (type(v) is not str or v.strip()):
            return False
    return True


def _classify(exc: BaseException) -> str:
    name = type(exc).__name__
    if name == "PasswordError":
        return "password"
    if name == "WorksheetNotFound":
        return "no_sheet"
    return "corrupt"


# .xlsb: the short cell records of MS-XLSB (BrtShortBlank 12 … BrtShortIsst 18): a cell with no
# column, in the column after the previous cell's. SheetJS writes every cell of a row after its
# first so (Aspose.Cells some); Excel never. calamine skips them (only column A of a SheetJS
# .xlsb was read: black-box B6 #4). Each is the full record 11 below it (BrtCellBlank 1 …
# BrtCellIsst 7) with the column left out.
_SHORT_CELLS = range(12, 19)
# Records whose body starts with the cell's column (4 bytes): the full cell records and the
# formula cells (1-11), and BrtCellRString (62).
_FULL_CELLS = frozenset((*range(1, 12), 62))
_XLSB_SHEETS = re.compile(r"(?:^|/)worksheets/[^/]+\.bin$", re.IGNORECASE)
_RECORD_HEAD = 6  # the longest record header: a 2-byte type, a 4-byte size
_COLUMN = struct.Struct("<I")


def _record_size(size: int) -> bytes:
    out = bytearray()
    while True:
        byte = size & 0x7F
        size >>= 7
        out.append(byte | 0x80 if size else byte)
        if not size:
            return bytes(out)


def _short_cells(fh: IO[bytes], out: IO[bytes] | None = None) -> bool:
    """Whether the .xlsb part ``fh`` holds short cell records (without ``out``, read only up
    to the first); with ``out``, the part is written there with each written as its full
    record, its column the previous cell's + 1 in its row. A record's type is one or two
    bytes of 7 bits, its size up to four. A record cut short raises ValueError.

    One plain loop, constants local and spans of other records copied whole: a sheet holds
    millions of records, and an Excel .xlsb (none of them short) is read to its end."""
    buf = b""
    column = -1
    found = False
    head, full_cells, chunk = _RECORD_HEAD, _FULL_CELLS, SCAN_CHUNK
    column_at, pack_column = _COLUMN.unpack_from, _COLUMN.pack
    parts: list[bytes] = []  # what goes to ``out`` from this chunk
    try:
        while True:
            more = fh.read(chunk)
            buf += more
            n = len(buf)
            at = copied = 0
            while at < n:
                start = at
                if more and n - at < head:
                    break  # the header may go on in the next chunk
                kind = buf[at]
                at += 1
                if kind & 0x80:
                    kind = (kind & 0x7F) | (buf[at] & 0x7F) << 7
                    at += 1
                size = buf[at]
                at += 1
                if size & 0x80:
                    size &= 0x7F
                    for shift in (7, 14, 21):
                        byte = buf[at]
                        at += 1
                        size |= (byte & 0x7F) << shift
                        if not byte & 0x80:
                            break
                if at + size > n:
                    at = start
                    break
                if kind in _SHORT_CELLS:
                    found = True
                    if out is None:
                        return True
                    column += 1
                    grown = size + 4
                    parts.append(buf[copied:start])
                    parts.append(
                        bytes((kind - 11, grown))
                        if grown < 0x80
                        else bytes((kind - 11,)) + _record_size(grown)
                    )
                    parts.append(pack_column(column))
                    parts.append(buf[at : at + size])
                    copied = at + size
                elif out is None:
                    pass  # only looking
                elif kind == 0:  # BrtRowHdr: a row starts
                    column = -1
                elif kind in full_cells and size >= 4:
                    (column,) = column_at(buf, at)
                at += size
            if out is not None:
                parts.append(buf[copied:at])
                out.write(b"".join(parts))
                parts.clear()
            buf = buf[at:]
            if not more:
                if buf:
                    raise ValueError("record cut short")
                return found
    except IndexError:  # a header cut short by the end of the part
        raise ValueError("record cut short") from None


def xlsb_full_cells(path: str) -> io.BytesIO | None:
    """A copy of the .xlsb ``path``, in memory, whose worksheets' short cell records are
    written as the full ones calamine reads (see ``_SHORT_CELLS``); None when it has none
    (calamine reads the file as it is, as it does a part whose records cannot be read
    before any short one). A part holding short records that then cannot be copied raises
    (ValueError for a record cut short): read as it is, its columns after A would be lost."""
    fix: set[str] = set()
    try:
        with zipfile.ZipFile(path) as zf:
            for name in zf.namelist():
                if not _XLSB_SHEETS.search(name.replace("\\", "/")):
                    continue
                try:
                    with zf.open(name) as fh:
                        if _short_cells(fh):
                            fix.add(name)
                except (OSError, zipfile.BadZipFile, ValueError, EOFError, zlib.error):
                    continue  # calamine's to refuse, as it would have
    except (OSError, zipfile.BadZipFile, ValueError, EOFError):
        return None
    if not fix:
        return None
    copy = io.BytesIO()
    with zipfile.ZipFile(path) as zf, zipfile.ZipFile(copy, "w") as out:
        for info in zf.infolist():
            entry = zipfile.ZipInfo(info.filename, info.date_time)
            entry.compress_type = info.compress_type
            with zf.open(info) as src, out.open(entry, "w") as dst:
                if info.filename in fix:
                    _short_cells(src, dst)
                else:
                    shutil.copyfileobj(src, dst, SCAN_CHUNK)
    copy.seek(0)
    return copy


# An .ods whose content.xml is indented (SheetJS writes it so): calamine fails on the text
# between a row's cells ("Expecting 'table-cell', found 'Text(…)'", black-box B6 #5), though
# LibreOffice reads it. Whitespace beside the tags that build a sheet, or between a cell's
# paragraphs, is no content (only a paragraph's own is), so a copy without it reads the same.
_ODS_GAP = re.compile(rb"<(/?)(?:[\w.-]+:)?([\w.-]+)[^<>]*>(\s+)(?=<(/?)(?:[\w.-]+:)?([\w.-]+))")
_ODS_STRUCTURE = frozenset(
    {
        b"document-content",
        b"body",
        b"spreadsheet",
        b"table",
        b"table-row",
        b"table-cell",
        b"covered-table-cell",
        b"table-column",
        b"table-columns",
        b"table-rows",
        b"table-header-rows",
        b"table-header-columns",
        b"table-row-group",
        b"table-column-group",
        b"annotation",
    }
)


def _ods_gap(match: re.Match[bytes]) -> bytes:
    before, after = match.group(2), match.group(5)
    if (
        before in _ODS_STRUCTURE
        or after in _ODS_STRUCTURE
        or (match.group(1) and before in (b"p", b"h"))
    ):
        return match.group(0)[: match.start(3) - match.start(0)]
    return match.group(0)


def ods_without_indent(path: str) -> io.BytesIO | None:
    """A copy of the .ods ``path``, in memory, whose content.xml holds no whitespace between
    the tags of its tables (see ``_ODS_GAP``); None when it cannot be made."""
    try:
        with zipfile.ZipFile(path) as zf:
            copy = io.BytesIO()
            with zipfile.ZipFile(copy, "w") as out:
                for info in zf.infolist():
                    entry = zipfile.ZipInfo(info.filename, info.date_time)
                    entry.compress_type = info.compress_type
                    if info.filename == ODS_PART:
                        out.writestr(entry, _ODS_GAP.sub(_ods_gap, zf.read(info)))
                        continue
                    with zf.open(info) as src, out.open(entry, "w") as dst:
                        shutil.copyfileobj(src, dst, SCAN_CHUNK)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, zlib.error, MemoryError):
        return None  # the file's own failure is reported
    copy.seek(0)
    return copy


# The names calamine's from_path reads each kind of workbook under (it goes by the name).
_SUFFIXES = {
    "xlsx": (".xlsx", ".xlsm", ".xlam"),
    "xlsb": (".xlsb",),
    "ods": (".ods",),
    "xls": (".xls", ".xla"),
}


def _open_workbook(calamine: Any, path: str, kind: str) -> Any:
    """calamine's workbook for ``path``, read as what its content is (``kind``: xlsx, xlsb,
    ods or xls, as the parent found it by the file's content; "" when it could not tell).

    ``from_path`` picks the reader by the file's name, and a vendor's .xlsx saved as
    ``report.xls`` (or an .ods named .xlsx) then failed as "damaged"; ``from_filelike`` looks
    at the content, at the cost of holding the file in memory, so it is used only for such
    a file. So it is for two copies made in memory of files calamine misreads: an .xlsb
    whose short cell records it skips (:func:`xlsb_full_cells`), and an .ods it fails to
    read because its content.xml is indented (:func:`ods_without_indent`, tried only when
    the file itself fails).
    """
    suffix = os.path.splitext(path)[1].lower()
    if kind == "xlsb" or (not kind and suffix == ".xlsb"):
        copy = xlsb_full_cells(path)
        if copy is not None:
            return calamine.CalamineWorkbook.from_filelike(copy)
    try:
        if kind not in _SUFFIXES or suffix in _SUFFIXES[kind]:
            return calamine.CalamineWorkbook.from_path(path)
        with open(path, "rb") as fh:
            return calamine.CalamineWorkbook.from_filelike(fh)
    except Exception:
        if kind != "ods" and (kind or suffix != ".ods"):
            raise
        copy = ods_without_indent(path)
        if copy is None:
            raise
        # The copy failing too says nothing more: the file's own failure is reported.
        with contextlib.suppress(Exception):
            return calamine.CalamineWorkbook.from_filelike(copy)
        raise


def run(
    path: str, wanted: str, memory_limit: int, out: BinaryIO, probe: bool = False, kind: str = ""
) -> int:
    _limit_memory(memory_limit)
    import python_calamine

    ahead: ScanAhead | None = None
    try:
        workbook = _open_workbook(python_calamine, path, kind)
        names: Sequence[str] = list(workbook.sheet_names)
        hidden = _hidden_worksheets(workbook)
        if wanted:
            found, alike = match_sheet(names, wanted)
            if found is None:
                _send(out, ("error", "ambiguous_sheet" if alike else "no_sheet", wanted, names))
                return 0
            chosen = found
            ahead = ScanAhead(path, chosen)
            sheet = workbook.get_sheet_by_name(chosen)
            if not _has_content(sheet) and not _text_only(ahead, path, chosen)[1]:
                if _utf16_sheet(path, [chosen]) is not None:
                    _send(out, ("error", "encoding", chosen, names))
                else:
                    _send(out, ("error", "empty_sheet", chosen, names))
                return 0
        else:
            # A hidden sheet only when named: if calamine calls no sheet a visible worksheet,
            # every sheet not hidden is tried, as before.
            candidates = _visible_worksheets(workbook) or [n for n in names if n not in hidden]
            # A "DO NOT USE" sheet first in the file holds numbers someone set aside. A cover
            # sheet with data is still opened first: whether another sheet has a phone column
            # to read before it is staging's to find (job_staging.open_mapped).
            candidates = sorted(candidates, key=do_not_use_sheet)
            if not candidates:
                _send(out, ("error", "empty", "", names, _with_data(workbook, hidden)))
                return 0
            # Most often the first sheet is the one: its scan starts while calamine parses.
            ahead = ScanAhead(path, candidates[0])
            chosen, sheet = candidates[0], None
            for candidate in candidates:
                maybe = workbook.get_sheet_by_name(candidate)
                if _has_content(maybe):
                    chosen, sheet = candidate, maybe
                    break
                ahead, text_only = _text_only(ahead, path, candidate)
                if text_only:
                    chosen, sheet = candidate, maybe
                    break
            if sheet is None:
                if (utf16 := _utf16_sheet(path, candidates)) is not None:
                    _send(out, ("error", "encoding", utf16, names))
                else:
                    _send(out, ("error", "empty", "", names, _with_data(workbook, hidden)))
                return 0
            if chosen != ahead.sheet:
                ahead.cancel()
                ahead = ScanAhead(path, chosen)
        meta = ("meta", list(names), chosen, hidden, date_system_1904(path))
        _send(out, (*meta, _not_worksheets(workbook)))
        scan = ahead.wait()
        ahead = None
        texts = scan.texts if isinstance(scan, OdsScan) else None
        if scan is not None and scan.too_many:
            raise MemoryError  # more cells to keep than memory allows: crafted, or beyond it
        # An xlsx's formula cells holding a placeholder 0, emptied as calamine empties those
        # with no saved result, which the scan reports them as.
        zeros = sorted(scan.placeholders) if isinstance(scan, XmlScan) else None
        padded = _padded(scan)
        stale = _FormulaFill(scan.stale) if isinstance(scan, XlsScan) and scan.stale else None
        # calamine knows an xlsx's and an .xls's merged ranges, the scan an .ods's and an
        # .xlsb's.
        merged = scan.merged if isinstance(scan, OdsScan | XlsbScan) else None
        ranges = (getattr(sheet, "merged_cell_ranges", None) or []) if merged is None else merged
        # No scan (a part not found): its hidden rows are not known. A scan that failed says
        # so next.
        _send(out, ("scan", None if scan is None else [], []))
        if scan is not None and scan.padded_cut is not None:
            # Before the rows: staging warns that numbers from there on lost their zeros.
            _send(out, ("padded", *scan.padded_cut, len(scan.padded)))
        scan = _advance(scan, 0, out)  # what the XML says about the rows goes out before them
        if ranges:
            # 1-based rows, 0-based columns, as the notes: a row covered by a merged range
            # shows its value, and staging says so.
            shown = [(r0 + 1, c0, r1 + 1, c1) for (r0, c0), (r1, c1) in ranges[:MAX_MERGED]]
            _send(out, ("merged", shown))
        count = 0
        last_row = 0
        batch: list[tuple[int, list[Any]]] = []
        cut: list[tuple[int, int, int]] = []
        unshown: list[tuple[int, int, str]] = []
        batches = _row_batches(
            sheet,
            merged_ranges=merged,
            texts=texts,
            formulas=stale,
            cut=cut,
            zeros=zeros or None,
            padded=padded,
            unshown=unshown,
        )
        for batch in batches:
            if scan is not None:  # an .ods scan hands out its hidden rows a batch at a time
                scan = _advance(scan, batch[-1][0], out)
            if stale is not None and stale.unread:
                _send(out, ("scan", [], stale.take()))
            if cut:
                _send(out, ("cut", cut[:]))
                cut.clear()
            if unshown:  # number cells whose format shows nothing, named by staging
                _send(out, ("unshown", unshown[:]))
                unshown.clear()
            _send(out, ("rows", batch))
            count += len(batch)
            last_row = batch[-1][0]
        if scan is not None or stale is not None:
            # calamine reads a formula never calculated or an error value as empty, so rows of
            # nothing else after the last value are not in its sheet; they must be there to be
            # reported. A formula the fill could not work out is emptied: its row too.
            if stale is not None and stale.unread:  # rows of nothing else, not sent yet
                _send(out, ("scan", [], stale.take()))
            unread = scan.unread_rows if scan is not None else set()
            unread = unread | stale.rows if stale is not None else unread
            after = max((n for n in unread if n > last_row), default=0)
            if 0 < after - last_row <= MAX_FORMULAS:
                batch = [(n, [None]) for n in range(last_row + 1, after + 1)]
                _send(out, ("rows", batch))
                count += len(batch)
            if scan is not None:
                scan.close()
        if isinstance(scan, XmlScan | OdsScan | XlsScan) and scan.date_formats.found:
            _send(out, ("date_formats", scan.date_formats.said()))
        if probe:
            sheet = None  # let the chosen sheet's grid go before reading the others
            _send(out, ("sheets", _probe_others(workbook, chosen), hidden))
        _send(out, ("end", count))
    except MemoryError:
        _send(out, ("error", "memory", "", []))
    except Exception as exc:  # calamine raises many types for damaged files; all mean "corrupt"
        kind = _classify(exc)
        unusual = _unusual_workbook(path) if kind == "corrupt" else None
        if unusual is not None:
            _send(out, ("error", "layout", unusual, [], f"{type(exc).__name__}: {exc}"))
        else:
            _send(out, ("error", kind, f"{type(exc).__name__}: {exc}", []))
    except BaseException as exc:
        # A panic in calamine's Rust code (a slice index past a cut-short stream, a capacity
        # overflow from a bogus cell reference) is raised as pyo3's PanicException, which is no
        # Exception; the file is damaged, not the worker.
        if type(exc).__name__ != "PanicException":
            raise
        _send(out, ("error", "corrupt", f"{type(exc).__name__}: {exc}", []))
    finally:
        if ahead is not None:
            ahead.cancel()
    out.flush()
    return 0


def main(argv: Sequence[str]) -> int:
    """Entry point: ``argv`` is ``[PATH, SHEET, MEMORY_LIMIT]`` (SHEET may be empty), then
    optionally ``1`` to probe the other sheets, then optionally the workbook's kind by its
    content (xlsx, xlsb, ods or xls: :func:`app.core.sheet_guard.sniff_kind`)."""
    probe = len(argv) > 3 and argv[3] == "1"
    kind = argv[4] if len(argv) > 4 else ""
    return run(argv[0], argv[1], int(argv[2]), sys.stdout.buffer, probe, kind)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
