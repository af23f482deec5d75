"""What a sheet holds besides its cell values, for staging: hidden rows, formulas never
calculated, and sheets or columns of phone numbers the job does not read.

:mod:`app.core.job_staging` streams the check's verdicts through :func:`watched` and
:func:`noted` and stores :func:`notes_sentences` (and the column sentences) as the job's meta
``warnings`` (the CLI prints them as ``note:`` lines and in its JSON ``warnings``; the report's
Summary lists them):

- rows hidden in an xlsx/xlsm, .xlsb, .xls or .ods (by hand or by a filter): an import takes
  them too, as more opt-outs are safe, and says so; a removal leaves them alone (each ends
  ``not_attempted``, saying why) unless hidden rows are included. A removal from a file whose
  hidden rows cannot be seen (an .xls from Excel 95 or older, a sheet whose layout could not
  be read) is refused unless they are included (:func:`hidden_unknown_sentence`);
- a mapped column (the phone numbers, reasons, …) hidden in an xlsx/xlsm, .xlsb, .xls or
  .ods: its values are read as any others, and a warning names it, as whoever looks at the
  file has not seen them. A removal whose phone column was found (not chosen) hidden is
  refused unless hidden rows and columns are included (:func:`hidden_phone_column_sentences`):
  it would take off the list numbers nobody looking at the file has seen, often beside a
  visible corrected column. When a visible column has the same header as that hidden one,
  the visible one is read instead, in an import or a removal, and the hidden one is named
  (:func:`hidden_twin_sentence`);
- with the sheet and phone column guessed, other sheets (hidden ones too) and other columns
  that also hold phone numbers, none of them read; a column headed as country codes whose
  values mostly are not, and one of country names under a header naming no role; and with
  the columns guessed or chosen in the import wizard, a column read for countries whose
  codes are US states' too ("IN", "DE") beside numbers valid both ways
  (:func:`state_doubt_sentence`: an import names both readings, a removal is refused until
  the person says which; the wizard's box saying the column holds countries settles it, and
  :func:`state_choice_sentence` keeps that in the report). A hidden sheet is read only when
  named: with none named and no visible sheet holding phone numbers,
  staging is refused (:func:`hidden_sheets_sentences`), and a hidden sheet read because it
  was named is said to be hidden;
- a quoted cell of a text file running over lines that look like rows of their own (a stray
  quote mark closed further down, :class:`~app.core.sheet_types.StrayQuote`): those rows are
  not read, so a warning (:func:`stray_quotes_sentence`) and the row's message name the row,
  the cell, the lines and their numbers;
- a row whose phone cell is covered by merged cells below their first row reads the merged
  value, as the file shows it (in every format), and its message says so: it is most often a
  duplicate of the first row;
- a mapped cell whose formula was never calculated (a file written by a script), or that holds
  an error value such as #N/A (xlsx, ods, xls), reads as empty. In a column that decides the
  number or where it goes (phone, country code, scope, campaign, purpose) its row is invalid
  and names the cell and the formula, or the error. In the reason or request-date column it
  decides neither: the row is taken as the check decided (the default reason applies; a
  request date not read leaves the row's 10-business-day limit unchecked, counted among the
  dates that could not be read), its message names the cell, and a warning counts such rows
  (:func:`unread_cells_sentence`), as it counts those whose reason or request-date cell holds
  an error value written out as text (a CSV's "#N/A", which the check marks in
  :attr:`~app.core.sheet_check.Marks.error_text`).
  A Country cell (headed as a country, not as a dialling code) so beside a number written
  with its own +code or 00code decides nothing, as the number is read under its own code: the
  row is taken, its message naming the cell;
- request dates the 10-business-day limit could not be checked on (not a date, after the
  insertion date, an empty cell: :func:`unchecked_dates_sentence`), and late requests on
  invalid rows, which are not sent (:func:`late_invalid_sentence`), each row named (the
  first ten of each kind);
- request dates that read either way (02/11/2026), with the order they were read in and
  why (:func:`date_order_sentence`): the column's dates that read one way only, written in
  the same form (slashed, dotted or dashed), or, with none, the form's usual order, and how to
  have them read the other way; those with a two-digit year read against their form's order, as
  that reading was after the insertion date, are said apart;
- rows read from phone cells a spreadsheet had damaged, those whose number a short scientific
  display may have cut (2025550000), read as they stand, and rows refused as US numbers that
  are another country's (a template's placeholder, "5555555555", aside), with the rows read as
  US numbers from bare digits that are that country's too once a lost 0 is put back (read two
  ways, and a run again with the --phone-code leaves what this run did to their US numbers),
  and the --phone-code to use if the file is that country's (:func:`damage_sentences`, which
  :func:`noted` gathers for); none when the file has a column of its rows' countries that was
  not read (:class:`UnreadCountries`): the warning names the values it did not know, with their
  rows, and such a row's message says its Country cell is to give its country;
- a quoted phone cell holding a number on each line, closed where it ends, is no stray quote:
  the reader's note on it is dropped, as the check says the cell holds two numbers;
- a reason cell (headed Notes, Comments, …) naming a valid phone number besides its row's own
  ("also cell 480-555-5504"), read under the row's code (or the code it is written with), not a
  date, a time or an id ("Ticket #4805555504"), on a row whose own number was read: only the
  phone column's number goes in, so the row's message names the other and a warning counts
  such rows, naming the first few. The row is taken as it is. A number so named on many rows
  ("called from our line 800-555-0199") is the business's or a vendor's line, not each
  consumer's: no row's message names it, and a warning of its own names it once, with its
  count and first rows (:mod:`app.core.reason_numbers`);
- a workbook holding more number cells formatted with leading zeros ("0000000000") than the
  reader reads as shown (:attr:`~app.core.sheet_types.SheetNotes.padded_cut`): from the row
  named on, such numbers read without their zeros, so a warning names the sheet, the row and
  the first cell, and says to split the file or format the cells as text
  (:func:`padded_cut_sentence`);
- a second table with a header of its own further down the sheet (Gnumeric's text export of
  every sheet to one file, a batch pasted below another): its header row is invalid, saying
  so; when its columns are not those read, every row under it is invalid too, naming the
  number in its own phone column, and a warning names its rows and how to read them
  (:mod:`app.core.other_tables`).
"""

from __future__ import annotations

import re
import shlex
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from app.core import phones
from app.core.country_names import US_STATES, not_a_country
from app.core.job_store import NewRow, Outcome
from app.core.other_tables import OtherTables, apart_verdict, tables_apart
from app.core.reason_numbers import (
    NUMBER_HINT,
    NamedNumbers,
    Pending,
    numbers_written,
    other_numbers_noted,
    released,
)
from app.core.sheet_check import (
    CheckedRow,
    CheckOptions,
    CheckSummary,
    RowList,
    check_rows,
    country_columns,
    written_with_own_code,
)
from app.core.sheet_check import Outcome as CheckOutcome
from app.core.sheet_csv import CsvSource
from app.core.sheet_damage import (
    CUT_SHORT,
    code_name,
    lost_zero_text,
    only_a_guess,
    placeholder_number,
)
from app.core.sheet_dates import (
    DASHED_DAY_FIRST_ONLY,
    DASHED_MONTH_FIRST_ONLY,
    DAY_FIRST_ONLY,
    DOTTED_DAY_FIRST_ONLY,
    DOTTED_MONTH_FIRST_ONLY,
    EITHER,
    EITHER_DASHED,
    EITHER_DASHED_TURNED,
    EITHER_DOTTED,
    EITHER_DOTTED_TURNED,
    EITHER_TURNED,
    FORMS_SAID,
    LIMIT_BUSINESS_DAYS,
    MONTH_FIRST_ONLY,
    YEAR_FIRST,
    DateForm,
    DayFirst,
    FormOrders,
    form_order,
)
from app.core.sheet_header import holds_phone_number, is_blank, looks_like_phone
from app.core.sheet_mapping import (
    CallSide,
    ColumnMapping,
    DateColumn,
    DateRank,
    FlagColumn,
    Role,
    StateNumbers,
    UnreadCodeColumn,
    call_side,
    column_letter,
    column_said,
    country_headed_columns,
    header_role,
    names_consumers_number,
    names_number_that_called,
    names_own_line,
    plain_words,
    propose_from_preview,
    unread_country_column,
)
from app.core.sheet_reader import SheetSource
from app.core.sheet_types import CellValue, PaddedCut, Row, SheetNotes, StrayQuote
from app.core.sheet_worker import PROBE_ROWS, do_not_use_sheet, front_matter_sheet
from app.core.wording import counted, joined


class _Feed:
    """Hands one row at a time to a :func:`check_rows` generator (which takes one per verdict)."""

    __slots__ = ("row",)

    def __init__(self) -> None:
        self.row: Row | None = None

    def __iter__(self) -> _Feed:
        return self

    def __next__(self) -> Row:
        row, self.row = self.row, None
        if row is None:  # never: each row is fed just before its verdict is asked for
            raise RuntimeError("a row was asked for before it was fed")
        return row


def check_apart(
    rows: Iterable[Row],
    hidden: set[int],
    mapping: ColumnMapping,
    options: CheckOptions,
    summary: CheckSummary,
) -> Iterator[CheckedRow]:
    """:func:`check_rows` with hidden rows checked on their own, in sheet order.

    A removal leaves hidden rows alone, so a number on a hidden row must not make the same
    number on a visible row a "duplicate" (and so not removed). ``hidden`` grows as the reader
    goes; a row's entry is there before the row is.
    """
    header = mapping.header_row or 0
    shown_feed, hidden_feed = _Feed(), _Feed()
    shown = check_rows(shown_feed, mapping, options, summary)
    apart = check_rows(hidden_feed, mapping, options, summary)
    for row in rows:
        if row[0] <= header:
            continue
        if row[0] in hidden:
            hidden_feed.row = row
            yield next(apart)
        else:
            shown_feed.row = row
            yield next(shown)


class HiddenRows:
    """The valid rows hidden in the file, as ranges, and what the job does with them; and the
    mapped columns hidden in it, as (role, column named as in warnings), which :func:`noted`
    fills in when the rows are through."""

    def __init__(self, kind: str, leave: bool) -> None:
        self.kind = kind
        self.leave = leave
        self.ranges: list[list[int]] = []
        self.count = 0
        self.columns: list[tuple[str, str]] = []
        if leave:
            self.note = (
                "hidden in the file (hidden or filtered out); not removed unless hidden rows "
                "are included (--include-hidden)"
            )
            self.outcome = Outcome.NOT_ATTEMPTED.value
        else:
            verb = "removal" if kind == "removal" else "import"
            self.note = f"hidden in the file (hidden or filtered out); included in the {verb}"
            self.outcome = ""

    def add(self, number: int) -> None:
        self.count += 1
        if self.ranges and self.ranges[-1][1] == number - 1:
            self.ranges[-1][1] = number
        else:
            self.ranges.append([number, number])


class Held:
    """What :func:`watched` set aside for :func:`noted`: by sheet row number, and the
    mapping's columns."""

    __slots__ = (
        "code_columns",
        "cut_short",
        "damaged",
        "damaged_invalid",
        "default_code",
        "empty_country",
        "exact",
        "fits",
        "foreign",
        "foreign_put_back",
        "formulas",
        "headers",
        "lost_plus",
        "lost_plus_cells",
        "lost_plus_first",
        "lost_zero_guess",
        "mapped",
        "numbers",
        "other_country",
        "other_numbers",
        "other_numbers_named",
        "other_numbers_rows",
        "own_code",
        "phone_column",
        "reason_column",
        "reason_numbers",
        "soft",
        "soft_roles",
        "soft_rows",
        "tables",
        "toll_free",
        "unread_countries",
        "unshown",
        "us_cells",
        "written_fits",
        "zero_put_back",
    )

    def __init__(self) -> None:
        # Phone cells with leading or trailing spaces, tabs or CRs, which the check strips:
        # the report's Original value keeps the cell exactly.
        self.exact: dict[int, str] = {}
        # Rows with an uncalculated formula in a mapped column other than the phone:
        # (role, column, formula, the phone cell), the phone cell having been withheld.
        self.formulas: dict[int, tuple[str, int, str, CellValue]] = {}
        # Rows whose reason or request-date cells (and no other mapped cell) hold an
        # uncalculated formula or an error: [(role, column, formula)]. Not withheld.
        self.soft: dict[int, list[tuple[str, int, str]]] = {}
        # Rows whose Country cell holds an uncalculated formula or an error beside a number
        # written with its own code, which that cell does not decide: (column, formula).
        self.own_code: dict[int, tuple[int, str]] = {}
        # An import's valid rows whose number is toll-free (:func:`toll_free_sentence`);
        # None: not watched (a removal, or a call or message log, whose own watch says them).
        self.toll_free: RowList | None = None
        # The rows :func:`noted` took all the same, and the roles of their cells.
        self.soft_rows = RowList()
        self.soft_roles: set[str] = set()
        # The mapping's columns, (role, index) in Role order, and its headers: to name the
        # mapped columns hidden in the file.
        self.mapped: list[tuple[str, int]] = []
        self.headers: tuple[str, ...] = ()
        # The columns read for the rows' codes (Country code, then Country): a row read under
        # the default code beside them had them empty, which is what a warning says of it.
        self.code_columns: tuple[int, ...] = ()
        # Rows of any outcome whose phone cell a spreadsheet had damaged, and how many of them
        # are invalid; those of them whose number a short scientific display may have cut.
        self.damaged = RowList()
        self.damaged_invalid = 0
        self.cut_short = RowList()
        # Rows whose note only guesses their number cell lost a leading 0 (only_a_guess):
        # counted apart, as nothing says the spreadsheet damaged them.
        self.lost_zero_guess = RowList()
        # Rows whose phone cell holds a number its format shows as nothing (";;;"): read as
        # the number, the sheet shows an empty cell (black-box bb13 F1).
        self.unshown = RowList()
        # Rows refused as US numbers that are another country's (Marks.other_country), by
        # that country's code; and the first rows read as US numbers from number cells,
        # (row, national), to find those valid as that country's too once a 0 is put back.
        self.other_country: dict[str, RowList] = {}
        # Those rows by every country their number is valid in so written (Marks.fits), and
        # all of them: a file's rows may fit several countries as well (black-box X/B2 #2).
        self.fits: dict[str, RowList] = {}
        self.foreign = RowList()
        self.foreign_put_back = RowList()
        self.us_cells: list[tuple[int, str]] = []
        # Those of the rows in other_country whose cell lacked the country's leading 0 (a
        # number cell, or digits a CSV saved from one), which the check put back; by code.
        self.zero_put_back: dict[str, RowList] = {}
        # Those of the rows in other_country whose digits, as they stand, are a valid number of
        # a country writing no leading 0 (Italy's mobile 3471234567), by code: counted in fits
        # too, as the rows' messages name that reading (black-box FXJ: an Italian CSV was
        # advised --phone-code 44, its mobiles counted only as UK numbers that lost a 0).
        self.written_fits: dict[str, RowList] = {}
        # Rows checked that were not blank: what share of the file other_country's rows are.
        self.numbers = 0
        # Rows refused whose digits are a number with its own country code, its "+" left out
        # as SMS platforms write E.164 ("447911123459"), by that code, and the first of them
        # (row, cell, the number shown): a warning for the file (black-box B31 F7: only each
        # row said so).
        self.lost_plus: dict[str, RowList] = {}
        self.lost_plus_first: tuple[int, str, str] | None = None
        # Whether some of them are number cells, on which a '+' typed in is dropped again.
        self.lost_plus_cells = False
        self.phone_column: int | None = None
        self.default_code = "1"
        # The column read for the rows' codes, when one alone is: its rows with an empty cell
        # (until noted() has their verdicts), the codes its other cells name (None for a
        # value naming none; two at most are kept), and of those rows the ones read as valid
        # under the default code (black-box B22 F1: a UK file's row with an empty Country
        # cell went in as a US number, named nowhere).
        self.empty_country = EmptyCountryCells()
        # Columns that look like the rows' countries but were not read (no column is read for
        # codes), by index: a file with one is no file giving no country (black-box B7 #1).
        self.unread_countries: dict[int, UnreadCountries] = {}
        # The reason column, and the rows whose reason cell holds what may be a phone number:
        # the candidates, until noted() has the row's own number and code to read them under.
        self.reason_column: int | None = None
        self.reason_numbers: dict[int, list[str]] = {}
        # The rows whose reason cell names a valid number other than their own, and the first
        # few of them with those numbers, for other_numbers_sentence (black-box B7 #4).
        self.other_numbers = RowList()
        self.other_numbers_named: list[tuple[int, list[str]]] = []
        # Which rows' reason cells name each such number, to tell the business's own line
        # (named on many rows) from a consumer's second number (black-box B7 #4, S20 N2).
        self.other_numbers_rows = NamedNumbers()
        # Tables below the first with a header of their own, and the rows set apart for them
        # (black-box B10 #2).
        self.tables = OtherTables()


class EmptyCountryCells:
    """What :func:`watched` and :func:`noted` keep of the column read for the rows' codes
    (see :attr:`Held.empty_country`)."""

    __slots__ = ("codes", "column", "default", "pending", "read_default")

    def __init__(self) -> None:
        self.column: int | None = None
        self.default = ""
        self.pending: set[int] = set()
        self.codes: set[str | None] = set()
        self.read_default = RowList()

    def watch(self, mapping: ColumnMapping) -> None:
        # With both a code and a Country column, an empty code cell takes the Country cell's.
        if (mapping.phone_code is None) == (mapping.country is None):
            return
        self.column = mapping.phone_code if mapping.country is None else mapping.country
        self.default = phones.normalize_code(mapping.default_phone_code) or "1"

    def add(self, number: int, cells: Sequence[CellValue]) -> None:
        column = self.column
        assert column is not None
        cell = cells[column] if column < len(cells) else None
        if cell is None or (type(cell) is str and not cell.strip()):
            self.pending.add(number)
        elif len(self.codes) < 2 and not isinstance(cell, bool):
            self.codes.add(phones.normalize_code(cell))

    def sentence(self, headers: Sequence[str]) -> str:
        """The warning naming the rows read under the default code whose cell was empty,
        when every other cell of the column names one country of another code; or ""."""
        rows = self.read_default
        if not rows.count or len(self.codes) != 1 or self.column is None:
            return ""
        code = next(iter(self.codes))
        if code is None or code == self.default:
            return ""
        column = column_said(headers, self.column)
        one = rows.count == 1
        name = phones.region_name(code)
        if one:
            start, was, meant = (
                "1 row",
                "was",
                f"it is {phones.with_article(name)} number too, write {code} in its cell",
            )
            own = "the number"
        else:
            start, was, meant = f"{rows.count:,} rows", "were", f"they are {name} numbers too"
            meant, own = f"{meant}, write {code} in their cells", "the numbers"
        return (
            f"{start} with an empty cell in {column} ({rows_named(rows)}) {was} read under "
            f"the default code +{self.default} ({phones.region_name(self.default)}), while "
            f"every other row of that column names {name} (+{code}): if {meant} (or "
            f"write {own} with the country code, +{code}) and run the file again."
        )


class UnreadCountries:
    """A column whose header names the rows' country (or nation, or region) that the mapping
    did not read, as :func:`watched` saw its cells: how many read as a country, and those no
    country's name or code reads, with their rows (the first few values).

    Black-box B7 #1: a Country column of "Sverige", "Norge", "Österreich" was not read (too
    few values were countries DNC Desk knew), and the warning on the rows refused as US
    numbers said the file gave no country and advised importing it again with --phone-code
    39, which would have put an Austrian, a French and a Swedish number on the list as
    Italian ones."""

    __slots__ = ("by_region", "cells", "index", "known", "unknown", "unknown_rows")

    def __init__(self, index: int, by_region: bool) -> None:
        self.index = index
        # The header names a region only ("Region", "Sales Region"): most often a part of one
        # country, so the column counts only when some of its values are countries.
        self.by_region = by_region
        self.known = 0
        self.unknown: dict[str, RowList] = {}
        self.unknown_rows = RowList()
        # The rows' cells not read, by row, until noted() has the row's verdict.
        self.cells: dict[int, str] = {}

    def add(self, row: int, value: CellValue) -> None:
        if value is None or isinstance(value, bool):
            return
        text = value.strip() if isinstance(value, str) else str(value)
        if not any(c.isalnum() for c in text) or plain_words(text) in _NO_VALUE:
            return
        if phones.normalize_code(value) is not None:
            self.known += 1
            return
        if not_a_country(text):
            return  # a US state's or a Canadian province's code: said of the row already
        self.unknown_rows.add(row)
        self.cells[row] = text
        rows = self.unknown.get(text)
        if rows is None and len(self.unknown) < _UNKNOWN_KEPT:
            rows = self.unknown[text] = RowList()
        if rows is not None:
            rows.add(row)

    @property
    def counts(self) -> bool:
        """Whether the column is one of countries some of whose values were not read."""
        return bool(self.unknown_rows.count) and (self.known > 0 or not self.by_region)


# Cells saying the country is not known, which no fix to the cell could make a country.
_NO_VALUE: Final = frozenset({"n a", "na", "none", "unknown", "tbd", "tba", "null", "nil"})
# The distinct values not read that a column keeps, and how many of them a warning names.
_UNKNOWN_KEPT: Final = 10
_UNKNOWN_SHOWN: Final = 3


def unread_country_columns(mapping: ColumnMapping) -> dict[int, UnreadCountries]:
    """The columns :class:`UnreadCountries` is about:
    :func:`~app.core.sheet_mapping.country_headed_columns`."""
    return {
        index: UnreadCountries(index, by_region=by_region)
        for index, by_region in country_headed_columns(mapping).items()
    }


def watched(
    rows: Iterable[Row],
    mapping: ColumnMapping,
    formulas: Mapping[tuple[int, int], str],
    held: Held,
    errors: Mapping[tuple[int, int], str] | None = None,
) -> Iterator[Row]:
    """``rows`` for the check, noting in ``held`` what the check would lose.

    A Campaign, Scope, Purpose or Country code cell whose formula was never calculated, or
    that holds an error value (in ``formulas`` too, see
    :class:`~app.core.sheet_types.SheetNotes`), reads as empty, and the row would quietly take
    the default (a removal from the global list instead of a campaign's), except a Country
    cell's (:func:`~app.core.sheet_check.country_columns`) beside a phone cell written with its
    own code, which it does not decide (kept in ``held.own_code`` for :func:`noted` to name
    the cell). Such a row reaches
    the check with its phone cell emptied, so it is neither taken nor counted against a later
    row of the same number; :func:`noted` then makes it invalid, naming the cell and the
    formula or the error. ``formulas`` grows as the reader goes; a row's cells are in it
    before the row is. ``held`` also keeps the mapping's columns, for :func:`noted` to name
    those hidden in the file.

    A Reason or Date cell so (and no other) decides neither the number nor where it goes, so
    its row is checked as it is: a reason read as empty takes the default; a request-date cell
    reaches the check as the error (``errors``) or the formula's text, which no date reads, so
    the row counts among the dates that could not be read. :func:`noted` names the cell.
    """
    phone = mapping.phone
    held.mapped = [
        (role.value, index) for role in Role if (index := mapping.column(role)) is not None
    ]
    held.headers = mapping.headers
    held.phone_column = mapping.phone
    held.default_code = phones.normalize_code(mapping.default_phone_code) or "1"
    held.code_columns = tuple(i for i in (mapping.phone_code, mapping.country) if i is not None)
    columns = [(role, index) for role, index in held.mapped if role != Role.PHONE.value]
    # The Country column beside a Country Code column is the row's code when the code cell is
    # empty, so an unread Country cell then hides the code as an unread code cell does.
    code_column, country = mapping.phone_code, mapping.country
    with_country = [*columns, (Role.PHONE_CODE.value, country)] if country is not None else []
    # A Country column (not one of dialling codes) decides nothing for a number written with
    # its own +code or 00code, which is read under it whatever the Country cell says.
    countries = country_columns(mapping)
    exact = held.exact
    unread = held.unread_countries = unread_country_columns(mapping)
    empty_country = held.empty_country
    empty_country.watch(mapping)
    watch_country = empty_country.column is not None
    header = mapping.header_row or 0
    reason = held.reason_column = mapping.reason
    in_reasons = held.reason_numbers
    hint = NUMBER_HINT.search  # asked of every reason cell: most hold no number
    apart = held.tables.apart
    for row in tables_apart(rows, mapping, held.tables):
        number, cells = row
        if apart and number in apart:
            yield row  # emptied: nothing on it is read
            continue
        if reason is not None and reason < len(cells) and number > header:
            cell = cells[reason]
            if (
                cell is not None
                and (type(cell) is not str or hint(cell) is not None)
                and (found := numbers_written(cell))
            ):
                in_reasons[number] = found
        if watch_country and number > header:
            empty_country.add(number, cells)
        if unread and number > header:
            for column in unread.values():
                if column.index < len(cells):
                    column.add(number, cells[column.index])
        if phone is not None and phone < len(cells):
            value = cells[phone]
            if type(value) is str and value and (value[0].isspace() or value[-1].isspace()):
                exact[number] = value
        if formulas:
            soft: list[tuple[str, int, str]] = []
            code_cell = (
                cells[code_column] if code_column is not None and code_column < len(cells) else None
            )
            empty_code = code_cell is None or (type(code_cell) is str and not code_cell.strip())
            for role, index in with_country if with_country and empty_code else columns:
                formula = formulas.get((number, index))
                if formula is None:
                    continue
                if role in _SOFT_ROLES:
                    soft.append((role, index, formula))
                    continue
                kept = cells[phone] if phone is not None and phone < len(cells) else None
                if index in countries and written_with_own_code(kept):
                    # Black-box M1 #10: "+44 20 7946 0012" beside Country #N/A was invalid.
                    held.own_code[number] = (index, formula)
                    continue
                held.formulas[number] = (role, index, formula, kept)
                if kept is not None:
                    out = list(cells)
                    out[phone] = None  # type: ignore[index]
                    row = (number, out)
                break
            else:
                if soft:
                    held.soft[number] = soft
                    row = (number, _unread_dates_said(cells, soft, number, errors or {}))
        yield row


# The roles whose cells decide neither the number nor where it goes: an unread cell there
# leaves its row as the check decides (see watched).
_SOFT_ROLES: Final = frozenset({Role.REASON.value, Role.REQUEST_DATE.value})


def _unread_dates_said(
    cells: Sequence[CellValue],
    soft: list[tuple[str, int, str]],
    number: int,
    errors: Mapping[tuple[int, int], str],
) -> Sequence[CellValue]:
    """``cells`` with an unread request-date cell holding its error or formula as text, which
    no date reads (the check then counts the date as unreadable, as "N/A" is)."""
    dates = [(i, f) for role, i, f in soft if role == Role.REQUEST_DATE.value]
    if not dates:
        return cells
    out = list(cells)
    for index, formula in dates:
        out += [None] * (index + 1 - len(out))
        out[index] = errors.get((number, index)) or (f"={formula}" if formula else "#ERROR")
    return out


def noted(
    rows: Iterable[CheckedRow],
    notes: SheetNotes,
    phone: int | None,
    hidden: HiddenRows,
    summary: CheckSummary,
    held: Held,
    to_row: Callable[[CheckedRow], NewRow],
) -> Iterator[NewRow]:
    """The rows to stage (``to_row`` of each verdict), with what the reader saw besides the
    cells: hidden rows, and cells whose formula has no saved result or that hold an error.
    When the rows are through, ``hidden.columns`` names the mapped columns (kept in ``held`` by
    :func:`watched`) that are hidden in the file."""
    hidden_rows, formulas, errors = notes.hidden_rows, notes.formulas, notes.errors
    unshown = notes.unshown  # filled in as the reader goes, before the row comes
    valid, blank = CheckOutcome.VALID, CheckOutcome.BLANK
    merged = _merged_phone_rows(notes.merged, phone)
    # The phone cell of each merged range's first row, as read: a covered cell reading the
    # same was filled with it by the reader; one reading otherwise holds a number of its own.
    tops: dict[int, object] = {span[0]: None for span in merged.values()}
    stray = notes.stray_quotes  # filled in as the reader goes, before the row comes
    us_cells = held.us_cells
    invalid = CheckOutcome.INVALID
    unread: list[UnreadCountries] | None = None
    # Rows held back, in sheet order, from the first whose reason cell names another number
    # until that number is known to be named on few rows or on many (:func:`released`).
    waiting: deque[tuple[NewRow, Pending | None]] = deque()
    apart = held.tables.apart
    for c in rows:
        if unread is None:  # watched() finds the columns when its first row is asked for
            unread = list(held.unread_countries.values())
        set_apart = bool(apart) and c.row in apart
        if set_apart:
            apart_verdict(c, *apart.pop(c.row), summary, hidden.kind)
        held.numbers += c.outcome is not blank
        if held.empty_country.pending and c.row in held.empty_country.pending:
            empty = held.empty_country
            empty.pending.discard(c.row)
            if c.outcome is valid and c.phone_code == empty.default:
                empty.read_default.add(c.row)
        if c.damage and only_a_guess(c.damage):
            if c.marks is None or not c.marks.other_country:
                # Those read as another country's number are named in that warning.
                held.lost_zero_guess.add(c.row)
        elif c.damage:
            held.damaged.add(c.row)
            held.damaged_invalid += c.outcome is invalid
            # The warning says an import's such rows go in as read: an invalid one does not
            # (black-box B9 #7: "it is invalid" and "it is imported as read" of one row).
            if CUT_SHORT in c.damage and (c.outcome is not invalid or hidden.kind == "removal"):
                held.cut_short.add(c.row)
        if c.marks is not None and c.marks.other_country:
            if not placeholder_number(c.original):
                elsewhere = c.marks.other_country
                held.other_country.setdefault(elsewhere, RowList()).add(c.row)
                held.foreign.add(c.row)
                put_back = _zero_put_back(c.original)
                if put_back:
                    held.foreign_put_back.add(c.row)
                as_is = _as_written_codes(c.original) if put_back else ()
                for fit in dict.fromkeys((*(c.marks.fits or (elsewhere,)), *as_is)):
                    held.fits.setdefault(fit, RowList()).add(c.row)
                    if fit in as_is:
                        held.written_fits.setdefault(fit, RowList()).add(c.row)
                    elif put_back:
                        held.zero_put_back.setdefault(fit, RowList()).add(c.row)
        elif c.outcome is invalid and c.original is not None and not set_apart:
            _lost_plus_row(c, held)
        elif (
            c.outcome is valid
            and len(us_cells) < US_CELLS_TRIED
            and c.phone_code == "1"
            and _bare_digits(c.original)
        ):
            us_cells.append((c.row, c.national))
        if held.formulas and c.row in held.formulas:
            role, index, text, kept = held.formulas.pop(c.row)
            _formula_verdict(c, text, role, index, summary, errors.get((c.row, index)))
            c.original = kept
        elif (
            formulas
            and c.outcome is not valid
            and phone is not None
            and c.original is None
            and not set_apart
        ):
            formula = formulas.get((c.row, phone))
            if formula is not None:
                error = errors.get((c.row, phone))
                _formula_verdict(c, formula, "phone", phone, summary, error)
        if held.soft and c.row in held.soft:
            _unread_cells_noted(c, held.soft.pop(c.row), errors, held)
        elif c.marks is not None and c.marks.error_text:
            # An error value written out as text (a CSV's "#N/A"): the check noted the row.
            held.soft_rows.add(c.row)
            held.soft_roles.update(c.marks.error_text)
        if held.own_code and c.row in held.own_code:
            _own_code_noted(c, *held.own_code.pop(c.row), errors)
        pending: Pending | None = None
        if held.reason_numbers and c.row in held.reason_numbers:
            written = held.reason_numbers.pop(c.row)
            # A stray quote mark's note names the numbers of the lines its cell swallowed,
            # which are the rows to fix: a reason cell running over them holds them too.
            if not (stray and c.row in stray):
                pending = other_numbers_noted(c, written, held, hidden.kind)
        if held.exact and c.row in held.exact:
            c.original = held.exact.pop(c.row)
        if held.toll_free is not None and c.outcome is valid and c.national:
            _toll_free_noted(c, held.toll_free)
        row = to_row(c)
        for column in unread:
            cell = column.cells.pop(c.row, None)
            if (
                cell is not None
                and not column.by_region
                and c.marks is not None
                and c.marks.other_country
            ):
                note = _unread_country_note(held, column.index, c.row, cell)
                row = replace(row, message=f"{row.message}; {note}")
        if merged and c.row in tops:
            tops[c.row] = c.original
        if merged and c.row in merged and c.outcome is not blank:
            span = merged[c.row]
            own = c.original != tops.get(span[0])
            row = replace(row, message=_merged_message(row.message, c.row, span, own))
        if (
            stray
            and c.row in stray
            and c.outcome is not blank
            and not _numbers_a_line(stray, c, phone)  # black-box P2 #6
        ):
            note = _stray_quote_note(stray[c.row], hidden.kind)
            message = f"{row.message}; {note}" if row.message else f"row {c.row}: {note}"
            row = replace(row, message=message)
        if unshown and phone is not None and c.outcome is not blank:
            shown_as_nothing = unshown.get((c.row, phone))
            if shown_as_nothing is not None:
                held.unshown.add(c.row)
                note = unshown_note(shown_as_nothing, f"{column_letter(phone)}{c.row}")
                message = f"{row.message}; {note}" if row.message else f"row {c.row}: {note}"
                row = replace(row, message=message)
        if c.row in hidden_rows and c.outcome is not blank:
            hidden.add(c.row)
            if c.outcome is valid:
                message = (
                    f"{row.message}; {hidden.note}"
                    if row.message
                    else f"row {c.row}: {hidden.note}"
                )
                row = replace(row, message=message, outcome=hidden.outcome or row.outcome)
        if pending is None and not waiting:
            yield row
            continue
        waiting.append((row, pending))
        yield from released(waiting, held, hidden.kind, last=False)
    yield from released(waiting, held, hidden.kind, last=True)
    if notes.hidden_columns:
        hidden.columns = [
            (role, column_said(held.headers, index))
            for role, index in held.mapped
            if index in notes.hidden_columns
        ]


def _unread_country_note(held: Held, index: int, number: int, cell: str) -> str:
    """The note on a row refused as a US number that is another country's, whose Country
    cell (in a column not read) no country's name or code reads: its country is that cell's
    to give, not a --phone-code for the whole file (black-box B7 #1)."""
    column = column_said(held.headers, index)
    return (
        f"its Country cell {column_letter(index)}{number} ({cell!r}) is no country name or "
        f"code DNC Desk knows ({column} was not read, too few of its values being ones it "
        "knows): write the row's country there (as Sweden or 46) rather than give the whole "
        "file one --phone-code"
    )


# Rows read as US numbers from bare digits that a warning tries as another country's.
US_CELLS_TRIED: Final = 10_000
_NUMBERS: Final = frozenset({int, float})


def _bare_digits(value: CellValue) -> bool:
    """Whether a phone cell is a number cell or the bare digits a CSV saved from one
    ("2079460402"): what is left of a number whose leading 0 a spreadsheet dropped (black-box
    R2 #8: the CSV's London 2079460402 was read as Maine's, named nowhere). Grouped digits
    ("207-946-0402") were written as a US number."""
    if type(value) in _NUMBERS:
        return True
    if type(value) is not str:
        return False
    text = value.strip().lstrip("'")
    return text.isdigit() and text.isascii()


def _zero_put_back(value: CellValue) -> bool:
    """Whether a cell the check read as another country's number lacked its leading 0 (a
    number cell, or its digits as a CSV saved from one wrote them): ``07911 123457`` did not."""
    if isinstance(value, int | float):
        return not isinstance(value, bool)
    if not isinstance(value, str):
        return False
    first = next((c for c in value if c.isdigit()), "")
    return first not in ("", "0")


def _as_written_codes(value: CellValue) -> tuple[str, ...]:
    """The codes of the countries whose valid number a cell lacking a leading 0 (a number
    cell, or bare digits) is as it stands (:func:`app.core.phones.as_written_readings`)."""
    if isinstance(value, bool):
        return ()
    if isinstance(value, int | float):
        digits = str(int(value)) if value > 0 and float(value).is_integer() else ""
    else:
        digits = lost_zero_text(value) if isinstance(value, str) else ""
    return tuple(code for code, _ in phones.as_written_readings(digits)) if digits else ()


def _numbers_a_line(stray: dict[int, StrayQuote], c: CheckedRow, phone: int | None) -> bool:
    """Whether the quoted cell the reader took for a stray quote (``stray[c.row]``) is the
    phone cell holding a number on each of its lines, closed where it ends ("212-555-1274" and
    "212-555-1275" on two lines, as a CSV writer quotes them): its one line read as a row was
    its last, which the cells after the closing quote made look like one. The check says the
    cell holds two numbers; a stray quote it is not, and the reader's note on it (taken out
    of ``stray``, for the job's warning too) would have the person break a valid file."""
    quote = stray[c.row]
    if quote.column != phone or quote.rows != 1 or type(c.original) is not str:
        return False
    if c.original.splitlines()[-1].strip() != quote.numbers[0]:
        return False  # the line holds more than the number: it is a row of its own
    del stray[c.row]
    return True


def _merged_phone_rows(
    ranges: list[tuple[int, int, int, int]], phone: int | None
) -> dict[int, tuple[int, int, int, int]]:
    """The rows whose phone cell a merged range covers below its first row, to the range: the
    cell reads with the first row's number (as the file shows it), so the row is a duplicate
    of that one, which its message must explain. Empty when rows are too many to list."""
    out: dict[int, tuple[int, int, int, int]] = {}
    if phone is None:
        return out
    for span in ranges:
        first_row, first_column, last_row, last_column = span
        if first_column <= phone <= last_column and last_row > first_row:
            if len(out) + last_row - first_row > 1_000_000:
                return {}
            out.update(dict.fromkeys(range(first_row + 1, last_row + 1), span))
    return out


def _merged_message(
    message: str, number: int, span: tuple[int, int, int, int], own: bool = False
) -> str:
    """``own``: the covered cell holds a number of its own (black-box B1 #5: "it shows the
    number of A3 (it holds no number of its own)" was said of cells read with their own
    numbers, which a spreadsheet program hides under the merge)."""
    first_row, first_column, last_row, last_column = span
    top = f"{column_letter(first_column)}{first_row}"
    cells = f"{top}:{column_letter(last_column)}{last_row}"
    if own:
        note = (
            f"its phone cell is covered by the merged cells {cells}: it holds a number of its "
            f"own, read here, which a spreadsheet program does not show (it shows {top}'s "
            "number over the whole merge), so check it against the source"
        )
    else:
        note = (
            f"its phone cell is part of the merged cells {cells}, so it shows the number of "
            f"{top} (it holds no number of its own)"
        )
    return f"{message}; {note}" if message else f"row {number}: {note}"


def _toll_free_noted(c: CheckedRow, rows: RowList) -> None:
    """Counts and notes row ``c`` when its number is toll-free (see :func:`toll_free_sentence`)."""
    if not phones.toll_free(c.national, c.phone_code):
        return
    rows.add(c.row)
    note = "a toll-free number, a business's line rather than a consumer's: check it"
    c.message = f"{c.message}; {note}" if c.message else f"row {c.row}: {note}"


def toll_free_sentence(held: Held) -> str:
    """The warning counting an import's rows of toll-free numbers (``""``: none).

    Black-box bb7 #3 (session 32): an opt-out file of many 800/888 numbers went in without a
    word. A consumer's opt-out is almost never a toll-free number (it is most likely the
    business's own line or a vendor's), yet some consumers do use one: the rows are imported
    and the officer decides."""
    rows = held.toll_free
    if rows is None or not rows.count:
        return ""
    one = rows.count == 1
    have = (
        "1 row holds a toll-free number" if one else f"{rows.count:,} rows hold toll-free numbers"
    )
    return (
        f"{have} ({rows_named(rows)}), yet {'it is' if one else 'they are'} imported: a "
        "consumer's opt-out is almost never a toll-free number, which is most likely the "
        "business's own line or a vendor's. Check "
        f"{'that row' if one else 'those rows'} in the report; take out the ones that are no "
        "consumer's opt-out and run the file again."
    )


def phone_formulas_said(
    rows: Iterable[CheckedRow], notes: SheetNotes, phone: int | None, summary: CheckSummary
) -> Iterator[CheckedRow]:
    """``rows`` checked without staging (the window's check page), each whose phone cell holds
    a formula with no saved result, or an error value, saying so as :func:`noted` has the
    job's row say it. Black-box bb6 F5 (session 32): the check page said "the phone number is
    empty" of such a row, and only a warning above the rows named the formula."""
    formulas, errors = notes.formulas, notes.errors
    for c in rows:
        if (
            formulas
            and phone is not None
            and c.outcome is not CheckOutcome.VALID
            and c.original is None
            and (formula := formulas.get((c.row, phone))) is not None
        ):
            _formula_verdict(c, formula, "phone", phone, summary, errors.get((c.row, phone)))
        yield c


def _formula_verdict(
    c: CheckedRow,
    formula: str,
    role: str,
    column: int,
    summary: CheckSummary,
    error: str | None = None,
) -> None:
    """An empty cell that holds a formula never calculated, or the ``error`` value: say so, as
    invalid."""
    if c.outcome is CheckOutcome.BLANK:
        summary.blank -= 1
        summary.invalid += 1
    elif c.outcome is CheckOutcome.VALID:  # never: its phone cell was withheld
        summary.valid -= 1
        summary.invalid += 1
    elif c.outcome is not CheckOutcome.INVALID:
        return
    c.outcome = CheckOutcome.INVALID
    c.phone_code = c.national = ""
    if role in ("scope", "campaign", "purpose"):
        # The cell that names the row's scope cannot be read: its scope is not known, so the
        # report's Scope cell stays empty rather than name the job's.
        c.scope, c.scope_written = None, ""
    cell = f"cell {column_letter(column)}{c.row}"
    if error is not None:
        c.message = (
            f"row {c.row}: {role}: {cell} holds the error value {error}, not a value; correct "
            "it in the file (in Excel or LibreOffice) and run the file again"
        )
        return
    shown = f" (={formula})" if formula else ""
    c.message = (
        f"row {c.row}: {role}: {cell} holds a formula{shown} with no saved result, so it "
        "reads as empty; open and save the file in Excel (or LibreOffice) to calculate it"
    )


def _unread_cells_noted(
    c: CheckedRow,
    cells: list[tuple[str, int, str]],
    errors: Mapping[tuple[int, int], str],
    held: Held,
) -> None:
    """Row ``c``'s reason or request-date cells that hold an uncalculated formula or an error
    (see :func:`watched`): its message names each, and what was done instead."""
    if c.outcome is CheckOutcome.BLANK:
        return
    notes = []
    for role, index, formula in cells:
        error = errors.get((c.row, index))
        where = f"cell {column_letter(index)}{c.row}"
        if error is not None:
            holds = f"{where} holds the error value {error}"
        else:
            shown = f" (={formula})" if formula else ""
            holds = f"{where} holds a formula{shown} with no saved result"
        if role == Role.REQUEST_DATE.value:
            # The message says it (below): the report's row would say it twice.
            c.date_note = ""
            # An error value is told the forms read, as any other cell that is not a date is.
            unread = (
                f"not a date{FORMS_SAID}, so the"
                if error is not None
                else "so the request date could not be read and the"
            )
            notes.append(
                f"request_date: {holds}, {unread} {LIMIT_BUSINESS_DAYS}-business-day limit was "
                "not checked for it"
            )
        else:
            default = (
                f"the default reason {c.reason!r} applies" if c.reason else "the row has no reason"
            )
            notes.append(f"reason: {holds}, so no reason was read from it: {default}")
        held.soft_roles.add(role)
    note = "; ".join(notes)
    c.message = f"{c.message}; {note}" if c.message else f"row {c.row}: {note}"
    held.soft_rows.add(c.row)


def _own_code_noted(
    c: CheckedRow, column: int, formula: str, errors: Mapping[tuple[int, int], str]
) -> None:
    """Row ``c``'s Country cell that holds an error or an uncalculated formula beside a
    number written with its own code (see :func:`watched`): its message names the cell."""
    if c.outcome is CheckOutcome.BLANK:
        return
    where = f"cell {column_letter(column)}{c.row}"
    error = errors.get((c.row, column))
    if error is not None:
        holds = f"{where} holds the error value {error}"
    else:
        holds = f"{where} holds a formula{f' (={formula})' if formula else ''} with no saved result"
    note = (
        f"phone_code: {holds}, which decides nothing here: the number is written with its own "
        "country code"
    )
    c.message = f"{c.message}; {note}" if c.message else f"row {c.row}: {note}"


def unread_cells_sentence(held: Held, kind: str) -> str:
    """The warning counting the rows whose reason or request-date cell holds an error value
    or a formula with no saved result, taken all the same (``""``: none): the cell is easy to
    miss in a row that was taken."""
    rows = held.soft_rows
    if not rows.count:
        return ""
    roles = held.soft_roles
    if roles == {Role.REASON.value}:
        cell = "reason cell"
    elif roles == {Role.REQUEST_DATE.value}:
        cell = "request-date cell"
    else:
        cell = "reason or request-date cell"
    have = "1 row has a" if rows.count == 1 else f"{rows.count:,} rows have a"
    done = []
    if Role.REASON.value in roles:
        done.append("a reason not read takes the default reason (if any)")
    if Role.REQUEST_DATE.value in roles:
        done.append(
            f"a request date not read leaves the row's {LIMIT_BUSINESS_DAYS}-business-day limit "
            "unchecked"
        )
    verb = "removed" if kind == "removal" else "imported"
    return (
        f"{have} {cell} holding an error value (as #N/A) or a formula with no saved result "
        f"({rows_named(rows)}): {'it is' if rows.count == 1 else 'they are'} {verb} all the "
        f"same, as that cell decides neither the number nor where it goes, but "
        f"{joined(done)}; each row's message names the cell. Correct those cells in the file "
        "(a formula is calculated by opening and saving the file in Excel or LibreOffice) and "
        "run it again if they matter."
    )


# Columns no role reads that a warning names for holding formulas never calculated.
FORMULA_COLUMNS_NAMED: Final = 3


def formula_columns(
    mapping: ColumnMapping, formulas: Mapping[tuple[int, int], str], set_aside: Set[int]
) -> dict[int, int]:
    """The columns no role reads (nor set aside by the person) whose cells hold formulas with
    no saved result, to how many: they read as empty, so the mapping could not see them (a
    "Phone" column of =A2&B2 written by a script is not chosen, its cells having no value).
    The phone column read is one of them too when it holds such formulas: each of their rows
    is invalid, and only the rows' messages said why (re-test M1 #12: a Mobile Number column
    of =CONCATENATE(…) gave "invalid: 4" and no warning)."""
    read = {mapping.column(role) for role in Role} | {mapping.country}
    read.discard(mapping.phone)
    counts: dict[int, int] = {}
    for (_, column), formula in formulas.items():
        if formula and column not in read and column not in set_aside:
            counts[column] = counts.get(column, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (item[0] != mapping.phone, item[0])))


def formula_columns_sentences(mapping: ColumnMapping, columns: Mapping[int, int]) -> list[str]:
    """The warnings naming ``columns`` (:func:`formula_columns`), for a job with invalid rows:
    their values, once calculated, may be the numbers the rows lack."""
    out = []
    for index, count in list(columns.items())[:FORMULA_COLUMNS_NAMED]:
        column = column_said(mapping.headers, index)
        header = mapping.headers[index] if index < len(mapping.headers) else ""
        phone = bool(header) and header_role(header) is Role.PHONE
        cells = "1 cell" if count == 1 else f"{count:,} cells"
        if index == mapping.phone:
            rows = "its row has" if count == 1 else "those rows have"
            out.append(
                f"{column[0].upper()}{column[1:]}, the phone column read, holds formulas with "
                f"no saved values ({cells}), as a file written by a script does, so {rows} no "
                f"number and {'is' if count == 1 else 'are'} invalid: opening and saving the "
                "file in Excel or LibreOffice calculates them; then run the file again."
            )
            continue
        though = ", though its header names phone numbers" if phone else ""
        hint = (
            f" (with --phone-column {header!r} if it is still not read as the phone column)"
            if phone
            else ""
        )
        out.append(
            f"{column[0].upper()}{column[1:]} holds formulas with no saved values ({cells}), as "
            "a file written by a script does, so its cells read as empty and it is not read"
            f"{though}: opening and saving the file in Excel or LibreOffice calculates them; "
            f"then run the file again{hint}."
        )
    return out


# Stray quote marks named one by one in the warning; the others are counted.
STRAY_QUOTES_NAMED: Final = 3


def stray_quotes_sentence(quotes: list[StrayQuote], file_name: str, kind: str) -> str:
    """The warning for quoted cells running over lines that look like rows of their own
    (:class:`~app.core.sheet_types.StrayQuote`): the check counts none of those rows, so
    nothing else would tell that their numbers were never read."""
    verb = "removed" if kind == "removal" else "imported"
    marks = "marks" if len(quotes) > 1 else "mark"
    fix = (
        "open the file in a text editor such as Notepad (Excel reads it the same way), remove "
        f"the stray quote {marks} (or close {'each' if len(quotes) > 1 else 'it'} where its "
        f"cell ends) and {'run the removal' if kind == 'removal' else 'import the file'} again"
    )
    if len(quotes) == 1:
        q = quotes[0]
        return (
            f"Row {q.row} of {file_name} has a quote mark in column {column_letter(q.column)} "
            f"(line {q.line} of the file) that is closed only on line {q.last_line}, so "
            f"{_lines_swallowed(q)}, {_were(q)} read as part of that one cell and "
            f"{_their_numbers(q)} not {verb}: {fix}."
        )
    named = [
        f"row {q.row} (column {column_letter(q.column)} runs over {_span(q)}: {_numbers(q)})"
        for q in quotes[:STRAY_QUOTES_NAMED]
    ]
    if len(quotes) > STRAY_QUOTES_NAMED:
        named.append(f"{len(quotes) - STRAY_QUOTES_NAMED:,} more rows")
    return (
        f"{len(quotes):,} rows of {file_name} have a quote mark that is closed only some lines "
        f"further down, so lines that look like rows of their own were read as part of one "
        f"cell and their phone numbers are not {verb}, in {joined(named)}: {fix}."
    )


def _span(quote: StrayQuote) -> str:
    """ "lines 4–6": the lines a quoted cell runs over after its first."""
    first, last = quote.line + 1, quote.last_line
    return f"line {first}" if first == last else f"lines {first}–{last}"


def _numbers(quote: StrayQuote) -> str:
    """The phone numbers on the lines a quoted cell swallowed, the first few."""
    shown = list(quote.numbers[:STRAY_QUOTES_NAMED])
    if quote.rows > len(shown):
        shown.append(f"{quote.rows - len(shown):,} more")
    return joined(shown)


def _lines_swallowed(quote: StrayQuote) -> str:
    """ "lines 4–6, which look like rows of their own (202-555-1503, 202-555-1504 and
    202-555-1505)": the lines a quoted cell runs over, after its first."""
    lines = quote.last_line - quote.line
    if quote.rows == lines:
        look = "which looks like a row" if lines == 1 else "which look like rows"
    else:
        rows = "looks like a row" if quote.rows == 1 else "look like rows"
        look = f"{quote.rows:,} of which {rows}"
    whose = "its" if quote.rows == 1 else "their"
    return f"{_span(quote)}, {look} of {whose} own ({_numbers(quote)})"


def _were(quote: StrayQuote) -> str:
    """The verb after the lines a quoted cell runs over: "line 43 was", "lines 43–45 were"."""
    return "was" if quote.last_line - quote.line == 1 else "were"


def _their_numbers(quote: StrayQuote) -> str:
    """ "its phone number is" (one line read as a row) or "their phone numbers are"."""
    return "its phone number is" if quote.rows == 1 else "their phone numbers are"


def _stray_quote_note(quote: StrayQuote, kind: str) -> str:
    """The message of the row whose cell swallowed lines that look like rows."""
    verb = "removed" if kind == "removal" else "imported"
    return (
        f"column {column_letter(quote.column)} runs from line {quote.line} of the file to line "
        f"{quote.last_line}, a quote mark being closed only there, so "
        f"{_lines_swallowed(quote)}, {'is' if _were(quote) == 'was' else 'are'} part of this "
        f"cell and {_their_numbers(quote)} not {verb}; fix the quote mark in the file (in a "
        "text editor) and "
        f"{'run the removal' if kind == 'removal' else 'import the file'} again"
    )


def _spans(ranges: list[list[int]], at_most: int = 8) -> str:
    shown = [f"{a}–{b}" if b > a else str(a) for a, b in ranges[:at_most]]
    if len(ranges) > at_most:
        shown.append(f"{len(ranges) - at_most} more")
    return joined(shown)


def notes_sentences(
    source: SheetSource,
    file_name: str,
    kind: str,
    hidden: HiddenRows,
    sheet_guessed: bool,
    said_apart: Set[str] = frozenset(),
) -> list[str]:
    """Warnings about rows a stray quote mark swallowed, numbers past the reader's limit on
    zero-padded cells read without their zeros, hidden rows and columns, and other sheets
    holding phone numbers (but those of ``said_apart``, which :func:`alike_sheets_sentence`
    counts), whether or not the sheet was named. ``sheet_guessed``: the sheet was not chosen
    by the person, so one named as set aside is warned of, and a hidden one is not said to
    have been read because it was named."""
    notes = source.notes
    out: list[str] = []
    if notes.stray_quotes:
        out.append(stray_quotes_sentence(list(notes.stray_quotes.values()), file_name, kind))
    where = f"sheet {source.sheet!r} of {file_name}"
    if notes.padded_cut is not None:
        out.append(padded_cut_sentence(notes.padded_cut, where, kind))
    if hidden.count:
        rows = (
            f"row {_spans(hidden.ranges)} is"
            if hidden.count == 1
            else (f"rows {_spans(hidden.ranges)} ({hidden.count:,} rows) are")
        )
        head = f"{rows[0].upper()}{rows[1:]} hidden in {where} (hidden or filtered out)"
        if hidden.leave:
            out.append(
                f"{head}; {'it is' if hidden.count == 1 else 'they are'} not removed. To "
                "remove hidden rows too, run the removal again including hidden rows "
                "(--include-hidden)."
            )
        else:
            verb = "removed" if kind == "removal" else "imported"
            out.append(f"{head}; {'it is' if hidden.count == 1 else 'they are'} {verb} too.")
    if hidden.leave and not notes.hidden_known:
        # Known at the start, the removal was refused; this is a scan that failed part way.
        out.append(
            f"Which rows of {where} are hidden could not be read to the end of the file, so "
            "the rows after that point are removed, hidden or not; to leave hidden rows alone, "
            "save the file again as .xlsx and remove from that."
        )
    if kind == "import" and not notes.hidden_known and _layout_unread(source, file_name):
        # Z1 (black-box B1 #7): a removal refuses such a file; an import read it silently,
        # its hidden rows, error cells and formulas never calculated unnoticed.
        out.append(
            f"Which rows of {where} are hidden, and which cells hold error values or formulas "
            "never calculated, could not be read (its sheet's layout could not be read): such "
            "rows are imported without a warning and such cells read as empty. Save the file "
            "again as .xlsx and import that to have them checked."
        )
    for role, column in hidden.columns:
        out.append(
            f"{column[0].upper()}{column[1:]} is hidden in {where}: its values were read all "
            f"the same, as {_ROLE_VALUES.get(role, role)}; unhide the column to see what was "
            "read."
        )
    if not sheet_guessed and source.sheet in notes.hidden_sheets:
        out.append(
            f"Sheet {source.sheet!r} of {file_name} is hidden in the file; it was read because "
            "it was named (a hidden sheet is never read otherwise)."
        )
    if sheet_guessed and not isinstance(source, CsvSource) and do_not_use_sheet(source.sheet):
        out.append(_set_aside_sentence(source, file_name, kind))
    # Said of a sheet named too: the other sheets' numbers stay off the list all the same, and
    # a hidden one is shown nowhere else (black-box bb14 W1).
    if notes.other_sheets:
        found = [
            name
            for name, rows in notes.other_sheets.items()
            if name not in said_apart and _has_phone_column(rows)
        ]
        shown = [n for n in found if n not in notes.hidden_sheets]
        hidden_names = [n for n in found if n in notes.hidden_sheets]
        names = shown + hidden_names
        if names:
            verb = "removed" if kind == "removal" else "imported"
            groups = []
            if shown:
                groups.append(f"{'sheets' if len(shown) > 1 else 'sheet'} {_listed(shown)}")
            if hidden_names:
                noun = "hidden sheets" if len(hidden_names) > 1 else "hidden sheet"
                groups.append(f"{noun} {_listed(hidden_names)}")
            listed = " and ".join(groups)
            has = "have" if len(names) > 1 else "has"
            out.append(
                f"{listed[0].upper()}{listed[1:]} of {file_name} also {has} a column of phone "
                "numbers but "
                f"{'are' if len(names) > 1 else 'is'} not {verb}: only sheet "
                f"{source.sheet!r} is read. To {_take(kind, len(names) > 1)}, run the file "
                "again with "
                f"--sheet NAME{' for each' if len(names) > 1 else ''} "
                f"(as --sheet {names[0]!r})."
            )
    return out


@dataclass(frozen=True)
class AlikeSheet:
    """An other sheet laid out as the one read: its rows holding a phone number among those
    probed, and whether the probe stopped before its end (so it may hold more)."""

    name: str
    rows: int
    cut: bool


def alike_sheets(source: SheetSource, headers: Sequence[str], phone: int) -> list[AlikeSheet]:
    """The visible other sheets of ``source`` whose header is the read sheet's (``headers``,
    its phone column at ``phone``) and that hold phone numbers: a month-per-sheet workbook's
    other months (black-box bb4 #7), the same data as the rows read, whose numbers a person
    most likely meant to list. Sheets laid out otherwise (notes, a pivot, a DNC Desk report's
    Summary, a vendor's cover), hidden ones, and those whose names say front matter or not to
    use them stay in :func:`notes_sentences`' note: they are seldom opt-outs."""
    notes = source.notes
    if isinstance(source, CsvSource) or not notes.other_sheets:
        return []
    wanted = _header_key(headers)
    out: list[AlikeSheet] = []
    for name, rows in notes.other_sheets.items():
        if name in notes.hidden_sheets or do_not_use_sheet(name) or front_matter_sheet(name):
            continue
        try:
            mapping = propose_from_preview(rows, "1")
        except (ValueError, TypeError):
            continue
        if mapping.phone != phone or _header_key(mapping.headers) != wanted:
            continue
        header = mapping.header_row or 0
        held = sum(
            1
            for n, cells in rows
            if n > header and phone < len(cells) and _phone_cell(cells[phone])
        )
        if held:
            out.append(AlikeSheet(name, held, len(rows) >= PROBE_ROWS))
    return out


def _header_key(headers: Sequence[str]) -> tuple[str, ...]:
    """Header cells compared case and spacing apart; blank trailing cells dropped."""
    names = [" ".join(h.split()).casefold() for h in headers]
    while names and not names[-1]:
        names.pop()
    return tuple(names)


def _sheet_word(name: str) -> str:
    """``name`` for the shell, quoted even when one word, as every sentence names a sheet
    (and the window finds it: app.ui.window_words)."""
    return f"'{name}'" if shlex.quote(name) in (name, f"'{name}'") else shlex.quote(name)


def _phone_cell(value: CellValue) -> bool:
    return looks_like_phone(value) or (isinstance(value, str) and holds_phone_number(value))


def alike_sheets_sentence(
    sheets: Sequence[AlikeSheet], source: SheetSource, file_name: str, command: str
) -> str:
    """The warning on :func:`alike_sheets`: how many rows with phone numbers they hold, as
    counted in their first rows ("at least" when a sheet goes on past them), and the way to
    import each (``command``: the import run again, as ``dnc-desk import FILE --into dnc
    --scope global``, to which ``--sheet NAME`` is added). An import's only: a removal that
    leaves numbers on the list keeps the note."""
    total = sum(s.rows for s in sheets)
    cut = any(s.cut for s in sheets)
    many = len(sheets) > 1
    names = f"{'Sheets' if many else 'Sheet'} {_listed([s.name for s in sheets])}"
    held = f"{'at least ' if cut else ''}{counted(total, 'more row', 'more rows')}"
    each = ", ".join(f"{'at least ' if s.cut else ''}{s.rows:,} in {s.name!r}" for s in sheets)
    probed = f"; counted in the first {PROBE_ROWS} rows of each only" if cut else ""
    commands = "; then ".join(f"{command} --sheet {_sheet_word(s.name)}" for s in sheets)
    return (
        f"{names} of {file_name}, laid out as sheet {source.sheet!r}, "
        f"{'hold' if many else 'holds'} {held} with a phone number "
        f"({each}{probed}), which {'are' if total != 1 else 'is'} not imported: only sheet "
        f"{source.sheet!r} is read. To import {'them' if many else 'it'} too, run {commands}"
    )


def padded_cut_sentence(cut: PaddedCut, where: str, kind: str) -> str:
    """Why numbers shown with leading zeros read as other numbers past the reader's limit on
    such cells (see :attr:`~app.core.sheet_types.SheetNotes.padded_cut`): the first row that
    did, and how to have them all read as shown."""
    again = "run the removal again" if kind == "removal" else "import it again"
    return (
        f"Only the first {cut.kept:,} number cells formatted with leading zeros in {where} are "
        f"read as the sheet shows them: from row {cut.row} on (cell "
        f"{column_letter(cut.column)}{cut.row} first) such numbers are read without their "
        "leading zeros (0351234568 as 351234568, another number), so split the file into "
        f"smaller ones, or format those cells as text, and {again}."
    )


def _set_aside_sentence(source: SheetSource, file_name: str, kind: str) -> str:
    """Why a sheet whose name says it is not to be used was read with no sheet named: the
    reader passes over it while another visible sheet has data, so that is the reason given
    when no other sheet has a phone column."""
    others = source.notes.other_sheets
    alone = others is not None and not any(
        _has_phone_column(rows)
        for name, rows in others.items()
        if name not in source.notes.hidden_sheets
    )
    why = ", as no other sheet has a column of phone numbers" if alone else ""
    verb = "removed" if kind == "removal" else "imported"
    return (
        f"Sheet {source.sheet!r} of {file_name} is read though its name says it is not to be "
        f"used{why}: check that its numbers are meant to be {verb}."
    )


# What a mapped column's values are read as, by role, for warnings.
_ROLE_VALUES = {
    Role.PHONE.value: "the phone numbers",
    Role.PHONE_CODE.value: "the country codes",
    Role.REASON.value: "the reasons",
    Role.PURPOSE.value: "the purposes",
    Role.CAMPAIGN.value: "the campaigns",
    Role.SCOPE.value: "the scopes",
    Role.REQUEST_DATE.value: "the request dates",
}


def _layout_unread(source: SheetSource, file_name: str) -> bool:
    """Whether the file is of a format whose layout (hidden rows, error cells, formulas) the
    reader scans, so that not knowing its hidden rows means the scan failed (an .xlsb's too,
    since its records are scanned: black-box B13 #3); a CSV has none."""
    return _format(source, file_name) in ("xlsx", "xlsm", "xlsb", "xls", "ods")


def _format(source: SheetSource, file_name: str) -> str:
    """The file's format as the reader names it ("xlsx", "ods"…), else by its suffix."""
    return str(getattr(source, "format", "")) or Path(file_name).suffix.lstrip(".").lower()


def hidden_unknown_sentence(source: SheetSource, file_name: str) -> str:
    """Why a removal is refused when the file does not say which of its rows are hidden."""
    fmt = _format(source, file_name)
    if fmt == "xls":
        why = "its sheet's layout could not be read; it may be from Excel 95 or older"
    elif fmt in ("xlsx", "xlsm", "xlsb", "ods"):
        why = "its sheet's layout could not be read"
    else:
        why = "this format does not show it"
    return (
        f"A removal from {file_name} cannot tell which rows are hidden or filtered out ({why}), "
        "so it could remove rows someone filtered out; save the file as .xlsx, or include "
        "hidden rows (--include-hidden) to remove every row."
    )


def hidden_phone_column_sentences(
    source: SheetSource, file_name: str, mapping: ColumnMapping, shown: list[int]
) -> tuple[str, str]:
    """Why a removal is refused when the phone column it found (none was named) is hidden in
    the file: the sentence for any front end, and the same with the command line's options.
    ``shown`` are the other columns holding phone numbers that are not hidden; the first one
    is suggested."""
    assert mapping.phone is not None
    column = column_said(mapping.headers, mapping.phone)
    letter = column_letter(mapping.phone)
    head = (
        f"{column[0].upper()}{column[1:]} of sheet {source.sheet!r} of {file_name}, the phone "
        "column found for this removal, is hidden in the file, so the removal could take off "
        "the list numbers nobody looking at the file has seen"
    )
    also = ""
    if shown:
        other = column_said(mapping.headers, shown[0])
        also = f" ({other}, which is shown, holds phone numbers too)"
        cli = (
            f"; name the phone column with --phone-column, as column:{column_letter(shown[0])} "
            f"for {other}, which is shown, or column:{letter} for the hidden one; or include "
            "hidden rows and columns (--include-hidden)."
        )
    else:
        cli = (
            f"; name it with --phone-column (column:{letter}) to remove its numbers all the "
            "same, or include hidden rows and columns (--include-hidden)."
        )
    gui = (
        f"; unhide it if its numbers are the ones to remove{also}, or include hidden rows "
        "and columns."
    )
    return head + gui, head + cli


def hidden_twin_sentence(
    source: SheetSource, file_name: str, mapping: ColumnMapping, hidden: int, kind: str
) -> str:
    """That the phone column found, ``hidden`` in the file, gave way to the visible column of
    the same header now read (:func:`~app.core.sheet_mapping.visible_twin`): the numbers a
    person looking at the file sees are the ones sent."""
    assert mapping.phone is not None
    column = column_said(mapping.headers, hidden)
    read = column_said(mapping.headers, mapping.phone)
    verb = "removed" if kind == "removal" else "imported"
    return (
        f"{column[0].upper()}{column[1:]} is hidden in sheet {source.sheet!r} of {file_name}, "
        f"and {read} has the same header and is not: {read} is read, as the numbers a person "
        f"looking at the file sees, and the hidden column is not {verb}. Unhide it to see its "
        "numbers."
    )


def hidden_sheets_sentences(file_name: str, names: list[str]) -> tuple[str, str]:
    """Why staging is refused when no sheet was named, no visible sheet has a column of phone
    numbers and the hidden sheets ``names`` have: a hidden sheet is read only when named (a
    person looking at the file has not seen its numbers). The sentence for any front end, and
    the same with the command line's option."""
    many = len(names) > 1
    head = (
        f"No visible sheet of {file_name} has a column of phone numbers; "
        f"{'the hidden sheets' if many else 'the hidden sheet'} {_listed(names)} "
        f"{'have' if many else 'has'} one, but a hidden sheet is read only when named"
    )
    which = "one" if many else "it"
    gui = (
        f": to read {which}, choose it in the import wizard's Sheet list (or name it with "
        f"--sheet {names[0]!r} on the command line), or unhide it in the file."
    )
    cli = f": to read {which}, run the file again with " + (
        f"--sheet NAME (as --sheet {names[0]!r})." if many else f"--sheet {names[0]!r}."
    )
    return head + gui, head + cli


def _listed(names: list[str]) -> str:
    return joined([repr(n) for n in names])


def _take(kind: str, many: bool) -> str:
    """What running the file again does with the other sheets or columns."""
    if kind == "removal":
        return f"remove {'their' if many else 'its'} numbers"
    return f"import {'them' if many else 'it'}"


def _has_phone_column(rows: list[Row]) -> bool:
    """Whether the first rows of a sheet hold a column of phone numbers under a header."""
    try:
        mapping = propose_from_preview(rows, "1")
    except (ValueError, TypeError):
        return False
    if mapping.phone is None:
        return False
    phone, header = mapping.phone, mapping.header_row or 0
    return any(n > header and phone < len(cells) and cells[phone] is not None for n, cells in rows)


def merge_copies(
    columns: Sequence[int], merged: Sequence[tuple[int, int, int, int]], rows: Sequence[Row]
) -> list[int]:
    """Of ``columns`` (named by :func:`app.core.sheet_mapping.other_phone_columns`), those
    whose every filled cell in ``rows`` is covered by a merged range starting left of it: a
    covered cell holds nothing of its own, and is read with the value of the range's first
    cell, as the file shows it (black-box B26 F5: a phone number merged across B:C made
    column C "also hold phone numbers", offered for import with --phone-column column:C)."""
    found = []
    for column in columns:
        spans = [(r0, r1) for r0, c0, r1, c1 in merged if c0 < column <= c1]
        if not spans:
            continue
        filled = [n for n, cells in rows if column < len(cells) and not is_blank([cells[column]])]
        if filled and all(any(r0 <= n <= r1 for r0, r1 in spans) for n in filled):
            found.append(column)
    return found


def named_column_empty_sentence(mapping: ColumnMapping, others: list[int], named: str) -> str:
    """The warning on a --phone-column whose first rows give no phone number while ``others``
    do: every row would be invalid, and the column meant is most likely one of those
    (black-box B30 F5: `--phone-column Reason` turned every row invalid without a word of the
    Phone column beside it)."""
    assert mapping.phone is not None
    read = column_said(mapping.headers, mapping.phone)
    many = len(others) > 1
    holding = joined([column_said(mapping.headers, i) for i in others])
    options = " or ".join(f"--phone-column column:{column_letter(i)}" for i in others)
    return (
        f"--phone-column {named!r} names {read}, in which none of the first rows holds a "
        f"phone number, while {holding} {'do' if many else 'does'}: if the numbers meant are "
        f"there, run the file again with {options}."
    )


def offered_columns(mapping: ColumnMapping, others: Sequence[int]) -> list[int]:
    """Of ``others``, the columns :func:`other_columns_sentence` offers for import with
    --phone-column: not the business's own line, a form's callers or a call log's other end."""
    said = [
        i
        for i in others
        if (i < len(mapping.headers) and names_own_line(mapping.headers[i]))
        or _form_callers_column(mapping, i)
        or _call_log_sentence(mapping, [i])
    ]
    return [i for i in others if i not in said]


def _held_said(held: Mapping[int, tuple[int, int]], read: str) -> str:
    """How many rows hold a number in each offered column (``held``: column -> rows, of
    them differing from the row's number read), as ", on 2 rows (1 of them …)"; "" if none."""
    parts = []
    for column, (rows, differing) in held.items():
        where = f"column {column_letter(column)} " if len(held) > 1 else ""
        parts.append(
            f"{where}on {counted(rows, 'row', 'rows')}, {differing:,} of them not the number "
            f"read from {read} on that row"
        )
    if not parts:
        return ""
    named = any(d for _, d in held.values())
    each = ": each such row's message names it" if named else ""
    return f" ({'; '.join(parts)}{each})"


def other_columns_sentence(
    mapping: ColumnMapping,
    others: list[int],
    kind: str,
    refused: Sequence[int] = (),
    held: Mapping[int, tuple[int, int]] | None = None,
) -> str:
    """The warning on columns of phone numbers not read; ``refused``: those of them whose
    numbers the check refuses as written (extensions, notes), which must be corrected first,
    or running the file on them only turns each row invalid (re-test J1).

    A column taken for the business's own line (a form's "What number called you?", the
    line a log's calls went to or came from) is said so and never offered for import with
    --phone-column: the offer put the company's own caller ID on the list (re-test R1 #1,
    #2).

    ``held`` (column -> rows holding a number there, of them differing from the row's number
    read; :class:`~app.core.unread_phones.UnreadPhones`) counts an offered column's numbers
    over the whole file once its rows are checked (black-box bb4 F4)."""
    assert mapping.phone is not None
    verb = "removed" if kind == "removal" else "imported"
    read = column_said(mapping.headers, mapping.phone)
    ours = [i for i in others if i < len(mapping.headers) and names_own_line(mapping.headers[i])]
    forms = [i for i in others if i not in ours and _form_callers_column(mapping, i)]
    logs = [i for i in others if i not in ours + forms and _call_log_sentence(mapping, [i])]
    offered = [i for i in others if i not in ours + forms + logs]
    counts = {i: held[i] for i in offered if i in held} if held else {}
    said: list[str] = []
    if offered:
        named = joined([column_said(mapping.headers, i) for i in offered])
        many = len(offered) > 1
        options = [f"--phone-column column:{column_letter(i)}" for i in offered]
        again = (
            f"run the file again with {options[0]}"
            if not many
            else f"run the file again once for each: {joined(options)}"
        )
        said.append(
            f"{named[0].upper()}{named[1:]} also {'hold' if many else 'holds'} phone numbers"
            f"{_held_said(counts, read)} but {'are' if many else 'is'} not {verb}: "
            f"only {read} is read. To {_take(kind, many)} too, {again}."
        )
        bad = [i for i in refused if i in offered]
        if bad:
            one = len(bad) == 1
            said.append(
                f"The numbers in {joined([column_said(mapping.headers, i) for i in bad])} are "
                f"refused as {'it writes' if one else 'they write'} them (an extension or a "
                "note beside the number): put each number alone in its cell first."
            )
    if logs:
        named = joined([column_said(mapping.headers, i) for i in logs])
        many = len(logs) > 1
        said.append(
            f"{named[0].upper()}{named[1:]} also {'hold' if many else 'holds'} phone numbers "
            f"but {'are' if many else 'is'} not {verb}: only {read} is read."
        )
        said.append(_call_log_sentence(mapping, logs))
    if ours:
        named = joined([column_said(mapping.headers, i) for i in ours])
        one = len(ours) == 1
        said.append(
            f"{named[0].upper()}{named[1:]} {'names' if one else 'name'} the business's own "
            f"line, so {'it is' if one else 'they are'} not {verb} (only {read} is read)."
        )
    if forms:
        named = joined([column_said(mapping.headers, i) for i in forms])
        one = len(forms) == 1
        said.append(
            f"{named[0].upper()}{named[1:]} {'is' if one else 'are'} the number that called or "
            "texted the consumer, as the form asks it: the business's own line, so "
            f"{'it is' if one else 'they are'} not {verb} (only {read} is read)."
        )
    return " ".join(said)


def _form_callers_column(mapping: ColumnMapping, index: int) -> bool:
    """Whether a form's column names the number that called the consumer: asked so ("What
    number called you?"), or a caller's number beside the column read, which names the
    consumer's own ("Caller's number" beside "Phone number to stop calling")."""
    if index >= len(mapping.headers):
        return False
    header = mapping.headers[index]
    if names_number_that_called(header):
        return True
    assert mapping.phone is not None
    own = mapping.headers[mapping.phone] if mapping.phone < len(mapping.headers) else ""
    # "Caller's number" is a caller number: call_side knows the phrase without the 's.
    plain = _POSSESSIVE.sub("", header)
    return names_consumers_number(own) and call_side(plain) is CallSide.CALLER


_POSSESSIVE: Final = re.compile(r"['’]s\b", re.IGNORECASE)


def _call_log_sentence(mapping: ColumnMapping, others: list[int]) -> str:
    """Why one end of a call log was not read (``""``: no such end among ``others``): it is
    taken for the business's own line (see sheet_mapping._call_log_phone)."""
    assert mapping.phone is not None
    read = column_said(mapping.headers, mapping.phone)
    side = call_side(mapping.headers[mapping.phone])
    # Chosen by the count of different numbers alone (the log says nothing of which end is
    # whose), which the guess's own warning then says.
    guessed = mapping.guessed_end is not None and mapping.guessed_end[0] == mapping.phone
    for index in others:
        other = call_side(mapping.headers[index]) if index < len(mapping.headers) else None
        column = column_said(mapping.headers, index)
        if other is CallSide.CALLED and side is not CallSide.CALLED:
            return (
                f"{column[0].upper()}{column[1:]} is the number that was called or texted, "
                "which in a log of calls or texts received is the business's own line, so it "
                "is not read as the consumers' numbers."
            )
        if other is CallSide.CALLER and side is CallSide.CALLED and guessed:
            return (
                f"{column[0].upper()}{column[1:]} holds fewer different numbers than {read}, as "
                "the business's own line does in a log of calls or texts it made, so "
                f"{read} is read as the consumers' numbers."
            )
        if other is CallSide.CALLER and side is CallSide.CALLED:
            # Said by the log's Direction or its messages ("Reply STOP to opt out"), not by a
            # count of numbers, which need not hold (black-box Q1 #2: a pool of senders).
            return (
                f"{column[0].upper()}{column[1:]} is taken for the business's own line: the "
                f"file says its rows are calls or texts the business made, so {read} is read "
                "as the consumers' numbers."
            )
    return ""


def above_header_sentence(rows: list[Row], header_row: int | None, kind: str) -> str:
    """What staging says of phone numbers in the rows above the header (a title, a note such
    as "Questions? Call 303-555-1099"), which are not read as data, or ``""``."""
    if not header_row:
        return ""
    found = [
        (number, value)
        for number, cells in rows
        if number < header_row
        for value in cells
        if value is not None
        and (looks_like_phone(value) or (isinstance(value, str) and holds_phone_number(value)))
    ]
    if not found:
        return ""
    shown = joined([f"row {number} holds {cell_shown(value)!r}" for number, value in found[:3]])
    more = f" ({len(found)} cells in all)" if len(found) > 3 else ""
    verb = "removed" if kind == "removal" else "imported"
    return (
        f"Above the header (row {header_row}), {shown}{more}: rows above the header are not "
        f"read, so {'it is' if len(found) == 1 else 'they are'} not {verb}. If a number there "
        "is one to send, move it below the header."
    )


def cell_shown(value: CellValue) -> str:
    """A cell's value as a sheet shows it, for a message to quote: a whole number stored as a
    float (6505550201.0) without its ".0"."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def opt_out_flag_sentence(mapping: ColumnMapping, flag: FlagColumn, kind: str) -> str:
    """What staging says of a yes/no opt-out column, or a consent column, it does not read
    (:func:`~app.core.sheet_mapping.opt_out_flag_columns`)."""
    if flag.consent:
        return _consent_sentence(mapping, flag, kind)
    column = column_said(mapping.headers, flag.index)
    if channel := _other_channel(mapping.headers[flag.index]):
        # An email opt-out is no request not to be called or texted: the sentence must not
        # read as if the rows marked yes were the do-not-call ones (black-box L1 #9).
        verb = "removed" if kind == "removal" else "imported"
        return (
            f"{column[0].upper()}{column[1:]} marks who opted out of {channel}, which is not a "
            f"request not to be called or texted; it is not read, and every row is {verb} "
            "whatever it says."
        )
    head = f"{column[0].upper()}{column[1:]} marks rows yes or no, and some say no or nothing"
    if kind == "removal":
        # A row marked yes may be a person who asked not to be called: taking it off the
        # list is the harm this warning is for.
        return (
            f"{head}: every row is removed whatever it says, the rows marked yes too. If only "
            "the rows marked no are to come off the list, delete the other rows from the file "
            "and run it again."
        )
    return (
        f"{head}: every row is imported whatever it says. If only the rows marked yes asked "
        "not to be called, delete the other rows from the file (rows hidden by a filter are "
        "imported too) and run it again."
    )


# Where "EmailOptOut" has a space ("Email Opt Out").
_CAMEL: Final = re.compile(r"(?<=[a-z])(?=[A-Z])")
# Header words naming a channel other than calls and texts, as the channel is said.
_OTHER_CHANNELS: Final = {
    "email": "email",
    "emails": "email",
    "e mail": "email",
    "mail": "mail",
    "mailing": "mail",
    "mailings": "mail",
    "postal": "mail",
    "post": "mail",
    "newsletter": "the newsletter",
    "newsletters": "newsletters",
    "fax": "fax",
}


def _other_channel(header: str) -> str:
    """The channel an opt-out flag's header names when it is not calls or texts ("Email Opt
    Out": "email"), or ``""``: a header naming calls, texts or nothing is about them."""
    words = f" {plain_words(_CAMEL.sub(' ', header))} "
    if any(f" {w} " in words for w in ("call", "calls", "phone", "text", "texts", "sms", "dnc")):
        return ""
    for word, said in _OTHER_CHANNELS.items():
        if f" {word} " in words:
            return said
    return ""


def _consent_sentence(mapping: ColumnMapping, flag: FlagColumn, kind: str) -> str:
    """What staging says of a column saying the consumer opted in, consented or is
    subscribed on some rows: the job sends every row whatever it says."""
    column = column_said(mapping.headers, flag.index)
    if channel := _other_channel(mapping.headers[flag.index]):
        # Consent to email ("Accepts Email Marketing") says nothing of calls or texts: the
        # sentence must not read as if its rows were consumers who agreed to be called
        # (black-box B16 #2), as an email opt-out's does not (L1 #9).
        verb = "removed" if kind == "removal" else "imported"
        return (
            f"{column[0].upper()}{column[1:]} says the consumer agreed to {channel} on "
            f"{flag.opted_in:,} of the first {flag.rows:,} rows (as {flag.in_value!r}), which "
            f"is no consent to be called or texted; it is not read, and every row is {verb} "
            "whatever it says."
        )
    head = (
        f"{column[0].upper()}{column[1:]} says the consumer opted in, consented or is "
        f"subscribed on {flag.opted_in:,} of the first {flag.rows:,} rows (as "
        f"{flag.in_value!r})"
    )
    if kind == "removal":
        # A row saying the consumer opted out is one that must stay on the list.
        if not flag.opted_out:
            return f"{head}: every row is removed whatever it says."
        return (
            f"{head} and not on {flag.opted_out:,} (as {flag.out_value!r}): every row is "
            "removed whatever it says, the rows saying not too. If only the consenting "
            "numbers are to come off the list, delete the other rows from the file and run it "
            "again."
        )
    return (
        f"{head}: every row is imported whatever it says, so those numbers go on the "
        "list too. If they did not opt out, delete those rows from "
        "the file (rows hidden by a filter are imported too) and run it again."
    )


def other_dates_sentence(mapping: ColumnMapping, dates: list[DateColumn]) -> str:
    """What an import says of date columns not read as the day the request was received
    (``""``: nothing to say). The days to insertion, and so lateness, are counted from that
    day, so a reader who meant another column must hear which one was read."""
    if mapping.request_date is None:
        named = [column_said(mapping.headers, d.index) for d in dates]
        if not named:
            return ""
        listed = joined(named)
        return (
            f"{listed[0].upper()}{listed[1:]} {'name' if len(named) > 1 else 'names'} another "
            "date than the day the request was received, so no request date was read and no "
            "row's lateness was checked; head the column of request dates as 'Date received' "
            "or 'Request date' to have it read."
        )
    read = column_said(mapping.headers, mapping.request_date)
    could = [column_said(mapping.headers, d.index) for d in dates if d.rank > DateRank.OTHER]
    if not could:
        return ""
    listed = joined(could)
    many = len(could) > 1
    return (
        f"{listed[0].upper()}{listed[1:]} could also {'be' if not many else 'each be'} the day "
        f"the request was received, but only {read} is read for it (the days to insertion and "
        "lateness count from it); if another is meant, give it the header 'Date received' and "
        "run the file again."
    )


def unread_code_sentence(mapping: ColumnMapping, unread: UnreadCodeColumn, code: str) -> str:
    """Why a column headed as country codes was not read, and what the rows took instead; or
    why an area-code column was not, and what to do."""
    column = column_said(mapping.headers, unread.index)
    if unread.local:
        return _area_code_sentence(mapping, unread)
    default = phones.normalize_code(code) or code
    if unread.countries:
        return (
            f"{column[0].upper()}{column[1:]} holds country names "
            f"({joined([repr(name) for name in unread.countries])}) and was not read: its "
            f"header names no column the import reads, so every row used the default code "
            f"+{default} (unless its number starts with its own, as +44). If those are the "
            "countries of the phone numbers, head the column Country (or choose it as the "
            "country column in the import wizard) and run the file again."
        )
    if unread.states:
        return _states_sentence(column, unread.states, default, unread.states_by_numbers)
    share = (
        f"only {unread.codes} of its {unread.values:,} values "
        f"{'is a country code' if unread.codes == 1 else 'are country codes'}"
        if unread.codes
        else f"none of its {unread.values:,} values is a country code"
    )
    if unread.unknown:
        # The values to correct, with their first rows (black-box B7 #1: none was named).
        shown = [f"{text!r} (row {row})" for text, row in unread.unknown[:_UNKNOWN_SHOWN]]
        if len(unread.unknown) > _UNKNOWN_SHOWN:
            shown.append("others")
        are = "are" if len(shown) > 1 else "is"
        share = f"{share} ({joined(shown)} {are} no country code or name DNC Desk knows)"
    refused = ""
    if unread.index == unread_country_column(mapping):
        # Such a column's cell naming a country of another code refuses its row (black-box
        # B22 F1), so "every row used the default code" alone would hide those rows.
        other = "Germany" if default == "52" else "Mexico"
        refused = f"; a row whose cell names a country of another code, as {other}, is not taken"
    return (
        f"{column[0].upper()}{column[1:]} was not read as country codes: {share}, so every row "
        f"used the default code +{default} (unless its number starts with its own, as "
        f"+44{refused}). Correct the column's values to country codes or names (as 44 or "
        "United Kingdom) and run the file again."
    )


def _states_sentence(
    column: str, states: tuple[str, ...], default: str, by_numbers: bool = False
) -> str:
    """A column headed as country codes that holds US state codes: not read, and why (when
    every code is some country's too, the phone numbers beside them said so: ``by_numbers``)."""
    shown = ", ".join(states[:3]) + ("…" if len(states) > 3 else "")
    need = "" if default == "1" else " US numbers need the default code +1 (--phone-code 1)."
    told = (
        " (its phone numbers are US numbers in those states, or numbers those countries do "
        "not have)"
        if by_numbers
        else ""
    )
    return (
        f"{column[0].upper()}{column[1:]} holds US state codes ({shown}), not countries{told}, "
        f"so it was not read: every row used the default code +{default} (unless its number starts "
        "with its own, as +44), where a code such as IN or DE would have made the number "
        f"India's or Germany's.{need} If the column does hold countries, write them as names "
        "(India, Germany) and run the file again."
    )


def state_doubt_sentence(
    mapping: ColumnMapping, found: StateNumbers, kind: str, code: str, *, chosen: bool = False
) -> str:
    """The column read for countries whose codes are US states' too ("IN", "DE") beside phone
    numbers valid both ways (:attr:`StateNumbers.doubt`): both readings, which was taken (an
    import's) or that nothing was (a removal's: see job_staging), and how to say which is
    meant (black-box pass R2 #3). ``chosen``: the columns were chosen in the import wizard,
    whose ways to say it are its own, not the command line's options (task W6 #1)."""
    assert found.example is not None  # a doubt has a row read both ways
    column = column_said(mapping.headers, found.index)
    header = mapping.headers[found.index]
    name = header if header else f"column:{column_letter(found.index)}"
    option = f'"{name}"' if " " in name else name
    # At most three: four different ones make a column of states by themselves.
    codes = found.codes
    states = joined([US_STATES[c] for c in codes])
    countries = _state_countries(codes)
    row, state, as_us, as_country = found.example
    reading = f"the US number {as_us}, or {as_country} under {state!r}"
    if len(found.two_ways) == 1:
        numbers = f"its phone number reads both ways (row {row}: {reading})"
    else:
        rows = RowList()
        for number in found.two_ways:
            rows.add(number)
        numbers = (
            f"its phone numbers read both ways ({rows_named(rows)} among its first rows; "
            f"row {row}: {reading})"
        )
    if len(codes) == 1:
        what = f"a US state's code ({states}) as well as a country's ({countries})"
    else:
        what = f"US states' codes ({states}) as well as countries' ({countries})"
    head = (
        f"{column[0].upper()}{column[1:]} holds {joined(list(codes))}, "
        f"{'which is' if len(codes) == 1 else 'which are'} {what}, and {numbers}, so nothing "
        "in the file says which the column holds."
    )
    if kind == "removal":
        done = (
            " Nothing is removed: removing by the wrong reading would take someone else's "
            "opt-out off the list."
        )
    else:
        done = (
            " That row was read as the country's number, its note naming its US reading."
            if len(found.two_ways) == 1
            else " Those rows were read as the countries' numbers, each row's note naming its "
            "US reading."
        )
    again = "run the removal again" if kind == "removal" else "import the file again"
    us = (phones.normalize_code(code) or code) == "1"
    if chosen:
        default = "" if us else " and 1 as the default country code"
        return (
            f"{head}{done} If the column holds US states, {again} with “{NO_COLUMN}” "
            f"chosen for Country code{default} (every row then takes the US code +1); if it "
            "holds countries, tick the box saying so on the import wizard's check page, or "
            f"write them as names ({countries})."
        )
    us_code = "" if us else " --phone-code 1"
    return (
        f"{head}{done} If the column holds US states, {again} with "
        f"--ignore-column {option}{us_code} (every row then takes the US code +1); if it holds "
        f"countries, write them as names ({countries}) and run the file again."
    )


# What the import wizard's column lists offer for a field the file has no column of.
NO_COLUMN: Final = "— not in the file —"


def _state_countries(codes: Sequence[str]) -> str:
    """The countries state codes that are countries' too name ("India and Germany")."""
    return joined([phones.region_name(phones.normalize_code(c) or "") for c in codes])


def state_choice_sentence(mapping: ColumnMapping, found: StateNumbers, kind: str) -> str:
    """The column of :func:`state_doubt_sentence` read for countries because the person said
    it holds countries (the import wizard's box): for the report, which keeps who settled
    what the file could not (task W6 #1)."""
    column = column_said(mapping.headers, found.index)
    codes = found.codes
    what = "US states' codes" if len(codes) > 1 else "a US state's code"
    return (
        f"{column[0].upper()}{column[1:]} holds {joined(list(codes))}, {what} as well as "
        "countries', beside phone numbers that read both ways; it was read for countries "
        f"({_state_countries(codes)}), as chosen when the {kind} was started."
    )


def _area_code_sentence(mapping: ColumnMapping, unread: UnreadCodeColumn) -> str:
    """An area-code column beside a phone column of 7-digit numbers: those rows are invalid
    (a local number), and the two columns must be made one (never guessed here)."""
    assert mapping.phone is not None
    column = column_said(mapping.headers, unread.index)
    phone = column_said(mapping.headers, mapping.phone)
    many = unread.local != 1
    first = (mapping.header_row or 0) + 1
    formula = f"={column_letter(unread.index)}{first}&{column_letter(mapping.phone)}{first}"
    return (
        f"{column[0].upper()}{column[1:]} holds area codes, which are not read: only {phone} "
        f"is, and {unread.local:,} of its first numbers {'have' if many else 'has'} 7 digits, "
        f"a local number without its area code, so {'those rows are' if many else 'that row is'}"
        " invalid. Combine the area code and the number into one column of 10-digit numbers "
        f"(in Excel, a new column of {formula} filled down) and run the file again."
    )


@dataclass(frozen=True, slots=True)
class _DateForm:
    """One way of writing a request date, as its column's evidence is kept
    (:attr:`CheckSummary.date_orders`): the keys of its dates that read day first only and month
    first only, of its ambiguous ones read its usual way and of those read the other way (as
    that was after the day checked), its usual order (True: day first), its words, and why its
    usual order is taken when nothing in the column says which."""

    written: DateForm
    day_only: str
    month_only: str
    usual: str
    turned: str
    usual_day_first: bool
    day_words: str
    month_words: str
    usual_why: str

    @property
    def name(self) -> str:
        return self.written.value

    def evidence(self, orders: Mapping[str, tuple[int, int, str]]) -> bool | None:
        """The order its dates that read one way only all have (None: none, or both)."""
        day, month = self.day_only in orders, self.month_only in orders
        return None if day == month else day

    def words(self, day_first: bool) -> str:
        return self.day_words if day_first else self.month_words


# Slashed, dotted and dashed dates are weighed apart: a date that reads one way only decides
# nothing of the other forms' dates (black-box B18 F1: dotted and slashed; re-test S22 U1 F1:
# 23-11-2026 made 10/11/2026 Nov 10, in time). A dashed date's words are a slashed one's, as
# its row's note says them.
_SLASHED_FORM: Final = _DateForm(
    DateForm.SLASHED, DAY_FIRST_ONLY, MONTH_FIRST_ONLY, EITHER, EITHER_TURNED, False,
    "day/month", "month/day", "as US files write dates",
)  # fmt: skip
_DOTTED_FORM: Final = _DateForm(
    DateForm.DOTTED, DOTTED_DAY_FIRST_ONLY, DOTTED_MONTH_FIRST_ONLY, EITHER_DOTTED,
    EITHER_DOTTED_TURNED, True, "day.month", "month.day", "as dotted dates are written",
)  # fmt: skip
_DASHED_FORM: Final = _DateForm(
    DateForm.DASHED, DASHED_DAY_FIRST_ONLY, DASHED_MONTH_FIRST_ONLY, EITHER_DASHED,
    EITHER_DASHED_TURNED, False, "day/month", "month/day", "as US files write dates",
)  # fmt: skip
_FORMS: Final = (_SLASHED_FORM, _DOTTED_FORM, _DASHED_FORM)
# Each form's dates that read one way only, worded as a slashed one's in a column where at most
# one form's say anything ("written day/month").
_ONE_WAY: Final = {
    **{form.day_only: DAY_FIRST_ONLY for form in _FORMS},
    **{form.month_only: MONTH_FIRST_ONLY for form in _FORMS},
}


def _forms_in(orders: Mapping[str, tuple[int, int, str]]) -> list[_DateForm]:
    """The forms the column's dates that say anything of its order are written in."""
    return [
        form
        for form in _FORMS
        if any(k in orders for k in (form.day_only, form.month_only, form.usual, form.turned))
    ]


def date_order_sentence(mapping: ColumnMapping, summary: CheckSummary, day_first: DayFirst) -> str:
    """What an import says of the order its request dates are written in (``""``: nothing).

    A column is written one way: read throughout in the order its dates that read one way only
    all have (``day_first``, from :func:`column_order`, or the form's own order when they
    agree with it); when some are day/month and some month/day, the ones that read either way
    keep their form's order, and the reader must check them. When no date reads one way only,
    the dates that read either way were read as their form usually is (02/11/2026 month/day,
    as US files write it; 02.11.2026 day.month): the warning names their rows and how to have
    them read the other way (black-box N3 #3: a UK vendor's file said so only in each row's
    note, and its late count was wholly wrong).
    """
    either = summary.ambiguous_dates
    if mapping.request_date is None or not either:
        return ""
    column = column_said(mapping.headers, mapping.request_date)
    rows = rows_named(summary.ambiguous_rows)
    forms = _forms_in(summary.date_orders)
    if len(forms) > 1 and any(f.evidence(summary.date_orders) is not None for f in forms):
        # Some form's dates that read one way only decided its own ambiguous dates only.
        return _forms_apart_sentence(column, rows, summary, day_first, forms)
    form = forms[0] if forms else _SLASHED_FORM
    known = form_order(day_first, form.written)
    orders = {_ONE_WAY.get(key, key): value for key, value in summary.date_orders.items()}
    dates = f"{either} date{'s' if either != 1 else ''} that read{'s' if either == 1 else ''}"
    were = "were" if either != 1 else "was"

    def example(order: str) -> str:
        _, row, text = orders[order]
        return f"row {row}: {text!r}"

    day, month = DAY_FIRST_ONLY in orders, MONTH_FIRST_ONLY in orders
    # One kind of evidence (so one form's), and the ambiguous dates were read its way without
    # a second run: none was read the form's usual way, or that way is the evidence's.
    if known is None and day != month and (form.usual not in orders or form.usual_day_first == day):
        known = day
    formatted = _formatted(summary, form)
    if known is None and formatted is not None and not day and not month:
        # Read as the date cells' format shows them with no second run: the form's usual way.
        known = formatted if form.turned not in orders else None
    if known is not None:
        order, words = (DAY_FIRST_ONLY if known else MONTH_FIRST_ONLY), form.words(known)
        if order not in orders and summary.formatted is not None:
            said = f"{dates} either way in {column} ({rows}) {were} read {words}"
            return _formatted_sentence(said, summary)
        return (
            f"The request dates in {column} are written {words} ({example(order)}), so the "
            f"{dates} either way ({rows}) {were} read {words} too."
        )
    if day and month:
        # Not so those read the other way, as their usual reading was after the day checked.
        instead = "".join(f"; {clause}" for clause in _turned_clauses(orders, instead=True))
        return (
            f"The request dates in {column} are written both {form.day_words} "
            f"({example(DAY_FIRST_ONLY)}) and {form.month_words} "
            f"({example(MONTH_FIRST_ONLY)}); the {dates} either way ({rows}) {were} read as "
            "their form is usually written "
            f"(1/2/2026 month/day, 1.2.2026 day.month){instead}: check "
            f"{'them' if either != 1 else 'it'} in the report's Message column."
        )
    return _unknown_order_sentence(column, rows, summary, either)


def _formatted_sentence(said: str, summary: CheckSummary) -> str:
    """:func:`date_order_sentence` when the column's order is its date cells' number format's,
    ``said`` its dates that read either way (bb13 F8: text dates '03/11/2026' beside date cells
    shown dd/mm/yyyy were read month/day, "no date there reads one way only to tell which", a
    request 179 business days late that was 8)."""
    assert summary.formatted is not None
    _, row, code = summary.formatted
    return (
        f"The {said}, as the column's date cells are formatted (row {row}: {code!r}): no date "
        "there reads one way only to tell which. If they are written the other way round, "
        "write them as year-month-day (2026-11-02) and run the file again; each row's message "
        "in the report gives both readings."
    )


def _forms_apart_sentence(
    column: str, rows: str, summary: CheckSummary, day_first: DayFirst, forms: list[_DateForm]
) -> str:
    """The dates that read either way in a column holding dates of more than one of ``forms``
    (slashed, dotted, dashed): each form's read as its own dates that read one way only are, or
    its usual way (black-box B18 F1: "written month/day (row 2: '11/23/2026'), so the 1 date …
    was read month/day too" of 11.10.2026, read Nov 10, and so not late; re-test S22 U1 F1 so of
    10/11/2026 beside 23-11-2026, read day/month)."""
    orders = summary.date_orders
    either = summary.ambiguous_dates

    def example(key: str) -> str:
        _, row, text = orders[key]
        return f"row {row}: {text!r}"

    clauses = []
    for form in forms:
        usual = orders.get(form.usual, (0, 0, ""))[0]
        turned = orders.get(form.turned, (0, 0, ""))[0]
        if not usual + turned:
            continue
        evidence = form.evidence(orders)
        # A form without its own evidence is read its usual way whatever the order given
        # (column_order gives one for every form only when it reads that form so).
        misread = form.turned if evidence == form.usual_day_first else form.usual
        known = evidence is not None and (
            form_order(day_first, form.written) == evidence or misread not in orders
        )
        count = usual + turned
        ones = f"{count:,} {form.name} one{'s' if count != 1 else ''}"
        were = "was" if count == 1 else "were"
        if evidence is not None and known:
            key = form.day_only if evidence else form.month_only
            clauses.append(
                f"{ones} {were} read {form.words(evidence)}, as the column's {form.name} dates "
                f"that read one way only are ({example(key)})"
            )
            continue
        parts = []
        if usual:
            some = f"{usual:,} {form.name} one{'s' if usual != 1 else ''}"
            parts.append(
                f"{some} {'was' if usual == 1 else 'were'} read "
                f"{form.words(form.usual_day_first)}, as {form.name} dates are usually written "
                f"({example(form.usual)})"
            )
        if turned:
            _, row, text = orders[form.turned]
            first = f"row {row}" if turned == 1 else f"the first row {row}"
            some = f"{turned:,} {form.name} one{'s' if turned != 1 else ''}"
            parts.append(
                f"{some} {'was' if turned == 1 else 'were'} read "
                f"{form.words(not form.usual_day_first)}, as "
                f"{form.words(form.usual_day_first)} would be after the insertion date "
                f"({first}: {text!r})"
            )
        if form.day_only in orders and form.month_only in orders:
            why = (
                f"its {form.name} dates that read one way only being written both ways "
                f"({example(form.day_only)} and {example(form.month_only)})"
            )
        elif evidence is not None:  # not read again in the order its evidence gives
            key = form.day_only if evidence else form.month_only
            why = (
                f"though its {form.name} dates that read one way only are "
                f"{form.words(evidence)} ({example(key)})"
            )
        else:
            why = f"no {form.name} date there reading one way only to tell which"
        clauses.append(f"{', '.join(parts)}, {why}")
    hint = _after_hint(summary)
    what = f"{either:,} date{'s' if either != 1 else ''}"
    verb = "reads" if either == 1 else "read"
    it = "any of them is" if either != 1 else "it is"
    names = [form.name for form in forms]
    held, other = (f"both {names[0]} and {names[1]}", "the other's")
    if len(names) > 2:
        held, other = joined(names), "another's"
    return (
        f"{what} in {column} {verb} two ways, day/month or month/day ({rows}). The column "
        f"holds {held} dates, read apart, as the order of one form says "
        f"nothing of {other}: {'; '.join(clauses)}.{hint} If {it} written the other way "
        "round, write it as year-month-day (2026-11-02) and run the file again; each row's "
        "message in the report gives both readings."
    )


def _after_hint(summary: CheckSummary) -> str:
    """The sentence on ambiguous dates that, read so, are after the insertion date (``""``:
    none). A request cannot be received after it is honoured: a sign of the other order, not
    proof (a mistyped date is after it too), so it is said, and decides nothing."""
    after = summary.ambiguous_after
    if not after.count:
        return ""
    some = "1 of them is" if after.count == 1 else f"{after.count:,} of them are"
    return (
        f" Read so, {some} after the insertion date ({rows_named(after)}), which a request "
        "cannot be."
    )


def _unknown_order_sentence(column: str, rows: str, summary: CheckSummary, either: int) -> str:
    """The dates that read either way in a column where no date reads one way only."""
    orders = summary.date_orders
    examples: dict[tuple[str, str], list[str]] = {}  # each reading and why: its forms' first rows
    other: list[str] = []
    usual = 0
    for form in _FORMS:
        if form.usual not in orders:
            continue
        count, row, text = orders[form.usual]
        usual += count
        reading = (form.words(form.usual_day_first), form.usual_why)
        examples.setdefault(reading, []).append(f"row {row}: {text!r}")
        if (unusual := form.words(not form.usual_day_first)) not in other:
            other.append(unusual)
    how = [f"{words}, {why} ({'; '.join(shown)})" for (words, why), shown in examples.items()]
    turned = _turned_clauses(orders)
    if how and turned:
        # Fixer Y1: "they were read month/day" was untrue of the dates read the other way.
        were = "was" if usual == 1 else "were"
        read = "; ".join([f"{usual:,} {were} read {' and '.join(how)}", *turned])
    elif how:
        read = f"{'they were' if either != 1 else 'it was'} read {' and '.join(how)}"
    elif turned:
        read = "; ".join(turned)
    else:
        read = "each row's note says how it was read"
    hint = _after_hint(summary)
    what = f"{either:,} date{'s' if either != 1 else ''}"
    verb = "reads" if either == 1 else "read"
    meant = f" ({' or '.join(other)})" if other else ""
    return (
        f"{what} in {column} {verb} two ways, day/month or month/day ({rows}), and no date "
        f"there reads one way only to tell which: {read}.{hint} If the dates are written the "
        f"other way round{meant}, write them as year-month-day (2026-11-02) and run the file "
        "again; each row's message in the report gives both readings."
    )


def _turned_clauses(
    orders: Mapping[str, tuple[int, int, str]], *, instead: bool = False
) -> list[str]:
    """What became of the dates that read either way read against their form's usual order, as
    that reading was after the insertion date (the day checked): "1 was read day/month, as
    month/day would be after the insertion date (row 3: '12/11/26')"; with ``instead``, after
    a sentence saying all were read the usual way, "1 of them was read day/month instead, …".
    The check keeps the first such row of each form only; the rows of all are named before."""
    out = []
    for form in _FORMS:
        order = form.turned
        how, usual = form.words(not form.usual_day_first), form.words(form.usual_day_first)
        if order in orders:
            count, row, text = orders[order]
            first = f"row {row}" if count == 1 else f"the first row {row}"
            some = f"{count:,} of them" if instead else f"{count:,}"
            out.append(
                f"{some} {'was' if count == 1 else 'were'} read {how}"
                f"{' instead' if instead else ''}, as {usual} would be after the insertion "
                f"date ({first}: {text!r})"
            )
    return out


def rows_named(rows: RowList) -> str:
    """ "row 7", "rows 7, 16 and 19", "rows 7, 8, …, 16 and 5 more": the first rows named."""
    named = [str(n) for n in rows.first]
    if rows.count > len(named):
        named.append(f"{rows.count - len(named):,} more")
    return f"row{'s' if rows.count != 1 else ''} {joined(named)}"


def _dates_of(count: int) -> str:
    return "1 row's request date" if count == 1 else f"{count:,} rows' request dates"


def unchecked_dates_sentence(mapping: ColumnMapping, summary: CheckSummary) -> str:
    """The warning naming the rows whose request date could not be checked against the
    10-business-day limit: not a date, after the insertion date, or no date (``""``: none).

    Each row with a date has a note (in the report's Message column) saying why; an empty
    cell has none, and the sentence claims notes only for the others. This says it where the
    counts are read, as a late request hidden by an unreadable date is one nobody counted."""
    if mapping.request_date is None:
        return ""
    return unchecked_dates_said(
        UncheckedDates(summary.unread_dates, summary.future_dates, summary.undated)
    )


# The job meta's key holding the rows :func:`unchecked_dates_said` named (UncheckedDates.stored),
# so that the report can say it again of the rows still after the insertion date.
UNCHECKED_DATE_ROWS: Final = "unchecked_date_rows"


@dataclass
class UncheckedDates:
    """The rows whose request date's limit was not checked, by why: not a date, after the
    insertion date, no date (the parts of :func:`unchecked_dates_said`)."""

    unread: RowList
    after: RowList
    undated: RowList

    def stored(self) -> dict[str, dict[str, object]]:
        """As the job meta keeps them (:data:`UNCHECKED_DATE_ROWS`)."""
        return {
            part: {"count": rows.count, "first": list(rows.first)}
            for part, rows in (
                ("unread", self.unread),
                ("after", self.after),
                ("undated", self.undated),
            )
        }

    @classmethod
    def from_stored(cls, value: object) -> UncheckedDates | None:
        """The rows :meth:`stored` kept; None when ``value`` is not such (a job file staged
        before they were kept)."""
        if not isinstance(value, Mapping):
            return None
        parts = []
        for part in ("unread", "after", "undated"):
            rows = value.get(part)
            if not isinstance(rows, Mapping):
                return None
            count, first = rows.get("count"), rows.get("first")
            if not isinstance(count, int) or not isinstance(first, list):
                return None
            if not all(isinstance(n, int) for n in first):
                return None
            parts.append(RowList(count, list(first)))
        return cls(*parts)


def unchecked_dates_said(dates_of: UncheckedDates) -> str:
    """:func:`unchecked_dates_sentence` of these rows."""
    unread, future, undated = dates_of.unread, dates_of.after, dates_of.undated
    dates = []
    if unread.count:
        dates.append(f"{_dates_of(unread.count)} could not be read ({rows_named(unread)})")
    if future.count:
        # After "N rows' request dates could not be read", "and 2 are after …" says whose.
        whose = f"{future.count:,}" if dates else _dates_of(future.count)
        verb = "is" if future.count == 1 else "are"
        dates.append(f"{whose} {verb} after the insertion date ({rows_named(future)})")
    parts = [" and ".join(dates)] if dates else []
    if undated.count:
        have = "1 row has" if undated.count == 1 else f"{undated.count:,} rows have"
        parts.append(f"{have} no request date ({rows_named(undated)})")
    if not parts:
        return ""
    if dates and undated.count:
        # An empty cell has no note to say why: only the rows with a date have one.
        why = (
            " (the report's Message column says why for each row with a date; the others' "
            "date cells are empty)"
        )
    elif dates:
        why = " (each row's message in the report says why)"
    else:
        why = ""
    whose = "its" if unread.count + future.count + undated.count == 1 else "their"
    return (
        f"{'; '.join(parts)}: {whose} {LIMIT_BUSINESS_DAYS}-business-day limit was not "
        f"checked{why}."
    )


def other_reading_late_sentence(mapping: ColumnMapping, summary: CheckSummary) -> str:
    """The warning naming the rows whose request date reads either way and, as read, is not
    late, while its other reading would be (``""``: none; each such row's note says so, and
    by how many business days).

    Re-test U2: beside 23/11/2026, 11-10-2026 was read Nov 10, in time, by the documented
    rule (dashed dates are weighed apart from slashed ones), though read Oct 11 it is 30
    business days late. No verdict changes: the reader is told which requests may be late."""
    rows = summary.other_reading_late
    if mapping.request_date is None or not rows.count:
        return ""
    column = column_said(mapping.headers, mapping.request_date)
    one = rows.count == 1
    whose = "1 row's request" if one else f"{rows.count:,} rows' requests"
    return (
        f"{whose} would be late if {'its date' if one else 'their dates'} in {column} "
        f"were read the other way round ({rows_named(rows)}): "
        f"{'it' if one else 'each'} reads two ways, day/month or month/day, and as read is "
        f"not late, but read the other way it is more than {LIMIT_BUSINESS_DAYS} business days "
        f"before the insertion date. Check {'it' if one else 'them'} against the source; if "
        f"{'it is' if one else 'any is'} written the other way round, write it as "
        "year-month-day (2026-11-02) and run the file again (each row's message in the report "
        "gives both readings)."
    )


def year_first_sentence(mapping: ColumnMapping, summary: CheckSummary, day_first: DayFirst) -> str:
    """The warning naming the rows whose dashed date with a two-digit year could be read
    year-month-day (``26-11-10``: Nov 10, 2026, or Nov 26, 2010 with the day first): read so,
    as the column's dates with a four-digit year are written (``day_first``'s ``year_first``),
    or read with the day or month first, as none is (``""``: no such row).

    Re-test S24 U2 F7: ``26-11-10`` beside ``2026-11-10`` was read Nov 26, 2010, 4,007
    business days late, and no warning said it could be read otherwise."""
    rows = summary.year_first_rows
    if mapping.request_date is None or not rows.count:
        return ""
    column = column_said(mapping.headers, mapping.request_date)
    orders = summary.date_orders
    one = rows.count == 1
    what = f"{rows.count:,} dashed date{'' if one else 's'} with a two-digit year in {column}"
    it = "it" if one else "any"
    whose = "its" if one else "each row's"
    if isinstance(day_first, FormOrders) and day_first.year_first and YEAR_FIRST in orders:
        _, row, text = orders[YEAR_FIRST]
        return (
            f"{what} {'was' if one else 'were'} read year-month-day ({rows_named(rows)}), as "
            f"the column's dates with a four-digit year are written (row {row}: {text!r}); "
            f"{whose} note gives the date with the day or month "
            f"first. If {it} is written with its day or month first, write it with a "
            "four-digit year and run the file again."
        )
    return (
        f"{what} could also be read year-month-day ({rows_named(rows)}): "
        f"{'it was' if one else 'they were'} read with the day or month first, as no dashed "
        "date there written as text has its four-digit year first (2026-11-10; a date cell's "
        f"display format is not read); {whose} note gives both readings. If {it} is written "
        "year-month-day, write it with a four-digit year (2026-11-10) and run the file again."
    )


def late_invalid_sentence(summary: CheckSummary) -> str:
    """The warning that some late requests are on invalid rows, which are not sent (``""``:
    none): the late requests counted include them, and fixing them cannot wait."""
    late = summary.late_invalid
    if not late.count:
        return ""
    rows = "1 invalid row" if late.count == 1 else f"{late.count:,} invalid rows"
    which = "which is" if late.count == 1 else "which are"
    return (
        f"The late requests include {rows}, {which} not sent ({rows_named(late)}): "
        f"their request dates are already more than {LIMIT_BUSINESS_DAYS} business days "
        "old; fix those rows (each row's message says what is wrong) and import them soon."
    )


def formatted_order(notes: SheetNotes, column: int | None) -> tuple[bool, int, str] | None:
    """The order the number formats of ``column``'s date cells write the day and month in (see
    :attr:`CheckSummary.formatted`): None when the column has none such, or both orders."""
    found = [
        (day_first, dates) for (at, day_first), dates in notes.date_formats.items() if at == column
    ]
    if len(found) != 1:
        return None
    day_first, dates = found[0]
    return day_first, dates.row, dates.code


def _formatted(summary: CheckSummary, form: _DateForm) -> bool | None:
    """The order ``form``'s dates that read either way take from the column's date cells'
    number format, when none of its dates reads one way only (which tells it from the text
    itself). Not a dotted date's: a format of slashes says nothing of how dots are written."""
    if summary.formatted is None or form is _DOTTED_FORM:
        return None
    if form.evidence(summary.date_orders) is not None:
        return None
    return summary.formatted[0]


def column_order(summary: CheckSummary) -> DayFirst:
    """The order a request-date column is written in, when, in one form (slashed, dotted or
    dashed), its dates that read one way only all agree and some of its dates that read either
    way were read the other way, their form's usual order or, as that reading was after the day
    checked, against it (True: day/month, False: month/day; a :class:`FormOrders` when the
    forms' dates are to be read differently); None when there is nothing to read again.

    A form's evidence decides only its own dates (black-box B18 F1: 23.11.2026 made 11/9/2026
    Sep 11, late, and 11/23/2026 made 11.10.2026 Nov 10, in time; re-test S22 U1 F1: 23-11-2026
    made 10/11/2026 Nov 10, in time).

    A column holding dashed dates with a four-digit year first (2026-11-10) and dashed dates
    with a two-digit year that could be year-month-day (26-11-10) has those read so, its order
    a :class:`FormOrders` with ``year_first`` (re-test S24 U2 F7)."""
    order = _form_order(summary)
    if YEAR_FIRST not in summary.date_orders or not summary.year_first_rows.count:
        return order
    if isinstance(order, FormOrders):
        return replace(order, year_first=True)
    return FormOrders(slashed=order, dotted=order, dashed=order, year_first=True)


def _form_order(summary: CheckSummary) -> DayFirst:
    """:func:`column_order` for the forms' orders, day and month."""
    orders = summary.date_orders
    again = False
    wanted: dict[DateForm, bool | None] = {}  # a form with dates that read either way: its order
    for form in _FORMS:
        evidence = form.evidence(orders)
        if evidence is None:
            # The column's date cells show its order when its text does not (bb13 F8).
            evidence = _formatted(summary, form)
        if form.usual in orders or form.turned in orders:
            wanted[form.written] = evidence
        # Read against their form's order as that reading was after the day checked (regression
        # check V4): a column known to be written their form's way reads them so (a date after
        # the day checked, or a century back when more than a year after it), as it would had
        # its order been known (fixer Y1: 12/11/26 beside 10/25/26
        # stayed Nov 12 while the warning said the column's dates were read month/day).
        misread = form.turned if evidence == form.usual_day_first else form.usual
        if evidence is not None and misread in orders:
            again = True
    if not again:
        return None

    def reads_alike(order: bool, form: _DateForm) -> bool:
        """Whether ``order`` reads the form's dates as its own order does."""
        if form.written not in wanted:
            return True  # none of its dates reads either way
        if (want := wanted[form.written]) is not None:
            return want == order
        # Its usual order only stops its dates being read against it, and none was.
        return order == form.usual_day_first and form.turned not in orders

    for order in (True, False):
        if all(reads_alike(order, form) for form in _FORMS):
            return order
    return FormOrders(
        slashed=wanted.get(DateForm.SLASHED),
        dotted=wanted.get(DateForm.DOTTED),
        dashed=wanted.get(DateForm.DASHED),
    )


def _lost_plus_row(c: CheckedRow, held: Held) -> None:
    """Counts an invalid row whose digits are a number with its own country code written
    without its "+" (see :attr:`Held.lost_plus`)."""
    original = c.original
    if isinstance(original, float) and original.is_integer():
        # A number cell (4915112345678 in an xlsx, xls or ods), as Excel and LibreOffice keep
        # E.164 typed in: the same digits a CSV writes (black-box bb13 F3).
        original = int(original)
    reading = phones.lost_plus_reading(original, c.phone_code or held.default_code)
    if reading is None:
        return
    code, shown = reading
    held.lost_plus.setdefault(code, RowList()).add(c.row)
    held.lost_plus_cells = held.lost_plus_cells or not isinstance(c.original, str)
    if held.lost_plus_first is None:
        held.lost_plus_first = (c.row, str(original).strip(), shown)


# Rows of E.164 without its "+" that make a file-wide warning (fewer are the rows' own notes),
# unless they are every number of the file.
_LOST_PLUS_ROWS: Final = 3


def lost_plus_sentence(held: Held, kind: str) -> str:
    """The warning on rows refused as numbers of the default code whose digits are numbers with
    their own country code written without the "+" (E.164 as SMS platforms export it):
    what to write, and the --phone-code that reads them all when they are of one country."""
    first = held.lost_plus_first
    count = sum(rows.count for rows in held.lost_plus.values())
    if first is None or not count or (count < _LOST_PLUS_ROWS and count < held.numbers):
        return ""
    rows = RowList()
    for listed in held.lost_plus.values():
        for number in listed.first:
            rows.add(number)
    rows.first.sort()
    rows.count = count
    number, written, shown = first
    column = (
        column_said(held.headers, held.phone_column)
        if held.phone_column is not None and held.phone_column < len(held.headers)
        else "the phone column"
    )
    one = count == 1
    verb = "imported" if kind == "import" else "removed"
    codes = sorted(held.lost_plus, key=lambda code: -held.lost_plus[code].count)
    if len(codes) == 1:
        code = codes[0]
        name = phones.region_name(code)
        what = (
            f"it is {phones.with_article(name)} number" if one else f"they are all {name} numbers"
        )
        either = f"; or, as {what}, run the file again with --phone-code {code}"
    else:
        named = joined([f"{phones.region_name(code)} (+{code})" for code in codes[:4]])
        either = f" (they are numbers of {named}{', …' if len(codes) > 4 else ''})"
    # A spreadsheet turns "+4915112345678" typed into a number cell back into the number.
    typed = (
        f"{'It is a number cell' if one else 'Such cells are number cells'}: format "
        f"{column} as Text first, as a spreadsheet drops a '+' typed into a number cell. "
        if held.lost_plus_cells
        else ""
    )
    return (
        f"{count:,} {'row' if one else 'rows'} of {column} ({rows_named(rows)}) "
        f"{'holds a number' if one else 'hold numbers'} written with "
        f"{'its' if one else 'their'} country code but without the '+' before it, as SMS "
        f"platforms write E.164 (row {number}: {written} is {shown}): read as numbers of the "
        f"default code +{held.default_code} ({phones.region_name(held.default_code)}), "
        f"{'it is' if one else 'they are'} not {verb}. {typed}Write a '+' before "
        f"{'that number' if one else 'each such number'} (+{written}) and run the file again"
        f"{either}; each row's message shows its number."
    )


def unshown_note(number: str, cell: str) -> str:
    """A row's note on its phone cell ``cell`` ("B17"), holding ``number`` that its number
    format shows as nothing."""
    return (
        f"cell {cell} holds {number} but its number format (as ';;;') shows nothing, so the "
        "sheet shows an empty cell there; the number was read"
    )


def unshown_sentences(held: Held, kind: str) -> list[str]:
    """The warning on the rows whose phone cell's number format shows nothing (";;;"): the
    officer sees an empty cell, yet the number is read (black-box bb13 F1)."""
    rows = held.unshown
    if not rows.count:
        return []
    which = "1 row's phone cell" if rows.count == 1 else f"{rows.count:,} rows' phone cells"
    goes = "is removed" if kind == "removal" else "goes on the list"
    return [
        f"{which} ({rows_named(rows)}) {'holds' if rows.count == 1 else 'hold'} a number "
        "that the cell's number format (as ';;;') "
        f"shows as nothing: the sheet shows an empty cell, yet the number {goes} as read. "
        "Give those cells a number format that shows them (Format Cells > General) to see what "
        "is imported, or delete the numbers that were hidden on purpose, and run the file again."
    ]


def damage_sentences(held: Held, kind: str) -> list[str]:
    """The warnings on phone cells a spreadsheet had damaged (:func:`noted` counts them in
    ``held``): how many rows were read from such cells; those whose number a short scientific
    display may have cut (:data:`~app.core.sheet_damage.CUT_SHORT`), read as they stand; and
    rows refused as US numbers that are another country's, in a file giving no country.

    Black-box P2 #4: the damage was only in each row's note, and a dry run of 6 damaged rows
    had no warning.
    """
    out = []
    damaged = held.damaged
    if damaged.count:
        rows = "1 row was" if damaged.count == 1 else f"{damaged.count:,} rows were"
        bad = held.damaged_invalid
        refused = ""
        if bad:
            them = "it" if damaged.count == 1 else f"{bad:,} of them"
            refused = f"; {them} {'is' if bad == 1 else 'are'} invalid"
        out.append(
            f"{rows} read from phone cells a spreadsheet had damaged ({rows_named(damaged)}), "
            "by scientific notation, a dropped leading 0, digits cut, or decimals or separators "
            f"written into the number{refused}. Each row's "
            "damage note (the report's Damage note column) says how; check those numbers "
            "against the source."
        )
    guessed = held.lost_zero_guess
    if guessed.count:
        one = guessed.count == 1
        rows = "1 row's phone cell" if one else f"{guessed.count:,} rows' phone cells"
        out.append(
            f"{rows} ({rows_named(guessed)}) may have lost a leading 0, as a spreadsheet drops "
            f"it from a number cell: {'it is no valid number' if one else 'none is a valid'} "
            f"{'as written' if one else 'number as written'}, and "
            f"{'it' if one else 'each'} would be one with a 0 before it. That is a guess, not "
            "a certainty: each row's damage note gives the number with the 0; check "
            f"{'it' if one else 'them'} against the source."
        )
    cut = held.cut_short
    if cut.count:
        one = cut.count == 1
        rows = "1 row holds a number" if one else f"{cut.count:,} rows hold numbers"
        if kind == "removal":
            done = (
                f"{'It is' if one else 'They are'} not removed (invalid), as a removal of a "
                "number cut from another would take that consumer's opt-out off the list"
            )
        else:
            done = (
                f"{'It is' if one else 'They are'} imported as read (a real number ends so "
                "about once in ten thousand), so the number meant may not be on the list"
            )
        out.append(
            f"{rows} of ten digits or more whose digits after the sixth are all zeros "
            f"({rows_named(cut)}), {CUT_SHORT} (2025551241 shown as 2.02555E+09 is saved as "
            f"2025550000): {'it' if one else 'each'} may be another number cut short. {done}; "
            "each row's damage note shows the numbers it may have been cut from. Check them "
            "against the source; if they were cut, correct the file (format the column as "
            "text, or widen it, before saving it) and run the file again."
        )
    if held.other_country:
        out.append(_other_country_sentence(held, kind))
    if lost_plus := lost_plus_sentence(held, kind):
        out.append(lost_plus)
    if empty := held.empty_country.sentence(held.headers):
        out.append(empty)
    return out


def _put_back(lost: RowList, rows: RowList) -> str:
    """The clause on the 0 put back in front of the ``lost`` ones of ``rows``: none when every
    cell was written with it (black-box pass Q1 #2: said of the text cell "07911 123457")."""
    if not lost.count:
        return ""
    # Black-box B20 F1: said of an xlsx text cell, "dropped it from a number cell" was untrue;
    # what the app knows is that the cell lacks the 0 a number cell loses.
    drops = "as a spreadsheet's number cell drops it"
    if lost.count == rows.count:
        return f"; the 0 put back where the cell lacks it, {drops}"
    lack = "whose cell lacks" if lost.count == 1 else "whose cells lack"
    return f"; the 0 put back in {rows_named(lost)}, {lack} it, {drops}"


# A file looks like another country's list when its rows refused as US numbers that are that
# country's are most of those so refused, at least _LIST_ROWS, and at least _LIST_SHARE of the
# rows read: one or two foreign rows in a US list are not.
_LIST_ROWS: Final = 3
_LIST_SHARE: Final = 0.1


# Countries fitting at least this share of the rows the best one fits are named with it: one
# row more in a loose numbering (Indonesia's fits six Iranian numbers of six, Iran's five) tells
# nothing (black-box X/B2 #2).
_NEAR_FIT: Final = 0.8
# How many such countries a warning names; the rows' messages name every country.
_COUNTRIES_NAMED: Final = 3


def _fit_rank(item: tuple[str, RowList]) -> tuple[int, int]:
    """Most rows first; among equals, the supported countries in their order, then by code."""
    code, rows = item
    order = phones.SUPPORTED_PHONE_CODES
    return (-rows.count, order.index(code) if code in order else 100 + int(code))


def _named_rank(item: tuple[str, RowList]) -> tuple[int, int, int]:
    """The order countries fitting nearly as many rows as the best are named in: the countries
    tried before every one was (phones.zero_codes, the United Kingdom first) in that order,
    then the rest by fit. Black-box V3 F2: India's and Iraq's numbering takes nearly any 0 and
    ten digits, so a UK list (one number in the UK's reserved drama range) was advised
    --phone-code 91 first, and a 50,000-row one "India, Iraq and United Kingdom"."""
    code = item[0]
    preferred = phones.zero_codes()
    if code in preferred:
        return (0, preferred.index(code), 0)
    return (1, *_fit_rank(item))


def _other_country_sentence(held: Held, kind: str) -> str:
    """The warning on rows refused as US numbers that are valid numbers of another country,
    and on rows read as US numbers from bare digits that fit it too once a 0 is put back, in a
    file giving no country: those read two ways, and running the file again under that
    country leaves what this run does to their US numbers (black-box R2 #8), so the warning
    says so.

    The country is the one the most rows fit, counting every country each row's number is
    valid in (:attr:`~app.core.sheet_check.Marks.fits`), not only the first a row names:
    black-box X/B2 #2, an Iranian list was advised --phone-code 49, as Germany's numbering
    takes most 11-digit numbers starting 0. When other countries fit nearly as many rows
    (:data:`_NEAR_FIT`), the warning names them (:func:`_named_rank`'s order, at most
    :data:`_COUNTRIES_NAMED`), each with its rows, says the numbers cannot tell which, and
    advises none."""
    fits = held.fits or held.other_country
    ranked = sorted(fits.items(), key=_fit_rank)
    best = ranked[0][1].count
    # A country whose numbers rows are as written comes first, as their messages name it
    # first: no 0 is assumed lost (Italy's mobiles fit Germany's numbering with one before).
    near = sorted(
        ((code, rows) for code, rows in ranked if rows.count >= _NEAR_FIT * best),
        key=lambda item: (item[0] not in held.written_fits, *_named_rank(item)),
    )
    codes = [code for code, _ in near]
    rows = held.foreign if len(near) > 1 and held.foreign.count else near[0][1]
    single = len(near) == 1
    code = codes[0]
    name = code_name(code)
    a_name = phones.with_article(name)
    both = RowList()
    example = ""
    refused = held.foreign.count or sum(other.count for other in held.other_country.values())
    unread = [column for column in held.unread_countries.values() if column.counts]
    # Black-box U2 #2: one Italian landline among 60 US numbers made 51 of them "Germany
    # numbers read as US ones" (nearly any US number with a 0 before it is a German one), and
    # the warning advised removing them. Only a file that looks like that country's list says
    # it may be one, or names its US rows as read two ways.
    a_list = best >= _LIST_ROWS and best >= _LIST_SHARE * held.numbers and 2 * best > refused
    # A file with a column of its rows' countries is no one country's list to run again under
    # one code: its rows' own countries decide, once the column is read (black-box B7 #1).
    a_list = a_list and not unread
    # Only the first country named (the best fit, or the first supported among equals): nearly
    # any US number with a 0 before it is an Italian or a German one, so trying each would
    # name every US row; what is said of them is a condition on that country.
    as_written = held.written_fits.get(code, RowList()).count > 0
    for number, national in held.us_cells if a_list else ():
        abroad = phones.normalize(f"0{national}", code)
        if as_written and (stands := phones.normalize(national, code)).national == national:
            abroad = stands  # Italy's mobile 3477439150 is a valid US number too
        if abroad.ok:
            both.add(number)
            if not example:
                as_us = f"+1 {national[:3]} {national[3:6]} {national[6:]}"
                as_abroad = phones.format_for_display(abroad.national, code)
                example = f"the US number {as_us}, or {as_abroad}"
    one = rows.count == 1
    written = {fit: held.written_fits[fit] for fit in codes if fit in held.written_fits}
    how = "as written or with a leading 0" if written else "written with a leading 0"
    if single:
        if written.get(code, RowList()).count == rows.count:
            how = "as written"
        valid = (
            f"{'is a valid' if one else 'are valid'} {name} {'number' if one else 'numbers'} "
            f"{how}{'' if how == 'as written' else ', as dialled within that country'}"
        )
        put_back = _put_back(held.zero_put_back.get(code, RowList()), rows)
        which = ""
    else:
        valid = (
            f"{'is a valid number' if one else 'are valid numbers'} of several countries "
            f"{how}, as dialled within them"
        )
        put_back = _put_back(held.foreign_put_back, rows) + _read_as_written(written)
        total = held.foreign.count
        said = [
            f"{code_name(fit)} ({fit_rows.count:,} of {total:,}{' rows' if i == 0 else ''})"
            for i, (fit, fit_rows) in enumerate(near[:_COUNTRIES_NAMED])
        ]
        if len(near) > _COUNTRIES_NAMED:
            said.append(f"{len(near) - _COUNTRIES_NAMED} more countries")
        which = (
            f": {joined(said)}; the numbers cannot tell which country's "
            f"{'it is' if one else 'they are'}"
        )
    read_columns = [column_said(held.headers, i) for i in held.code_columns]
    if unread:
        given = f"as {column_said(held.headers, unread[0].index)} was not read as countries"
    elif read_columns:
        # Black-box B22 (X2_empty_cells.csv): "the file gives no country" of a file whose
        # Country column was read, these rows' cells in it being empty.
        given = (
            f"{'its cell' if one else 'their cells'} in {joined(read_columns)} "
            f"{'is' if one else 'are'} empty"
        )
    else:
        given = "the file gives no country"
    give_countries = (
        f"or write each row's country in its empty cell in {read_columns[0]}"
        if read_columns
        else "or give it a Country column"
    )
    head = (
        f"{'1 row' if one else f'{rows.count:,} rows'} read under the default country code 1 "
        f"({given}) "
        f"{'is not a valid US number' if one else 'are not valid US numbers'} "
        f"but {valid} ({rows_named(rows)}{put_back}){which}"
    )
    also = after = ""
    if both.count:
        alone = both.count == 1
        among = (
            f" (of the first {US_CELLS_TRIED:,} read as US numbers from bare digits)"
            if len(held.us_cells) >= US_CELLS_TRIED
            else ""
        )
        first = f"row {both.first[0]}: {example}"
        if not alone:
            first = f"{rows_named(both)}; {first}"
        maybe = (
            f"it may be {a_name} number read as a US one"
            if alone
            else f"they may be {name} numbers read as US ones"
        )
        also = (
            f"; {'1 row' if alone else f'{both.count:,} rows'} read as "
            f"{'a US number' if alone else 'US numbers'} from bare digits "
            f"{'reads' if alone else 'read'} two ways, "
            f"{'a valid' if alone else 'valid'} {name} {'number' if alone else 'numbers'} "
            f"too{' as written or' if as_written else ''} once a 0 is put back{among} "
            f"({first}), so {maybe}"
        )
        them, it = ("that US number", "it") if alone else ("those US numbers", "them")
        if kind == "removal":
            after = (
                f" A removal run as the file stands takes {them} off the list "
                f"({rows_named(both)}): if the file is {a_name} list, add {it} back."
            )
        else:
            after = (
                f" An import run as the file stands puts {them} on the list "
                f"({rows_named(both)}), and a run again with --phone-code {code} leaves {it} "
                f"there: if the file is {a_name} list, remove {it}."
            )
    # Below the threshold the advice stays, as a condition the officer decides, but no US row
    # is named as read two ways (V1: a German list of ten rows, two of them counted here, was
    # told it was no German list).
    verb = "remove" if kind == "removal" else "import"
    if unread:
        return f"{head}{also}. {_unread_countries_advice(held, unread, verb)}"
    if single:
        advice = (
            f"If the file is {a_name} list, {verb} it again with --phone-code {code} "
            f"({give_countries})"
        )
    else:
        each = [f"--phone-code {fit} for {code_name(fit)}" for fit in codes[:_COUNTRIES_NAMED]]
        either = f"{', '.join(each[:-1])} or {each[-1]}"
        advice = (
            f"If the file is one country's list, {verb} it again with that country's: "
            f"{either} ({give_countries})"
        )
    return (
        f"{head}{also}. {advice}; otherwise each refused row's message says what it "
        f"reads as.{after}"
    )


def _read_as_written(written: Mapping[str, RowList]) -> str:
    """The clause naming the rows whose digits, as they stand, are a valid number of each
    country of ``written`` (:attr:`Held.written_fits`): no 0 was put back to read them so."""
    said = [
        f"{rows_named(rows)} {'is a valid' if rows.count == 1 else 'are valid'} "
        f"{code_name(code)} {'number' if rows.count == 1 else 'numbers'} as written"
        for code, rows in written.items()
    ]
    return f"; {'; '.join(said)}" if said else ""


def _unread_countries_advice(held: Held, unread: Sequence[UnreadCountries], verb: str) -> str:
    """What :func:`_other_country_sentence` advises when the file has a column of its rows'
    countries that was not read: no --phone-code, which would give every row one country
    whatever its cell says, but the values the column was not read for, with their rows, and
    how to have it read (black-box B7 #1)."""
    said = []
    for i, column in enumerate(unread):
        values = [
            f"{text!r} ({_first_rows(rows)})"
            for text, rows in list(column.unknown.items())[:_UNKNOWN_SHOWN]
        ]
        if column.unknown_rows.count > sum(
            rows.count for rows in list(column.unknown.values())[:_UNKNOWN_SHOWN]
        ):
            values.append("others")
        many = len(values) > 1
        named = "that column" if i == 0 else column_said(held.headers, column.index)
        said.append(
            f"{named} gives the rows' countries, but {joined(values)} "
            f"{'are' if many else 'is'} no country name or code DNC Desk knows"
        )
    text = "; ".join(said)
    columns = "those columns" if len(unread) > 1 else "it"
    return (
        f"{text[0].upper()}{text[1:]}. Write such values as country names or calling codes "
        f"(as Sweden or 46) and {verb} the file again, so that each row takes its own "
        f"country's code (or choose {columns} for Country code in the import wizard, which "
        "refuses the rows whose value it does not know): one --phone-code would give every "
        "row the same country, whatever its Country cell says. Each refused row's message "
        "says what its number reads as."
    )


def _first_rows(rows: RowList) -> str:
    """ "row 3", "rows 3, 9 and 12", "rows 3, 9, 12 and 4 more": a value's first rows."""
    shown = RowList(rows.count, rows.first[:_UNKNOWN_SHOWN])
    return rows_named(shown)
