"""A small formula-safe xlsx writer for the audit, snapshot-diff and evidence reports.

Interim: the shared ``app.core.xlsx_safe`` writer is being written in parallel; this module
has the same shape (``add_sheet``/``append``/``save``) so the reports switch by changing one
import. Text cells beginning with = + - @ tab CR or LF get a leading ``'`` (OWASP formula
injection, which includes E.164 ``+1…``); numbers stay numbers, phone numbers are text.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.utils import get_column_letter

_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\n")
_CELL_LIMIT = 32_767


def _cell(value: object) -> Any:
    if value is None or isinstance(value, bool | int | float):
        return value
    text = value if isinstance(value, str) else str(value)
    text = ILLEGAL_CHARACTERS_RE.sub("\ufffd", text)
    if text.startswith(_TRIGGERS):
        text = "'" + text
    if len(text) > _CELL_LIMIT:
        text = text[: _CELL_LIMIT - 1] + "…"
    return text


class ReportSheet:
    """One sheet of a :class:`ReportWorkbook`; every appended cell is made safe."""

    def __init__(self, ws: Any) -> None:
        self._ws = ws

    def append(self, row: Iterable[object]) -> None:
        self._ws.append([_cell(v) for v in row])


class ReportWorkbook:
    """A write-only workbook saved atomically (readers never see half a file)."""

    def __init__(self) -> None:
        self._wb = Workbook(write_only=True)

    def add_sheet(self, title: str, widths: Sequence[float] = ()) -> ReportSheet:
        ws = self._wb.create_sheet(title=title)
        for index, width in enumerate(widths, start=1):
            ws.column_dimensions[get_column_letter(index)].width = width
        return ReportSheet(ws)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".report-", suffix=".xlsx", dir=path.parent)
        os.close(fd)
        try:
            self._wb.save(tmp)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file, so a report handed on later can be shown unchanged."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
