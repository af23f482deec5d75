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
from app.core.wording import counted, joined

# The job meta key holding staging's counted sentence on a column of numbers not read, which
# the command line says as a ``warning:`` rather than a ``note:``.
UNREAD_PHONES_WARNING = "unread_phones_warning"
# The job meta key holding staging's note on such columns whose every number is the one read
# on its row (:func:`same_numbers_sentence`): a note, said apart by the window's check page.
UNREAD_PHONES_NOTE = "unread_phones_note"


def same_numbers_sentence(said: str, rows: int, read: str, kind: str) -> str:
    """The word on column ``said``, not read, whose numbers on ``rows`` rows are each the one
    read from column ``read`` on its row (a formula copy, the number written twice). Nothing
    stays off the list, so nothing is offered to run again: the command line, the report and
    the window's check page say it so alike (bb14 W2)."""
    each = "the number read" if rows == 1 else "each the number read"
    verb, stays = ("removed", "on") if kind == "removal" else ("imported", "off")
    return (
        f"{said[0].upper()}{said[1:]} also holds a phone number on "
        f"{counted(rows, 'row', 'rows')}, {each} from {read} on the same row: it is not "
        f"{verb}, and no number stays {stays} the list for it."
    )


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

    def counted_in(self, warnings: list[str]) -> tuple[list[str], dict[str, str]]:
        """Staging's ``warnings`` with its first sentence on the columns not read (:attr:`first`)
        replaced by the counted ones over the whole file, and the job meta keeping them: the
        warning on the columns holding a number not read (:data:`UNREAD_PHONES_WARNING`) and
        the note on those holding only the numbers read (:data:`UNREAD_PHONES_NOTE`). When no
        row holds a number there, the first sentence stands."""
        held = self.counts()
        if not held:
            return warnings, {}
        # A column of refused numbers may hold others than the one read: not said the same.
        same = [i for i, (_, differing) in held.items() if not differing and i not in self.refused]
        rest = {i: n for i, n in held.items() if i not in same}
        others = [i for i in self.others if i not in same]
        warning = other_columns_sentence(self.mapping, others, self.kind, self.refused, rest)
        note = " ".join(
            same_numbers_sentence(
                column_said(self.mapping.headers, i), held[i][0], self.read, self.kind
            )
            for i in same
        )
        said = [s for s in (warning, note) if s]
        replaced = [s for w in warnings for s in (said if w == self.first else [w])]
        meta = {UNREAD_PHONES_WARNING: warning} if rest else {}
        return replaced, {**meta, **({UNREAD_PHONES_NOTE: note} if note else {})}


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
