"""Find the header row of a sheet: often row 1, but not after titles, notes and blank rows.

The rule: the header is the last all-label row (text that is neither a number nor a date) above
the first row holding a phone number that names a known column ("Phone", "Reason"...); failing
that, a row naming a column further down that has phone numbers right below it, when the phone
numbers above it (a vendor's "Contact phone:" preamble) are in other columns; failing that, the
last non-blank row above the data if it is all labels; otherwise there is none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from app.core.sheet_types import CellValue, Row

SCAN_ROWS: Final = 50
_DATE_LIKE: Final = re.compile(
    r"\s*(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})(\s.*)?"
)
_NON_PHONE_CHARS: Final = re.compile(r"[^0-9+()\-./\s'\u00a0xXeE,]")


def is_blank(cells: Sequence[CellValue]) -> bool:
    return all(v is None or (isinstance(v, str) and not v.strip()) for v in cells)


def looks_like_phone(value: CellValue) -> bool:
    """A cheap, country-agnostic guess that a cell holds a phone number (7 to 15 digits)."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int | float):
        return 1_000_000 <= value < 10**15
    if not isinstance(value, str):
        return False
    digits = sum(c.isdigit() for c in value)
    if not 7 <= digits <= 15 or _DATE_LIKE.fullmatch(value):
        return False
    return _NON_PHONE_CHARS.search(value) is None


def is_label(value: CellValue) -> bool:
    """Text that can be a column name: not a number, date or phone number."""
    if not isinstance(value, str):
        return False
    text = value.strip()
    if not text or looks_like_phone(text) or _DATE_LIKE.fullmatch(text):
        return False
    return not text.replace(".", "", 1).replace(",", "").isdigit()


def detect_header(rows: Sequence[Row]) -> int | None:
    """The row number of the header among the first rows of a sheet, or None if it has none."""
    above: list[Row] = []
    found_data = False
    for row in rows[:SCAN_ROWS]:
        if is_blank(row[1]):
            continue
        if any(looks_like_phone(v) for v in row[1]):
            found_data = True
            break
        above.append(row)
    labels = [row for row in above if _all_labels(row[1])]
    named = [(sum(1 for v in row[1] if _names_column(v)), row) for row in labels]
    named = [(count, row) for count, row in named if count]
    if found_data:
        if named:
            # The header names the most columns; a title naming one loses, a later row wins ties.
            return max(named, key=lambda item: (item[0], item[1][0]))[1][0]
        below = _header_after_preamble(rows[:SCAN_ROWS])
        if below is not None:
            return below
        if above and _all_labels(above[-1][1]):
            return above[-1][0]
        return None
    # No phone numbers recognised: the widest label row that names a column, or sits on values.
    candidates = [
        row
        for index, row in enumerate(above)
        if _all_labels(row[1])
        and (
            any(_names_column(v) for v in row[1])
            or (
                index + 1 < len(above)
                and any(v is not None and not is_label(v) for v in above[index + 1][1])
            )
        )
    ]
    if candidates:
        return max(candidates, key=lambda row: (_filled(row[1]), -row[0]))[0]
    return None


def _header_after_preamble(rows: Sequence[Row]) -> int | None:
    """The first row naming a column with phone numbers just below it, in columns where no
    phone number appears above it (rows above a header are skipped, so numbers there would be
    lost: two headerless lists pasted above a header keep the file headerless)."""
    above_columns: set[int] = set()
    for index, (number, cells) in enumerate(rows):
        if is_blank(cells):
            continue
        if _all_labels(cells) and any(_names_column(v) for v in cells):
            following = next((r for r in rows[index + 1 :] if not is_blank(r[1])), None)
            if following is not None:
                columns = {c for c, v in enumerate(following[1]) if looks_like_phone(v)}
                if columns and not columns & above_columns:
                    return number
        above_columns.update(c for c, v in enumerate(cells) if looks_like_phone(v))
    return None


def _names_column(value: CellValue) -> bool:
    from app.core.sheet_mapping import header_role  # mapping imports this module

    return isinstance(value, str) and header_role(value) is not None


def _filled(cells: Sequence[CellValue]) -> int:
    return sum(1 for v in cells if v is not None)


def _all_labels(cells: Sequence[CellValue]) -> bool:
    return all(v is None or is_label(v) for v in cells)
