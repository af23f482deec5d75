"""A second table with a header of its own further down a sheet (black-box B10 #2).

Gnumeric's text export writes every sheet of a workbook into one file, and people paste a batch
with its own header below another. Staging's watch (:func:`tables_apart`) tells such a header
from a data row that happens to hold labels (a phone number must sit in a column it names as
phone numbers within a few rows), sets apart the rows under one whose columns are not the first
table's, and :func:`apart_verdict` makes each of them invalid, naming the number in that table's
own phone column; :func:`other_tables_sentences` is the warning naming the tables' rows.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from app.core.sheet_check import CheckedRow, CheckSummary, RowList, withheld_invalid
from app.core.sheet_header import is_blank, looks_like_phone, other_header, repeats_header
from app.core.sheet_mapping import (
    ColumnMapping,
    Role,
    column_letter,
    header_role,
    header_role_exact,
)
from app.core.sheet_types import CellValue, Row

if TYPE_CHECKING:
    from app.core.staging_notes import Held


# A row that may be another table's header is one when a phone number sits in a column it
# names as phone numbers within this many non-blank rows after it; the rows after it are held
# meanwhile (this many at most, blank ones too), then read on as they would have been.
_HEADER_PROOF_ROWS: Final = 3
_ANY_DIGIT: Final = re.compile(r"\d")
_DIGITS: Final = frozenset("0123456789")
_HEADER_HELD_ROWS: Final = 200
_ORDINALS: Final = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")


class OtherTable:
    """A table below the first with a header of its own (:func:`tables_apart`)."""

    __slots__ = (
        "difference",
        "first",
        "header",
        "last",
        "moved",
        "names",
        "ordinal",
        "phone",
        "rows",
    )

    def __init__(
        self, header: int, names: tuple[str, ...], phone: int, ordinal: int, first: tuple[int, int]
    ) -> None:
        self.header = header
        self.names = names
        self.phone = phone  # the column its header names as phone numbers
        self.first = first  # the first table's header row and phone column
        self.ordinal = ordinal  # 2: the sheet's second table
        # How its columns differ from the first table's as read, "" when they do not (its rows
        # are then read as the first table's, only its header row being set apart).
        self.difference = ""
        self.moved = False
        self.rows = RowList()  # its rows set apart (not blank), its header row aside
        self.last = header  # its last row not blank

    @property
    def said(self) -> str:
        """ "the second table", "table 9"."""
        n = self.ordinal
        return f"the {_ORDINALS[n - 1]} table" if n <= len(_ORDINALS) else f"table {n}"

    @property
    def names_said(self) -> str:
        return ", ".join(repr(name) for name in self.names if name)


class OtherTables:
    """The tables :func:`tables_apart` found below the first, and the rows it set apart:
    by row, their table and the cell :func:`noted` names (the header row's phone cell as the
    first table reads it; a row's cell in its own table's phone column)."""

    __slots__ = ("apart", "tables")

    def __init__(self) -> None:
        self.tables: list[OtherTable] = []
        self.apart: dict[int, tuple[OtherTable, CellValue]] = {}


def tables_apart(rows: Iterable[Row], mapping: ColumnMapping, found: OtherTables) -> Iterator[Row]:
    """``rows``, with those a second table's header makes unreadable under the mapping set
    apart: they reach the check empty (so no count, date or duplicate is taken from them) and
    :func:`noted` makes each invalid, saying why, from ``found``.

    A row below the header that is a header of another table (:func:`other_header`), with a
    phone number in a column it names as phone numbers within :data:`_HEADER_PROOF_ROWS`
    rows, starts another table: its row is set apart; when its columns differ from those the
    mapping reads (:func:`_columns_differ`), so is every row under it up to the next such
    header or a row repeating the first header. When they do not, its rows are read as they
    are. Black-box B10 #2: the second table's rows were read under the first table's columns,
    their numbers never named. Only a row whose phone cell holds no digit is looked at closer.
    A row naming the first table's own phone column is a header only when it reads as one as a
    whole (:func:`_a_note`): else it is a note in the phone cell, one row read as it is.
    """
    header, phone, headers = mapping.header_row, mapping.phone, mapping.headers
    if header is None or phone is None:
        yield from rows
        return
    read = _columns_read(mapping)
    digit = _ANY_DIGIT.search
    table: OtherTable | None = None  # the table whose rows are set apart
    again: deque[Row] = deque()  # rows held while a header was in doubt, to read again
    held: list[Row] = []  # a row that may be a header, and the rows after it
    named: list[int] = []  # the columns that row names as phone numbers
    seen = 0  # rows not blank after it
    refused = -1  # a row found no header after all
    feed = iter(rows)
    while True:
        if not again and not held:
            # Nothing in doubt: the rows go through at the cost of one look at their phone
            # cell, until one holding no digit (below the header) is to be looked at closer.
            for row in feed:
                cells = row[1]
                value = cells[phone] if phone < len(cells) else None
                if type(value) is str:
                    # A number cell's text mostly ends in a digit: no search then.
                    if value[-1:] not in _DIGITS and digit(value) is None and row[0] > header:
                        again.append(row)
                        break
                elif value is None and row[0] > header:
                    again.append(row)
                    break
                yield row if table is None else _set_apart(row, table, found)
            else:
                return
        if again:
            row = again.popleft()
        else:
            next_row = next(feed, None)
            if next_row is None:
                if not held:
                    return
                refused, held = held[0][0], _read_again(again, held)
                continue
            row = next_row
        number, cells = row
        if held:
            held.append(row)
            if not is_blank(cells):
                proof = next(
                    (c for c in named if c < len(cells) and looks_like_phone(cells[c])), None
                )
                if proof is not None and proof == phone and _a_note(held, headers, phone, read):
                    refused, held = held[0][0], _read_again(again, held)
                    continue
                if proof is not None:
                    top, top_cells = held[0]
                    names = tuple("" if v is None else " ".join(str(v).split()) for v in top_cells)
                    ordinal = len(found.tables) + 2
                    table = OtherTable(top, names, proof, ordinal, (header, phone))
                    table.difference = _columns_differ(names, read, headers, phone, proof)
                    table.moved = bool(table.difference)
                    found.tables.append(table)
                    first = top_cells[phone] if phone < len(top_cells) else None
                    found.apart[top] = (table, first)
                    yield top, [None] * len(top_cells)
                    _read_again(again, held[1:])
                    held = []
                    if not table.moved:
                        table = None
                    continue
                seen += 1
            if seen >= _HEADER_PROOF_ROWS or len(held) > _HEADER_HELD_ROWS:
                refused, held = held[0][0], _read_again(again, held)
            continue
        if number <= header:
            yield row
            continue
        value = cells[phone] if phone < len(cells) else None
        if value is not None and (type(value) is not str or digit(value)):
            if table is None:
                yield row
            else:
                yield _set_apart(row, table, found)
            continue
        if number != refused and (phones_named := other_header(cells, headers)):
            # Its column over the phone numbers read first: a header naming it is no move.
            named = sorted(phones_named, key=lambda c: c != phone)
            held, seen = [row], 0
            continue
        if table is not None and repeats_header(cells, headers):
            table = None  # the first table's header again: its columns again
        if table is None or is_blank(cells):
            yield row
        else:
            yield _set_apart(row, table, found)


# Names a header holds over columns no role is read from ("Name" over the consumer's name): a
# cell of these beside a phone header in the first table's phone column is a column's name.
OTHER_NAMES: Final = frozenset(
    {
        "name", "first name", "last name", "full name", "customer", "customer name",
        "contact", "contact name", "email", "e mail", "address", "city", "state", "zip",
        "zip code", "company", "account", "id", "status", "source", "agent", "type",
    }
)  # fmt: skip


def _a_note(held: list[Row], headers: Sequence[str], phone: int, read: Mapping[int, Role]) -> bool:
    """Whether a row naming phone numbers in the first table's own phone column, a phone
    number under it, is a note in that cell rather than another table's header: a cell of its
    other than the phone cell names no column ("wrong number" beside "Customer request"), or
    repeats the cell below it (a header names its column, not one of its values). Black-box
    bb2 F1: a phone cell reading "wrong number", "no number" or "cell" beside a reason set
    every row after it apart as a second table, 1,000 opt-outs left invalid.

    A row whose every cell is a phrase holding a column's word is a note too
    (:func:`_all_phrases`): "wrong number" beside "Reason unknown"."""
    cells = held[0][1]
    if _all_phrases(cells, headers, phone, read):
        return True
    first = {" ".join(h.split()).casefold() for h in headers if h}
    below = [c for _, c in held[1:] if not is_blank(c)]
    for index, value in enumerate(cells):
        if index == phone or not isinstance(value, str) or not value.strip():
            continue
        name = " ".join(value.split()).casefold()
        if header_role(value) is None and name not in first and name not in OTHER_NAMES:
            return True
        for data in below:
            under = data[index] if index < len(data) else None
            if isinstance(under, str) and " ".join(under.split()).casefold() == name:
                return True
    return False


# Columns of the first table whose cells are free text, so a phrase naming a column there
# ("Reason unknown", "Phone refused") is the kind of text they hold.
_FREE_TEXT: Final = frozenset({Role.REASON, Role.PURPOSE})


def _all_phrases(
    cells: Sequence[CellValue], headers: Sequence[str], phone: int, read: Mapping[int, Role]
) -> bool:
    """Whether a row's cells read as the first table's data rather than a header of its own:
    its phone cell is no name a phone column is known by as a whole ("wrong number", "Phone
    refused", not "Phone" or "Mobile") and every other cell is such a phrase too, in a
    column of the first table holding free text (a reason, a purpose, one no role reads). A
    header names its columns in one of their names; a note only holds a word of one."""
    for index, value in enumerate(cells):
        if not isinstance(value, str) or not value.strip():
            continue
        if header_role_exact(value):
            return False
        if index == phone:
            continue
        role = read.get(index)
        named = index < len(headers) and bool(headers[index].strip())
        if role not in _FREE_TEXT and (role is not None or not named):
            return False
    return True


def _read_again(again: deque[Row], rows: list[Row]) -> list[Row]:
    """Puts ``rows`` (held in sheet order) before those still to read again; []."""
    again.extendleft(reversed(rows))
    return []


def _set_apart(row: Row, table: OtherTable, found: OtherTables) -> Row:
    number, cells = row
    table.rows.add(number)
    table.last = number
    found.apart[number] = (table, cells[table.phone] if table.phone < len(cells) else None)
    return number, [None] * len(cells)


def _columns_read(mapping: ColumnMapping) -> dict[int, Role]:
    """The columns the mapping reads, by role (a Country column beside the codes as codes)."""
    read = {index: role for role in Role if (index := mapping.column(role)) is not None}
    if mapping.country is not None:
        read.setdefault(mapping.country, Role.PHONE_CODE)
    return read


def _columns_differ(
    names: Sequence[str], read: Mapping[int, Role], headers: Sequence[str], phone: int, own: int
) -> str:
    """How another table's header ``names`` puts its values in other columns than those read
    (``read``, under ``headers``; ``own`` its column of phone numbers), or "" when it does not:
    only names differ ("Telephone" over the phone numbers, "Notes" over the reasons). A cell
    left empty names nothing; a column the mapping does not read may hold anything but a role
    it reads elsewhere."""
    if own != phone:
        return f"its phone numbers are in column {column_letter(own)}, not {column_letter(phone)}"
    for index in sorted(set(read) | set(range(len(names)))):
        name = names[index] if index < len(names) else ""
        first = headers[index] if index < len(headers) else ""
        if not name or name.casefold() == " ".join(first.split()).casefold():
            continue
        role = header_role(name)
        if index in read:
            if role is read[index]:
                continue
        elif (
            role is None
            or role is Role.PHONE
            or role not in read.values()
            or (first and header_role(first) is role)
        ):
            continue
        said = f"{first!r} in the first table" if first else "no column read in the first table"
        return f"column {column_letter(index)} is {name!r}, {said}"
    return ""


def apart_verdict(
    c: CheckedRow, table: OtherTable, value: CellValue, summary: CheckSummary, kind: str
) -> None:
    """Row ``c``, set apart by :func:`tables_apart` (the check saw it empty), as invalid."""
    withheld_invalid(c, value, summary)
    verb = "import" if kind == "import" else "run the removal on"
    if c.row == table.header:
        if table.moved:
            what = (
                f"whose columns differ from the first table's (row {table.first[0]}): "
                f"{table.difference}, so its rows are not read; {verb} that table on its own"
            )
        else:
            what = (
                f"whose columns are the first table's (row {table.first[0]}), only "
                "named otherwise: it holds no number, and the rows under it are read as the "
                "first table's"
            )
        c.message = (
            f"row {c.row}: phone: the row is the header of another table ({table.names_said}), "
            f"{what}"
        )
        return
    column = column_letter(table.phone)
    name = table.names[table.phone] or "phone"
    if table.phone != table.first[1]:
        where = f"whose {name} column is {column}"
    else:
        where = f"whose columns differ from the first table's ({table.difference})"
    if value is None or (isinstance(value, str) and not value.strip()):
        held = f"cell {column}{c.row} is empty"
    else:
        held = f"{_value_shown(value)} was not read"
    c.message = (
        f"row {c.row}: phone: the row is under {table.said}'s header (row {table.header}), "
        f"{where}: {held}; {verb} that table on its own"
    )


def _value_shown(value: CellValue) -> str:
    """A cell as a spreadsheet shows it: 3035550199, not 3035550199.0; text as written."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return " ".join(str(value).split())


def other_tables_sentences(held: Held, kind: str) -> list[str]:
    """A warning for each table below the first whose header puts its values in other columns
    than those read (:func:`tables_apart`): its rows, none of them read, and how to read them.
    A table whose header only names the same columns otherwise is read, its rows' messages
    alone saying so."""
    said = []
    for table in held.tables.tables:
        if not table.moved:
            continue
        span = f"{table.header}–{table.last}" if table.last > table.header else f"{table.header}"
        count = table.rows.count
        rows = "its row was" if count == 1 else f"its {count:,} rows were"
        verb = "import it" if kind == "import" else "run the removal on it"
        which = table.said.replace("the ", "a ", 1)
        said.append(
            f"Rows {span} are {which} with a header of its own (row {table.header}: "
            f"{table.names_said}), whose columns differ from the first table's (row "
            f"{table.first[0]}): {table.difference}. None of them was read under the first "
            f"table's columns: {rows} left invalid, each saying so. Copy rows {span} to a "
            f"file of their own and {verb}."
        )
    return said
