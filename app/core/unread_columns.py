"""Columns of text under a header that names nothing the import reads (fx4, session 31).

A file made from the second-table advice ("Copy rows 3–1003 to a file of their own") begins
with that table's header, "no number,Customer request": column B's header is one of its
reasons, so nothing read it and 1,000 entries went on the list without their reasons, unsaid.
An import reading no reason column now warns about such a column, with how to read it, when
its header row looks like data (see :func:`unread_text_columns`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from app.core.other_tables import OTHER_NAMES
from app.core.sheet_header import looks_like_phone
from app.core.sheet_mapping import (
    ColumnMapping,
    Role,
    column_said,
    header_role,
    header_role_exact,
    report_job_columns,
)
from app.core.sheet_types import Row
from app.core.wording import joined

_LETTER: Final = re.compile(r"[^\W\d_]")


def unread_text_columns(mapping: ColumnMapping, preview: Sequence[Row]) -> list[int]:
    """The columns an import leaves unread although they hold text under a header that looks
    like a row of data itself: no role reads them, no reason column is read, their header
    names nothing known (neither a role nor a list's usual name, address or email column),
    and either the header's phone cell is no name a phone column is known by as a whole
    ("no number", a note, not "Phone") or the column's header is one of its own values
    ("Customer request" over "Customer request"). A "Decision" column beside "Phone" is a
    column the file keeps for itself, not read by design, and not named. ``preview``: the
    first rows below the header, columns set aside already emptied."""
    if mapping.header_row is None or mapping.reason is not None or mapping.phone is None:
        return []
    if report_job_columns(mapping.headers):
        return []  # a DNC Desk report: its Outcome and Message are its job's, never a reason
    phone = mapping.headers[mapping.phone] if mapping.phone < len(mapping.headers) else ""
    # A note for a header holds a phone word without being a phone column's name ("no
    # number"); a log's "From" holds none, and is a header as it stands.
    noted = header_role(phone) is Role.PHONE and not header_role_exact(phone)
    read = {index for role in Role if (index := mapping.column(role)) is not None}
    read |= {mapping.country} if mapping.country is not None else set()
    found = []
    for index, header in enumerate(mapping.headers):
        name = " ".join(header.split())
        if not name or index in read or header_role(name) is not None:
            continue
        if name.casefold() in OTHER_NAMES or not _holds_text(preview, index):
            continue
        if noted or _holds_value(preview, index, name.casefold()):
            found.append(index)
    return found


def _holds_value(preview: Sequence[Row], index: int, name: str) -> bool:
    for _, cells in preview:
        value = cells[index] if index < len(cells) else None
        if isinstance(value, str) and " ".join(value.split()).casefold() == name:
            return True
    return False


def _holds_text(preview: Sequence[Row], index: int) -> bool:
    for _, cells in preview:
        value = cells[index] if index < len(cells) else None
        if isinstance(value, str) and _LETTER.search(value) and not looks_like_phone(value):
            return True
    return False


def unread_text_sentence(mapping: ColumnMapping, columns: Sequence[int]) -> str:
    """The warning naming :func:`unread_text_columns`' columns and how to read or leave them."""
    if not columns:
        return ""
    one = len(columns) == 1
    named = joined([column_said(mapping.headers, i) for i in columns])
    ignore = " ".join(f"--ignore-column {mapping.headers[i]!r}" for i in columns)
    return (
        f"{named[0].upper()}{named[1:]} {'holds' if one else 'hold'} text that is not read: "
        f"{'its header names' if one else 'their headers name'} no column the import reads, "
        "so no entry gets it as its reason. To read "
        f"{'it' if one else 'one'} as the reason, head it Reason (or Notes) in the file, or "
        'choose Reason for it on the import wizard\'s "Match the columns" page; to import '
        f"without {'it' if one else 'them'} and this warning, {ignore}."
    )
