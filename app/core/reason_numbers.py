"""Phone numbers written in a row's reason (Notes) cell besides its own (black-box B7 #4, S20 N2).

Only the phone column's number of a row is imported or removed, so a Notes cell naming another
("also cell 480-555-5504") names a number that goes nowhere unless it is given a row of its
own: the row's message names it and a warning counts such rows. A number named in the notes of
many rows (:data:`REPEATED_ROWS`: "called from our line 800-555-0199") is the business's or a
vendor's line, not each consumer's: no row's message names it, and a warning of its own does,
once. Staging's watch finds the candidates (:func:`numbers_written`), its noting reads them
under the row's own code (:func:`other_numbers_noted`) and holds rows back a while
(:func:`released`) so the first rows naming a repeated number need not name it either.
"""

from __future__ import annotations

import heapq
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import replace
from itertools import chain
from typing import TYPE_CHECKING, Final

from app.core import phones
from app.core.job_store import NewRow
from app.core.sheet_check import CheckedRow, RowList
from app.core.sheet_check import Outcome as CheckOutcome
from app.core.sheet_mapping import column_letter, column_said
from app.core.sheet_types import CellValue
from app.core.wording import joined

if TYPE_CHECKING:
    from app.core.staging_notes import Held


# What may be a phone number written in a reason cell: digit groups joined by one separator
# (a space, "-", ".", "/") or by brackets, with a leading "+" or "(", not inside a word or an
# amount ("INC4805555504", "$1234567890"). An extension may follow ("x12", "ext. 12").
_WRITTEN_NUMBER: Final = re.compile(
    r"(?<![0-9A-Za-z_#$\u20ac\u00a3])"
    r"\+?\(?[0-9]+(?:(?:\)[ .\-\u00a0]?|[ .\-/\u00a0]\(?|\()[0-9]+)*"
    r"(?![0-9])(?![A-Za-z_](?<![xX]))"
)
# What any such number of seven digits or more holds: most reason cells have none.
NUMBER_HINT: Final = re.compile(r"[0-9][0-9 ().\-/\u00a0]{5,}[0-9]")
# A date, which a country with numbers of eight digits may read as one ("2026-11-24" is a valid
# German number), unless more digit groups follow ("06.12.34.56.78", a French number); and a
# time, whose minutes would run into a number after it ("10:30 480-555-5504").
_DATE_WRITTEN: Final = re.compile(
    r"(?<![0-9])(?:(?:[0-9]{4}[-./][0-9]{1,2}[-./][0-9]{1,2}"
    r"|[0-9]{1,2}[-./][0-9]{1,2}[-./](?:[0-9]{4}|[0-9]{2}))(?![0-9]|[-./][0-9])"
    r"|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?![0-9]))"
)
# Words before digits that make them an id, not a phone number ("Ticket #4805555504",
# "order no. 1234567890", "acct: 4805555504").
_ID_BEFORE: Final = re.compile(
    r"(?:#|\b(?:ticket|tkt|order|case|ref|reference|id|invoice|inv|account|acct|policy|"
    r"confirmation|conf|tracking|transaction|txn|po|zip|ssn|sku|serial|claim)\b\.?)"
    r"\s*(?:no\.?|nr\.?|num\.?|number|id)?\s*[:#=]?\s*$",
    re.IGNORECASE,
)
# A space between two numbers of a run, not one after a bracket ("(480) 555-5504").
_SPACE_BETWEEN: Final = re.compile(r"(?<!\))[ \u00a0]")
# Digits a number written so has: fewer is no phone number, more is two run together.
_NUMBER_DIGITS: Final = range(7, 16)
# Bare digits fewer than this are an id or an amount more often than a phone number.
_BARE_DIGITS: Final = 10
# Numbers a row's message names from its reason cell, and rows the warning names.
_OTHER_NUMBERS_SHOWN: Final = 5
_OTHER_ROWS_NAMED: Final = 3


def numbers_written(value: CellValue) -> list[str]:
    """What in a reason cell may be a phone number (none in most cells, cheaply): the written
    forms, for :func:`other_numbers_noted` to read under the row's own code. A number cell
    counts with ten digits or more; text is taken apart as :data:`_WRITTEN_NUMBER` says, less
    dates and ids, keeping digits written as phone numbers are (grouped, or ten or more)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value != value or not float(value).is_integer():
            return []
        bare = str(abs(int(value)))
        return [bare] if len(bare) >= _BARE_DIGITS and len(bare) in _NUMBER_DIGITS else []
    if type(value) is not str or not NUMBER_HINT.search(value):
        return []
    text = _DATE_WRITTEN.sub(" ", value)
    found: list[str] = []
    for match in _WRITTEN_NUMBER.finditer(text):
        for start, written in _numbers_run_together(match.start(), match.group()):
            if written.startswith("(") and ")" not in written:
                written = written[1:]
            digits = sum(ch.isdigit() for ch in written)
            if digits not in _NUMBER_DIGITS:
                continue
            if digits < _BARE_DIGITS and written.isdigit():
                continue  # "ref 48055555", a count: digits not written as a number is
            if _ID_BEFORE.search(text, 0, start):
                continue
            found.append(written)
    return found


def _numbers_run_together(start: int, written: str) -> list[tuple[int, str]]:
    """``written`` (at ``start``), or the numbers it runs together when it has too many
    digits for one: "480-555-5504 480-555-5505" is one match of :data:`_WRITTEN_NUMBER` (a
    space joins digit groups too), 20 digits, so neither number was named (RV). It is split
    at its spaces (not one after a bracket, "(480) 555-5504"; a leading country code goes
    with what follows, "+1 480-555-5504 …") only when every part has the digits of a number,
    as "480 555 5504 480 555 5505" has not: where the numbers part is never a guess."""
    if sum(ch.isdigit() for ch in written) <= _NUMBER_DIGITS[-1]:
        return [(start, written)]
    parts: list[tuple[int, str]] = []
    at = 0
    for space in _SPACE_BETWEEN.finditer(written):
        parts.append((start + at, written[at : space.start()]))
        at = space.end()
    parts.append((start + at, written[at:]))
    code, rest = parts[0][1], parts[1:]
    if code.startswith("+") and sum(ch.isdigit() for ch in code) <= 3 and rest:
        parts = [(parts[0][0], f"{code} {rest[0][1]}"), *rest[1:]]
    if len(parts) < 2 or any(
        sum(ch.isdigit() for ch in part) not in _NUMBER_DIGITS for _, part in parts
    ):
        return [(start, written)]
    return parts


# A number the reason cells of this many rows name, besides each row's own, is taken for the
# business's or a vendor's line ("called from our line 800-555-0199", a hotline, an agent's
# line) rather than each consumer's second number: a household's shared line is named on two
# or three rows. A count, not a share of the file: such a line is named on hundreds of rows of
# a 50,000-row file (any share of it would have it named on each of them), and 4 rows of a
# 12-row file naming one number are a third of the file, no household. Nothing is lost either
# way: the warning names the number and its rows, and says to add it if consumers asked.
REPEATED_ROWS: Final = 4
# Rows :func:`noted` holds back, in sheet order, while one of them names a number not yet
# seen on that many rows: a line named that often is seen again well within them, and a file
# of one-off second numbers is never held whole (each row waits this many rows at most).
_ROWS_HELD: Final = 2_000
# Distinct numbers counted: past them a file names one-off second numbers, not a line of its
# own, and a number first seen after them is named on each row, as before.
_NUMBERS_COUNTED: Final = 50_000
# Numbers named on many rows that the warning names, and rows it names for each.
_REPEATED_SHOWN: Final = 5
_REPEATED_ROWS_NAMED: Final = 3
# Rows it names whose message names such a number all the same: a file naming thousands of
# lines, each first on rows more than _ROWS_HELD apart, has thousands of them (RV #3).
_EARLY_ROWS_NAMED: Final = 5

# A phone number as :func:`phones.normalize` read it: (code, national number).
_Number = tuple[str, str]


class _Repeated:
    """A number the reason cells of :data:`REPEATED_ROWS` rows or more name: as shown, the
    rows naming it, and those of them whose message names it all the same (staged, past
    :data:`_ROWS_HELD` rows, before it was seen on that many)."""

    __slots__ = ("rows", "said", "shown")

    def __init__(self, shown: str, rows: list[int], released: int) -> None:
        self.shown = shown
        self.rows = RowList()
        for row in rows:
            self.rows.add(row)
        # Rows are staged in sheet order, so those up to the last one let go are staged.
        self.said = [row for row in rows if row <= released]


class NamedNumbers:
    """Which rows' reason cells name each number besides the rows' own (black-box B7 #4):
    ``few`` while fewer than :data:`REPEATED_ROWS` rows do, then ``many``."""

    __slots__ = ("few", "many", "released")

    def __init__(self) -> None:
        self.few: dict[_Number, list[int]] = {}
        self.many: dict[_Number, _Repeated] = {}
        # The last row :func:`released` let go.
        self.released = 0

    def count(self, number: _Number, shown: str, row: int) -> None:
        repeated = self.many.get(number)
        if repeated is not None:
            repeated.rows.add(row)
            return
        rows = self.few.get(number)
        if rows is None:
            if len(self.few) >= _NUMBERS_COUNTED:
                return
            rows = self.few[number] = []
        rows.append(row)
        if len(rows) >= REPEATED_ROWS:
            del self.few[number]
            self.many[number] = _Repeated(shown, rows, self.released)


class Pending:
    """A row's note naming the numbers its reason cell holds besides its own, until
    :func:`released` knows whether any of them is named on many rows."""

    __slots__ = ("note", "numbers")

    def __init__(self, note: str, numbers: list[tuple[_Number, str]]) -> None:
        self.note = note
        self.numbers = numbers


def other_numbers_noted(c: CheckedRow, written: list[str], held: Held, kind: str) -> Pending | None:
    """Row ``c``'s reason cell naming valid phone numbers other than the row's own (black-box
    B7 #4: Phone "480-555-5503", Notes "also cell 480-555-5504" went in with an empty
    message, the second number unmentioned, though the consumer asked for both). Only a row
    whose own number was read (valid, or a duplicate of one that was): its code reads them,
    or the code a number is written with. The row is taken as it is; its message names the
    numbers, but those already named on many rows (:data:`REPEATED_ROWS`), and
    :func:`other_numbers_sentence` counts the rows. What it names is pending until
    :func:`released` lets the row go."""
    if c.outcome is not CheckOutcome.VALID and c.outcome is not CheckOutcome.DUPLICATE:
        return None
    own = (c.phone_code, c.national)
    found: list[tuple[_Number, str]] = []
    seen = {own}
    for text in written:
        international = text.startswith(("+", "00"))
        result = phones.normalize(text, None if international else c.phone_code)
        if not result.ok or (result.phone_code, result.national) in seen:
            continue
        number = (result.phone_code, result.national)
        seen.add(number)
        found.append((number, phones.format_for_display(result.national, result.phone_code)))
    counted = held.other_numbers_rows
    for number, shown in found:
        counted.count(number, shown, c.row)
    named = [(number, shown) for number, shown in found if number not in counted.many]
    if not named:
        return None
    note = _other_numbers_note(held, c.row, [shown for _, shown in named], kind)
    c.message = f"{c.message}; {note}" if c.message else f"row {c.row}: {note}"
    return Pending(note, named)


def _other_numbers_note(held: Held, row: int, shown: list[str], kind: str) -> str:
    """A row's note naming the numbers its reason cell holds besides its own."""
    index = held.reason_column
    assert index is not None  # held.reason_numbers is filled only with a reason column
    named = _numbers_named(shown)
    one = len(shown) == 1
    what = f"another number, {named[0]}" if one else f"other numbers, {joined(named)}"
    it = "it" if one else "them"
    each = "it" if one else "each"
    asked = "the consumer asked for" if kind != "removal" else "the consumer asked to remove"
    return (
        f"its {_reason_cell(held, index)} cell {column_letter(index)}{row} names {what}: if "
        f"{asked} {it} too, add {each} as a row of its own"
    )


def _numbers_named(shown: list[str]) -> list[str]:
    """The first :data:`_OTHER_NUMBERS_SHOWN` numbers, and how many more."""
    named = shown[:_OTHER_NUMBERS_SHOWN]
    if len(shown) > len(named):
        named.append(f"{len(shown) - len(named)} more")
    return named


def released(
    waiting: deque[tuple[NewRow, Pending | None]], held: Held, kind: str, *, last: bool
) -> Iterator[NewRow]:
    """The rows :func:`noted` held back that can go, in sheet order: up to the first whose
    reason cell names a number not yet seen on :data:`REPEATED_ROWS` rows, which may yet be
    (all of them when the file is through, ``last``, or past :data:`_ROWS_HELD` rows). The
    check streams each row before it sees the later ones, so the first rows naming the
    business's line would otherwise tell the person to add it as a consumer's."""
    counted = held.other_numbers_rows
    many = counted.many
    while waiting:
        row, pending = waiting[0]
        if (
            pending is not None
            and not last
            and len(waiting) <= _ROWS_HELD
            and any(number not in many for number, _ in pending.numbers)
        ):
            return
        waiting.popleft()
        counted.released = row.row_number
        if pending is not None:
            row = _other_numbers_said(row, pending, held, kind)
        yield row


def _other_numbers_said(row: NewRow, pending: Pending, held: Held, kind: str) -> NewRow:
    """``row`` as it goes: its note without the numbers seen on many rows since it was
    written (none left: no note), and counted for :func:`other_numbers_sentence`."""
    many = held.other_numbers_rows.many
    kept = [shown for number, shown in pending.numbers if number not in many]
    if len(kept) < len(pending.numbers):
        new = _other_numbers_note(held, row.row_number, kept, kind) if kept else ""
        row = replace(row, message=_note_replaced(row.message, row.row_number, pending.note, new))
    if kept:
        held.other_numbers.add(row.row_number)
        if len(held.other_numbers_named) < _OTHER_ROWS_NAMED:
            held.other_numbers_named.append((row.row_number, _numbers_named(kept)))
    return row


def _note_replaced(message: str, row: int, note: str, new: str) -> str:
    """``message`` with ``note`` (a clause of its own, after "; " or "row N: ") as ``new``,
    or taken out when ``new`` is empty."""
    inside = f"; {note}"
    if inside in message:
        return message.replace(inside, f"; {new}" if new else "", 1)
    head = f"row {row}: {note}"
    if not message.startswith(head):
        return message  # never: noted() only adds after a note
    rest = message[len(head) :]
    if new:
        return f"row {row}: {new}{rest}"
    return f"row {row}: {rest[2:]}" if rest.startswith("; ") else rest


def _reason_cell(held: Held, index: int) -> str:
    """What a row's message calls its reason cell: the column's header ("Notes"), when it is
    a few plain words, else "reason"."""
    header = held.headers[index].strip() if index < len(held.headers) else ""
    if header and len(header) <= 30 and all(ch.isalnum() or ch in " -_/" for ch in header):
        return header
    return "reason"


def other_numbers_sentence(held: Held, kind: str) -> str:
    """The warning counting the rows whose reason cell names a valid phone number other than
    the row's own (``""``: none), the first few with those numbers: only the phone column is
    read, so such a number goes nowhere unless it is given a row of its own. The numbers named
    on many rows, which no row's message names, have a warning of their own
    (:func:`repeated_numbers_sentence`)."""
    if held.reason_column is None:
        return ""
    return _few_sentence(held, column_said(held.headers, held.reason_column), kind)


def repeated_numbers_sentence(held: Held, kind: str) -> str:
    """The warning naming each number the reason cells of many rows name (``""``: none): most
    likely the business's or a vendor's own line, so no row's message suggests adding it."""
    if held.reason_column is None:
        return ""
    return _repeated_sentence(held, column_said(held.headers, held.reason_column), kind)


def _few_sentence(held: Held, column: str, kind: str) -> str:
    rows = held.other_numbers
    if not rows.count:
        return ""
    named = [f"row {row} ({joined(numbers)})" for row, numbers in held.other_numbers_named]
    if rows.count > len(named):
        more = rows.count - len(named)
        named.append(f"{more:,} more row{'s' if more > 1 else ''}")
    verb = "removed" if kind == "removal" else "imported"
    one = rows.count == 1
    if one:
        head = f"1 row's reason cell, in {column}, names a phone number besides the row's own"
    else:
        head = (
            f"{rows.count:,} rows' reason cells, in {column}, name phone numbers besides the "
            "rows' own"
        )
    if kind == "removal":
        want = f"if {'it is' if one else 'they are'} to come off the list too, remove"
    else:
        want = f"if the consumer asked for {'it' if one else 'them'} too, import"
    return (
        f"{head}: {joined(named)}. Only the phone column's number is {verb} from a row, so "
        f"{'that number is' if one else 'those numbers are'} not: {want} "
        f"{'it as a row of its own' if one else 'each as a row of its own'}. "
        f"{'The row' if one else 'Each row'}'s message names {'it' if one else 'its numbers'}."
    )


def _repeated_sentence(held: Held, column: str, kind: str) -> str:
    """The numbers the reason cells of :data:`REPEATED_ROWS` rows or more name, each once
    with its count and first rows (``""``: none): most likely the business's own line."""
    many = sorted(held.other_numbers_rows.many.values(), key=lambda r: r.rows.first[0])
    if not many:
        return ""

    def rows_of(repeated: _Repeated) -> str:
        rows = repeated.rows
        named = [str(n) for n in rows.first[:_REPEATED_ROWS_NAMED]]
        if rows.count > len(named):
            named.append(f"{rows.count - len(named):,} more")
        return f"rows {joined(named)}"

    one = len(many) == 1
    if one:
        head = (
            f"{many[0].shown} is named in the reason cells of {many[0].rows.count:,} rows, in "
            f"{column}: {rows_of(many[0])}"
        )
    else:
        each = [f"{r.shown} in {r.rows.count:,} rows ({rows_of(r)})" for r in many]
        shown = each[:_REPEATED_SHOWN]
        if len(each) > len(shown):
            shown.append(f"{len(each) - len(shown):,} more numbers")
        head = (
            f"{len(many):,} numbers are each named in the reason cells of "
            f"{REPEATED_ROWS} rows or more, in {column}: {joined(shown)}"
        )
    it = "it" if one else "these"
    # Rows staged before their number was seen named so often (past _ROWS_HELD rows) name it.
    said_count = sum(len(r.said) for r in many)
    but = ""
    if said_count:
        said = [str(n) for n in heapq.nsmallest(_EARLY_ROWS_NAMED, chain(*(r.said for r in many)))]
        if said_count > len(said):
            said.append(f"{said_count - len(said):,} more")
        early = f"row{'s' if said_count > 1 else ''} {joined(said)}"
        but = f" (but for {early}, staged before {it} {'was' if one else 'were'} seen so often)"
    which = "it" if one else "one"
    if kind == "removal":
        suggest = "removing"
        want = f"If {which} is to come off the list too, remove"
    else:
        suggest = "adding"
        want = f"If consumers did ask for {which}, import"
    return (
        f"{head}. A number named on so many rows is likely the business's or a vendor's own "
        f"line (one that called, a hotline) rather than a consumer's, so the rows' messages "
        f"do not suggest {suggest} {it}{but}. {want} it as a row of its own."
    )
