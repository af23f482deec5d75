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

Messages on stdout: a 4-byte big-endian length, then a pickle of one tuple:
``("meta", sheet_names, chosen_sheet)``; ``("scan", ...)`` messages (below);
``("rows", [(row_number, cells), ...])`` repeatedly; with PROBE ``1``, ``("sheets", {name:
rows}, hidden_names)`` holding the first non-blank rows of every other worksheet, hidden ones
too, and the names of the hidden worksheets; ``("end",
row_count)``; or ``("error", kind, detail, sheet_names)`` with kind ``password``, ``no_sheet``,
``ambiguous_sheet``, ``empty``, ``empty_sheet``, ``memory`` or ``corrupt``.

python-calamine tells neither which rows are hidden nor which cells hold a formula with no saved
result, so for an xlsx/xlsm the sheet's XML part is scanned for them (:class:`XmlScan`), in a
thread while calamine parses (:class:`ScanAhead`). Right after "meta", ``("scan", [], [])``
says the scan ran (``("scan", None, [])``: not an xlsx, hidden rows are not known); before the
first "rows" batch, ``("scan", hidden_rows, formulas)`` gives what it found, if anything: row
numbers with ``hidden="1"`` (hidden by hand or by a filter) and ``(row, column, formula)`` for
cells whose formula has no saved value (at most ``MAX_FORMULAS``). A scan that failed half way
sends what it found, then ``("scan", None, [])``.
"""

from __future__ import annotations

import html
import itertools
import marshal
import pickle
import posixpath
import re
import struct
import sys
import threading
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from typing import IO, Any, BinaryIO

BATCH_ROWS = 2000
# Rows and columns of each other sheet sent with PROBE: enough to find a header and numbers.
PROBE_ROWS = 60
PROBE_COLUMNS = 200
SCAN_CHUNK = 1 << 20
MAX_FORMULAS = 10_000
_P = rb"(?:[A-Za-z_][\w.-]*:)?"  # an optional namespace prefix, as in <x:row>
_ROW_TAG = re.compile(rb"<" + _P + rb"row\b([^>]*)>")
_ROW_NUMBER = re.compile(rb'\br\s*=\s*"(\d+)"')
_HIDDEN = re.compile(rb'\bhidden\s*=\s*"(?:1|true)"')
# A cell whose formula is followed by no value, or by an empty one: never calculated.
_NO_VALUE = re.compile(
    rb"<" + _P + rb'c\b[^>]*?\br\s*=\s*"([A-Z]{1,3})(\d+)"[^>]*>\s*<' + _P + rb"f\b[^>]*?"
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
# Cheap tests that a chunk may hold such a cell (most chunks hold none).
_NO_VALUE_HINTS = (b"f></", b"/></c>", b"<v></v>", b"<v/>")
_SHEET_TAG = re.compile(rb"<" + _P + rb"sheet\b([^>]*)>")
_RELATIONSHIP = re.compile(rb"<" + _P + rb"Relationship\b([^>]*)>")
_ATTRIBUTE = re.compile(rb'([\w:.-]+)\s*=\s*"([^"]*)"')


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
        k.decode("utf-8", "replace"): html.unescape(v.decode("utf-8", "replace"))
        for k, v in _ATTRIBUTE.findall(text)
    }


def sheet_part(zf: zipfile.ZipFile, sheet: str) -> str | None:
    """The zip member holding worksheet ``sheet``, from the workbook part and its relations."""
    names = set(zf.namelist())
    if "xl/workbook.xml" not in names or "xl/_rels/workbook.xml.rels" not in names:
        return None
    rel_id = None
    for match in _SHEET_TAG.finditer(zf.read("xl/workbook.xml")):
        attrs = _attributes(match.group(1))
        if attrs.get("name") == sheet:
            rel_id = next((v for k, v in attrs.items() if k.endswith(":id")), None)
            break
    if rel_id is None:
        return None
    for match in _RELATIONSHIP.finditer(zf.read("xl/_rels/workbook.xml.rels")):
        attrs = _attributes(match.group(1))
        if attrs.get("Id") == rel_id:
            target = attrs.get("Target", "")
            part = target[1:] if target.startswith("/") else posixpath.join("xl", target)
            part = posixpath.normpath(part)
            return part if part in names else None
    return None


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
    """

    def __init__(self, zf: zipfile.ZipFile, part: str) -> None:
        self._zf = zf
        self._fh: IO[bytes] | None = zf.open(part)
        self._tail = b""
        self._row_tag = b"<row"
        self._numbered: bool | None = None  # do the row tags carry r="N"?
        self.last = 0  # the number of the last row scanned
        self.hidden: list[int] = []
        self.formulas: list[tuple[int, int, str]] = []
        self.formula_rows: set[int] = set()  # every row found with one, for the last rows
        self._formula_count = 0
        self.stop: threading.Event | None = None  # set: stop reading (the scan is not wanted)
        self.failed = False  # reading stopped on an error: later rows are not known

    def read_to_end(self) -> None:
        """Scan the whole part (until :attr:`stop` is set); the findings stay in the scan."""
        self._read(0)

    def advance(self, row: int) -> tuple[list[int], list[tuple[int, int, str]]]:
        """Scan on past ``row`` (to the end for 0); the hidden rows and formula cells found
        since the last call."""
        self._read(row)
        found = self.hidden, self.formulas
        self.hidden, self.formulas = [], []
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
            cut = buf.rfind(b"<")
            if cut <= 0:
                self._tail = buf
                continue
            self._tail = buf[cut:]
            self._chunk(buf[:cut])

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
            self._zf.close()

    def _chunk(self, buf: bytes) -> None:
        if self._numbered is None:
            first = _ROW_TAG.search(buf)
            if first is None:
                return
            self._row_tag = first.group(0)[: first.group(0).find(b"row") + 3]
            self._numbered = _ROW_NUMBER.search(first.group(1)) is not None
        start = self.last
        if b"hidden" in buf:
            position = buf.find(b"hidden")
            while position >= 0:
                tag_start = buf.rfind(b"<", 0, position)
                tag = _ROW_TAG.match(buf, tag_start) if tag_start >= 0 else None
                if tag is not None and tag.end() > position and _HIDDEN.search(tag.group(1)):
                    number = _ROW_NUMBER.search(tag.group(1))
                    if number is not None:
                        self.hidden.append(int(number.group(1)))
                    else:
                        self.hidden.append(self._last_row(buf[: tag.end()], start))
                position = buf.find(b"hidden", position + 6)
        if (
            self._formula_count < MAX_FORMULAS
            and (b"</f>" in buf or b"<f " in buf)
            and any(hint in buf for hint in _NO_VALUE_HINTS)
        ):
            self._formulas(buf)
        self.last = self._last_row(buf, start)

    def _formulas(self, buf: bytes) -> None:
        for match in _NO_VALUE.finditer(buf):
            text = html.unescape((match.group(3) or b"").decode("utf-8", "replace"))
            row = int(match.group(2))
            self.formulas.append((row, _column_index(match.group(1)), text[:80]))
            self.formula_rows.add(row)
            self._formula_count += 1
            if self._formula_count >= MAX_FORMULAS:
                return

    def _last_row(self, buf: bytes, last: int) -> int:
        """The number of the last row tag in ``buf``, counting on from ``last``."""
        if not self._numbered:
            # Rows without r="…" (no known writer omits it): count them all.
            for tag in _ROW_TAG.finditer(buf):
                found = _ROW_NUMBER.search(tag.group(1))
                last = int(found.group(1)) if found else last + 1
            return last
        start = buf.rfind(self._row_tag)
        final = _ROW_TAG.match(buf, start) if start >= 0 else None
        number = _ROW_NUMBER.search(final.group(1)) if final is not None else None
        return int(number.group(1)) if number is not None else last


def open_scan(path: str, sheet: str) -> XmlScan | None:
    """An :class:`XmlScan` of ``sheet``, or None when the file is not an xlsx/xlsm."""
    try:
        if not zipfile.is_zipfile(path):
            return None
        zf = zipfile.ZipFile(path)
        part = sheet_part(zf, sheet)
        if part is None:
            zf.close()
            return None
        return XmlScan(zf, part)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, KeyError):
        return None


class ScanAhead:
    """:func:`open_scan` of ``sheet`` inflated to its end in a thread, started before calamine
    parses the sheet: calamine releases the GIL while it parses, so the scan costs no time
    on the way to the first rows. :meth:`wait` hands over the scan, its findings held."""

    def __init__(self, path: str, sheet: str) -> None:
        self.sheet = sheet
        self._path = path
        self._scan: XmlScan | None = None
        self._failed = False
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

    def wait(self) -> XmlScan | None:
        """The finished scan (None: not an xlsx), the thread joined."""
        self._thread.join()
        return self._scan

    def cancel(self) -> None:
        self._stop.set()
        self._thread.join()
        if self._scan is not None:
            self._scan.close()


def _advance(scan: XmlScan | None, row: int, out: BinaryIO) -> XmlScan | None:
    """Send what the scan finds up to ``row``; a scan that fails is dropped (None)."""
    if scan is None:
        return None
    failed = scan.failed
    try:
        hidden, formulas = scan.advance(row)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, zlib.error):
        scan.close()
        hidden, formulas, failed = scan.hidden, scan.formulas, True
    if hidden or formulas:
        _send(out, ("scan", hidden, formulas))
    if failed:
        # Rows reported stay reported; the rest are not known.
        _send(out, ("scan", None, []))
        return None
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
    cannot be read is left out."""
    out: dict[str, list[tuple[int, list[Any]]]] = {}
    for name in _worksheets(workbook):
        if name == chosen:
            continue
        try:
            rows = _probe_rows(workbook.get_sheet_by_name(name))
        except Exception:  # noqa: S112 - a damaged other sheet is simply not reported
            continue
        if rows:
            out[name] = rows
    return out


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


def _hidden_worksheets(workbook: Any) -> list[str]:
    visible = set(_visible_worksheets(workbook))
    return [name for name in _worksheets(workbook) if name not in visible]


def _merged_fill(sheet: Any) -> dict[int, list[tuple[int, int, int, int]]]:
    """Row index -> merged ranges (r0, c0, r1, c1) covering it, so covered cells show the value."""
    ranges = sheet.merged_cell_ranges or []
    by_row: dict[int, list[tuple[int, int, int, int]]] = {}
    covered = 0
    for (r0, c0), (r1, c1) in ranges:
        covered += (r1 - r0 + 1) * (c1 - c0 + 1)
        if covered > 5_000_000:  # merged ranges are a formatting nicety, not worth memory
            return {}
        for r in range(r0, r1 + 1):
            by_row.setdefault(r, []).append((r0, c0, r1, c1))
    return by_row


def _row_batches(sheet: Any, size: int = BATCH_ROWS) -> Iterator[list[tuple[int, list[Any]]]]:
    """The sheet's rows in batches, numbered as in Excel, empty cells as None; blank rows
    after the last row with data are left out.

    Done a batch at a time with list comprehensions: the per-row loop this replaces cost
    more than calamine's own parse of the rows.
    """
    start = sheet.start
    if start is None:
        return
    first_column = start[1]
    pad: list[None] = [None] * first_column
    merged = _merged_fill(sheet)
    top_left: dict[tuple[int, int], Any] = {}
    pending: list[int] = []  # blank rows, sent only when data follows
    index = 0  # python-calamine yields rows from row 0 (absolute), columns from the first used
    source = sheet.iter_rows()
    while chunk := list(itertools.islice(source, size)):
        cells_list = [r if "" not in r else [None if v == "" else v for v in r] for r in chunk]
        if pad:
            cells_list = [pad + cells for cells in cells_list]
        if merged:
            _fill_merged(cells_list, index, merged, top_left)
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


def run(path: str, wanted: str, memory_limit: int, out: BinaryIO, probe: bool = False) -> int:
    _limit_memory(memory_limit)
    import python_calamine

    ahead: ScanAhead | None = None
    try:
        workbook = python_calamine.CalamineWorkbook.from_path(path)
        names: Sequence[str] = list(workbook.sheet_names)
        if wanted:
            found, alike = match_sheet(names, wanted)
            if found is None:
                _send(out, ("error", "ambiguous_sheet" if alike else "no_sheet", wanted, names))
                return 0
            chosen = found
            ahead = ScanAhead(path, chosen)
            sheet = workbook.get_sheet_by_name(chosen)
            if not _has_content(sheet):
                _send(out, ("error", "empty_sheet", chosen, names))
                return 0
        else:
            candidates = _visible_worksheets(workbook) or list(names)
            if not candidates:
                _send(out, ("error", "empty", "", names))
                return 0
            # Most often the first sheet is the one: its scan starts while calamine parses.
            ahead = ScanAhead(path, candidates[0])
            chosen, sheet = candidates[0], None
            for candidate in candidates:
                maybe = workbook.get_sheet_by_name(candidate)
                if _has_content(maybe):
                    chosen, sheet = candidate, maybe
                    break
            if sheet is None:
                _send(out, ("error", "empty", "", names))
                return 0
            if chosen != ahead.sheet:
                ahead.cancel()
                ahead = ScanAhead(path, chosen)
        _send(out, ("meta", list(names), chosen))
        scan = ahead.wait()
        ahead = None
        _send(out, ("scan", None if scan is None else [], []))
        scan = _advance(scan, 0, out)  # what the XML says about the rows goes out before them
        count = 0
        last_row = 0
        batch: list[tuple[int, list[Any]]] = []
        for batch in _row_batches(sheet):
            _send(out, ("rows", batch))
            count += len(batch)
            last_row = batch[-1][0]
        if scan is not None:
            # calamine reads a formula never calculated as empty, so rows of nothing else after
            # the last value are not in its sheet; they must be there to be reported.
            after = max((n for n in scan.formula_rows if n > last_row), default=0)
            if 0 < after - last_row <= MAX_FORMULAS:
                batch = [(n, [None]) for n in range(last_row + 1, after + 1)]
                _send(out, ("rows", batch))
                count += len(batch)
            scan.close()
        if probe:
            sheet = None  # let the chosen sheet's grid go before reading the others
            _send(out, ("sheets", _probe_others(workbook, chosen), _hidden_worksheets(workbook)))
        _send(out, ("end", count))
    except MemoryError:
        _send(out, ("error", "memory", "", []))
    except Exception as exc:  # calamine raises many types for damaged files; all mean "corrupt"
        _send(out, ("error", _classify(exc), f"{type(exc).__name__}: {exc}", []))
    finally:
        if ahead is not None:
            ahead.cancel()
    out.flush()
    return 0


def main(argv: Sequence[str]) -> int:
    """Entry point: ``argv`` is ``[PATH, SHEET, MEMORY_LIMIT]`` (SHEET may be empty), then
    optionally ``1`` to probe the other sheets."""
    probe = len(argv) > 3 and argv[3] == "1"
    return run(argv[0], argv[1], int(argv[2]), sys.stdout.buffer, probe)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
