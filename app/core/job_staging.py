"""From a spreadsheet to a job file: open, find the header, map, check every row, stage.

Shared by imports and removals. The checking itself is :func:`app.core.sheet_check.check_rows`;
this module only wires the reader, header detection and mapping to it and writes each verdict
into the :class:`~app.core.job_store.JobStore`, streaming (a million-row file is never held).

What the file holds besides its cells (hidden rows, formulas never calculated, sheets and
columns of phone numbers not read) is :mod:`app.core.staging_notes`'s; staging stores its
sentences as the job's meta ``warnings``, with one for each kind of row note easy to miss
among many rows (:class:`_Verdicts`: two scopes named, a reason cut, a campaign the connection
lacks). Columns the person sets aside (``JobSettings.ignore_columns``) are read by nothing.
A row's purpose the target list has only spelled otherwise (:func:`purpose_key`: case, white
space, Unicode form) takes the list's spelling, or is invalid when the list has several
(:class:`_ListSpellings`, given the list's purposes by ``JobSettings.list_purposes``); an
import's rows spelling one purpose several ways, none of them the list's, are warned of
(:class:`_RowSpellings`), as the service would keep each spelling as a purpose of its own.
A removal is refused, before any job file is written, when the file cannot say which rows are
hidden, and when the phone column it found (none was named) is hidden in the file with no
visible column of the same header to read instead, unless hidden rows and columns are
included; and when the column read for countries holds US state
codes that are countries' too ("IN", "DE") beside numbers valid both ways, which nothing in the
file settles (:class:`~app.core.sheet_mapping.StateNumbers`), whether the columns were guessed or
chosen in the import wizard, unless the person said the column holds countries
(``JobSettings.countries_chosen``; an import is warned of the doubt instead).
The file is named in the job's name, meta and sentences by :func:`~app.core.paths.path_text`,
so a name that is not valid UTF-8 reads ``bad\\xf1name.csv`` (black-box R5 #1).
"""

from __future__ import annotations

import datetime as dt
import re
import shlex
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any, Final

from app.api.scope import Scope
from app.core import phones
from app.core.code_mix import CodeMix
from app.core.connections import Connection
from app.core.entry_validation import MAX_TEXT
from app.core.job_catalog import source_meta
from app.core.job_report import DAMAGED, LEAD_STATUS_DNC, without_after_note
from app.core.job_store import STAGED, JobRow, JobStore, NewRow, Outcome, new_job_id, utc_now
from app.core.message_log_notes import LogWatch
from app.core.other_tables import other_tables_sentences
from app.core.own_reports import (
    OwnReport,
    export_reasons_left,
    export_reasons_sentence,
    other_list_refusal,
    unsaid_list_sentence,
    without_entry_reasons,
)
from app.core.paths import path_text
from app.core.reason_numbers import other_numbers_sentence, repeated_numbers_sentence
from app.core.sheet_check import (
    DATE_AFTER,
    DATE_MISSING,
    DATE_UNREAD,
    ROW_SCOPE_USED,
    SCOPE_CELL_USED,
    CheckedRow,
    CheckOptions,
    CheckSummary,
    RowList,
    Target,
    check_rows,
    delimiter_name,
    last_named_column,
    measured_from_earlier,
)
from app.core.sheet_check import Outcome as CheckOutcome
from app.core.sheet_csv import CsvSource
from app.core.sheet_dates import LATE_SENTENCE, DayFirst
from app.core.sheet_guard import ods_rows_past
from app.core.sheet_header import (
    holds_phone_number,
    is_blank,
    is_label,
    looks_like_phone,
    read_preview,
    totals_row,
)
from app.core.sheet_mapping import (
    SAMPLE_ROWS,
    ColumnError,
    ColumnMapping,
    OtherDigits,
    Role,
    StateNumbers,
    campaign_stand_ins,
    column_letter,
    column_name,
    column_said,
    extension_columns,
    extension_sentence,
    fax_columns,
    header_role,
    holds_phones,
    is_area_code_header,
    names_own_line,
    opt_out_flag_columns,
    other_date_columns,
    other_digits_named,
    other_phone_columns,
    propose_from_preview,
    propose_under_header,
    resolve_column,
    skipped_phone_columns,
    state_numbers,
    unread_code_columns,
    visible_twin,
)
from app.core.sheet_reader import (
    WORKBOOK_SUFFIXES,
    SheetSource,
    WorkbookSource,
    open_sheet,
    resolve_sheet_path,
)
from app.core.sheet_scope import (
    UNRESOLVED_OFFLINE,
    CampaignDirectory,
    campaign_ids_checked,
    cell_text,
    visible_text,
)
from app.core.sheet_types import CellValue, Row, SheetError
from app.core.sheet_worker import PROBE_ROWS, do_not_use_sheet, front_matter_sheet, usable_first
from app.core.staging_notes import (
    UNCHECKED_DATE_ROWS,
    Held,
    HiddenRows,
    UncheckedDates,
    above_header_sentence,
    alike_sheets,
    alike_sheets_sentence,
    check_apart,
    column_order,
    damage_sentences,
    date_order_sentence,
    formatted_order,
    formula_columns,
    formula_columns_sentences,
    hidden_phone_column_sentences,
    hidden_sheets_sentences,
    hidden_twin_sentence,
    hidden_unknown_sentence,
    late_invalid_sentence,
    named_column_empty_sentence,
    noted,
    notes_sentences,
    opt_out_flag_sentence,
    other_dates_sentence,
    other_reading_late_sentence,
    rows_named,
    state_choice_sentence,
    state_doubt_sentence,
    toll_free_sentence,
    unchecked_dates_sentence,
    unread_cells_sentence,
    unread_code_sentence,
    unshown_sentences,
    watched,
    year_first_sentence,
)
from app.core.unread_columns import unread_text_columns, unread_text_sentence
from app.core.unread_phones import (
    UnreadPhones,
    imported_before_sentence,
    watch_unread_phones,
)
from app.core.wording import joined

CACHE_RESET_ROWS = 100_000

_FINAL = {
    CheckOutcome.INVALID: Outcome.INVALID.value,
    CheckOutcome.DUPLICATE: Outcome.DUPLICATE.value,
    CheckOutcome.BLANK: Outcome.BLANK.value,
}


class MappingError(SheetError):
    """The file was read but its columns cannot be used as asked; one sentence.

    ``str()`` is worded for any front end; ``cli_text``, when set, is the same sentence with
    the command-line options that fix it, which the GUI has no use for. ``bad_argument``: the
    options asked for contradict each other, whatever the file holds (exit status 2 on the
    command line, as an unknown column is).
    """

    def __init__(self, message: str, cli_text: str = "", *, bad_argument: bool = False) -> None:
        super().__init__(message)
        self.cli_text = cli_text or message
        self.bad_argument = bad_argument


@dataclass
class JobSettings:
    """What a person asked for: the file, where its rows go, and the job's name and note."""

    file: Path
    scope: Scope
    target: Target = Target.DNC
    sheet: str | None = None
    phone_column: str | None = None
    phone_code: str = "1"
    reason: str = ""
    purpose: str = ""
    name: str = ""
    note: str = ""
    report: Path | None = None
    lead_status: str = ""
    # Whether the service flags ``lead_status`` as a DNC status (``/status/search``'s ``dnc``),
    # as the status's check found it; None when not checked (a dry run without a connection).
    # A lead set to a DNC status does not look callable while its number stays listed, which
    # the job's warning on such leads says (black-box bb15).
    lead_status_dnc: bool | None = None
    # A removal leaves rows hidden in the file (by hand or by a filter) alone unless this is set.
    include_hidden: bool = False
    # A removal takes the scope a row's Scope/Campaign cells name (else ``scope``) only when
    # this is set; otherwise a row naming another scope than ``scope`` is invalid.
    scope_from_rows: bool = False
    # Columns no role reads (by header name, letter or position, as ``phone_column``): a
    # column the mapping would misread, as an SMS platform's Campaign column naming no
    # campaign of the dialer's. Their cells are read as empty; the job's mapping names them.
    ignore_columns: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    # The purposes on the target list, read when a row first names one (a run with a
    # connection; None without): a row's purpose the list writes otherwise takes the list's
    # spelling (:class:`_ListSpellings`). Here rather than an argument of stage(), as the
    # import and removal stagers pass on only the arguments they know.
    list_purposes: ListPurposes | None = None
    # The person said the column read for countries holds countries, though its codes are US
    # states' too ("IN", "DE") and its numbers read both ways (the import wizard's box on its
    # check page): no warning of the doubt, and a removal is not refused for it.
    countries_chosen: bool = False
    # ``sheet`` is the one the window's reader guessed and showed, not one the person chose:
    # other sheets laid out as it are warned of as with no sheet named (black-box bb4 #7).
    sheet_guessed: bool = False
    # The options a command printed for the person to paste ends with, as the front end was
    # given them (``--base-url URL`` or ``--connection NAME``, and ``--dry-run``), which
    # staging cannot know: pasted without them, it was refused or ran for real where the
    # person was checking (black-box bb12 F1). Never a token.
    pasted_options: tuple[str, ...] = ()
    # The phone columns the imports of this file before this one read (the window's "Import
    # column … next"), and those jobs' ids: not said to be left off the list (bb14 W6).
    imported_before: tuple[int, ...] = ()
    imported_by: tuple[str, ...] = ()


def _scope_text(settings: JobSettings, mapping: ColumnMapping, kind: str) -> str:
    """The job's scope as the report's Summary and the job list say it: with per-row scopes,
    where they come from (the file's cells win; the job's scope is for rows naming none)."""
    scope = str(settings.scope)
    if mapping.scope is None and mapping.campaign is None:
        return scope
    if kind == "removal" and not settings.scope_from_rows:
        return f"{scope} (rows of the file naming another scope are invalid)"
    return f"per row from the file; {scope} for rows naming none"


def map_sheet(
    preview: list[tuple[int, Any]],
    settings: JobSettings,
    file_name: str,
    sheet: str = "",
    sheet_names: tuple[str, ...] = (),
    *,
    text_file: bool = False,
    hidden: Collection[str] = frozenset(),
    offered: Collection[str] | None = None,
) -> ColumnMapping:
    """The proposed mapping for the previewed rows, with the settings' overrides applied.
    ``text_file``: the file was read as text (CSV, TSV), whatever its name. ``hidden``: the
    hidden sheets among ``sheet_names``, which a hint of other sheets says are hidden;
    ``offered``: those the hint may offer (None: every one).

    ``settings.phone_column`` is resolved by :func:`resolve_column` (a header name first,
    then a position). When no header row was recognised but the first row has a cell of that
    name (a file of words with no phone-shaped data to anchor the guess), that row becomes
    the header.
    """
    mapping = propose_from_preview(preview, settings.phone_code)
    where = f"sheet {sheet!r} of {file_name}" if len(sheet_names) > 1 else file_name
    wanted = [settings.phone_column] if settings.phone_column else []
    wanted += settings.ignore_columns
    indexes: list[int] = []
    ignored: list[int] = []
    guessed, headers = mapping.phone, mapping.headers
    if wanted:
        mapping, indexes = _resolve_named(preview, mapping, wanted, settings.phone_code, where)
        guessed, headers = mapping.phone, mapping.headers  # before ignored headers are blanked
        ignored = indexes[1:] if settings.phone_column else indexes
        if settings.phone_column and indexes[0] in ignored:
            column = column_said(mapping.headers, indexes[0])
            raise MappingError(
                f"{column[0].upper()}{column[1:]} of {where} is named both as the phone column "
                "and as a column to ignore; name it once.",
                bad_argument=True,  # re-test M1 #6: it said exit status 1, as for a bad file
            )
        if ignored:
            mapping = _without_columns(preview, mapping, set(ignored), settings.phone_code)
    if settings.phone_column:
        index = indexes[0]
        for role in Role:
            if mapping.column(role) == index:
                mapping.set_column(role, None)
        mapping.phone = index
        # Named, so no guess of which end of a log is the consumers' (black-box Q1 #2).
        mapping.guessed_end = None
    if mapping.phone is None:
        others = [n for n in sheet_names if n != sheet]
        where = f"sheet {sheet!r} of {file_name}" if others else file_name
        if offered is not None:
            others = [n for n in others if n in offered]
        listed = ", ".join(f"{name!r}{' (hidden)' if name in hidden else ''}" for name in others)
        hint = f", or choose another sheet with --sheet ({listed})" if others else ""
        unread = " ".join(
            f"{header!r} is headed as fax numbers, so it is read only when chosen."
            for header in fax_columns(mapping.headers)
        )
        if split := split_number_sentence(mapping.headers):
            unread = f"{unread} {split}".strip()
        if guessed is not None and guessed in ignored:
            # Re-test M1 #7: the column set aside was the one read as phone numbers; without
            # this the sentence only said none was found, as if the file had none.
            column = column_said(headers, guessed)
            unread = (
                f"{unread} {column[0].upper()}{column[1:]}, the one holding them, is set aside "
                "as a column to ignore."
            ).strip()
        # The data rows only: with the header row among them, a column of 4 phone numbers in
        # 8 rows was 4 of 9, under half, and went unnamed (black-box V3, issue 4).
        data = [row for row in preview if row[0] > (mapping.header_row or 0)]
        skipped = skipped_phone_columns(mapping.headers, data, settings.phone_code)
        cli_unread = unread
        if skipped:
            said = _skipped_sentence(mapping.headers, skipped)
            unread = f"{unread} {said}.".strip()
            options = " or ".join(f"--phone-column column:{column_letter(i)}" for i in skipped)
            cli_unread = f"{cli_unread} {said}: {options}.".strip()
        ours = [
            f"{h!r} (column {column_letter(i)})"
            for i, h in enumerate(mapping.headers)
            if h and names_own_line(h)
        ]
        if ours:
            one = len(ours) == 1
            own = (
                f"{' and '.join(ours)} {'names' if one else 'name'} the business's own "
                f"line, so {'it is' if one else 'they are'} not read in the customers' place."
            )
            unread = f"{unread} {own}".strip()
            cli_unread = f"{cli_unread} {own}".strip()
        suffix = Path(file_name).suffix.lower()
        if text_file and suffix in WORKBOOK_SUFFIXES:
            # A CSV saved under a workbook's name: "no column of phone numbers" alone sent the
            # person looking for a column in a workbook that is not there (FXG, B23 F8b).
            said = (
                f"No column of phone numbers was found in {file_name}, a text file despite its "
                f"{suffix} name (most likely a CSV saved with the wrong extension): rename it to "
                ".csv, check that it is the list meant, and run it again"
            )
            raise MappingError(
                f"{said}." + (f" {unread}" if unread else ""),
                f"{said}, naming the phone column with --phone-column if it has one."
                + (f" {cli_unread}" if cli_unread else ""),
            )
        raise MappingError(
            f"No column of phone numbers was found in {where}"
            + (f" (its other sheets: {listed})." if others else ".")
            + (f" {unread}" if unread else ""),
            f"No column of phone numbers was found in {where}; "
            f"name it with --phone-column (a header name, or a column as column:C or #3){hint}."
            + (f" {cli_unread}" if cli_unread else ""),
        )
    mapping.default_phone_code = settings.phone_code
    mapping.default_reason = settings.reason
    mapping.default_purpose = settings.purpose
    mapping.default_scope = settings.scope
    return mapping


# What a column skipped as the phone column is headed as, one column and several.
_OTHER_DIGITS_SAID: Final = {
    OtherDigits.MEASURE: ("a quantity or a price", "quantities or prices"),
    OtherDigits.GOODS: ("a stock, part or security number", "stock, part or security numbers"),
    OtherDigits.ID: ("an id or a reference", "ids or references"),
    OtherDigits.OTHER: (
        "other numbers (an account, customer or member number)",
        "other numbers (an account, customer or member number)",
    ),
}


def _skipped_sentence(headers: Sequence[str], skipped: Sequence[int]) -> str:
    """The sentence, without its full stop, naming columns of phone numbers not read for
    their headers and what each header names ("'Volume' (column B) holds phone numbers, but
    its header names a quantity or a price, so it is read only when chosen as the phone
    column"): black-box V3 found a "Volume" column said to name "an account, customer or
    member number". The command line adds the options that read them."""
    kinds: dict[OtherDigits, int] = {}
    for index in skipped:
        kind = other_digits_named(headers[index])
        kinds[kind] = kinds.get(kind, 0) + 1
    what = joined([_OTHER_DIGITS_SAID[kind][count > 1] for kind, count in kinds.items()])
    named = " and ".join(f"{headers[i]!r} (column {column_letter(i)})" for i in skipped)
    if len(skipped) > 1:
        return (
            f"{named} hold phone numbers, but their headers name {what}, so they are read only "
            "when chosen as the phone column"
        )
    return (
        f"{named} holds phone numbers, but its header names {what}, so it is read only when "
        "chosen as the phone column"
    )


def _resolve_named(
    preview: list[tuple[int, Any]],
    mapping: ColumnMapping,
    names: Sequence[str],
    code: str,
    where: str,
) -> tuple[ColumnMapping, list[int]]:
    """The columns ``names`` name (``--phone-column``, ``--ignore-column``), by
    :func:`resolve_column`, and the mapping they were found in: with no header row
    recognised, a first row holding every name becomes the header (see :func:`map_sheet`)."""
    try:
        return mapping, [resolve_column(mapping.headers, name, where) for name in names]
    except ColumnError as exc:
        first = next(((n, c) for n, c in preview if not is_blank(c)), None)
        if mapping.header_row is not None or first is None:
            raise MappingError(str(exc)) from exc
        retry = propose_under_header(preview, first[0], code, chosen=True)
        try:
            return retry, [resolve_column(retry.headers, name, where) for name in names]
        except ColumnError as again:
            # A first row of labels reads as the headers a person sees in the file.
            labels = all(v is None or is_label(v) for v in first[1])
            raise MappingError(str(again if labels else exc)) from exc


def _without_columns(
    preview: list[tuple[int, Any]], mapping: ColumnMapping, ignored: set[int], code: str
) -> ColumnMapping:
    """The mapping proposed again under the same header with the ``ignored`` columns empty
    (their headers too, so no role is given one by its name), their headers kept for the
    sentences that name columns: a phone column guessed there is guessed again elsewhere."""
    emptied = [(number, blanked(cells, ignored)) for number, cells in preview]
    again = propose_under_header(emptied, mapping.header_row, code)
    again.headers = mapping.headers  # emptying cells keeps the sheet's width
    _read_by_no_role(again, ignored)
    return again


def _read_by_no_role(mapping: ColumnMapping, ignored: Set[int]) -> None:
    """Takes the ``ignored`` columns from every role of ``mapping`` (the country too)."""
    for role in Role:
        if mapping.column(role) in ignored:
            mapping.set_column(role, None)
    if mapping.country in ignored:
        mapping.country = None


def blanked(cells: Sequence[CellValue], ignored: Set[int]) -> list[CellValue]:
    """``cells`` with those of the ``ignored`` columns empty."""
    out = list(cells)
    for index in ignored:
        if index < len(out):
            out[index] = None
    return out


def ignored_columns(settings: JobSettings, mapping: ColumnMapping) -> list[int]:
    """The columns ``settings.ignore_columns`` name in ``mapping``'s headers (in that order,
    each once); raises MappingError as :func:`map_sheet` does for one that names none."""
    out: list[int] = []
    for name in settings.ignore_columns:
        try:
            index = resolve_column(mapping.headers, name, settings.file.name)
        except ColumnError as exc:
            raise MappingError(str(exc)) from exc
        if index not in out:
            out.append(index)
    return out


def _chosen_without(mapping: ColumnMapping, ignored: Set[int], file_name: str) -> ColumnMapping:
    """A mapping chosen in the wizard with no role reading an ``ignored`` column; refused
    when its phone column is one."""
    if mapping.phone is not None and mapping.phone in ignored:
        column = column_said(mapping.headers, mapping.phone)
        raise MappingError(
            f"{column[0].upper()}{column[1:]} of {file_name} is chosen as the phone column and "
            "named as a column to ignore; name it once."
        )
    out = replace(mapping)
    _read_by_no_role(out, ignored)
    return out


def _described(
    mapping: ColumnMapping, headers: Sequence[str], ignored: Sequence[int]
) -> dict[str, str]:
    """The mapping as the job's meta and report name it, with the columns the person set
    aside, by the file's ``headers`` (the evidence says they were not read by choice)."""
    out = mapping.describe()
    if ignored:
        out["ignored (as asked)"] = ", ".join(column_name(headers, i) for i in ignored)
    return out


def _totals_rows(
    rows: Iterable[Row],
    mapping: ColumnMapping,
    formulas: dict[tuple[int, int], str],
    totals: dict[int, dict[int, str]],
) -> Iterator[Row]:
    """``rows``, the formulas with no saved result on a table's totals row (:func:`totals_row`:
    "Total | =SUBTOTAL(103,T[Country Code])") taken out of ``formulas`` into ``totals`` (by
    row, then column): the row is a total line, which the check says it is, not a row whose
    cell wants calculating (black-box B13 #5). Only a row whose phone cell holds no digit is
    looked at: a totals row's holds its label, a formula or nothing."""
    phone, header = mapping.phone, mapping.header_row or 0
    if phone is None:
        yield from rows
        return
    for row in rows:
        number, cells = row
        if formulas and number > header:
            raw = cells[phone] if phone < len(cells) else None
            if raw is None or (type(raw) is str and not any(ch.isdigit() for ch in raw)):
                on_row = {
                    index: formula
                    for index in range(len(cells))
                    if (formula := formulas.get((number, index))) is not None
                }
                if on_row and totals_row(cells, phone, on_row):
                    for index in on_row:
                        del formulas[(number, index)]
                    totals[number] = on_row
        yield row


def _totals_noted(
    checked: Iterable[CheckedRow], totals: dict[int, dict[int, str]]
) -> Iterator[CheckedRow]:
    """``checked``, the message of a totals row :func:`_totals_rows` found naming its formulas,
    which read as empty: the person sees why nothing is asked of them."""
    for c in checked:
        on_row = totals.pop(c.row, None) if totals else None
        if on_row and c.outcome is CheckOutcome.INVALID and c.message:
            cells = joined([f"{column_letter(i)}{c.row} (={f})" for i, f in on_row.items()])
            many = len(on_row) > 1
            said = (
                f"cells {cells} are the table's totals, formulas with no saved result"
                if many
                else f"cell {cells} is the table's total, a formula with no saved result"
            )
            c.message = f"{c.message}; {said}: nothing to correct"
        yield c


def _row_numbers_sentence(summary: CheckSummary) -> str:
    """The note on column A holding the row numbers pandas writes (see
    :class:`~app.core.sheet_check.RowCounter`), when a row holding nothing else was counted
    blank for it; ``""`` otherwise."""
    rows = summary.row_numbers
    if not rows.count:
        return ""
    each = "holds" if rows.count == 1 else "hold"
    end = summary.row_numbers_end
    # Black-box RV2: the note said column A holds the counter when it stopped further down.
    until = (
        f", down to row {end - 1} (from row {end} on it holds other values, so no later row "
        "is taken for a row number)"
        if end
        else ""
    )
    return (
        "Column A has no header and holds the row numbers 0, 1, 2, … that pandas writes "
        f"before a table's columns (to_csv or to_excel with its index){until}, so it is taken "
        f"for them and not read: {rows_named(rows)}, which {each} nothing but a row number, "
        f"{'is' if rows.count == 1 else 'are'} counted blank."
    )


# The last row a sheet of each format holds: an .xls (Excel 97-2003) 65,536, every other
# 1,048,576, which Excel also reads of a CSV at most.
XLS_LAST_ROW: Final = 65_536
EXCEL_LAST_ROW: Final = 1_048_576


class _LastRow:
    """The number of the last row holding a value that a sheet's reader gave, and whether the
    row above it holds one too (``run``): a sheet cut off at its format's last row is filled
    down to it, where one stray cell there (U1 F6) stands alone."""

    def __init__(self) -> None:
        self.number = 0
        self.run = False

    def watch(self, rows: Iterable[Row]) -> Iterator[Row]:
        for row in rows:
            number, cells = row
            for cell in cells:
                if cell is not None and cell != "":
                    self.run = self.number == number - 1
                    self.number = number
                    break
            yield row


def _last_row_sentence(source: SheetSource, last: int, name: str, kind: str) -> str:
    """The warning on a sheet whose data reach the last row its format holds (black-box B18
    F4: an .xls LibreOffice saved from 66,000 rows read 65,535 of them, and nothing said so):
    the rows after it were most likely cut off when it was saved so; ``""`` otherwise."""
    xls = isinstance(source, WorkbookSource) and source.format == "xls"
    limit = XLS_LAST_ROW if xls else EXCEL_LAST_ROW
    if last < limit:
        return ""
    verb = "remove" if kind == "removal" else "import"
    if isinstance(source, WorkbookSource) and source.format == "ods":
        past = ods_rows_past(source.path, source.sheet, limit)
        if past is not None:
            # Black-box B35: the file holds them (a row repeated past the limit); they were
            # not cut off when it was saved, the reader stops there.
            return (
                f"{name} holds data down to row {past.last:,}, but a sheet is read only to "
                f"row {limit:,}, the last a sheet has in Excel and LibreOffice: the "
                f"{past.count:,} rows with data after it were not read. Move them to another "
                f"sheet or file, or {verb} them from the file they came from."
            )
    held = "an .xls (Excel 97-2003) workbook" if xls else "Excel"
    saved = "saved as .xls" if xls else "opened or saved in a spreadsheet program"
    return (
        f"{name} has data down to row {limit:,}, the last row {held} can hold: rows after it "
        f"were most likely cut off when the file was {saved}. Check the file it came from "
        f"and {verb} the rows after row {limit:,} from there."
    )


def _ignoring(rows: Iterable[Row], ignored: Set[int]) -> Iterator[Row]:
    for number, cells in rows:
        yield number, blanked(cells, ignored)


# Purpose cells that say there is no purpose, as a template or an export fills an empty cell
# (black-box B21 F2: 'N/A', '-' and 'None' went in as purposes of their own, and a purpose-scope
# row with one of them was sent, not refused as a row without its purpose).
_NO_PURPOSE_WORDS: Final = frozenset({"n/a", "-", "--", "none", "null"})
# A Purpose cell written as a Scope cell writes a purpose ("purpose:Marketing"): the text after
# it is the purpose, as it is in a Scope cell.
_PURPOSE_PREFIX: Final = re.compile(r"purpose\s*:\s*", re.IGNORECASE)


def _purpose_cells(
    rows: Iterable[Row], mapping: ColumnMapping, said: dict[int, str]
) -> Iterator[Row]:
    """``rows`` with each Purpose cell read as what it names, before the check: a placeholder
    (:data:`_NO_PURPOSE_WORDS`) as an empty cell, ``purpose:TEXT`` as TEXT. ``said`` gets each
    such row's note (:func:`_purpose_noted` adds it to the row's message), so the report says
    how the cell was read."""
    column, header = mapping.purpose, mapping.header_row or 0
    if column is None:
        yield from rows
        return
    for number, cells in rows:
        value = cells[column] if column < len(cells) else None
        if number > header and isinstance(value, str):
            text = cell_text(value)
            prefix = _PURPOSE_PREFIX.match(text)
            if text.casefold() in _NO_PURPOSE_WORDS:
                cells = [*cells[:column], None, *cells[column + 1 :]]
                said[number] = f"purpose cell {text!r} read as no purpose"
            elif prefix is not None and (purpose := text[prefix.end() :].strip()):
                cells = [*cells[:column], purpose, *cells[column + 1 :]]
                said[number] = f"purpose cell {text!r} read as {purpose!r}"
        yield number, cells


def _purpose_noted(checked: Iterable[CheckedRow], said: dict[int, str]) -> Iterator[CheckedRow]:
    """``checked``, each row :func:`_purpose_cells` read a Purpose cell of otherwise saying so
    in its message."""
    for c in checked:
        note = said.pop(c.row, None) if said else None
        if note is not None:
            c.message = f"{c.message}; {note}" if c.message else f"row {c.row}: {note}"
        yield c


_NUMBER_PART_HEADER: Final = re.compile(
    r"\s*(?:nxx|exchange|prefix|line(?:[\s_-]*number)?|suffix|local(?:[\s_-]*number)?|"
    r"number|phone(?:[\s_-]*number)?)\s*",
    re.IGNORECASE,
)


def split_number_sentence(headers: Sequence[str]) -> str:
    """The hint for a sheet whose numbers are split over columns ("NPA", "NXX", "Line"; "Area
    Code" and a number without it), or "": nothing reads such a number whole."""
    for i, header in enumerate(headers):
        if is_area_code_header(header):
            parts = [header]
            for after in headers[i + 1 : i + 3]:
                if not after or not _NUMBER_PART_HEADER.fullmatch(after):
                    break
                parts.append(after)
            if len(parts) < 2:
                return ""
            names = " and ".join(repr(p) for p in parts)
            letters = "&".join(f"{column_letter(i + k)}2" for k in range(len(parts)))
            return (
                f"The numbers look split over the columns {names}: put each whole number in one "
                f"column (a new column holding ={letters}, filled down, then copied and pasted "
                "as values) and run the file again."
            )
    return ""


# A cell that could be an area code: a few digits, bare or in brackets ("202", "(202)", "020").
_AREA_CELL: Final = re.compile(r"\(?(\d{2,5})\)?")


def unheaded_area_code_sentence(mapping: ColumnMapping, rows: Sequence[Row], code: str) -> str:
    """The hint for a phone column of numbers without their area code beside a column with no
    header that holds them ("202,5551901" lines), or "".

    A column headed "Area Code" or "NPA" is :func:`unread_code_columns`' to name; this one has
    no header to go by, so its values must make the sampled numbers whole: in at least half of
    the rows with a number, the number alone is invalid and the neighbour's digits in front of
    it make a valid one. Nothing joins them here (which column holds area codes is a guess).
    """
    phone = mapping.phone
    if phone is None:
        return ""
    data = [(n, cells) for n, cells in rows[:SAMPLE_ROWS] if not is_blank(cells)]
    numbered = [(n, cells) for n, cells in data if not is_blank([_cell(cells, phone)])]
    used = {mapping.column(role) for role in Role}
    for index in (phone - 1, phone + 1):
        if index < 0 or index in used or _cell(mapping.headers, index):
            continue
        made = [(n, cells) for n, cells in numbered if _made_whole(cells, index, phone, code)]
        if made and len(made) * 2 >= len(numbered):
            return _area_sentence(mapping, index, phone, made, numbered)
    return ""


def _cell(cells: Sequence[Any], index: int) -> Any:
    return cells[index] if 0 <= index < len(cells) else None


def _made_whole(cells: Sequence[CellValue], area: int, phone: int, code: str) -> bool:
    """Whether the row's number is invalid alone and valid with the area cell's digits before."""
    digits = _AREA_CELL.fullmatch(_original(_cell(cells, area)).strip())
    number = _cell(cells, phone)
    if digits is None or phones.normalize(number, code).ok:
        return False
    return phones.normalize(digits.group(1) + _original(number), code).ok


def _area_sentence(
    mapping: ColumnMapping, area: int, phone: int, made: Sequence[Row], numbered: Sequence[Row]
) -> str:
    (first, cells), top = made[0], numbered[0][0]
    area_letter, phone_letter = column_letter(area), column_letter(phone)
    header = _cell(mapping.headers, phone)
    column = f"column {phone_letter}" + (f" ({header!r})" if header else "")
    joined = f"{_original(_cell(cells, area))} and {_original(_cell(cells, phone))}"
    example = f"row {first}: {joined} make {_digits_of(cells, area)}{_digits_of(cells, phone)}"
    many = len(made) != 1
    return (
        f"Column {area_letter}, which has no header, looks like area codes and is not read: only "
        f"{column} is, and {len(made):,} of its first {len(numbered):,} numbers "
        f"{'are' if many else 'is'} whole only with column {area_letter}'s value in front "
        f"(as {example}), so {'those rows are' if many else 'that row is'} invalid. Put each "
        f"whole number in one column (a new column holding ={area_letter}{top}&{phone_letter}"
        f"{top}, filled down, then copied and pasted as values) and run the file again."
    )


def _digits_of(cells: Sequence[CellValue], index: int) -> str:
    return "".join(c for c in _original(_cell(cells, index)) if c.isdigit())


def _original(value: CellValue) -> str:
    """The cell as a person saw it: a number cell 2025550143 is not "2025550143.0"."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        # Beyond 15 digits Excel shows scientific notation and the digits are not the cell's.
        return str(int(value))
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        # Black-box P2 #8: a 16-digit number cell read "4915123456789010.0" and a longer one
        # "4.91512345678901e+19" (Python's notation); a spreadsheet keeps 15 significant
        # digits and its formula bar shows the rest as zeros (49151234567890100000).
        return str(int(Decimal(f"{value:.15g}")))
    return str(value)


def _new_row(checked: CheckedRow) -> NewRow:
    final = _FINAL.get(checked.outcome, "")
    return NewRow(
        row_number=checked.row,
        original=_original(checked.original),
        national=checked.national,
        phone_code=checked.phone_code,
        # A blank row has no scope to show (its scope_written is kept for one made invalid).
        scope=(
            ""
            if checked.outcome is CheckOutcome.BLANK
            else checked.scope_written
            if checked.scope is None
            else str(checked.scope)
        ),
        reason=checked.reason,
        purpose=checked.purpose,
        request_date="" if checked.request_date is None else checked.request_date.isoformat(),
        damage=checked.damage,
        outcome=final,
        message=_with_date_note(checked.message, checked.row, _date_note(checked)),
    )


def _date_note(checked: CheckedRow) -> str:
    """``checked``'s note on its request date, without "the request date is after the
    insertion date" on a duplicate row: its number is measured and counted on its first row,
    so its own date has no limit left unchecked, as the warning naming such rows says by
    leaving it out."""
    note = checked.date_note
    if checked.outcome is not CheckOutcome.DUPLICATE or checked.date_issue != DATE_AFTER:
        return note
    return without_after_note(note, checked.row)


def _with_date_note(message: str, row: int, note: str) -> str:
    """``message`` with the note on the row's request date (how it was read, or why it could
    not be), before the late-request sentence that counts from that date, if any.

    Black-box B2 #4: the note was stored as the row's damage, so the report's Damage note
    column, which the JSON's ``damaged`` count and its Summary row describe as spreadsheet
    damage to the phone cell, said "'2026-11-19T23:59:59-05:00' read as 2026-11-20, …" while
    the Message was empty. The runner keeps the staged message in front of what sending the
    row says (``job_runner._with_staged``), so the note stays in the report after a send."""
    if not note:
        return message
    # Labelled as the other cells' notes are ("reason: …"): after a phone or reason note it
    # read as part of that (regression check V3 #4: "…the row has no reason; 'N/A' is not a
    # date").
    if "request date" not in note.lower():
        note = f"request date: {note}"
    if not message:
        return f"row {row}: {note}"
    found = LATE_SENTENCE.search(message)
    if found is None:
        return f"{message}; {note}"
    return f"{message[: found.start()]}{note}; {message[found.start() :]}"


# Sheet row number → the value a person typed to replace that row's phone cell.
Corrections = Mapping[int, str]


def apply_corrections(
    rows: Iterable[Row], corrections: Corrections, phone_column: int | None
) -> Iterator[Row]:
    """``rows`` with the phone cell of each corrected row replaced by the typed value."""
    if not corrections or phone_column is None:
        yield from rows
        return
    for number, cells in rows:
        fixed = corrections.get(number)
        if fixed is None:
            yield number, cells
            continue
        out = list(cells)
        out += [None] * (phone_column + 1 - len(out))
        out[phone_column] = fixed
        yield number, out


def stage(
    settings: JobSettings,
    jobs_dir: Path,
    *,
    kind: str,
    connection: Connection | None,
    campaign_lookup: Mapping[str, str] | None = None,
    mapping: ColumnMapping | None = None,
    corrections: Corrections | None = None,
    reports_dir: Path | None = None,
) -> tuple[JobStore, CheckSummary]:
    """Read and check the file and write a new job file; raises SheetError in one sentence.

    Without ``mapping`` the columns are proposed from the file (:func:`map_sheet`, with
    ``settings.phone_column`` and the settings' defaults), as the CLI needs. With one (a
    person's choice in the GUI) it is used as given, its default scope set to
    ``settings.scope``. ``corrections`` replace the phone cell of some rows as they are read:
    the file itself is never modified (it is the evidence of what was received), each such row
    keeps the file's value as its original and says so in its note, and the job's meta lists
    them. The report goes to ``settings.report``, else ``reports_dir`` (default ``jobs_dir``).
    Hidden rows, formula cells and unread sheets and columns: see the module's docstring.

    A request-date column whose dates that read one way only all agree (all day/month, or all
    month/day: :func:`~app.core.staging_notes.column_order`), the slashed ones and the dotted
    ones each apart, is checked again in that order when some of its ambiguous dates of that
    form were read the other way: the first job file is given up and the rows staged anew, so
    every date of the column is read the one way it is written (a warning says so).
    """
    run = partial(
        _stage,
        settings,
        jobs_dir,
        kind=kind,
        connection=connection,
        campaign_lookup=campaign_lookup,
        mapping=mapping,
        corrections=corrections,
        reports_dir=reports_dir,
    )
    store, summary = run(day_first=None)
    if (order := column_order(summary)) is not None:
        store.close()
        store.path.unlink(missing_ok=True)
        store, summary = run(day_first=order)
    return store, summary


def _guessed_phone_notes(
    source: SheetSource,
    settings: JobSettings,
    kind: str,
    file_name: str,
    mapping: ColumnMapping,
    preview: list[Row],
    set_aside: set[int],
    warnings: list[str],
) -> tuple[ColumnMapping, UnreadPhones | None]:
    """The notes on the phone column the guess read (appended to ``warnings``): a hidden
    twin passed over for the one shown, a removal refused on a hidden column, other phone
    columns left unread, or a ``--phone-column`` with no numbers beside one that has them.
    Returns the mapping (its phone column moved to a shown twin) and the watch on unread
    phone columns. Said of a guess only: a person who chose the column has settled these."""
    second_phones: UnreadPhones | None = None
    if not settings.phone_column:
        others = other_phone_columns(mapping, preview, settings.phone_code)
        hidden_columns = source.notes.hidden_columns
        twin = visible_twin(mapping, others, hidden_columns)
        if twin is not None:
            # Of two equal phone columns, the one shown is read (black-box bb13 F6).
            found = mapping.phone
            assert found is not None
            mapping = replace(mapping, phone=twin)
            others = other_phone_columns(mapping, preview, settings.phone_code)
            warnings.append(hidden_twin_sentence(source, file_name, mapping, found, kind))
        if kind == "removal" and not settings.include_hidden and mapping.phone in hidden_columns:
            # Found, not chosen: a hidden column's numbers are not removed unasked.
            shown = [i for i in others if i not in hidden_columns]
            message, cli_text = hidden_phone_column_sentences(source, file_name, mapping, shown)
            raise MappingError(message, cli_text)
        second_phones = watch_unread_phones(
            mapping,
            preview,
            settings.phone_code,
            kind,
            merged=source.notes.merged,
            set_aside=set_aside,
            others=others,
        )
        if second_phones is not None:
            warnings.append(second_phones.first)
    elif mapping.phone is not None and not holds_phones(
        preview, mapping.phone, settings.phone_code
    ):
        others = [
            i
            for i in other_phone_columns(mapping, preview, settings.phone_code)
            if i not in set_aside
        ]
        if others:
            warnings.append(named_column_empty_sentence(mapping, others, settings.phone_column))
    return mapping, second_phones


def _guessed_column_notes(
    mapping: ColumnMapping, preview: Sequence[Row], kind: str, set_aside: set[int]
) -> list[str]:
    """Notes that second-guess the guess itself: a header that may be a row of data (its
    text columns left unread) and which date column was taken for the request date. A
    person who confirmed the columns on the wizard's mapping page chose these."""
    out: list[str] = []
    if kind == "import" and (texts := unread_text_columns(mapping, preview)):
        out.append(unread_text_sentence(mapping, texts))
    if kind == "import":  # a removal counts no days to insertion
        dated = [d for d in other_date_columns(mapping) if d.index not in set_aside]
        if dates := other_dates_sentence(mapping, dated):
            out.append(dates)
    return out


def _stage(
    settings: JobSettings,
    jobs_dir: Path,
    *,
    kind: str,
    connection: Connection | None,
    campaign_lookup: Mapping[str, str] | None,
    mapping: ColumnMapping | None,
    corrections: Corrections | None,
    reports_dir: Path | None,
    day_first: DayFirst,
) -> tuple[JobStore, CheckSummary]:
    fixes = dict(corrections or {})
    path = resolve_sheet_path(settings.file)  # a symbolic link loop: one sentence (L4 #2)
    guessed = mapping is None
    if mapping is not None:
        if mapping.phone is None:
            raise MappingError(f"No column of phone numbers is chosen for {path_text(path.name)}.")
        mapping = replace(mapping, default_scope=settings.scope)
    try:
        before: tuple[int, int] | None = _file_state(path)
    except OSError:
        before = None  # not there, or not readable: opening it says which, in one sentence
    source, mapping = open_mapped(path, settings, mapping, prefer_opt_outs=kind == "import")
    if kind == "removal" and mapping.request_date is not None:
        # The 10-business-day limit is on honouring an opt-out; a removal is not late.
        mapping = replace(mapping, request_date=None)
    with source:
        if kind == "removal" and not settings.include_hidden and not source.notes.hidden_known:
            raise MappingError(hidden_unknown_sentence(source, path_text(path.name)))
        ignored = ignored_columns(settings, mapping)
        headers = mapping.headers
        # Before any job is kept: a removal of the SMS opt-out list's own report or export
        # would take DNC entries off that nothing of it wrote (black-box B31 F1, F3).
        if other_list := other_list_refusal(source, headers, kind):
            raise MappingError(other_list)
        if ignored and not guessed:
            mapping = _chosen_without(mapping, set(ignored), path_text(path.name))
        set_aside = set(ignored)
        if set_aside:
            # Nothing that goes by headers (a campaign column to fall back on, a date column
            # to offer, a log's Direction column) sees a column set aside.
            mapping = replace(
                mapping,
                headers=tuple("" if i in set_aside else h for i, h in enumerate(headers)),
            )
        export_reasons: int | None = None
        if guessed:
            # A report's Reason column is why its job sent each row, not why it is removed;
            # an export's, why the entry was put on the list.
            mapping = without_entry_reasons(mapping, kind)
            if (export_reasons := export_reasons_left(mapping, kind)) is not None:
                mapping = replace(mapping, reason=None)
        warnings: list[str] = []
        if export_reasons is not None:
            warnings.append(export_reasons_sentence(path_text(path.name), export_reasons))
        if unsaid := unsaid_list_sentence(source, headers, kind):
            warnings.append(unsaid)
        # Advice to join area codes to local numbers: wrong when a column of formulas never
        # calculated already joins them (see formula_columns).
        area_advice: list[str] = []
        flag_notes: dict[int, str] = {}  # column: staging's flag or consent sentence on it
        second_phones: UnreadPhones | None = None  # a second phone column's numbers, not read
        # The first rows, read once for every note on the file's columns below.
        first_rows: list[Row] = [(n, blanked(c, set_aside)) for n, c in read_preview(source)]
        preview = [r for r in first_rows if r[0] > (mapping.header_row or 0)]
        if above := above_header_sentence(first_rows, mapping.header_row, kind):
            warnings.append(above)
        if guessed:
            mapping, second_phones = _guessed_phone_notes(
                source, settings, kind, path_text(path.name), mapping, preview, set_aside, warnings
            )
        else:
            # The window's columns, confirmed on its mapping page: a second column of phone
            # numbers there is as much a consumer's other number as in a file guessed
            # (task S32 fx4: the wizard's job said nothing of it, row or report).
            second_phones = watch_unread_phones(
                mapping,
                preview,
                settings.phone_code,
                kind,
                merged=source.notes.merged,
                set_aside=(*set_aside, *settings.imported_before),
            )
            if second_phones is not None:
                warnings.append(second_phones.first)
            if done := imported_before_sentence(
                mapping, settings.imported_before, settings.imported_by
            ):
                warnings.append(done)
        # What the file holds that no column read takes in is as true of the wizard's
        # confirmed columns (or a --phone-column) as of a guess: a consent column saying
        # "active", an Ext column, area codes apart (black-box bb14 W1: the wizard's job said
        # none of them while the command line warned of each).
        for flag in opt_out_flag_columns(mapping, preview):
            if flag.index not in set_aside:
                said = opt_out_flag_sentence(mapping, flag, kind)
                warnings.append(said)
                flag_notes[flag.index] = said
        for unread in unread_code_columns(mapping, preview, settings.phone_code):
            if unread.index not in set_aside:
                said = unread_code_sentence(mapping, unread, settings.phone_code)
                warnings.append(said)
                if unread.local:
                    area_advice.append(said)
        if guessed:
            warnings += _state_doubt(mapping, preview, settings, kind, chosen=False)
        else:
            # Columns a person chose say which column gives each row's country, not which
            # reading of "IN" is meant: the doubt stands as on the command line (W6 #1).
            chosen_rows = list(apply_corrections(preview, fixes, mapping.phone))
            warnings += _state_doubt(mapping, chosen_rows, settings, kind, chosen=True)
        if area := unheaded_area_code_sentence(mapping, preview, settings.phone_code):
            warnings.append(area)
            area_advice.append(area)
        # Black-box P3 #6: an "Ext" column beside the phone column was dropped unsaid.
        for extension in extension_columns(mapping, preview):
            if extension.index not in set_aside:
                warnings.append(extension_sentence(mapping, extension, kind))
        if guessed:
            warnings += _guessed_column_notes(mapping, preview, kind, set_aside)
        lookup = campaign_lookup if campaign_lookup is not None else {}
        options = CheckOptions(
            target=settings.target,
            campaign_lookup=lookup,
            removal=kind == "removal",
            scope_from_rows=settings.scope_from_rows,
            day_first=day_first,
            text_delimiter=text_delimiter(source),
            date1904=source.date1904 if isinstance(source, WorkbookSource) else None,
        )
        summary = CheckSummary()
        meta = {
            "kind": kind,
            # With a capital, as the window names a job (black-box B30 F11: `jobs`, --json and
            # the report said "import of a.csv" while the window and result lines said "Import").
            "name": settings.name or f"{kind.capitalize()} of {path_text(path.name)}",
            "note": settings.note,
            **source_meta(path),
            # A text file has no sheets: its reader names its one table after the file.
            "sheet": "" if isinstance(source, CsvSource) else source.sheet,
            "header_row": mapping.header_row,
            "mapping": _described(mapping, headers, ignored),
            "target": settings.target.value,
            "scope": _scope_text(settings, mapping, kind),
            "reason": settings.reason,
            "purpose": settings.purpose,
            "phone_code": settings.phone_code,
            "lead_status": settings.lead_status,
            **(
                {LEAD_STATUS_DNC: settings.lead_status_dnc}
                if settings.lead_status and settings.lead_status_dnc is not None
                else {}
            ),
            "connection": connection.name if connection else "",
            "base_url": connection.base_url if connection else "",
            "created": utc_now(),
            **settings.extra,
        }
        job_id = new_job_id(kind)
        if settings.report is not None:
            meta["report"] = str(settings.report.expanduser().resolve())
        else:
            meta["report"] = str((reports_dir or jobs_dir) / f"{job_id}.xlsx")
        if fixes:
            meta["corrections"] = {str(k): v for k, v in sorted(fixes.items())}
        store = JobStore.create(jobs_dir, job_id, meta)
        try:
            originals: dict[int, CellValue] = {}
            last_row = _LastRow()
            rows: Iterable[Row] = last_row.watch(source.iter_rows())
            if set_aside:
                rows = _ignoring(rows, set_aside)
            if fixes:
                rows = _remember(rows, fixes, mapping.phone, originals)
                rows = apply_corrections(rows, fixes, mapping.phone)
            notes = source.notes
            # A removal of an import's own report removes only the rows that job inserted
            # (black-box B12 #1).
            report = OwnReport(mapping, headers, set_aside, kind, path_text(path.name))
            rows = report.watch(rows)
            held = Held()
            totals: dict[int, dict[int, str]] = {}
            rows = _totals_rows(rows, mapping, notes.formulas, totals)
            rows = watched(rows, mapping, notes.formulas, held, notes.errors)
            # A message or call log: rows the other way, and messages that ask no stop.
            log = LogWatch(mapping, kind, settings.target, set(flag_notes))
            rows = log.watch(rows)
            if kind == "import" and not log.watches_toll_free:
                held.toll_free = RowList()
            purpose_notes: dict[int, str] = {}
            rows = _purpose_cells(rows, mapping, purpose_notes)
            if second_phones is not None:
                rows = second_phones.rows(rows)
            leave_hidden = kind == "removal" and not settings.include_hidden
            checked: Iterator[CheckedRow]
            if leave_hidden:
                checked = check_apart(rows, notes.hidden_rows, mapping, options, summary)
            else:
                checked = check_rows(rows, mapping, options, summary)
            # Bare numbers read under the default code in a file of another code's (B24 F3).
            code_mix = CodeMix(mapping)
            if code_mix.active:
                checked = code_mix.watch(checked)
            checked = log.noted(checked)
            checked = _totals_noted(checked, totals)
            checked = _purpose_noted(checked, purpose_notes)
            if second_phones is not None:
                checked = second_phones.noted(checked)
            own = {settings.scope.purpose_text, settings.purpose} - {""}
            spellings = _ListSpellings(
                settings.list_purposes, own, summary, connection is None, kind == "import"
            )
            checked = spellings.watch(checked)
            if settings.list_purposes is not None:
                checked = _SpelledDuplicates(summary).watch(checked)
            inactive = _InactiveCampaigns(
                campaign_lookup.inactive
                if kind == "import" and isinstance(campaign_lookup, CampaignDirectory)
                else {}
            )
            if inactive.inactive:
                checked = inactive.watch(checked)
            earliest = _EarliestDates()
            checked = earliest.watch(checked)
            unchecked: dict[str, int] = {}
            unresolved = RowList()  # rows naming a campaign by a name no list could resolve
            if not campaign_ids_checked(campaign_lookup):
                checked = _note_unchecked(checked, unchecked, unresolved, connection is None)
            verdicts = _Verdicts()
            checked = verdicts.watch(checked)
            checked = report.noted(checked, summary)
            hidden = HiddenRows(kind, leave_hidden)
            new_rows = noted(
                _bounded_cache(checked), notes, mapping.phone, hidden, summary, held, _new_row
            )
            if fixes:
                new_rows = (_corrected(r, fixes, originals) for r in new_rows)
            store.add_rows(new_rows)
            summary.formatted = formatted_order(notes, mapping.request_date)
            if before is not None:
                _unchanged_since(path, before)
            earliest.restage(store, options)
            if unchecked or unresolved.count:
                store.set_meta(
                    {"campaign_check": _unchecked_sentence(unchecked, unresolved, connection)}
                )
            uncalculated = formula_columns(mapping, notes.formulas, set_aside)
            if not summary.invalid:
                # A column headed as phone numbers whose formulas have no saved values is
                # passed over for another, so every row is valid and nothing said its numbers
                # were never read (black-box B26 F6): it is named all the same.
                uncalculated = {
                    i: n for i, n in uncalculated.items() if _headed_as_phone(mapping, i)
                }
            if uncalculated:
                warnings = [w for w in warnings if w not in area_advice]
                warnings += formula_columns_sentences(mapping, uncalculated)
            # The wizard's sheet as its reader guessed and showed it is as much a guess as
            # none named (black-box bb14 W1: its job named no other sheet of phone numbers).
            sheet_guessed = settings.sheet is None or settings.sheet_guessed
            alike = (
                [
                    s
                    for s in alike_sheets(source, mapping.headers, mapping.phone)
                    if _same_list(source.sheet, s.name, settings.target)
                ]
                if kind == "import" and sheet_guessed and mapping.phone is not None
                else []
            )
            warnings += notes_sentences(
                source,
                path_text(path.name),
                kind,
                hidden,
                sheet_guessed,
                frozenset(s.name for s in alike),
            )
            other_sheets_meta: dict[str, str] = {}
            if alike:
                # A warning rather than a note: whole months of opt-outs left off the list
                # (black-box bb4 #7).
                said = alike_sheets_sentence(
                    alike, source, path_text(path.name), _import_again(settings)
                )
                warnings.append(said)
                other_sheets_meta[OTHER_SHEETS_WARNING] = said
            if sheet_guessed and not isinstance(source, CsvSource):
                warnings += passed_over_sentences(source, path_text(path.name), kind)
                if few := few_numbers_sentence(source, path_text(path.name), summary, kind):
                    # First: the rest of the notes are about a sheet that may be the wrong one.
                    warnings.insert(0, few)
            warnings += log.sentences()
            if stop_refusal := log.removal_refusal(path_text(path.name)):
                raise MappingError(*stop_refusal)
            # Flag columns the watch names together, a row being an opt-out when any of them
            # says yes: staging's sentence on each said to keep its own "yes" rows (black-box
            # N4 #5).
            replaced = {flag_notes[i] for i in log.flag_columns if i in flag_notes}
            warnings = [w for w in warnings if w not in replaced]
            if isinstance(source, CsvSource) and (encoding := source.encoding_sentence()):
                warnings.append(encoding)
            if dates := date_order_sentence(mapping, summary, day_first):
                warnings.append(dates)
            if unread_cells := unread_cells_sentence(held, kind):
                warnings.append(unread_cells)
            if other_numbers := other_numbers_sentence(held, kind):
                warnings.append(other_numbers)
            if toll_free := toll_free_sentence(held):
                warnings.append(toll_free)
            if repeated_numbers := repeated_numbers_sentence(held, kind):
                warnings.append(repeated_numbers)
            warnings += damage_sentences(held, kind)
            warnings += unshown_sentences(held, kind)
            if mixed_codes := code_mix.sentence(kind):
                warnings.append(mixed_codes)
            warnings += other_tables_sentences(held, kind)
            warnings += report.sentences()
            date_rows: dict[str, object] = {}
            if undated := unchecked_dates_sentence(mapping, summary):
                warnings.append(undated)
                # Its rows, for the report to say it again of those still after the
                # insertion date when they are sent (job_report.ReportWriter).
                date_rows[UNCHECKED_DATE_ROWS] = UncheckedDates(
                    summary.unread_dates, summary.future_dates, summary.undated
                ).stored()
            if other_late := other_reading_late_sentence(mapping, summary):
                warnings.append(other_late)
            if year_first := year_first_sentence(mapping, summary, day_first):
                warnings.append(year_first)
            if late_invalid := late_invalid_sentence(summary):
                warnings.append(late_invalid)
            if beyond := _beyond_header_sentence(summary, mapping, options, kind):
                warnings.append(beyond)
            if row_numbers := _row_numbers_sentence(summary):
                warnings.append(row_numbers)
            if last_row.run and (
                cut := _last_row_sentence(source, last_row.number, path_text(path.name), kind)
            ):
                warnings.append(cut)
            unread_meta: dict[str, str] = {}
            if second_phones is not None:
                # Counted over the whole file now its rows are checked; a warning rather than a
                # note when a consumer's second number is left off the list (black-box bb4 F4).
                warnings, unread_meta = second_phones.counted_in(warnings)
            warnings += verdicts.sentences(mapping, connection, kind)
            warnings += spellings.sentences(kind)
            if dormant := inactive.sentence():
                warnings.append(dormant)
            # Kept for the report's Summary and the result, whichever front end staged the job
            # (black-box P2 #4).
            # Its last write: every row is stored (job_store.STAGED).
            store.set_meta(
                {
                    DAMAGED: summary.damaged,
                    **({"warnings": warnings} if warnings else {}),
                    **unread_meta,
                    **other_sheets_meta,
                    **date_rows,
                    STAGED: True,
                }
            )
        except BaseException:
            store.close()
            store.path.unlink(missing_ok=True)
            raise
        finally:
            phones.clear_cache()
    return store, summary


def phone_cells(rows: Sequence[Row]) -> int:
    """How many of a sheet's first ``rows`` (a probe's) hold a phone number in the column the
    mapping would read (0: no phone column)."""
    try:
        mapping = propose_from_preview(list(rows), "1")
    except (ValueError, TypeError):
        return 0
    phone, header = mapping.phone, mapping.header_row or 0
    if phone is None:
        return 0
    return sum(
        1
        for number, cells in rows
        if number > header and phone < len(cells) and _phone_like(cells[phone])
    )


def _phone_like(value: CellValue) -> bool:
    return looks_like_phone(value) or (isinstance(value, str) and holds_phone_number(value))


def passed_over_sentences(source: SheetSource, file_name: str, kind: str) -> list[str]:
    """Why front-matter sheets before the one read, holding phone numbers, were not read.

    With no sheet named, a sheet whose name says it is a cover, instructions or contact sheet
    (:func:`~app.core.sheet_worker.front_matter_sheet`) is read only after the others: its
    numbers are most often the sender's own (black-box Q1 #1: a vendor's "Cover" sheet put
    its staff on the DNC list, none of the opt-outs on "Sheet2"). The sentence names it, says
    why, and gives the ``--sheet`` that reads it.
    """
    others = source.notes.other_sheets or {}
    hidden = source.notes.hidden_sheets
    names = list(source.sheet_names)
    if source.sheet not in names:
        return []
    passed = [
        name
        for name in names[: names.index(source.sheet)]
        if name not in hidden and front_matter_sheet(name) and phone_cells(others.get(name, []))
    ]
    if not passed:
        return []
    many = len(passed) > 1
    listed = joined([repr(name) for name in passed])
    listed_as = "list of numbers to remove" if kind == "removal" else "list to import"
    what = (
        "their names say they are cover, instructions or contact sheets"
        if many
        else "its name says it is a cover, instructions or contact sheet"
    )
    return [
        f"{'Sheets' if many else 'Sheet'} {listed} of {file_name} "
        f"{'come' if many else 'comes'} before sheet {source.sheet!r} and "
        f"{'have' if many else 'has'} a column of phone numbers, but "
        f"{'were' if many else 'was'} passed over: {what}, whose numbers are most often the "
        "sender's own, not a list; sheet "
        f"{source.sheet!r} was read instead. If {'one of them' if many else 'it'} is the "
        f"{listed_as}, run the file again with --sheet {passed[0]!r}."
    ]


# Phone numbers read from a sheet chosen unnamed that are "a handful", and how many times
# more another visible sheet must hold (at least FEW_OTHER) for a warning naming both.
FEW_READ: Final = 5
FEW_TIMES: Final = 5
FEW_OTHER: Final = 10


def few_numbers_sentence(
    source: SheetSource, file_name: str, summary: CheckSummary, kind: str
) -> str:
    """The warning, "" if none, when the sheet read with no sheet named gave only a handful
    of numbers and another visible sheet holds many times more: the one read is likely not
    the list (a vendor's cover sheet of two contact phones before 25 opt-outs, black-box Q1
    #1). The job is not moved to the other sheet on size alone: a short list beside a long
    one of contacts is as likely; the person decides, with ``--sheet``."""
    read = summary.valid + summary.duplicates_in_file
    if read > FEW_READ:
        return ""
    hidden = source.notes.hidden_sheets
    # A sheet read for its opt-out name is compared with other such sheets only: a longer
    # "Contacts" beside it is no list to send instead.
    opt_outs = _OPT_OUT_SHEET.search(source.sheet) is not None
    best, best_count = "", 0
    for name, rows in (source.notes.other_sheets or {}).items():
        if name == source.sheet or name in hidden or do_not_use_sheet(name):
            continue
        if opt_outs and not _OPT_OUT_SHEET.search(name):
            continue
        count = phone_cells(rows)
        if count > best_count:
            best, best_count = name, count
    if best_count < max(FEW_OTHER, FEW_TIMES * read):
        return ""
    rows = (source.notes.other_sheets or {})[best]
    holds = f"at least {best_count:,}" if len(rows) >= PROBE_ROWS else f"{best_count:,}"
    numbers = "1 phone number was" if read == 1 else f"{read:,} phone numbers were"
    verb = "imported" if kind == "import" else "removed"
    return (
        f"Check the sheet: only {numbers} read, from sheet {source.sheet!r} of {file_name}, "
        f"while sheet {best!r} holds {holds}. Only sheet {source.sheet!r} is {verb}; if the "
        f"list is on sheet {best!r}, run the file again with --sheet {best!r}."
    )


def state_doubt(
    mapping: ColumnMapping, preview: Sequence[Row], kind: str, code: str, *, chosen: bool
) -> tuple[StateNumbers, str] | None:
    """The column read for countries holding US state codes that are countries' too ("IN",
    "DE") beside numbers of ``preview`` (the first data rows) valid both ways, and the
    sentence naming both readings (:func:`~app.core.staging_notes.state_doubt_sentence`;
    ``chosen``: in the import wizard's words); None when the numbers settle it."""
    found = state_numbers(mapping, preview)
    if found is None or not found.doubt:
        return None
    return found, state_doubt_sentence(mapping, found, kind, code, chosen=chosen)


def _state_doubt(
    mapping: ColumnMapping,
    preview: Sequence[Row],
    settings: JobSettings,
    kind: str,
    *,
    chosen: bool,
) -> list[str]:
    """The job's warning of :func:`state_doubt`, or what the person chose instead; raises
    MappingError for a removal nobody settled."""
    doubt = state_doubt(mapping, preview, kind, settings.phone_code, chosen=chosen)
    if doubt is None:
        return []
    found, said = doubt
    if settings.countries_chosen:
        return [state_choice_sentence(mapping, found, kind)]
    if kind == "removal":
        # Deleting by the wrong reading takes another consumer's opt-out off the list
        # (black-box R2 #3): the person says which, then it is run.
        raise MappingError(said)
    return [said]


def _file_state(path: Path) -> tuple[int, int]:
    """The file's size and modification time, to tell whether it changed while read."""
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def _unchanged_since(path: Path, before: tuple[int, int]) -> None:
    """Refuse a file that changed while it was read (black-box L4 #1, severe: a CSV still being
    written had a half-written line '+49 30 7052' inserted as a number nobody asked for, and
    a line cut in two read as two rows). Its rows cannot be trusted, whichever they were."""
    name = path_text(path.name)
    try:
        after = _file_state(path)
    except OSError as exc:
        raise MappingError(
            f"{name} could not be looked at again after it was read ({exc.strerror or exc}"
            "), so whether it changed meanwhile is not known; nothing was sent."
        ) from exc
    if after == before:
        return
    size_before, size_after = before[0], after[0]
    if size_after != size_before:
        how = f"its size went from {size_before:,} to {size_after:,} bytes"
    else:
        how = "it was saved again"
    raise MappingError(
        f"{name} changed while it was read ({how}): it may still be being written, by a "
        "download or an export. Wait until it is complete and run it again; no job was made "
        "and nothing was sent."
    )


def _headed_as_phone(mapping: ColumnMapping, index: int) -> bool:
    header = mapping.headers[index] if index < len(mapping.headers) else ""
    return bool(header) and header_role(header) is Role.PHONE


def text_delimiter(source: SheetSource) -> str | None:
    """The delimiter of a text file (CSV, TSV, TXT, or text saved under a workbook's name),
    None for a workbook (xlsx, xlsm, xlsb, xls, ods): the reader that opened it tells."""
    return (source.delimiter or ",") if isinstance(source, CsvSource) else None


def _beyond_header_sentence(
    summary: CheckSummary, mapping: ColumnMapping, options: CheckOptions, kind: str
) -> str:
    """The warning counting rows that hold values right of the header's columns ("" if none).

    In a text file an unquoted delimiter in a value does this, and the sentence names it; a
    workbook has no delimiter to blame, only columns right of the header's last named one.
    """
    first, count = summary.beyond_header
    if not count:
        return ""
    held_by = "1 row holds" if count == 1 else f"{count:,} rows hold"
    where = f"(first: row {first}; each row's message names them)"
    delimiter = options.text_delimiter
    if delimiter is None:
        done = "imported" if kind == "import" else "removed"
        return (
            f"{held_by} values in columns right of the header's last named column "
            f"({last_named_column(mapping)}), which nothing reads {where}: a phone number "
            f"there is not {done}; put each number on its own row in the phone column and run "
            "the file again."
        )
    if delimiter == ",":
        cause = "In a CSV file a comma in an unquoted value does this"
    else:
        cause = f"In this file {delimiter_name(delimiter)} in an unquoted value does this"
    return (
        f"{held_by} values right of the header's columns, which are not read {where}. "
        f"{cause}: fix those lines and run the file again."
    )


def open_mapped(
    path: Path,
    settings: JobSettings,
    mapping: ColumnMapping | None = None,
    *,
    probe_others: bool = True,
    prefer_opt_outs: bool = False,
) -> tuple[SheetSource, ColumnMapping]:
    """The sheet to stage and its mapping (the caller closes the source).

    With no sheet named, the reader opens the first visible sheet with data; when that one has
    no phone column (a vendor's "Instructions" sheet first), the other visible sheets are
    tried in order and the first that has one is used (the job records which). A hidden sheet
    is never chosen unless named, as nobody looking at the file has seen its numbers: when
    only hidden sheets have a phone column, the refusal names them
    (:func:`~app.core.staging_notes.hidden_sheets_sentences`). If no sheet has one, the first
    sheet's sentence is raised, as it names the other sheets. The mapping is proposed from
    :func:`~app.core.sheet_header.read_preview`, so a table under many rows of notes or blank
    rows is found. ``probe_others=False`` skips reading the other sheets' first rows after this
    one (for callers that do not warn about them; each costs a parse of that sheet).

    With ``prefer_opt_outs`` (an import), a visible sheet whose name says it holds opt-outs
    ("DNC", "Do Not Call", "Opt-outs", "Unsubscribes", "STOP requests"…) and has a phone column
    is read rather than a first sheet whose name does not ("Contacts"): importing a workbook's
    contacts into the do-not-call list instead of its opt-outs is the worse mistake. The
    warning about other sheets with phone numbers then names the first sheet.

    A sheet whose name says it is front matter ("Cover", "Instructions", "README", "Contact
    info": :func:`~app.core.sheet_worker.front_matter_sheet`) is read only when no other
    visible sheet has a phone column: a vendor's cover sheet holds the vendor's own phones
    under "Phone" (black-box Q1 #1). Staging's warning names it (:func:`passed_over_sentences`).

    A sheet whose name says it is not to be used ("DO NOT USE", "Old DNC", "Archive", "Dupes":
    :func:`~app.core.sheet_worker.do_not_use_sheet`) is tried after every other, and is never
    preferred as an opt-out sheet: the reader opens it first only when no other visible sheet
    has data, and staging warns when it is read unnamed.

    ``settings.phone_column`` with no sheet named is resolved against the sheet that would be
    read without it (:func:`_open_named_column`): naming a column never moves the job to a
    sheet further down that order.
    """
    # To say which other sheets have phone numbers too, whether or not a sheet is named: their
    # numbers stay off the list either way (black-box bb14 W1).
    probe = probe_others
    source = open_sheet(path, settings.sheet, probe_others=probe)
    if mapping is not None:
        return source, mapping
    if settings.sheet is None and len(source.sheet_names) > 1:
        if settings.phone_column:
            return _open_named_column(source, path, settings, probe, prefer_opt_outs)
        if settings.ignore_columns:
            return _open_ignoring(source, path, settings, probe, prefer_opt_outs)
    return _choose_sheet(source, path, settings, probe, prefer_opt_outs)


def _open_ignoring(
    source: SheetSource, path: Path, settings: JobSettings, probe: bool, prefer_opt_outs: bool
) -> tuple[SheetSource, ColumnMapping]:
    """A workbook of several sheets, no sheet named, and ``--ignore-column``: the columns are
    set aside on the sheet that would be read without them. Tried sheet by sheet instead, a
    name the read sheet lacks (or its phone column set aside) was refused naming the first
    sheet, and advising the read one (black-box bb2 F12); a sheet whose phone column is set
    aside must not pass the job to another sheet's numbers either."""
    try:
        auto = _unnamed_choice(path, settings, probe, prefer_opt_outs)
    except BaseException:
        source.close()
        raise
    if auto is None:
        return _choose_sheet(source, path, settings, probe, prefer_opt_outs)
    source.close()
    chosen = auto[0]
    try:
        return chosen, _map_chosen(chosen, path, settings)
    except BaseException:
        chosen.close()
        raise


def _map_chosen(chosen: SheetSource, path: Path, settings: JobSettings) -> ColumnMapping:
    """The mapping, under ``settings``, of the workbook sheet :func:`_unnamed_choice` chose."""
    return map_sheet(
        read_preview(chosen),
        settings,
        path_text(path.name),
        chosen.sheet,
        chosen.sheet_names,
        hidden=chosen.notes.hidden_sheets,
    )


def _choose_sheet(
    source: SheetSource, path: Path, settings: JobSettings, probe: bool, prefer_opt_outs: bool
) -> tuple[SheetSource, ColumnMapping]:
    """The sheet :func:`open_mapped` reads, from ``source`` (the reader's first sheet, closed
    when another is read), and its mapping under ``settings``."""
    if settings.sheet is None:
        # Before the opt-out names: "DNC" and "SMS Opt-outs" both say opt-outs, and the first
        # was read for either list (black-box B31 F5).
        for name in list_sheets(source, settings.target, prefer_opt_outs):
            found_in = _mapped(path, name, settings, probe)
            if found_in is not None:
                source.close()
                return found_in
    if prefer_opt_outs and settings.sheet is None:
        for name in opt_out_sheets(source, settings.target):
            found_in = _mapped(path, name, settings, probe)
            if found_in is not None:
                source.close()
                return found_in
    tried: set[str] = set()
    empty: set[str] = set()  # other sheets that could not be opened: none to offer
    if settings.sheet is None:
        front: int | None = None  # the front-matter sheet's phone numbers, counted once
        for name in sheets_before_front_matter(source):
            found_in = _mapped(path, name, settings, probe, empty)
            if found_in is not None:
                if front is None:
                    front = phone_cells(read_preview(source))
                # A "Summary" of 200 numbers is the list, whatever its name (regression
                # check T1: it was passed over for a "Sheet2" of 2); a cover's few are not.
                if phone_cells(read_preview(found_in[0])) >= front:
                    source.close()
                    return found_in
                found_in[0].close()
            tried.add(name)
    try:
        preview = read_preview(source)
        return source, map_sheet(
            preview,
            settings,
            path_text(path.name),
            source.sheet,
            source.sheet_names,
            text_file=isinstance(source, CsvSource),
            hidden=source.notes.hidden_sheets,
        )
    except MappingError as first_error:
        others = [n for n in source.sheet_names if n != source.sheet] if not settings.sheet else []
        others = usable_first(others)
        # Known from the workbook's sheet list as it opens (the reader's "meta").
        hidden = source.notes.hidden_sheets
        source.close()
        for name in others:
            if name in hidden or name in tried:
                continue  # never read unless named; or tried above
            found_in = _mapped(path, name, settings, probe, empty)
            if found_in is not None:
                return found_in
        hidden_with_phones = []
        for name in others:
            if name not in hidden:
                continue
            if (found_in := _mapped(path, name, settings, False, empty)) is not None:
                found_in[0].close()
                hidden_with_phones.append(name)
        if hidden_with_phones:
            raise MappingError(
                *hidden_sheets_sentences(path_text(path.name), hidden_with_phones)
            ) from None
        if empty & set(others):
            # Its hint offered every other sheet: one empty is none to choose.
            offered = [n for n in source.sheet_names if n not in empty]
            try:
                map_sheet(
                    preview,
                    settings,
                    path_text(path.name),
                    source.sheet,
                    source.sheet_names,
                    hidden=hidden,
                    offered=offered,
                )
            except MappingError as pruned:
                raise pruned from None
        raise first_error from None
    except BaseException:
        source.close()
        raise


def sheets_before_front_matter(source: SheetSource) -> list[str]:
    """When ``source`` (the reader's first sheet) is front matter (a cover or instructions
    sheet, whose phone numbers are most often the sender's own: black-box Q1 #1), the visible
    sheets whose names say neither that nor not to use them, in the file's order, to be tried
    for a phone column before it (see :func:`open_mapped`); else none."""
    if not front_matter_sheet(source.sheet):
        return []
    return _other_visible_sheets(source, lambda name: not front_matter_sheet(name))


def _open_named_column(
    source: SheetSource, path: Path, settings: JobSettings, probe: bool, prefer_opt_outs: bool
) -> tuple[SheetSource, ColumnMapping]:
    """A workbook of several sheets, no sheet named, and ``--phone-column``: the sheet read is
    the first, in :func:`open_mapped`'s order, that would be read without it or that has the
    named column, and the column is resolved there.

    Naming a column never passes over the sheet an import would read otherwise (a "Contacts"
    sheet with a column of that name read instead of the preferred "Opt Outs"): the refusal
    names that sheet and its headers, and the other sheet that has the column (``--sheet``).
    When no sheet has a column of phone numbers to find, the named column picks the sheet.
    """
    order = _sheet_order(source, prefer_opt_outs, settings.target)
    named: tuple[SheetSource, ColumnMapping] | None = None
    named_error: MappingError | None = None
    try:
        named = _choose_sheet(source, path, settings, probe, prefer_opt_outs)
    except MappingError as refused:
        named_error = refused
    try:
        auto = _unnamed_choice(path, settings, probe, prefer_opt_outs)
    except BaseException:
        _close(named)
        raise
    if auto is None or (named is not None and _before(order, named[0].sheet, auto[0].sheet)):
        _close(auto)
        if named is None:
            assert named_error is not None
            # As raised: its cause says it is about the argument (exit status 2).
            raise named_error
        return named
    chosen = auto[0]
    try:
        return chosen, _map_chosen(chosen, path, settings)
    except MappingError as refused:
        chosen.close()
        message, cli_text = str(refused), refused.cli_text
        if named is not None:
            where, cli_where = _has_column_sentences(named, chosen.sheet)
            message, cli_text = f"{message} {where}", f"{cli_text} {cli_where}"
        raise MappingError(message, cli_text) from refused.__cause__
    except BaseException:
        chosen.close()
        raise
    finally:
        _close(named)


def _unnamed_choice(
    path: Path, settings: JobSettings, probe: bool, prefer_opt_outs: bool
) -> tuple[SheetSource, ColumnMapping] | None:
    """The sheet read with no ``--phone-column`` nor ``--ignore-column``, or None when no
    sheet has a phone column."""
    unnamed = replace(settings, phone_column=None, ignore_columns=())
    try:
        return _choose_sheet(
            open_sheet(path, None, probe_others=probe), path, unnamed, probe, prefer_opt_outs
        )
    except MappingError:
        return None


def _sheet_order(source: SheetSource, prefer_opt_outs: bool, target: Target) -> list[str]:
    """The visible sheets in the order :func:`_choose_sheet` tries them, ``source`` the
    reader's first sheet."""
    preferred = list_sheets(source, target, prefer_opt_outs)
    if prefer_opt_outs:
        preferred += [n for n in opt_out_sheets(source, target) if n not in preferred]
    hidden = source.notes.hidden_sheets
    rest = [n for n in source.sheet_names if n not in preferred and n != source.sheet]
    # A front-matter first sheet goes after the others (see _choose_sheet).
    return [*preferred, *usable_first([source.sheet, *[n for n in rest if n not in hidden]])]


def _before(order: Sequence[str], sheet: str, other: str) -> bool:
    """Whether ``sheet`` is tried no later than ``other`` (a sheet not in ``order`` last)."""
    rank = {name: i for i, name in enumerate(order)}
    return rank.get(sheet, len(order)) <= rank.get(other, len(order))


def _has_column_sentences(found: tuple[SheetSource, ColumnMapping], read: str) -> tuple[str, str]:
    """What to say of the sheet that has the named column when sheet ``read`` is read: for
    any front end, and with the option that reads it."""
    sheet = found[0].sheet
    mapping = found[1]
    assert mapping.phone is not None
    header = mapping.headers[mapping.phone] if mapping.phone < len(mapping.headers) else ""
    column = f"column {column_letter(mapping.phone)}" + (f", {header!r}" if header else "")
    said = f"Sheet {sheet!r} has it ({column}), but only sheet {read!r} is read"
    return (
        f"{said}: choose sheet {sheet!r} to read it.",
        f"{said}: to read sheet {sheet!r} instead, run the file again with --sheet {sheet!r}.",
    )


def _close(opened: tuple[SheetSource, ColumnMapping] | None) -> None:
    if opened is not None:
        opened[0].close()


def opt_out_sheets(source: SheetSource, target: Target | None = None) -> list[str]:
    """The visible sheets other than ``source``'s own whose names say they hold opt-outs, in
    the file's order, when ``source``'s name does not (see :func:`open_mapped`). A name that
    also says not to use the sheet ("Do Not Use - old DNC") is none. With ``target``, those
    named for its list come first: "Opt Outs" before "SMS Opt-outs" had the first read for an
    SMS import (black-box bb12 F2)."""
    if _OPT_OUT_SHEET.search(source.sheet) and not do_not_use_sheet(source.sheet):
        return []
    found = _other_visible_sheets(source, lambda name: bool(_OPT_OUT_SHEET.search(name)))
    if target is None:
        return found
    return sorted(found, key=lambda name: not _names_list(name, target))


def _names_list(name: str, target: Target) -> bool:
    """Whether sheet ``name`` names ``target``'s list and not the other."""
    return bool(_LIST_SHEET[target].search(name)) and not _LIST_SHEET[_OTHER_LIST[target]].search(
        name
    )


def list_sheets(source: SheetSource, target: Target, prefer_opt_outs: bool = False) -> list[str]:
    """The visible sheets other than ``source``'s own whose names name ``target``'s list and
    not the other ("DNC" for the DNC list, "SMS Opt-outs" for the SMS opt-out list), when
    ``source``'s name names the other list and not ``target``'s: a workbook keeping both
    lists on sheets of their own had the first read for either (black-box B31 F5). A removal's
    target is the DNC list, the only one it takes entries off.

    With ``prefer_opt_outs`` (an import), also when ``source``'s name says opt-outs without
    naming a list ("Opt Outs" before "SMS Opt-outs" in an SMS import: black-box bb12 F2); then
    only sheets whose names say opt-outs too, as a sheet merely naming the list ("SMS Leads",
    "Call Log") holds numbers that never opted out (black-box bb16 F6)."""
    own, other = _LIST_SHEET[target], _LIST_SHEET[_OTHER_LIST[target]]
    if own.search(source.sheet):
        return []
    generic = (
        prefer_opt_outs
        and bool(_OPT_OUT_SHEET.search(source.sheet))
        and not other.search(source.sheet)
    )
    if not other.search(source.sheet) and not generic:
        return []

    def wanted(name: str) -> bool:
        named = bool(own.search(name)) and not other.search(name)
        return named and (not generic or bool(_OPT_OUT_SHEET.search(name)))

    return _other_visible_sheets(source, wanted)


def _same_list(read: str, other: str, target: Target) -> bool:
    """Whether sheet ``other``, laid out as sheet ``read``, may hold the same list's numbers:
    not when its name names the other list ("SMS Opt-outs" beside "DNC": importing it into
    the DNC list is no advice to give), nor a sheet whose name does not say opt-outs beside one
    read for saying so ("Contacts" beside "DNC", see :func:`open_mapped`)."""
    own, other_list = _LIST_SHEET[target], _LIST_SHEET[_OTHER_LIST[target]]
    if other_list.search(other) and not own.search(other):
        return False
    return not (_OPT_OUT_SHEET.search(read) and not _OPT_OUT_SHEET.search(other))


def _other_visible_sheets(source: SheetSource, wanted: Callable[[str], bool]) -> list[str]:
    """The visible sheets other than ``source``'s own, in the file's order, that are
    ``wanted`` and whose names do not say not to use them."""
    hidden = source.notes.hidden_sheets
    return [
        name
        for name in source.sheet_names
        if name != source.sheet
        and name not in hidden
        and wanted(name)
        and not do_not_use_sheet(name)
    ]


# A sheet name saying it holds opt-outs (see open_mapped).
_OPT_OUT_SHEET: Final = re.compile(
    r"\b(?:dnc|do[\s_-]*not[\s_-]*(?:call|contact|text|email)|opt[\s_-]*outs?|"
    r"unsubscribe[sd]?|unsubs|stops?|suppress(?:ed|ion)?s?|blocked)\b",
    re.IGNORECASE,
)


# A sheet name naming one list (see list_sheets): "Do Not Text" is the SMS list's.
_LIST_SHEET: Final = {
    Target.DNC: re.compile(
        r"\b(?:dnc|do[\s_-]*not[\s_-]*call|calls?|calling|voice)\b", re.IGNORECASE
    ),
    Target.SMS_OPT_OUT: re.compile(
        r"\b(?:sms|mms|texts?|texting|txt|do[\s_-]*not[\s_-]*text)\b", re.IGNORECASE
    ),
}
_OTHER_LIST: Final = {Target.DNC: Target.SMS_OPT_OUT, Target.SMS_OPT_OUT: Target.DNC}


def _mapped(
    path: Path, name: str, settings: JobSettings, probe: bool, empty: set[str] | None = None
) -> tuple[SheetSource, ColumnMapping] | None:
    """Sheet ``name`` opened and mapped, or None when it has no phone column (or is empty or
    cannot be read: it is simply not the one, and goes into ``empty``)."""
    try:
        candidate = open_sheet(path, name, probe_others=probe)
    except SheetError:
        if empty is not None:
            empty.add(name)
        return None
    try:
        preview = read_preview(candidate)
        return candidate, map_sheet(preview, settings, path_text(path.name), candidate.sheet, ())
    except MappingError:
        candidate.close()
        return None
    except BaseException:
        candidate.close()
        raise


def _note_unchecked(
    rows: Iterator[CheckedRow], unchecked: dict[str, int], unresolved: RowList, offline: bool
) -> Iterator[CheckedRow]:
    """Rows whose campaign id could not be checked, counted per id and noted on the row, and
    (``unresolved``) the invalid rows whose campaign name could not be resolved."""
    why = "no connection" if offline else "no campaign list"
    for c in rows:
        scope = c.scope
        if c.outcome is CheckOutcome.INVALID:
            if UNRESOLVED_OFFLINE in c.message:
                unresolved.add(c.row)
        elif scope is not None and scope.is_campaign:
            cid = scope.campaign_id
            unchecked[cid] = unchecked.get(cid, 0) + 1
            if c.outcome is CheckOutcome.VALID:
                note = f"campaign {cid} was not checked against the service ({why})"
                c.message = f"{c.message}; {note}" if c.message else f"row {c.row}: {note}"
        yield c


def _unchecked_sentence(
    unchecked: Mapping[str, int], unresolved: RowList, connection: Connection | None
) -> str:
    """What went unchecked for want of the campaign list, for the CLI and the job's meta: the
    campaign ids rows name, and the rows naming campaigns by name, which are invalid here
    though a run with the list may resolve them (black-box N3 #6, N4 #8: a dry run without a
    connection counted them invalid without a word, against 5 in the run with one)."""
    where = (
        "there was no connection to fetch the campaign list from"
        if connection is None
        else f"no campaign list of {connection.name} was given"
    )
    said = []
    if unchecked:
        ordered = sorted(unchecked.items(), key=lambda item: (len(item[0]), item[0]))
        listed = [f"{cid} ({n:,} row{'s' if n != 1 else ''})" for cid, n in ordered[:10]]
        if len(ordered) > 10:
            listed.append(f"{len(ordered) - 10} more")
        said.append(
            f"Campaign ids were not checked, as {where}; rows name campaign "
            f"{', '.join(listed)}, and a run with a connection refuses those that do not exist."
        )
    if unresolved.count:
        many = unresolved.count != 1
        rows = f"{rows_named(unresolved)} {'name' if many else 'names'}"
        said.append(
            (
                f"{rows[0].upper()}{rows[1:]}"
                if unchecked
                else f"Campaign names were not looked up, as {where}: {rows}"
            )
            + f" a campaign by its name, so {'they count' if many else 'it counts'} as invalid "
            "here; with a connection (--connection or --base-url, a dry run too) the names "
            "are looked up, and a row whose name is one campaign's is valid."
        )
    return " ".join(said)


# Campaign names a warning quotes; the others are counted.
_NAMES_SHOWN: Final = 5


class _Verdicts:
    """Rows whose message tells what the counts do not (:meth:`watch`), for one warning each
    (:meth:`sentences`): a row's note is easy to miss among thousands. The check marks each
    such row (:class:`~app.core.sheet_check.Marks`) where it writes the note, so no warning
    depends on how the message words it."""

    def __init__(self) -> None:
        self.scope_cell = RowList()  # a Scope cell's scope used over a Campaign cell's
        self.row_scope = RowList()  # the row's scope used over another campaign column's
        self.two_scopes = RowList()  # each row either way, once
        self.cut = RowList()
        # Column the campaign cells were read from -> rows, and names or ids.
        self.unknown: dict[int, tuple[RowList, dict[str, int]]] = {}
        # A removal's rows naming another scope than the job's, and how many name each (a
        # bounded few scopes counted apart: a million rows may name a million purposes).
        self.other_scope = RowList()
        self.other_scopes: dict[Scope, int] = {}

    def watch(self, rows: Iterator[CheckedRow]) -> Iterator[CheckedRow]:
        for c in rows:
            if (marks := c.marks) is not None:
                if ways := marks.two_scopes:
                    if SCOPE_CELL_USED in ways:
                        self.scope_cell.add(c.row)
                    if ROW_SCOPE_USED in ways:
                        self.row_scope.add(c.row)
                    self.two_scopes.add(c.row)
                if marks.reason_cut:
                    self.cut.add(c.row)
                if (unknown := marks.unknown_campaign) is not None:
                    column, name = unknown
                    rows_of, names = self.unknown.setdefault(column, (RowList(), {}))
                    rows_of.add(c.row)
                    if name in names or len(names) < 1000:
                        names[name] = names.get(name, 0) + 1
                if (other := marks.other_scope) is not None:
                    self.other_scope.add(c.row)
                    if other in self.other_scopes or len(self.other_scopes) < 1000:
                        self.other_scopes[other] = self.other_scopes.get(other, 0) + 1
            yield c

    def sentences(
        self, mapping: ColumnMapping, connection: Connection | None, kind: str
    ) -> list[str]:
        out = []
        verb = "imported" if kind == "import" else "removed"
        if self.two_scopes.count:
            out.append(self._two_scopes(mapping, verb))
        if self.cut.count:
            cut = self.cut
            one = cut.count == 1
            out.append(
                f"{'1 row' if one else f'{cut.count:,} rows'} ({rows_named(cut)}) "
                f"{'has a reason' if one else 'have reasons'} longer than {MAX_TEXT} characters, "
                f"the most the service keeps: {'it was' if one else 'they were'} cut to "
                f"{MAX_TEXT} (each row's message says how long it was). If the end of a reason "
                "matters, shorten it in the file and run the file again."
            )
        for column, (rows, names) in self.unknown.items():
            out.append(self._unknown(mapping, connection, column, rows, names))
        if self.other_scope.count:
            out.append(self._other_scopes(mapping.default_scope))
        return out

    def _other_scopes(self, scope: Scope) -> str:
        """The removal's rows refused for naming another scope than ``scope``, the job's: how
        many, which scopes, and the options that take them."""
        rows = self.other_scope
        ordered = sorted(self.other_scopes.items(), key=lambda item: -item[1])
        shown = [f"{s.label()} ({_rows(n)})" for s, n in ordered[:_NAMES_SHOWN]]
        if (left := rows.count - sum(n for _, n in ordered[:_NAMES_SHOWN])) > 0:
            shown.append(f"other scopes ({_rows(left)})")
        if len(ordered) == 1:
            option = f"--scope {_scope_option(ordered[0][0])}"
            then = f"run the file again with {option}, or with --per-row-scope"
        else:
            then = "run the file again with --per-row-scope"
        many = rows.count != 1
        return (
            f"{rows.count:,} row{'s are' if many else ' is'} invalid because "
            f"{'they name' if many else 'it names'} another scope than this removal's, "
            f"{scope.label()} ({rows_named(rows)}): {joined(shown)}. A removal takes only the "
            f"scope it was given: to remove {'them' if many else 'it'}, {then} to take each "
            "row's scope from the file."
        )

    def _two_scopes(self, mapping: ColumnMapping, verb: str) -> str:
        named = self.two_scopes
        total = named.count
        ways = []
        if self.scope_cell.count:
            scope = column_said(mapping.headers, mapping.scope) if mapping.scope is not None else ""
            ways.append(
                f"where the Scope and Campaign cells disagree ({_rows(self.scope_cell.count)}), "
                f"the scope in {scope} was used"
            )
        if self.row_scope.count:
            others = campaign_stand_ins(mapping)
            other = joined([column_said(mapping.headers, i) for i in others]) or "another column"
            read = [
                column_said(mapping.headers, i)
                for i in (mapping.scope, mapping.campaign)
                if i is not None
            ]
            ways.append(
                f"where {other} names another campaign than the row's scope "
                f"({_rows(self.row_scope.count)}), the scope read from {' or '.join(read)} was "
                "used"
            )
        many = total != 1
        return (
            f"{total:,} row{'s' if many else ''} {'name' if many else 'names'} two scopes in "
            f"{'their' if many else 'its'} cells and {'were' if many else 'was'} {verb} into "
            f"one of them ({rows_named(named)}): {'; '.join(ways)}. Each row's message says "
            "which; make the cells agree (or empty one) and run the file again if the other "
            "was meant."
        )

    @staticmethod
    def _unknown(
        mapping: ColumnMapping,
        connection: Connection | None,
        index: int,
        rows: RowList,
        names: Mapping[str, int],
    ) -> str:
        column = column_said(mapping.headers, index)
        name = mapping.headers[index] if index < len(mapping.headers) else ""
        ordered = sorted(names.items(), key=lambda item: -item[1])
        shown = [n for n, _ in ordered[:_NAMES_SHOWN]]
        if len(ordered) > _NAMES_SHOWN:
            shown.append(f"{len(ordered) - _NAMES_SHOWN:,} more")
        where = f"on the connection {connection.name!r}" if connection else "on this connection"
        many = rows.count != 1
        option = (
            f"--ignore-column {name!r}"
            if name
            else f"--ignore-column column:{column_letter(index)}"
        )
        if index == mapping.campaign and mapping.scope is None:
            then = "the job's scope (--scope) applies to every row"
        else:
            # Another campaign or scope column still gives its rows their scope.
            read = [
                column_said(mapping.headers, i)
                for i in (mapping.scope, mapping.campaign)
                if i is not None and i != index
            ]
            then = (
                f"the job's scope (--scope) applies to the rows whose {' and '.join(read)} "
                f"{'cells are' if len(read) > 1 else 'cell is'} empty"
            )
        return (
            f"{rows.count:,} row{'s are' if many else ' is'} invalid because {column} names no "
            f"campaign {where} ({joined(shown)}; {rows_named(rows)}). If that column does not "
            "hold this connection's campaigns (an SMS platform's or another dialer's "
            f"campaigns), run the file again with {option}: the column is then not read, and "
            f"{then}."
        )


# The job meta key holding staging's counted sentence on other sheets laid out as the one read
# (:func:`~app.core.staging_notes.alike_sheets`), said as a ``warning:`` rather than a ``note:``.
OTHER_SHEETS_WARNING: Final = "other_sheets_warning"


def _import_again(settings: JobSettings) -> str:
    """The command that imports ``settings.file`` as this job does, for another sheet to be
    named after it: the options that shape what is read and where it goes."""
    words = [
        "dnc-desk import",
        shlex.quote(path_text(settings.file)),
        f"--into {settings.target.value}",
    ]
    if not settings.scope_from_rows:
        words.append(f"--scope {_scope_option(settings.scope)}")
    if settings.phone_column:
        words.append(f"--phone-column {shlex.quote(settings.phone_column)}")
    words += [f"--ignore-column {shlex.quote(c)}" for c in settings.ignore_columns]
    if settings.phone_code != "1":
        words.append(f"--phone-code {shlex.quote(settings.phone_code)}")
    if settings.reason:
        words.append(f"--reason {shlex.quote(settings.reason)}")
    if settings.purpose:
        words.append(f"--purpose {shlex.quote(settings.purpose)}")
    words += [shlex.quote(word) for word in settings.pasted_options]
    return " ".join(words)


def _scope_option(scope: Scope) -> str:
    """``scope`` as ``--scope`` takes it in a shell: a purpose quoted even when one word, as
    every sentence naming one writes it (the window rewords ``--scope 'purpose:X'``)."""
    text = str(scope)
    if scope.is_purpose and "'" not in text:
        return f"'{text}'"
    return shlex.quote(text)


def _rows(count: int) -> str:
    return "1 row" if count == 1 else f"{count:,} rows"


# How the purposes of the list a job writes to are read (the CLI pages through them): at most
# this many pages of this many purpose entries, then a search per text (SEARCHED_TEXTS).
PURPOSE_PAGES: Final = 20
PURPOSE_PAGE: Final = 1000
# When not every purpose entry could be read: how many distinct texts are searched for by
# their usual spellings (the others are counted as not compared).
SEARCHED_TEXTS: Final = 50
# Purpose texts whose comparison a job remembers (a file's purposes are few; a bound all the
# same, as a million-row file could name a million).
_REMEMBERED: Final = 10_000


def purpose_key(text: str) -> str:
    """What two spellings of one purpose share: Unicode NFKC, case folded, invisible format
    characters left out, every run of white space one space, none around. The service keeps
    purposes exactly as written, so 'Loan  Offers', 'loan offers' and a 'Müller' whose accent
    is a separate mark are each a purpose of its own that reads as the same to a person (re-test
    M2 #2)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return " ".join(visible_text(folded).split())


def shown_text(text: str) -> str:
    """``text`` quoted as ``repr`` does, with combining marks written as ``\\u0308``: a 'Müller'
    whose accent is a separate mark must not look like the 'Müller' beside it."""
    quoted = repr(text)
    if quoted.isascii():
        return quoted
    return "".join(
        f"\\u{ord(c):04x}" if unicodedata.category(c).startswith("M") else c for c in quoted
    )


class ListPurposes:
    """The purposes on the list a job writes to, compared by :func:`purpose_key`.

    ``load`` reads them once, when first asked (a job whose rows name no purpose never does):
    the distinct purpose texts of the list's purpose entries and whether they are all of them
    (it reads at most :data:`PURPOSE_PAGES` pages). When they are not, each text compared is
    also looked up with ``search`` (the list's spellings of its usual variants), for the first
    :data:`SEARCHED_TEXTS` texts; the others are counted in :attr:`uncompared`.
    """

    def __init__(
        self,
        list_name: str,
        load: Callable[[], tuple[Iterable[str], bool]],
        search: Callable[[str], Iterable[str]] | None = None,
    ) -> None:
        self.list_name = list_name
        self._load = load
        self._search = search
        self._by_key: dict[str, dict[str, None]] | None = None
        self.complete = True
        self._searched: set[str] = set()
        self.uncompared: set[str] = set()

    @property
    def loaded(self) -> bool:
        return self._by_key is not None

    def _add(self, by_key: dict[str, dict[str, None]], spelling: str) -> None:
        if spelling.strip():
            by_key.setdefault(purpose_key(spelling), {})[spelling] = None

    def spellings(self, text: str) -> tuple[str, ...]:
        """The list's spellings of ``text``'s purpose (``text`` itself among them when the list
        has it exactly), in the order read; empty for a purpose the list does not have."""
        by_key = self._by_key
        if by_key is None:
            texts, self.complete = self._load()
            by_key = self._by_key = {}
            for spelling in texts:
                self._add(by_key, spelling)
        key = purpose_key(text)
        if not self.complete and key not in self._searched:
            if self._search is not None and len(self._searched) < SEARCHED_TEXTS:
                self._searched.add(key)
                for spelling in self._search(text):
                    if purpose_key(spelling) == key:
                        self._add(by_key, spelling)
            elif len(self.uncompared) < _REMEMBERED:
                self.uncompared.add(key)
        return tuple(by_key.get(key, ()))

    def partly_read_sentence(self, what: str) -> str:
        """The note for a list whose purposes were not all read ("" when they were), saying
        what (``what``: "the purpose of --scope", "the rows' purposes") was compared how."""
        if self.complete or not self.loaded:
            return ""
        left = len(self.uncompared)
        others = (
            f"; {left:,} more {'was' if left == 1 else 'were'} not compared, and a spelling "
            "the list has only otherwise goes in as a purpose of its own"
            if left
            else ""
        )
        return (
            f"The {self.list_name} has more purpose entries than the "
            f"{PURPOSE_PAGES * PURPOSE_PAGE:,} read to learn its purposes, so not every purpose "
            f"on it could be compared: {what} were compared with those read and searched for "
            f"by their usual spellings (case and spacing), up to {SEARCHED_TEXTS} texts{others}."
        )


# What separates purposes written in one cell ("Marketing;Surveys", "Marketing, Surveys").
_PURPOSE_SEPARATORS: Final = re.compile(r"[;,]")


def sendable_spelling(spelling: str) -> bool:
    """Whether a purpose can be sent as the list spells it: a scope's text loses the spaces
    around it (:meth:`Scope.purpose`), so 'Solar Leads ' cannot be."""
    return bool(spelling) and spelling == spelling.strip()


class _ListSpellings:
    """Rows whose purpose the target list has only spelled otherwise (:func:`purpose_key`),
    taken on the way to the job file (re-test M2 #2, severe: a Purpose cell 'marketing' or
    Scope cell 'purpose:MARKETING' beside the list's 'Marketing' went in as a new purpose the
    dialer's campaigns do not use, leaving the consumer callable). With one spelling on the
    list that can be sent, the row takes it, and its message says so; with several, or one
    that cannot be sent, the row is invalid, naming them. Without a connection (``offline``),
    the rows whose purpose is not the job's own (``own``: the options', which the CLI notes
    itself) are counted for a warning.

    An import row's purpose is checked so whatever its scope (``attached``): a global or
    campaign entry carries the Purpose cell too, and 'marketing' or 'Marketing;Surveys' beside
    the list's 'Marketing' went in as written (black-box bb4 F5c). A removal sends no purpose
    beside a global or campaign scope, so there only a purpose scope's is checked."""

    def __init__(
        self,
        purposes: ListPurposes | None,
        own: Set[str],
        summary: CheckSummary,
        offline: bool,
        attached: bool = False,
    ) -> None:
        self.purposes = purposes
        self.attached = attached
        # Without a connection; a front end with one that reads no purposes says nothing.
        self.own = own if offline else None
        self.summary = summary
        self.verdicts: dict[str, tuple[str, ...]] = {}
        self.rewritten = RowList()
        self.rewrites: dict[str, str] = {}  # as the rows wrote it -> the list's spelling
        self.refused = RowList()
        self.refusals: dict[str, tuple[str, ...]] = {}
        self.several = RowList()  # rows naming more than one of the list's purposes
        self.compared = 0  # rows whose purpose was compared
        self.offline = RowList()
        # Rows whose purpose the list has in no spelling (or that were not compared), by
        # purpose_key: one purpose spelled several ways among them is several on the service.
        self.variants = _RowSpellings()

    def _listed(self, text: str) -> tuple[str, ...]:
        assert self.purposes is not None
        found = self.verdicts.get(text)
        if found is None:
            found = self.purposes.spellings(text)
            if len(self.verdicts) < _REMEMBERED:
                self.verdicts[text] = found
        return found

    def watch(self, rows: Iterator[CheckedRow]) -> Iterator[CheckedRow]:
        purposes = self.purposes
        for c in rows:
            if c.outcome is CheckOutcome.VALID and (text := self._sent_purpose(c)):
                if purposes is None:
                    if self.own is not None and text not in self.own:
                        self.offline.add(c.row)
                    self.variants.add(text, c.row)
                else:
                    self.compared += 1
                    listed = self._listed(text)
                    if listed:
                        if text not in listed:
                            self._take(c, text, listed)
                    elif several := self._several(text):
                        self._invalid(c, f"{shown_text(text)} {several}")
                        self.several.add(c.row)
                    else:
                        self.variants.add(text, c.row)
            yield c

    def _sent_purpose(self, c: CheckedRow) -> str:
        """The purpose row ``c`` is sent with, as its scope's or beside another scope."""
        scope = c.scope
        if scope is None:
            return ""
        if scope.is_purpose:
            return scope.purpose_text
        return c.purpose if self.attached else ""

    def _several(self, text: str) -> str:
        """Why ``text``, which the list does not have, names more than one of its purposes
        ("Marketing;Surveys", "Marketing, Surveys"), or "": an entry carries one purpose, and
        sending the whole text would make a purpose no campaign uses (black-box B21 F2)."""
        parts = [p.strip() for p in _PURPOSE_SEPARATORS.split(text)]
        if len(parts) < 2:
            return ""
        found = [p for p in parts if p and self._listed(p)]
        if len(found) < 2:
            return ""
        assert self.purposes is not None
        names = joined([shown_text(p) for p in found])
        return (
            f"names {len(found)} of the {self.purposes.list_name}'s purposes ({names}), and an "
            "entry has one purpose: put each purpose on a row of its own"
        )

    def _invalid(self, c: CheckedRow, detail: str) -> None:
        """Row ``c``, valid until now, made invalid for its purpose, the summary with it."""
        notes = c.message.split(": ", 1)[1] if c.message else ""
        c.message = f"row {c.row}: purpose: {detail}" + (f"; {notes}" if notes else "")
        c.outcome = CheckOutcome.INVALID
        c.marks = None  # what the marks count is said of rows that are sent
        summary = self.summary
        summary.valid -= 1
        summary.invalid += 1
        if c.late:
            summary.late_invalid.add(c.row)

    def _take(self, c: CheckedRow, text: str, listed: tuple[str, ...]) -> None:
        assert self.purposes is not None
        if len(listed) == 1 and sendable_spelling(listed[0]):
            spelling = listed[0]
            if c.scope is not None and c.scope.is_purpose:
                c.scope = Scope.purpose(spelling)
            c.purpose = spelling
            said = (
                f"purpose {shown_text(text)} is written {shown_text(spelling)} on the list; sent so"
            )
            c.message = f"{c.message}; {said}" if c.message else f"row {c.row}: {said}"
            self.rewritten.add(c.row)
            if len(self.rewrites) < _NAMES_SHOWN or text in self.rewrites:
                self.rewrites[text] = spelling
            return
        names = joined([shown_text(s) for s in listed])
        if len(listed) == 1:
            why = (
                "which begins or ends with a space, and a purpose is sent without one: correct "
                "it on the list (or write the purpose meant exactly)"
            )
        else:
            why = "which the service keeps apart: write the one meant in the cell, exactly"
        detail = f"{shown_text(text)} is on the {self.purposes.list_name} only as {names}, {why}"
        self._invalid(c, detail)
        self.refused.add(c.row)
        if len(self.refusals) < _NAMES_SHOWN or text in self.refusals:
            self.refusals[text] = listed

    def sentences(self, kind: str) -> list[str]:
        out: list[str] = []
        list_name = self.purposes.list_name if self.purposes is not None else "list"
        if (count := self.rewritten.count) != 0:
            shown = [f"{shown_text(a)} as {shown_text(b)}" for a, b in self.rewrites.items()]
            many = count != 1
            out.append(
                f"{_rows(count)} {'name' if many else 'names'} a purpose the {list_name} writes "
                f"otherwise ({'; '.join(shown)}; {rows_named(self.rewritten)}): the service "
                "keeps a purpose as it is written, so another spelling would be a purpose of "
                f"its own; {'they take' if many else 'it takes'} the list's spelling (each "
                "row's message says so)."
            )
        if (count := self.refused.count) != 0:
            shown = [
                f"{shown_text(a)} as {joined([shown_text(s) for s in b])}"
                for a, b in self.refusals.items()
            ]
            many = count != 1
            out.append(
                f"{_rows(count)} {'are' if many else 'is'} invalid because the {list_name} has "
                f"{'their purposes' if many else 'its purpose'} only spelled otherwise, in "
                f"several spellings or one that cannot be sent ({'; '.join(shown)}; "
                f"{rows_named(self.refused)}): each row's message says what to do."
            )
        if (count := self.several.count) != 0:
            many = count != 1
            out.append(
                f"{_rows(count)} {'are' if many else 'is'} invalid because "
                f"{'each names' if many else 'it names'} more than one of the {list_name}'s "
                f"purposes in one cell ({rows_named(self.several)}), and an entry has one "
                "purpose: put each purpose on a row of its own."
            )
        purposes = self.purposes
        partly = purposes.partly_read_sentence("the rows' purposes") if purposes else ""
        if partly and self.compared:
            out.append(partly)
        # A front end with a connection that reads no purposes (the window) sends the rows'
        # spellings as written: warned as such, with no word of a run with a connection.
        offline = self.purposes is None and self.own is not None
        if kind == "import" and (several := self.variants.sentence(offline)):
            out.append(several)
        if (count := self.offline.count) != 0:
            verb = "imported" if kind == "import" else "removed"
            out.append(
                f"The purposes of {_rows(count)} ({rows_named(self.offline)}) were not compared "
                "with the list's, as there was no connection to read them; a run with a "
                "connection gives a row whose purpose the list writes otherwise ('marketing' "
                f"beside 'Marketing') the list's spelling, so it is {verb} under it."
            )
        return out


class _InactiveCampaigns:
    """Import rows going to a campaign the connection lists as inactive (black-box B21 F7:
    ``--scope campaign:1004`` or a row's cell naming an inactive campaign gave no word, though
    ``health`` counts the entries of inactive campaigns as a finding)."""

    def __init__(self, inactive: Mapping[str, str]) -> None:
        self.inactive = inactive
        self.rows: dict[str, RowList] = {}

    def watch(self, rows: Iterator[CheckedRow]) -> Iterator[CheckedRow]:
        for c in rows:
            scope = c.scope
            if (
                c.outcome is CheckOutcome.VALID
                and scope is not None
                and scope.is_campaign
                and scope.campaign_id in self.inactive
            ):
                self.rows.setdefault(scope.campaign_id, RowList()).add(c.row)
            yield c

    def sentence(self) -> str:
        if not self.rows:
            return ""
        count = sum(r.count for r in self.rows.values())
        each = joined(
            [
                f"{self.inactive[cid]!r} (campaign {cid}; {rows_named(rows)})"
                for cid, rows in sorted(self.rows.items(), key=lambda i: (len(i[0]), i[0]))
            ]
        )
        many = len(self.rows) > 1
        rows, go = ("these rows are", "go") if count != 1 else ("this row is", "goes")
        return (
            f"{_rows(count)} {go} to {'campaigns' if many else 'a campaign'} the service lists "
            f"as inactive: {each}. The dialer does not call from an inactive campaign, and "
            f"dnc-desk health counts its entries as a finding: check that {rows} meant for "
            f"{'them' if many else 'it'}."
        )


class _SpelledDuplicates:
    """Rows that became duplicates when their purpose took the list's spelling
    (:class:`_ListSpellings`): the check found duplicates by the purpose as written, so row 5
    'Marketing' and row 7 'purpose:marketing' of one number were both valid, and the second
    ended already_present when sent (black-box B21 F5). Such a row is a duplicate of the first
    now, as if the file had spelled them alike."""

    def __init__(self, summary: CheckSummary) -> None:
        self.summary = summary
        # (phone_code + national, purpose as sent) -> (first row, whether it was late).
        self.first: dict[tuple[str, str], tuple[int, bool]] = {}

    def watch(self, rows: Iterator[CheckedRow]) -> Iterator[CheckedRow]:
        for c in rows:
            scope = c.scope
            if c.outcome is CheckOutcome.VALID and scope is not None and scope.is_purpose:
                key = (c.phone_code + c.national, scope.purpose_text)
                found = self.first.get(key)
                if found is None:
                    self.first[key] = (c.row, c.late)
                else:
                    self._duplicate(c, *found)
            yield c

    def _duplicate(self, c: CheckedRow, first: int, first_late: bool) -> None:
        summary = self.summary
        summary.valid -= 1
        summary.duplicates_in_file += 1
        if c.late and first_late:
            summary.late_requests -= 1  # the number is counted once, on its first row
        for issue, listed in (
            (DATE_UNREAD, summary.unread_dates),
            (DATE_AFTER, summary.future_dates),
            (DATE_MISSING, summary.undated),
        ):
            if c.date_issue == issue:
                listed.discard(c.row)
        assert c.scope is not None
        c.outcome = CheckOutcome.DUPLICATE
        c.duplicate_of = first
        c.marks = None  # a duplicate row's message notes none of them
        c.message = (
            f"row {c.row}: duplicate of row {first}, its purpose being "
            f"{shown_text(c.scope.purpose_text)} as the list spells it"
        )


# Spellings of one purpose kept apart (with their rows) for the warning of several; rows in
# further spellings are counted together.
_SPELLINGS_KEPT: Final = 10


class _RowSpellings:
    """One purpose (:func:`purpose_key`) spelled more than one way by the rows of an import,
    when the list has none of the spellings (black-box B7 #3, moderate: Purpose cells
    'Marketing', ' marketing' and 'MARKETING', 'Loan  Offers' and 'Loan Offers' went in as five
    purposes, with no note, though the dialer's campaigns use one spelling of each and an
    entry under another leaves the consumer callable). When the list has a spelling, the rows
    already take it (:class:`_ListSpellings`); a removal's rows take it or find nothing, so a
    removal is not warned.

    Such rows are warned of, not held as invalid: an invalid row's consumer is not listed at
    all, which is worse than an entry under a spelling a campaign may not use, and nothing in
    the file says which spelling is meant (the most rows' may be the wrong one). The warning
    is among the job's (the dry run's notes, before anything is sent; the run's result and
    the report's Summary).

    Streaming: per purpose, the count and first rows (:class:`RowList`) of each of its first
    :data:`_SPELLINGS_KEPT` spellings, the rest counted together; at most :data:`_REMEMBERED`
    purposes are followed.
    """

    def __init__(self) -> None:
        self.by_key: dict[str, dict[str, RowList]] = {}
        self.beyond: dict[str, RowList] = {}  # rows in spellings past the kept ones

    def add(self, text: str, row: int) -> None:
        key = purpose_key(text)
        spellings = self.by_key.get(key)
        if spellings is None:
            if len(self.by_key) >= _REMEMBERED:
                return
            spellings = self.by_key[key] = {}
        rows = spellings.get(text)
        if rows is None:
            if len(spellings) >= _SPELLINGS_KEPT:
                self.beyond.setdefault(key, RowList()).add(row)
                return
            rows = spellings[text] = RowList()
        rows.add(row)

    def sentence(self, offline: bool) -> str:
        """The warning naming each purpose the rows spell several ways ("" for none)."""
        several = [(k, s) for k, s in self.by_key.items() if len(s) > 1]
        if not several:
            return ""
        said: list[str] = []
        for key, spellings in several[:_NAMES_SHOWN]:
            each = [f"{shown_text(t)} ({rows_named(r)})" for t, r in spellings.items()]
            if (more := self.beyond.get(key)) is not None:
                each.append(f"other spellings ({rows_named(more)})")
            said.append(joined(each))
        if len(several) > _NAMES_SHOWN:
            said.append(f"and {len(several) - _NAMES_SHOWN:,} more purposes so")
        if len(several) == 1:
            spellings = several[0][1]
            ways = f"more than {len(spellings)}" if several[0][0] in self.beyond else len(spellings)
            head = f"The rows spell one purpose {ways} ways"
        else:
            head = f"The rows spell each of {len(several):,} purposes more than one way"
        compared = (
            " (not compared with the list's, as there was no connection: a run with one gives "
            "them the list's spelling when it has exactly one)"
            if offline
            else ""
        )
        return (
            f"{head}, which the service keeps as different purposes: {'; '.join(said)}"
            f"{compared}. The dialer's campaigns use one spelling, and an entry under another "
            "leaves the consumer callable: correct the file to one spelling of each purpose, "
            "the one the campaigns use, and import the rows so."
        )


def _remember(
    rows: Iterable[Row], fixes: Corrections, phone: int | None, originals: dict[int, CellValue]
) -> Iterator[Row]:
    """``rows`` unchanged, noting the file's phone cell of each corrected row in ``originals``."""
    for number, cells in rows:
        if number in fixes and phone is not None:
            originals[number] = cells[phone] if phone < len(cells) else None
        yield number, cells


def _corrected(row: NewRow, fixes: Corrections, originals: Mapping[int, CellValue]) -> NewRow:
    if row.row_number not in fixes:
        return row
    was = originals.get(row.row_number)
    original = "" if was is None else str(was)
    note = f"corrected in the import wizard (the file has {original!r})"
    return replace(row, original=original, damage="; ".join(x for x in (row.damage, note) if x))


class _EarliestDates:
    """The rows to send whose number a later row of the file asked for on an earlier date
    (:attr:`~app.core.sheet_check.CheckedRow.replaced`): the job measures such a row from that
    date, as 47 CFR 64.1200(d)(3) counts from the consumer's request.

    The check streams each row before it sees the row's duplicates, so the row is stored with
    its own date; :meth:`restage` gives it the earliest date and its message once every row is
    stored, before anything is sent, so the report, the dry run's counts and the lateness said
    at insertion (all read from the stored date) measure it so.
    """

    def __init__(self) -> None:
        # First row -> the duplicate whose date it is measured from, and what it counted as
        # before any duplicate's date (its own date late or not, or why it had none).
        self.found: dict[int, tuple[CheckedRow, str]] = {}

    def watch(self, rows: Iterator[CheckedRow]) -> Iterator[CheckedRow]:
        found = self.found
        for c in rows:
            if c.replaced and c.duplicate_of is not None:
                before = found.get(c.duplicate_of)
                found[c.duplicate_of] = (c, c.replaced if before is None else before[1])
            yield c

    def restage(self, store: JobStore, options: CheckOptions) -> None:
        found = self.found
        if not found:
            return

        def change(row: JobRow) -> tuple[str, str]:
            earlier, was = found[row.row_number]
            assert earlier.request_date is not None
            staged = row.message
            if was == DATE_AFTER:
                # Measured from the earlier date now: its own date's note would say its limit
                # was not checked ("this row's is after the insertion date" says it is not
                # the one measured), and the report would name it among such rows.
                staged = without_after_note(staged, row.row_number)
            message = measured_from_earlier(staged, row.row_number, earlier, was, options)
            return earlier.request_date.isoformat(), message

        store.restage(sorted(found), change)


def _bounded_cache(rows: Iterator[CheckedRow]) -> Iterator[CheckedRow]:
    """Forget the phone module's per-number cache every CACHE_RESET_ROWS rows.

    Its 500,000-entry cap costs over 100 MB in a file of distinct numbers, where it never
    hits; repeats in real files are near each other, so a smaller window keeps the speed-up.
    Measured: peak RSS of a million-row dry run fell from 417 MB to 290 MB.
    """
    for n, checked in enumerate(rows, 1):
        if n % CACHE_RESET_ROWS == 0:
            phones.clear_cache()
        yield checked
