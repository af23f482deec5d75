"""Child process that reads one workbook sheet with python-calamine and streams its rows.

Run as a script (``python -I sheet_worker.py PATH SHEET MEMORY_LIMIT``); it imports only the
standard library and python_calamine so it starts fast and is independent of the app package.
A frozen (PyInstaller) build has no separate interpreter: its entry point must call
:func:`main` with the remaining arguments when started as ``APP --sheet-worker PATH SHEET LIMIT``
(see :func:`app.core.sheet_reader.worker_command`).
calamine builds a dense grid of the sheet in native code, and a crafted file (cells at A1 and
XFD1048576, a bogus record length in an .xls) makes it allocate gigabytes or abort the process.
So that never touches the app, the read happens here under an address-space limit; the parent
(:mod:`app.core.sheet_reader`) turns a crash or a timeout into one sentence.

Messages on stdout: a 4-byte big-endian length, then a pickle of one tuple:
``("meta", sheet_names, chosen_sheet)``, ``("rows", [(row_number, cells), ...])`` repeatedly,
``("end", row_count)``, or ``("error", kind, detail)`` with kind ``password``, ``no_sheet``,
``empty``, ``empty_sheet``, ``memory`` or ``corrupt``.
"""

from __future__ import annotations

import marshal
import pickle
import struct
import sys
from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO

BATCH_ROWS = 2000


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


def _rows(sheet: Any) -> Iterator[tuple[int, list[Any]]]:
    start = sheet.start
    if start is None:
        return
    pad: list[None] = [None] * start[1]
    merged = _merged_fill(sheet)
    top_left: dict[tuple[int, int], Any] = {}
    pending: list[int] = []
    # python-calamine yields rows from row 0 (absolute) but columns from the first used column.
    for index, raw in enumerate(sheet.iter_rows()):
        cells = raw if "" not in raw else [None if v == "" else v for v in raw]
        if pad:
            cells = pad + cells
        spans = merged.get(index)
        if spans:
            for r0, c0, _r1, c1 in spans:
                if index == r0:
                    top_left[(r0, c0)] = cells[c0] if c0 < len(cells) else None
                value = top_left.get((r0, c0))
                for c in range(c0, min(c1 + 1, len(cells))):
                    if cells[c] is None:
                        cells[c] = value
        if _blank(cells):
            pending.append(index + 1)
            continue
        # Blank rows count only when data follows: formatting alone can stretch the used range.
        for number in pending:
            yield number, [None] * len(cells)
        pending.clear()
        yield index + 1, cells


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


def run(path: str, wanted: str, memory_limit: int, out: BinaryIO) -> int:
    _limit_memory(memory_limit)
    import python_calamine

    try:
        workbook = python_calamine.CalamineWorkbook.from_path(path)
        names: Sequence[str] = list(workbook.sheet_names)
        if wanted:
            if wanted not in names:
                _send(out, ("error", "no_sheet", wanted, names))
                return 0
            chosen = wanted
            sheet = workbook.get_sheet_by_name(chosen)
            if not _has_content(sheet):
                _send(out, ("error", "empty_sheet", wanted, names))
                return 0
        else:
            candidates = _visible_worksheets(workbook) or list(names)
            if not candidates:
                _send(out, ("error", "empty", "", names))
                return 0
            chosen, sheet = candidates[0], None
            for candidate in candidates:
                probe = workbook.get_sheet_by_name(candidate)
                if _has_content(probe):
                    chosen, sheet = candidate, probe
                    break
            if sheet is None:
                _send(out, ("error", "empty", "", names))
                return 0
        _send(out, ("meta", list(names), chosen))
        batch: list[tuple[int, list[Any]]] = []
        count = 0
        for row in _rows(sheet):
            batch.append(row)
            if len(batch) >= BATCH_ROWS:
                _send(out, ("rows", batch))
                count += len(batch)
                batch = []
        if batch:
            _send(out, ("rows", batch))
            count += len(batch)
        _send(out, ("end", count))
    except MemoryError:
        _send(out, ("error", "memory", "", []))
    except Exception as exc:  # calamine raises many types for damaged files; all mean "corrupt"
        _send(out, ("error", _classify(exc), f"{type(exc).__name__}: {exc}", []))
    out.flush()
    return 0


def main(argv: Sequence[str]) -> int:
    """Entry point: ``argv`` is ``[PATH, SHEET, MEMORY_LIMIT]`` (SHEET may be empty)."""
    return run(argv[0], argv[1], int(argv[2]), sys.stdout.buffer)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
