"""From a spreadsheet to a job file: open, find the header, map, check every row, stage.

Shared by imports and removals. The checking itself is :func:`app.core.sheet_check.check_rows`;
this module only wires the reader, header detection and mapping to it and writes each verdict
into the :class:`~app.core.job_store.JobStore`, streaming (a million-row file is never held).

It also says what the file holds that the job does not take as a person would expect, as
sentences in the job's meta ``warnings`` (the CLI prints them as ``note:`` lines and in its
JSON ``warnings``; the report's Summary lists them):

- rows hidden in an xlsx (by hand or by a filter): an import takes them too, as more opt-outs
  are safe, and says so; a removal leaves them alone (each ends ``not_attempted``, saying why)
  unless ``JobSettings.include_hidden``. For a removal of an .xls/.xlsb/.ods file, where hidden
  rows cannot be seen, a warning says every row was read;
- with the sheet and phone column guessed (no ``sheet`` / ``phone_column``), other sheets and
  other columns that also hold phone numbers, none of them read.

A phone cell whose formula was never calculated (a file written by a script) reads as empty;
its row says so instead of "the phone number is empty".
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core import phones
from app.core.connections import Connection
from app.core.job_store import JobStore, NewRow, Outcome, new_job_id, utc_now
from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, Target, check_rows
from app.core.sheet_check import Outcome as CheckOutcome
from app.core.sheet_header import detect_header, is_blank, is_label, read_preview
from app.core.sheet_mapping import (
    ColumnError,
    ColumnMapping,
    Role,
    UnreadCodeColumn,
    column_letter,
    other_phone_columns,
    propose_mapping,
    resolve_column,
    unread_code_columns,
)
from app.core.sheet_reader import SheetSource, open_sheet
from app.core.sheet_scope import campaign_ids_checked
from app.core.sheet_types import CellValue, Row, SheetError, SheetNotes

CACHE_RESET_ROWS = 100_000

_FINAL = {
    CheckOutcome.INVALID: Outcome.INVALID.value,
    CheckOutcome.DUPLICATE: Outcome.DUPLICATE.value,
    CheckOutcome.BLANK: Outcome.BLANK.value,
}


class MappingError(SheetError):
    """The file was read but its columns cannot be used as asked; one sentence.

    ``str()`` is worded for any front end; ``cli_text``, when set, is the same sentence with
    the command-line options that fix it, which the GUI has no use for.
    """

    def __init__(self, message: str, cli_text: str = "") -> None:
        super().__init__(message)
        self.cli_text = cli_text or message


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
    # A removal leaves rows hidden in the file (by hand or by a filter) alone unless this is set.
    include_hidden: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def _propose(preview: list[tuple[int, Any]], header_row: int | None, code: str) -> ColumnMapping:
    header: list[CellValue] | None = None
    if header_row is not None:
        header = next((list(cells) for n, cells in preview if n == header_row), None)
    data = [r for r in preview if header_row is None or r[0] > header_row]
    mapping = propose_mapping(header, data, code)
    mapping.header_row = header_row
    return mapping


def map_sheet(
    preview: list[tuple[int, Any]],
    settings: JobSettings,
    file_name: str,
    sheet: str = "",
    sheet_names: tuple[str, ...] = (),
) -> ColumnMapping:
    """The proposed mapping for the previewed rows, with the settings' overrides applied.

    ``settings.phone_column`` is resolved by :func:`resolve_column` (a header name first,
    then a position). When no header row was recognised but the first row has a cell of that
    name (a file of words with no phone-shaped data to anchor the guess), that row becomes
    the header.
    """
    mapping = _propose(preview, detect_header(preview), settings.phone_code)
    if settings.phone_column:
        where = f"sheet {sheet!r} of {file_name}" if len(sheet_names) > 1 else file_name
        try:
            index = resolve_column(mapping.headers, settings.phone_column, where)
        except ColumnError as exc:
            first = next(((n, c) for n, c in preview if not is_blank(c)), None)
            if mapping.header_row is not None or first is None:
                raise MappingError(str(exc)) from exc
            retry = _propose(preview, first[0], settings.phone_code)
            try:
                index = resolve_column(retry.headers, settings.phone_column, where)
            except ColumnError as again:
                # A first row of labels reads as the headers a person sees in the file.
                labels = all(v is None or is_label(v) for v in first[1])
                raise MappingError(str(again if labels else exc)) from exc
            mapping = retry
        for role in Role:
            if mapping.column(role) == index:
                mapping.set_column(role, None)
        mapping.phone = index
    if mapping.phone is None:
        others = [n for n in sheet_names if n != sheet]
        where = f"sheet {sheet!r} of {file_name}" if others else file_name
        listed = ", ".join(others)
        hint = f", or choose another sheet with --sheet ({listed})" if others else ""
        raise MappingError(
            f"No column of phone numbers was found in {where}"
            + (f" (its other sheets: {listed})." if others else "."),
            f"No column of phone numbers was found in {where}; "
            f"name it with --phone-column (a header name, or a column as column:C or #3){hint}.",
        )
    mapping.default_phone_code = settings.phone_code
    mapping.default_reason = settings.reason
    mapping.default_purpose = settings.purpose
    mapping.default_scope = settings.scope
    return mapping


def _original(value: CellValue) -> str:
    """The cell as a person saw it: a number cell 2025550143 is not "2025550143.0"."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        # Beyond 15 digits Excel shows scientific notation and the digits are not the cell's.
        return str(int(value))
    return str(value)


def _new_row(checked: CheckedRow) -> NewRow:
    final = _FINAL.get(checked.outcome, "")
    return NewRow(
        row_number=checked.row,
        original=_original(checked.original),
        national=checked.national,
        phone_code=checked.phone_code,
        scope="" if checked.scope is None else str(checked.scope),
        reason=checked.reason,
        purpose=checked.purpose,
        request_date="" if checked.request_date is None else checked.request_date.isoformat(),
        damage="; ".join(x for x in (checked.damage, checked.date_note) if x),
        outcome=final,
        message=checked.message,
    )


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
    """
    fixes = dict(corrections or {})
    path = settings.file.expanduser().resolve()
    guessed = mapping is None
    if mapping is not None:
        if mapping.phone is None:
            raise MappingError(f"No column of phone numbers is chosen for {path.name}.")
        mapping = replace(mapping, default_scope=settings.scope)
    source, mapping = open_mapped(path, settings, mapping)
    if kind == "removal" and mapping.request_date is not None:
        # The 10-business-day limit is on honouring an opt-out; a removal is not late.
        mapping = replace(mapping, request_date=None)
    with source:
        if kind == "removal" and not settings.include_hidden and not source.notes.hidden_known:
            raise MappingError(_hidden_unknown_sentence(source, path.name))
        warnings: list[str] = []
        if guessed:
            preview = [r for r in read_preview(source) if r[0] > (mapping.header_row or 0)]
            if not settings.phone_column:
                others = other_phone_columns(mapping, preview, settings.phone_code)
                if others:
                    warnings.append(_other_columns_sentence(mapping, others, kind))
            for unread in unread_code_columns(mapping, preview):
                warnings.append(_unread_code_sentence(mapping, unread, settings.phone_code))
        lookup = campaign_lookup if campaign_lookup is not None else {}
        options = CheckOptions(
            target=settings.target, campaign_lookup=lookup, removal=kind == "removal"
        )
        summary = CheckSummary()
        meta = {
            "kind": kind,
            "name": settings.name or f"{kind} of {path.name}",
            "note": settings.note,
            "file": str(path),
            "sheet": source.sheet,
            "header_row": mapping.header_row,
            "mapping": mapping.describe(),
            "target": settings.target.value,
            "scope": str(settings.scope),
            "reason": settings.reason,
            "purpose": settings.purpose,
            "phone_code": settings.phone_code,
            "lead_status": settings.lead_status,
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
            rows: Iterable[Row] = source.iter_rows()
            if fixes:
                rows = _remember(rows, fixes, mapping.phone, originals)
                rows = apply_corrections(rows, fixes, mapping.phone)
            notes = source.notes
            held = _Held()
            rows = _watched(rows, mapping, notes.formulas, held)
            leave_hidden = kind == "removal" and not settings.include_hidden
            checked: Iterator[CheckedRow]
            if leave_hidden:
                checked = _check_apart(rows, notes.hidden_rows, mapping, options, summary)
            else:
                checked = check_rows(rows, mapping, options, summary)
            unchecked: dict[str, int] = {}
            if not campaign_ids_checked(campaign_lookup):
                checked = _note_unchecked(checked, unchecked, connection is None)
            hidden = _HiddenRows(kind, leave_hidden)
            new_rows = _noted(_bounded_cache(checked), notes, mapping.phone, hidden, summary, held)
            if fixes:
                new_rows = (_corrected(r, fixes, originals) for r in new_rows)
            store.add_rows(new_rows)
            if unchecked:
                store.set_meta({"campaign_check": _unchecked_sentence(unchecked, connection)})
            warnings += _notes_sentences(source, path.name, kind, hidden, settings.sheet is None)
            if warnings:
                store.set_meta({"warnings": warnings})
        except BaseException:
            store.close()
            store.path.unlink(missing_ok=True)
            raise
        finally:
            phones.clear_cache()
    return store, summary


def open_mapped(
    path: Path, settings: JobSettings, mapping: ColumnMapping | None = None
) -> tuple[SheetSource, ColumnMapping]:
    """The sheet to stage and its mapping (the caller closes the source).

    With no sheet named, the reader opens the first visible sheet with data; when that one has
    no phone column (a vendor's "Instructions" sheet first), the other sheets are tried in
    order and the first that has one is used (the job records which). If none has, the first
    sheet's sentence is raised, as it names the other sheets. The mapping is proposed from
    :func:`~app.core.sheet_header.read_preview`, so a table under many rows of notes or blank
    rows is found.
    """
    probe = settings.sheet is None  # to say which other sheets have phone numbers too
    source = open_sheet(path, settings.sheet, probe_others=probe)
    if mapping is not None:
        return source, mapping
    try:
        preview = read_preview(source)
        return source, map_sheet(preview, settings, path.name, source.sheet, source.sheet_names)
    except MappingError as first_error:
        others = [n for n in source.sheet_names if n != source.sheet] if not settings.sheet else []
        source.close()
        for name in others:
            try:
                candidate = open_sheet(path, name, probe_others=probe)
            except SheetError:
                continue  # an empty or unreadable sheet is simply not the one
            try:
                preview = read_preview(candidate)
                found = map_sheet(preview, settings, path.name, candidate.sheet, ())
            except MappingError:
                candidate.close()
                continue
            return candidate, found
        raise first_error from None
    except BaseException:
        source.close()
        raise


def _note_unchecked(
    rows: Iterator[CheckedRow], unchecked: dict[str, int], offline: bool
) -> Iterator[CheckedRow]:
    """Rows whose campaign id could not be checked, counted per id and noted on the row."""
    why = "no connection" if offline else "no campaign list"
    for c in rows:
        scope = c.scope
        if scope is not None and scope.is_campaign and c.outcome is not CheckOutcome.INVALID:
            cid = scope.campaign_id
            unchecked[cid] = unchecked.get(cid, 0) + 1
            if c.outcome is CheckOutcome.VALID:
                note = f"campaign {cid} was not checked against the service ({why})"
                c.message = f"{c.message}; {note}" if c.message else f"row {c.row}: {note}"
        yield c


def _unchecked_sentence(unchecked: Mapping[str, int], connection: Connection | None) -> str:
    """One sentence saying which campaign ids went unchecked, for the CLI and the job's meta."""
    ordered = sorted(unchecked.items(), key=lambda item: (len(item[0]), item[0]))
    listed = [f"{cid} ({n:,} row{'s' if n != 1 else ''})" for cid, n in ordered[:10]]
    if len(ordered) > 10:
        listed.append(f"{len(ordered) - 10} more")
    where = (
        "there was no connection to fetch the campaign list from"
        if connection is None
        else f"no campaign list of {connection.name} was given"
    )
    return (
        f"Campaign ids were not checked, as {where}; rows name campaign "
        f"{', '.join(listed)}, and a run with a connection refuses those that do not exist."
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


def _check_apart(
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


class _HiddenRows:
    """The valid rows hidden in the file, as ranges, and what the job does with them."""

    def __init__(self, kind: str, leave: bool) -> None:
        self.kind = kind
        self.leave = leave
        self.ranges: list[list[int]] = []
        self.count = 0
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


class _Held:
    """What :func:`_watched` set aside for :func:`_noted`, by sheet row number."""

    __slots__ = ("exact", "formulas")

    def __init__(self) -> None:
        # Phone cells with leading or trailing spaces, tabs or CRs, which the check strips:
        # the report's Original value keeps the cell exactly.
        self.exact: dict[int, str] = {}
        # Rows with an uncalculated formula in a mapped column other than the phone:
        # (role, column, formula, the phone cell), the phone cell having been withheld.
        self.formulas: dict[int, tuple[str, int, str, CellValue]] = {}


def _watched(
    rows: Iterable[Row],
    mapping: ColumnMapping,
    formulas: Mapping[tuple[int, int], str],
    held: _Held,
) -> Iterator[Row]:
    """``rows`` for the check, noting in ``held`` what the check would lose.

    A Campaign, Scope, Purpose, Country code, Reason or Date cell whose formula was never
    calculated reads as empty, and the row would quietly take the default (a removal from the
    global list instead of a campaign's). Such a row reaches the check with its phone cell
    emptied, so it is neither taken nor counted against a later row of the same number;
    :func:`_noted` then makes it invalid, naming the cell and the formula. ``formulas`` grows
    as the reader goes; a row's cells are in it before the row is.
    """
    phone = mapping.phone
    columns = [
        (role.value, index)
        for role in Role
        if role is not Role.PHONE and (index := mapping.column(role)) is not None
    ]
    exact = held.exact
    for row in rows:
        number, cells = row
        if phone is not None and phone < len(cells):
            value = cells[phone]
            if type(value) is str and value and (value[0].isspace() or value[-1].isspace()):
                exact[number] = value
        if formulas:
            for role, index in columns:
                formula = formulas.get((number, index))
                if formula is None:
                    continue
                kept = cells[phone] if phone is not None and phone < len(cells) else None
                held.formulas[number] = (role, index, formula, kept)
                if kept is not None:
                    out = list(cells)
                    out[phone] = None  # type: ignore[index]
                    row = (number, out)
                break
        yield row


def _noted(
    rows: Iterable[CheckedRow],
    notes: SheetNotes,
    phone: int | None,
    hidden: _HiddenRows,
    summary: CheckSummary,
    held: _Held,
) -> Iterator[NewRow]:
    """The rows to stage, with what the reader saw besides the cells: hidden rows and cells
    whose formula has no saved result."""
    hidden_rows, formulas = notes.hidden_rows, notes.formulas
    valid, blank = CheckOutcome.VALID, CheckOutcome.BLANK
    for c in rows:
        if held.formulas and c.row in held.formulas:
            role, index, text, kept = held.formulas.pop(c.row)
            _formula_verdict(c, text, role, index, summary)
            c.original = kept
        elif formulas and c.outcome is not valid and phone is not None and c.original is None:
            formula = formulas.get((c.row, phone))
            if formula is not None:
                _formula_verdict(c, formula, "phone", phone, summary)
        if held.exact and c.row in held.exact:
            c.original = held.exact.pop(c.row)
        row = _new_row(c)
        if c.row in hidden_rows and c.outcome is not blank:
            hidden.add(c.row)
            if c.outcome is valid:
                message = (
                    f"{row.message}; {hidden.note}"
                    if row.message
                    else f"row {c.row}: {hidden.note}"
                )
                row = replace(row, message=message, outcome=hidden.outcome or row.outcome)
        yield row


def _formula_verdict(
    c: CheckedRow, formula: str, role: str, column: int, summary: CheckSummary
) -> None:
    """An empty cell that holds a formula never calculated: say so, as invalid."""
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
    shown = f" (={formula})" if formula else ""
    c.message = (
        f"row {c.row}: {role}: cell {column_letter(column)}{c.row} holds a formula{shown} with "
        "no saved result, so it reads as empty; open and save the file in Excel (or "
        "LibreOffice) to calculate it"
    )


def _spans(ranges: list[list[int]], at_most: int = 8) -> str:
    shown = [f"{a}–{b}" if b > a else str(a) for a, b in ranges[:at_most]]
    if len(ranges) > at_most:
        shown.append(f"{len(ranges) - at_most} more")
    return ", ".join(shown[:-1]) + f" and {shown[-1]}" if len(shown) > 1 else shown[0]


def _notes_sentences(
    source: SheetSource, file_name: str, kind: str, hidden: _HiddenRows, sheet_guessed: bool
) -> list[str]:
    """Warnings about hidden rows and about other sheets holding phone numbers."""
    out: list[str] = []
    notes = source.notes
    where = f"sheet {source.sheet!r} of {file_name}"
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
    if sheet_guessed and notes.other_sheets:
        found = [name for name, rows in notes.other_sheets.items() if _has_phone_column(rows)]
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


def _hidden_unknown_sentence(source: SheetSource, file_name: str) -> str:
    """Why a removal is refused when the file does not say which of its rows are hidden."""
    fmt = str(getattr(source, "format", "")) or Path(file_name).suffix.lstrip(".").lower()
    why = (
        "its sheet's layout could not be read"
        if fmt in ("xlsx", "xlsm")
        else "this format does not show it"
    )
    return (
        f"A removal from {file_name} cannot tell which rows are hidden or filtered out ({why}), "
        "so it could remove rows someone filtered out; save the file as .xlsx, or include "
        "hidden rows (--include-hidden) to remove every row."
    )


def _listed(names: list[str]) -> str:
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def _take(kind: str, many: bool) -> str:
    """What running the file again does with the other sheets or columns."""
    if kind == "removal":
        return f"remove {'their' if many else 'its'} numbers"
    return f"import {'them' if many else 'it'}"


def _has_phone_column(rows: list[Row]) -> bool:
    """Whether the first rows of a sheet hold a column of phone numbers under a header."""
    try:
        mapping = _propose(rows, detect_header(rows), "1")
    except (ValueError, TypeError):
        return False
    if mapping.phone is None:
        return False
    phone, header = mapping.phone, mapping.header_row or 0
    return any(n > header and phone < len(cells) and cells[phone] is not None for n, cells in rows)


def _other_columns_sentence(mapping: ColumnMapping, others: list[int], kind: str) -> str:
    assert mapping.phone is not None
    verb = "removed" if kind == "removal" else "imported"
    named = [_column(mapping.headers, i) for i in others]
    listed = ", ".join(named[:-1]) + f" and {named[-1]}" if len(named) > 1 else named[0]
    many = len(others) > 1
    return (
        f"{listed[0].upper()}{listed[1:]} also {'hold' if many else 'holds'} phone numbers but "
        f"{'are' if many else 'is'} not {verb}: only {_column(mapping.headers, mapping.phone)} "
        f"is read. To {_take(kind, many)} too, run the file again with --phone-column "
        f"column:{column_letter(others[0])}."
    )


def _unread_code_sentence(mapping: ColumnMapping, unread: UnreadCodeColumn, code: str) -> str:
    """Why a column headed as country codes was not read, and what the rows took instead."""
    column = _column(mapping.headers, unread.index)
    default = phones.normalize_code(code) or code
    share = (
        f"only {unread.codes} of its {unread.values:,} values "
        f"{'is a country code' if unread.codes == 1 else 'are country codes'}"
        if unread.codes
        else f"none of its {unread.values:,} values is a country code"
    )
    return (
        f"{column[0].upper()}{column[1:]} was not read as country codes: {share}, so every row "
        f"used the default code +{default} (unless its number starts with its own, as +44). "
        "Correct the column's values to country codes or names (as 44 or United Kingdom) and "
        "run the file again."
    )


def _column(headers: tuple[str, ...], index: int) -> str:
    name = headers[index] if index < len(headers) else ""
    return f"column {column_letter(index)}" + (f" ({name!r})" if name else "")
