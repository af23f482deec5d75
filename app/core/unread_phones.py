"""Numbers in a second phone column the job does not read, row by row (black-box bb4 F4).

A file of Home Phone and Mobile columns is read from one of them; the other's numbers stay
off the list unless the file is run again on that column (the person decides: a column of
the business's own line or of a form's callers looks the same). Only a file-level note said
so, and a row whose read number was valid ended ``valid`` with no word of the consumer's other
number. :class:`UnreadPhones` notes on each row the number in such a column that differs from
the one read, and counts, for staging's warning, the rows holding a number there and how many
of them differ.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from app.core.phones import normalize_with_default
from app.core.sheet_check import CheckedRow
from app.core.sheet_mapping import (
    ColumnMapping,
    column_letter,
    column_said,
    other_phone_columns,
    refused_phone_columns,
)
from app.core.sheet_types import CellValue, Row
from app.core.staging_notes import (
    cell_shown,
    merge_copies,
    offered_columns,
    other_columns_sentence,
)
from app.core.wording import joined

# The job meta key holding staging's counted sentence on a column of numbers not read, which
# the command line says as a ``warning:`` rather than a ``note:``.
UNREAD_PHONES_WARNING = "unread_phones_warning"


@dataclass
class Held:
    """Of one column not read: rows holding a phone number in it, and how many of those
    numbers differ from the number read on the same row."""

    rows: int = 0
    differing: int = 0


class UnreadPhones:
    """Watches the rows (:meth:`rows`, before the check) and their verdicts (:meth:`noted`)
    for phone numbers in ``columns``, which the job does not read."""

    def __init__(
        self,
        mapping: ColumnMapping,
        others: Sequence[int],
        refused: Sequence[int],
        phone_code: str,
        kind: str,
    ) -> None:
        self.mapping = mapping
        self.others = list(others)
        self.refused = tuple(refused)
        self.kind = kind
        # Staging's sentence before the rows are read, which :meth:`sentence` replaces.
        self.first = other_columns_sentence(mapping, self.others, kind, self.refused)
        self.columns = tuple(offered_columns(mapping, others))
        self.header = mapping.header_row or 0
        self.code = phone_code
        self.verb = "removed" if kind == "removal" else "imported"
        assert mapping.phone is not None
        self.read = column_said(mapping.headers, mapping.phone)
        self.held = {column: Held() for column in self.columns}
        # Row number -> its cells in those columns, from the row read to its verdict: the
        # check yields each row's verdict in turn, so only rows in flight are kept.
        self._cells: dict[int, list[tuple[int, CellValue]]] = {}

    def rows(self, rows: Iterable[Row]) -> Iterator[Row]:
        width = max(self.columns, default=-1)
        for number, cells in rows:
            if number > self.header and width >= 0:
                found = [
                    (i, cells[i])
                    for i in self.columns
                    if i < len(cells) and cells[i] not in (None, "") and type(cells[i]) is not bool
                ]
                if found:
                    self._cells[number] = found
            yield number, cells

    def noted(self, checked: Iterable[CheckedRow]) -> Iterator[CheckedRow]:
        for c in checked:
            found = self._cells.pop(c.row, None) if self._cells else None
            if found:
                self._note(c, found)
            yield c

    def _note(self, c: CheckedRow, found: list[tuple[int, CellValue]]) -> None:
        for column, value in found:
            result = normalize_with_default(value, self.code)
            if not result.ok:
                continue  # no number there (a note, "N/A"), or one refused: said file-wide
            held = self.held[column]
            held.rows += 1
            if c.national and (result.phone_code, result.national) == (c.phone_code, c.national):
                continue  # the same number: nothing is left off the list
            held.differing += 1
            letter = column_letter(column)
            if f"column {letter} on this row holds" in c.message:
                continue  # an empty phone cell's message already names it
            # As the sheet shows it: a number cell's 6505550201, not 6505550201.0 (bb13 F6).
            shown = value if isinstance(value, str) else cell_shown(value)
            said = (
                f"column {letter} on this row holds {shown!r} ({result.e164}), not "
                f"{self.verb}: only {self.read} is read"
            )
            c.message = f"{c.message}; {said}" if c.message else f"row {c.row}: {said}"

    def counts(self) -> dict[int, tuple[int, int]]:
        """Column -> (rows holding a number there, how many of them differ from the row's)."""
        return {i: (h.rows, h.differing) for i, h in self.held.items() if h.rows}

    def sentence(self) -> str:
        """Staging's sentence on the columns not read, their numbers counted; "" when no row
        holds one (the first sentence stands)."""
        held = self.counts()
        if not held:
            return ""
        return other_columns_sentence(self.mapping, self.others, self.kind, self.refused, held)


def watch_unread_phones(
    mapping: ColumnMapping,
    preview: Sequence[Row],
    phone_code: str,
    kind: str,
    *,
    merged: Sequence[tuple[int, int, int, int]] = (),
    set_aside: Iterable[int] = (),
    others: Sequence[int] | None = None,
) -> UnreadPhones | None:
    """The watch on the columns of phone numbers besides ``mapping.phone`` in ``preview``
    (data rows), or None when there is none: ``others`` when already found, less the columns
    set aside and those holding only copies of merged cells."""
    if mapping.phone is None:
        return None
    found = other_phone_columns(mapping, preview, phone_code) if others is None else others
    aside = set(set_aside) | set(merge_copies(found, merged, preview))
    kept = [i for i in found if i not in aside]
    if not kept:
        return None
    refused = refused_phone_columns(kept, preview, phone_code)
    return UnreadPhones(mapping, kept, refused, phone_code, kind)


def imported_before_sentence(
    mapping: ColumnMapping, columns: Sequence[int], jobs: Sequence[str] = ()
) -> str:
    """The job's word on the phone columns ``columns`` that the imports of this file before it
    read (``jobs``: their ids), so that its report does not say their numbers were left off the
    list (the window's "Import column … next"; bb14 W6)."""
    said = [column_said(mapping.headers, i) for i in columns if i != mapping.phone]
    if not said:
        return ""
    named = joined(said)
    many = len(said) > 1
    which = f" (job {joined(list(jobs))})" if jobs else ""
    return (
        f"{named[0].upper()}{named[1:]} {'were' if many else 'was'} imported by the import of "
        f"this file before this one{which}: {'their' if many else 'its'} numbers are not read "
        "again here."
    )
