"""Bare numbers read under the default code in a file whose other numbers carry another code.

Black-box B24 F3: a CSV of Indian numbers, most written "+91 98765 43210" and some as bare
digits ("7025551234"), imported with the default ``--phone-code 1``, put the bare ones on the
list as US numbers (an Indian mobile starting 6-9 is often a valid US number too) without a
word. The default code applies as documented, so every verdict stands; staging adds one
warning (:meth:`CodeMix.sentence`) counting the rows read under the default code with no code
of their own and the rows written with their own code, naming the other country and code, the
first bare rows, and what to do.

It is said when, of the valid rows:

- at least :data:`SHARED_LEAST` are written with one code other than the default (in the phone
  cell itself: ``+91 …``, ``0091 …``, or ``011 91 …`` as dialled from the US), and they are at
  least :data:`SHARE` of the rows written with a code and a tenth of the rows counted (those
  written with a code and the bare ones): a US list holding a handful of foreign numbers
  written with their ``+code`` is no other country's list;
- and at least one row was read under the default code from a cell without a code of its own.

Never when a column is read for the rows' codes (Country code or Country): a row read under
the default code there is that column's decision (an empty cell is
:class:`~app.core.staging_notes.EmptyCountryCells`'s to say). Nor when a column headed as the
rows' country was not read: its own warning says every row took the default code.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from app.core import phones
from app.core.sheet_check import CheckedRow, Outcome, RowList
from app.core.sheet_mapping import ColumnMapping, unread_country_column
from app.core.staging_notes import rows_named

# The fewest valid rows written with the shared code, and the share of the rows written with
# a code (any) they must be, for the file to be that code's country's list.
SHARED_LEAST: Final = 3
SHARE: Final = 2 / 3
# Of the rows counted (those written with a code and the bare ones), the least share the
# shared code's rows must be: as for the warning on rows refused as another country's.
FILE_SHARE: Final = 0.1


class CodeMix:
    """Counts, over the valid rows, the codes the rows written with one carry and the rows read
    under the default code from a cell without one (see the module's docstring)."""

    __slots__ = ("active", "bare", "coded", "default")

    def __init__(self, mapping: ColumnMapping) -> None:
        self.default = phones.normalize_code(mapping.default_phone_code) or "1"
        self.active = (
            mapping.phone_code is None
            and mapping.country is None
            and unread_country_column(mapping) is None
        )
        self.coded: dict[str, int] = {}
        self.bare = RowList()

    def watch(self, rows: Iterable[CheckedRow]) -> Iterator[CheckedRow]:
        """``rows`` as they are, counted."""
        valid, default, coded, bare = Outcome.VALID, self.default, self.coded, self.bare
        for c in rows:
            if c.outcome is valid:
                code = c.phone_code
                # With no column read for codes, a code other than the default is the cell's
                # own; one equal to it is when the cell says so ("+1 303 …", "Tel: +1 …").
                if code != default or _own_code(c.original):
                    coded[code] = coded.get(code, 0) + 1
                else:
                    bare.add(c.row)
            yield c

    def sentence(self, kind: str) -> str:
        """The warning (``""``: none due)."""
        if not self.active or not self.bare.count or not self.coded:
            return ""
        code, shared = max(self.coded.items(), key=lambda item: item[1])
        written = sum(self.coded.values())
        if (
            code == self.default
            or shared < SHARED_LEAST
            or shared < SHARE * written
            or shared < FILE_SHARE * (written + self.bare.count)
        ):
            return ""
        bare = self.bare
        one = bare.count == 1
        name, default_name = phones.region_name(code), phones.region_name(self.default)
        rows = "1 row" if one else f"{bare.count:,} rows"
        whose = "whose number is" if one else "whose numbers are"
        of_written = f"all {written:,}" if shared == written else f"{shared:,} of the {written:,}"
        them = "it is a number" if one else "they are numbers"
        again = "import the file" if kind != "removal" else "run the removal"
        return (
            f"{rows} {whose} written with no country code ({rows_named(bare)}) "
            f"{'was' if one else 'were'} read under the default code +{self.default} "
            f"({default_name}), while {of_written} numbers written with their own code are "
            f"numbers of {name} (+{code}). If {them} of {name} too, "
            f"{again} again with --phone-code {code} (a number written with its own code keeps "
            f"it), or write {'it' if one else 'each'} with +{code}, or give the file a Country "
            "column."
        )


def _own_code(value: object) -> bool:
    """Whether a phone cell read under the default code was written with a code: a "+"
    anywhere (a label may come first), or a leading 00."""
    return type(value) is str and ("+" in value or value.lstrip().startswith("00"))
