"""A DNC Desk import report's Rows sheet read as a removal file (black-box B12 #1).

An officer "undoes" an import by removing the numbers of that import's own report. Its rows
whose Outcome is not ``inserted`` were not put on the list by that job: an ``already_present``
number was there before it, put there by another consumer's request, and removing it takes
that request's entry off the list (3035550201 and 3035550202 came off, no word said). So a
removal whose sheet's header is the report's (:data:`~app.core.job_report.ROW_COLUMNS`' first
seven names, in order) removes only its ``inserted`` rows: :meth:`OwnReport.watch` withholds
the others' cells from the check (so no count, scope or duplicate is taken from them) and
:meth:`OwnReport.noted` makes each invalid, saying what the report says of it;
:meth:`OwnReport.sentences` has the warning counting them. Only the Outcome column is read for
this; any other file, one with an Outcome column of its own among them, is read as before.

An import of a report (its rows filtered to the invalid ones and corrected by hand, black-box
B12 #2) reads each row's number from its Normalized number cell, the number the report's job
made of the row, unless the officer has corrected the row: a row whose Normalized number is
empty (its job could read no number) or whose Original value now reads as another number is
read from its Original value, and its message and a warning say so. A number corrected in the
import wizard, whose Original value is the file's cell its Damage note names, stays read from
its Normalized number. The Scope cells of a report (``global, purpose 'Fundraising'``) are read
by :mod:`app.core.sheet_scope`; the purpose after the scope is the row's own, which
:meth:`OwnReport.noted` gives the row (B12 #5).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator, Sequence, Set
from dataclasses import replace
from pathlib import Path
from typing import Final, NamedTuple

from app.core import phones
from app.core.export_job import ListKind, is_export_header
from app.core.job_report import REASON_COLUMN, REMOVAL_COLUMNS, ROW_COLUMNS
from app.core.job_store import Outcome
from app.core.sheet_check import CheckedRow, CheckSummary, RowList, withheld_invalid
from app.core.sheet_header import is_blank
from app.core.sheet_mapping import ColumnMapping, Role, column_letter, header_role
from app.core.sheet_reader import SheetSource, open_sheet
from app.core.sheet_scope import purpose_written
from app.core.sheet_types import CellValue, Row, SheetError
from app.core.staging_notes import rows_named

# A report's Rows sheet starts with these columns whatever the job's kind (a removal's report
# drops the last three of ROW_COLUMNS, an import's that reads reasons adds one after them).
REPORT_HEADER: Final = ROW_COLUMNS[:7]
_OUTCOME: Final = ROW_COLUMNS.index("Outcome")
_PHONE: Final = ROW_COLUMNS.index("Normalized number")
_ORIGINAL: Final = ROW_COLUMNS.index("Original value")
_CODE: Final = ROW_COLUMNS.index("Country code")
_DAMAGE: Final = ROW_COLUMNS.index("Damage note")
# The Damage note of a row whose number was corrected in the import wizard (job_staging's
# _corrected): its Original value is the file's cell, its Normalized number the correction.
_WIZARD: Final = re.compile(r"corrected in the import wizard \(the file has ('.*'|\".*\")\)")
_AFTER: Final = "removing it could take off an entry another request put there"
_OWN_FILE: Final = "remove it in a file of its own if that is meant"
# What the report's Outcome ({o}) says of a row that its job did not insert, in the row's
# message, and what removing it would do.
_SAID: Final = {
    Outcome.ALREADY_PRESENT.value: (
        "this number was already on the list before its job ({o})",
        "removing it would take off an entry another request put there",
    ),
    Outcome.INVALID.value: ("its job found this row invalid and did not insert it", _AFTER),
    Outcome.DUPLICATE.value: (
        "this row repeated an earlier row of its file ({o}), so its job did not insert its "
        "number from this row (the earlier row's outcome says what became of it)",
        _AFTER,
    ),
    Outcome.FAILED.value: ("its job failed to insert this number ({o})", _AFTER),
    Outcome.NOT_ATTEMPTED.value: ("its job did not attempt this row ({o})", _AFTER),
    "valid (dry run)": ("its job was a dry run ({o}), which inserted nothing", _AFTER),
    "pending": ("its job had not sent this row when the report was written ({o})", _AFTER),
    Outcome.REMOVED.value: (
        "its job removed this number ({o}: the report is a removal's), it did not insert it",
        "removing it again could take off an entry put there since",
    ),
    Outcome.NOT_FOUND.value: (
        "its job did not find this number on the list ({o}: the report is a removal's), it "
        "did not insert it",
        _AFTER,
    ),
}
# The same of a removal's report (black-box B29 F7: re-reading one said its job "did not
# insert" rows it was to remove).
_SAID_OF_REMOVAL: Final = {
    Outcome.INVALID.value: ("its job found this row invalid and did not remove it", _AFTER),
    Outcome.DUPLICATE.value: (
        "this row repeated an earlier row of its file ({o}), so its job did not remove its "
        "number from this row (the earlier row's outcome says what became of it)",
        _AFTER,
    ),
    Outcome.FAILED.value: ("its job failed to remove this number ({o})", _AFTER),
    "valid (dry run)": ("its job was a dry run ({o}), which removed nothing", _AFTER),
}
# Columns only an import's report has after the Damage note: a report with a Damage note (or,
# written before 2026-11-25, an always-empty Request date) and none of these is a removal's
# (job_report writes REMOVAL_COLUMNS for one).
_IMPORT_ONLY: Final = frozenset(ROW_COLUMNS[len(REMOVAL_COLUMNS) :]) - {"Request date"}
_REMOVAL_LAST: Final = frozenset({REMOVAL_COLUMNS[-1], "Request date"})


def _removal_report(headers: Sequence[str]) -> bool:
    """Whether ``headers`` (a report's Rows header) are a removal's report's."""
    names = set(_report_names(headers))
    return bool(names & _REMOVAL_LAST) and not names & _IMPORT_ONLY


def own_columns(headers: Sequence[str]) -> frozenset[int]:
    """The columns of a DNC Desk report's Rows sheet that the report wrote of its job (Outcome,
    Message, Damage note, Late…), when ``headers`` are such a sheet's (its first seven names,
    any of them blanked as a column set aside): read as the report's own, not as a log's
    message or a scrub's verdicts (black-box B12 #6). Empty for any other header."""
    names = [" ".join(str(h).split()) for h in headers[: len(ROW_COLUMNS)]]
    if len(names) < len(REPORT_HEADER) or not all(
        name in ("", REPORT_HEADER[i]) for i, name in enumerate(names[: len(REPORT_HEADER)])
    ):
        return frozenset()
    if names[_OUTCOME] != REPORT_HEADER[_OUTCOME] and names[_PHONE] != REPORT_HEADER[_PHONE]:
        return frozenset()  # too little of a report's header left to tell
    return frozenset(i for i, name in enumerate(names) if name == ROW_COLUMNS[i])


def _report_names(headers: Sequence[str]) -> tuple[str, ...]:
    return tuple(" ".join(str(h).split()) for h in headers)


def _entry_reasons(headers: Sequence[str]) -> int | None:
    """The column of a DNC Desk report's Rows sheet headed Reason after the report's own
    columns (the reason each row was sent with), or None."""
    names = _report_names(headers)
    if names[: len(REPORT_HEADER)] != REPORT_HEADER:
        return None
    found = [i for i, name in enumerate(names) if name == REASON_COLUMN]
    return found[0] if len(found) == 1 and found[0] >= len(REPORT_HEADER) else None


def without_entry_reasons(mapping: ColumnMapping, kind: str) -> ColumnMapping:
    """``mapping`` proposed for a removal of a DNC Desk report, its Reason column not read as
    the removal's reason (black-box B20 F6). An import report's Reason is why each number was
    put on the list (a consumer's "Café request"): read as the removal's, each delete's journal
    note said "undo vendor B (row 7: Café request)", as if the number came off for that. An
    import of a report still reads it: there it is the entry's reason, as it was."""
    if kind != "removal" or mapping.reason is None:
        return mapping
    if _entry_reasons(mapping.headers) != mapping.reason:
        return mapping
    return replace(mapping, reason=_removal_reasons(mapping))


def export_reasons_left(mapping: ColumnMapping, kind: str) -> int | None:
    """The column of a DNC Desk export that a removal of it leaves unread as its reason, or
    None (black-box bb2 F7). An export's ``reason`` is why each entry was put on the list
    ("Known litigator"): read as the removal's, each delete's journal note said "counsel
    approved removal (row 2: Known litigator)", as if the number came off for that. An
    export's other columns are its own too, so no other column is read as the reason."""
    if kind != "removal" or mapping.reason is None or not is_export_header(mapping.headers):
        return None
    return mapping.reason


def export_reasons_sentence(file_name: str, column: int) -> str:
    """The warning on a removal of a DNC Desk export whose reason column was left unread."""
    return (
        f"{file_name} is read as a DNC Desk export: its column {column_letter(column)} "
        "('reason'), why each entry was put on the list, is not read as the removal's "
        "reason: each delete's change journal note is the job's --note alone."
    )


def _removal_reasons(mapping: ColumnMapping) -> int | None:
    """A column the officer added to a report to give its rows a reason for their removal (a
    header naming a reason, "Removal reason", other than the report's own), or None."""
    used = {mapping.column(role) for role in Role}
    for i, name in enumerate(_report_names(mapping.headers)):
        if i in used or name in ROW_COLUMNS or name == REASON_COLUMN:
            continue
        if header_role(name) is Role.REASON:
            return i
    return None


# How far down its own sheet a report's Summary or an export's About says which list its job
# wrote or read (its "Target" and "List" rows come within the first few).
_LABELS_READ: Final = 40
_SMS_TARGET: Final = ListKind.SMS.value
_SMS_LIST: Final = ListKind.SMS.title


def other_list_refusal(source: SheetSource, headers: Sequence[str], kind: str) -> str:
    """Why a removal of ``source`` is refused ("" when it is not): it is DNC Desk's report of
    an import into the SMS opt-out list, or DNC Desk's export of that list (black-box B31 F1,
    F3). A removal takes entries off the DNC list, which neither wrote: read as a report, its
    'inserted' rows took off DNC entries of the same numbers that other requests put there
    (two consumers' verbal requests); read as an export, every row did. Only a sheet whose
    header is a report's Rows sheet's or an export's, in a workbook with the sheet that says
    which list, has that sheet read; any other file pays nothing."""
    if kind != "removal":
        return ""
    names = _report_names(headers[: len(REPORT_HEADER)])
    file_name = source.path.name
    if names == REPORT_HEADER and "Summary" in source.sheet_names:
        if _label(source.path, "Summary", "Target") != _SMS_TARGET:
            return ""
        return (
            f"{file_name} is the report of an import into the SMS opt-out list (its Summary "
            f"says Target {_SMS_TARGET}): a removal takes entries off the DNC list, which that "
            "job did not write; nothing was sent."
        )
    if is_export_header(headers) and "About" in source.sheet_names:
        if _label(source.path, "About", "List") != _SMS_LIST:
            return ""
        return (
            f"{file_name} is an export of the SMS opt-out list (its About sheet says List "
            f"{_SMS_LIST}): a removal takes entries off the DNC list, which are not that "
            "list's entries; nothing was sent."
        )
    return ""


def unsaid_list_sentence(source: SheetSource, headers: Sequence[str], kind: str) -> str:
    """The warning on a removal of a DNC Desk export with no About sheet (a CSV): nothing in
    it says which list it was exported from, as an SMS opt-out list's export has a DNC
    export's header (one older than campaign_uid, or, made before task fx13, that column
    empty as a DNC export's global entries have it)."""
    if kind != "removal" or not is_export_header(headers) or "About" in source.sheet_names:
        return ""
    return (
        f"{source.path.name} is read as a DNC Desk export (its header is an export's), which "
        "as a text file does not say which list it was exported from: the removal takes its "
        "numbers' entries off the DNC list. If it is an export of the SMS opt-out list "
        "(dnc-desk export sms-opt-out), those DNC entries are not its entries: check the "
        "job's report, and put back any entry removed by mistake."
    )


def _label(path: Path, sheet: str, label: str) -> str:
    """The value beside ``label`` in the first column of ``sheet`` ("" when not found or
    the sheet cannot be read: the file is then read as before)."""
    try:
        with open_sheet(path, sheet) as found:
            for number, cells in found.iter_rows():
                if number > _LABELS_READ:
                    break
                if len(cells) > 1 and _text(cells[0]) == label:
                    return _text(cells[1])
    except SheetError:
        return ""
    return ""


class OwnReport:
    """A DNC Desk report's Rows sheet read back: a removal's rows (see the module), an
    import's corrected numbers and every import row's purpose written in its Scope cell."""

    __slots__ = (
        "apart",
        "by_outcome",
        "code_column",
        "corrected",
        "default_code",
        "default_purpose",
        "file_name",
        "header",
        "headers",
        "inserted",
        "original",
        "original_column",
        "outcome",
        "phone",
        "purposes",
        "read_original",
        "reasons_left",
        "removal_report",
        "scope",
        "scope_column",
    )

    def __init__(
        self,
        mapping: ColumnMapping,
        headers: Sequence[str],
        ignored: Set[int],
        kind: str,
        file_name: str,
    ) -> None:
        # ``headers`` as the file has them: a column ignored (--ignore-column 'Original
        # value') leaves the file a report, but one whose Outcome column is ignored is read
        # as any other file, as was asked.
        names = _report_names(headers[: len(REPORT_HEADER)])
        report = names == REPORT_HEADER
        # None: not a removal of a report, whose rows then go through untouched.
        self.outcome: int | None = (
            _OUTCOME if kind == "removal" and report and _OUTCOME not in ignored else None
        )
        self.header = mapping.header_row or 0
        self.phone = _PHONE if mapping.phone is None else mapping.phone
        self.file_name = file_name
        self.headers = tuple(str(h) for h in headers)
        self.removal_report = report and _removal_report(headers)
        # An invalid row's Normalized number is empty: its Original value is what the row
        # held (black-box B29 F4: the new report showed neither it nor its country code).
        self.original_column = (
            _ORIGINAL if self.phone == _PHONE and _ORIGINAL not in ignored else None
        )
        # A removal's report Reason column not read (:func:`without_entry_reasons`).
        entry_reasons = _entry_reasons(headers) if kind == "removal" else None
        # (its column, the column read as the removal's reason or None)
        self.reasons_left = (
            (entry_reasons, mapping.reason)
            if entry_reasons is not None
            and entry_reasons not in ignored
            and entry_reasons != mapping.reason
            else None
        )
        # Rows withheld from the check: their Outcome cell as written and their phone cell,
        # and their number and scope as their cells name them, for the report (black-box B20
        # F5: it showed them with no number, under --scope).
        self.apart: dict[int, _Apart] = {}
        self.code_column = mapping.phone_code
        self.scope_column = mapping.scope
        self.by_outcome: dict[str, RowList] = {}
        self.inserted = 0
        # An import of a report read on its Normalized number column (not one chosen, such as
        # --phone-column 'Original value'): its corrected rows read the Original value. A
        # removal removes the numbers its report's job inserted, as written in the report.
        self.read_original = (
            kind == "import" and report and mapping.phone == _PHONE and _ORIGINAL not in ignored
        )
        self.original = RowList()  # rows read from the Original value
        # Row: what its note says of the Original value read in place of the Normalized number.
        self.corrected: dict[int, str] = {}
        self.default_code = mapping.default_phone_code
        # An import's Scope column, whose cells may name the row's purpose after its scope.
        self.scope = mapping.scope if kind == "import" else None
        self.default_purpose = mapping.default_purpose
        self.purposes: dict[int, str] = {}  # row: the purpose its Scope cell names

    def watch(self, rows: Iterable[Row]) -> Iterator[Row]:
        """``rows``, those of a report whose Outcome is not ``inserted`` reaching the check
        empty. A report's blank rows (Outcome ``blank``, no number) and empty rows go through
        as they are: the check finds them blank. An import's corrected rows reach it with
        their Original value in the phone cell."""
        if self.read_original or self.scope is not None:
            rows = self._imported(rows)
        column = self.outcome
        if column is None:
            yield from rows
            return
        header, phone, apart = self.header, self.phone, self.apart
        for row in rows:
            number, cells = row
            if number <= header or is_blank(cells):
                yield row
                continue
            cell = cells[column] if column < len(cells) else None
            said = "" if cell is None else " ".join(str(cell).split())
            if said == Outcome.INSERTED.value:
                self.inserted += 1
                yield row
                continue
            value = cells[phone] if phone < len(cells) else None
            if said == Outcome.BLANK.value and is_blank([value]):
                yield row
                continue
            apart[number] = _Apart(
                said,
                value,
                _cell_text(cells, self.code_column),
                _cell_text(cells, self.scope_column),
                _original(cells, self.original_column) if is_blank([value]) else value,
            )
            self.by_outcome.setdefault(said, RowList()).add(number)
            yield number, [None] * len(cells)

    def _imported(self, rows: Iterable[Row]) -> Iterator[Row]:
        header, scope = self.header, self.scope
        for row in rows:
            number, cells = row
            if number <= header:
                yield row
                continue
            if (
                scope is not None
                and scope < len(cells)
                and (purpose := purpose_written(cells[scope]))
            ):
                self.purposes[number] = purpose
            if self.read_original and len(cells) > _PHONE:
                note = self._corrected_note(cells)
                if note:
                    self.corrected[number] = note
                    self.original.add(number)
                    cells = list(cells)
                    cells[_PHONE] = cells[_ORIGINAL]
                    row = (number, cells)
            yield row

    def _corrected_note(self, cells: Sequence[CellValue]) -> str:
        """Why a report row is read from its Original value ("" when it is not): its
        Normalized number is empty, or the Original value reads as another number than it."""
        original, national = cells[_ORIGINAL], cells[_PHONE]
        if is_blank([original]):
            return ""
        shown = _shown(original)
        if is_blank([national]):
            return (
                "its Normalized number is empty (its job read no number from the row), so its "
                f"Original value {shown} is read"
            )
        damage = cells[_DAMAGE] if len(cells) > _DAMAGE else None
        if _wizard_original(damage) == _text(original):
            return ""  # the file's cell; the Normalized number is the wizard's correction
        code = _text(cells[_CODE]) if len(cells) > _CODE else ""
        found = phones.normalize(original, code or self.default_code)
        if not found.ok or found.national == _text(national):
            # Not a number on its own (the report's job joined an area code to it, or read
            # it with a column since left out): the report's number stands.
            return ""
        return (
            f"its Original value {shown} is read, not its Normalized number "
            f"{_shown(national)}: they are different numbers, and the Original value is "
            "taken as corrected in the report (to import the Normalized number, make the "
            "Original value the same number or empty)"
        )

    def noted(self, rows: Iterable[CheckedRow], summary: CheckSummary) -> Iterator[CheckedRow]:
        """The check's verdicts, each row :meth:`watch` withheld made invalid, its message
        saying what the report says of it; an import's row read from its Original value
        saying so, and one whose Scope cell names a purpose after its scope given it."""
        apart, corrected, purposes = self.apart, self.corrected, self.purposes
        for c in rows:
            if apart and c.row in apart:
                _verdict(c, apart.pop(c.row), self.default_code, summary, self.removal_report)
            if corrected and c.row in corrected:
                note = corrected.pop(c.row)
                c.message = f"{c.message}; {note}" if c.message else f"row {c.row}: {note}"
            if purposes and c.row in purposes:
                purpose = purposes.pop(c.row)
                # The row's own purpose, as a Purpose cell's would be, over --purpose; a
                # purpose scope's purpose is its scope's, and a Purpose cell's is the row's.
                if (
                    c.scope is not None
                    and not c.scope.is_purpose
                    and c.purpose in ("", self.default_purpose)
                ):
                    c.purpose = purpose
            yield c

    def sentences(self) -> list[str]:
        """The warnings: the file is read as an import report, and the rows not removed; the
        report's Reason column not read as a removal's reason."""
        if self.outcome is None or not self.by_outcome:
            said = [self._original_sentence()]
        else:
            said = [self._removed_sentence()]
        return [s for s in (*said, self._reasons_sentence()) if s]

    def _reasons_sentence(self) -> str:
        if self.reasons_left is None:
            return ""
        column, read = self.reasons_left
        headers = self.headers
        said = (
            "each delete's change journal note is the job's --note alone. To give rows a "
            "reason for their removal, write it in a column with another header (such as "
            "'Removal reason')."
            if read is None
            else f"column {column_letter(read)} ({headers[read]!r}) is read as the removal's "
            "reason instead."
        )
        return (
            f"{self.file_name} is read as a DNC Desk report: its column "
            f"{column_letter(column)} ('{REASON_COLUMN}'), the reason each row was "
            "sent with by the report's job (an import's: why the number was put on the "
            f"list), is not read as the removal's reason: {said}"
        )

    def _removed_sentence(self) -> str:
        total = sum(rows.count for rows in self.by_outcome.values())
        counts = "; ".join(
            f"{rows.count:,} {said or 'with no outcome'} ({rows_named(rows)})"
            for said, rows in sorted(self.by_outcome.items(), key=lambda i: -i[1].count)
        )
        inserted = "1 row" if self.inserted == 1 else f"{self.inserted:,} rows"
        one = total == 1
        rows = "1 row whose" if one else f"{total:,} rows whose"
        left = "is left invalid, saying" if one else "are left invalid, each saying"
        theirs = "Its number was" if one else "Their numbers were"
        return (
            f"{self.file_name} is read as a DNC Desk import report (its header is a report's "
            f"Rows sheet's): only its rows whose Outcome is 'inserted' ({inserted}) are "
            f"removed, the numbers its job put on the list. {rows} Outcome is not 'inserted' "
            f"{left} why: {counts}. {theirs} not put on the list by that job (an "
            f"already_present one was there before it, at another request): to remove "
            f"{'it' if one else 'any of them'} all the same, put it in a file of its own."
        )

    def _original_sentence(self) -> str:
        """The warning on an import of a report some of whose rows read the Original value."""
        rows = self.original
        if not rows.count:
            return ""
        return (
            f"{self.file_name} is read as a DNC Desk report (its header is a report's Rows "
            f"sheet's): {rows_named(rows)} {'is' if rows.count == 1 else 'are'} read from "
            f"column {column_letter(_ORIGINAL)} ('Original value'), not column "
            f"{column_letter(_PHONE)} ('Normalized number'), which is empty there (its job "
            "read no number) or holds another number than the Original value, taken as "
            "corrected in the report. Every other row is read from its Normalized number; to "
            "import a row's Normalized number instead, make its Original value the same "
            "number or empty."
        )


def _text(value: CellValue) -> str:
    """A cell as text, a whole number as its digits (Excel re-types a number cell)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value).strip()


def _shown(value: CellValue) -> str:
    return repr(_text(value))


def _wizard_original(damage: CellValue) -> str | None:
    """The file's cell a Damage note says the import wizard corrected, or None."""
    if not isinstance(damage, str):
        return None
    found = _WIZARD.search(damage)
    if found is None:
        return None
    try:
        said = ast.literal_eval(found[1])
    except (SyntaxError, ValueError):
        return None
    return said.strip() if isinstance(said, str) else None


class _Apart(NamedTuple):
    """A row :meth:`OwnReport.watch` withheld from the check: its Outcome as written, its
    phone cell, and its Country code and Scope cells as text."""

    said: str
    value: CellValue
    code: str
    scope: str
    # What the row held as its file had it: its Original value when its phone cell (the
    # Normalized number) is empty, else that cell.
    original: CellValue = None


def _cell_text(cells: Sequence[CellValue], column: int | None) -> str:
    return "" if column is None or column >= len(cells) else _text(cells[column])


def _original(cells: Sequence[CellValue], column: int | None) -> CellValue:
    return None if column is None or column >= len(cells) else cells[column]


def _verdict(
    c: CheckedRow,
    apart: _Apart,
    default_code: str,
    summary: CheckSummary,
    removal_report: bool = False,
) -> None:
    """Row ``c``, withheld by :meth:`OwnReport.watch` (the check saw it empty), as invalid,
    with the original value, number, country code and scope its cells name: the entry the
    row is about, as a row invalid for its scope keeps them, though nothing is sent for it.
    ``removal_report``: the report is a removal's, whose job removed rows, not inserted."""
    said, value = apart.said, apart.value
    withheld_invalid(c, value if apart.original is None else apart.original, summary)
    found = phones.normalize(value, apart.code or default_code, stored=True)
    if found.ok:
        c.national, c.phone_code = found.national, found.phone_code
    elif not is_blank([apart.original]):
        # Not a number: its code as the report read it, as any invalid row keeps its code.
        c.phone_code = apart.code or default_code
    if apart.scope:
        # As its Scope cell writes it, as a row invalid for its scope shows it: the check saw
        # the row empty, so the scope it gave it is --scope's.
        c.scope, c.scope_written = None, apart.scope
    known = (_SAID_OF_REMOVAL.get(said) if removal_report else None) or _SAID.get(said)
    what, after = known or (
        f"its job did not {'remove' if removal_report else 'insert'} this row (its Outcome "
        "is {o!r})"
        if said
        else "nothing of this row (its Outcome cell is empty)",
        _AFTER,
    )
    after = "it holds no number to remove" if is_blank([value]) else f"{after}; {_OWN_FILE}"
    c.message = f"row {c.row}: the report says {what.format(o=said)}: {after}"
