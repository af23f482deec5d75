"""A DNC Desk import report's Rows sheet read as a removal file (black-box B12 #1).

An officer "undoes" an import by removing the numbers of that import's own report. Its rows
whose Outcome is not ``inserted`` were not put on the list by that job: an ``already_present``
number was there before it, put there by another consumer's request, and removing it takes
that request's entry off the list (3035550201 and 3035550202 came off, no word said). So a
removal whose sheet's header is the report's (:data:`~app.core.job_report.ROW_COLUMNS`' first
seven names, in order) removes only its ``inserted`` rows: :meth:`OwnReport.watch` withholds
the others' cells from the check (so no count, scope or duplicate is taken from them) and
:meth:`OwnReport.noted` makes each invalid, saying what the report says of it;
:meth:`OwnReport.sentence` is the warning counting them. Only the Outcome column is read for
this; any other file, one with an Outcome column of its own among them, is read as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence, Set
from typing import Final

from app.core.job_report import ROW_COLUMNS
from app.core.job_store import Outcome
from app.core.sheet_check import CheckedRow, CheckSummary, RowList, withheld_invalid
from app.core.sheet_header import is_blank
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import CellValue, Row
from app.core.staging_notes import rows_named

# A report's Rows sheet starts with these columns whatever the job's kind (a removal's report
# drops the last two of ROW_COLUMNS, an import's that reads reasons adds one after them).
REPORT_HEADER: Final = ROW_COLUMNS[:7]
_OUTCOME: Final = ROW_COLUMNS.index("Outcome")
_PHONE: Final = ROW_COLUMNS.index("Normalized number")
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


class OwnReport:
    """A removal's rows read from a DNC Desk import report's Rows sheet (see the module)."""

    __slots__ = ("apart", "by_outcome", "file_name", "header", "inserted", "outcome", "phone")

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
        names = tuple(" ".join(str(h).split()) for h in headers[: len(REPORT_HEADER)])
        # None: not a removal of a report, whose rows then go through untouched.
        self.outcome: int | None = (
            _OUTCOME
            if kind == "removal" and names == REPORT_HEADER and _OUTCOME not in ignored
            else None
        )
        self.header = mapping.header_row or 0
        self.phone = _PHONE if mapping.phone is None else mapping.phone
        self.file_name = file_name
        # Rows withheld from the check: their Outcome cell as written and their phone cell.
        self.apart: dict[int, tuple[str, CellValue]] = {}
        self.by_outcome: dict[str, RowList] = {}
        self.inserted = 0

    def watch(self, rows: Iterable[Row]) -> Iterator[Row]:
        """``rows``, those of a report whose Outcome is not ``inserted`` reaching the check
        empty. A report's blank rows (Outcome ``blank``, no number) and empty rows go through
        as they are: the check finds them blank."""
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
            apart[number] = (said, value)
            self.by_outcome.setdefault(said, RowList()).add(number)
            yield number, [None] * len(cells)

    def noted(self, rows: Iterable[CheckedRow], summary: CheckSummary) -> Iterator[CheckedRow]:
        """The check's verdicts, each row :meth:`watch` withheld made invalid, its message
        saying what the report says of it."""
        apart = self.apart
        for c in rows:
            if apart and c.row in apart:
                _verdict(c, *apart.pop(c.row), summary)
            yield c

    def sentence(self) -> str:
        """The warning: the file is read as an import report, and the rows not removed."""
        if self.outcome is None or not self.by_outcome:
            return ""
        total = sum(rows.count for rows in self.by_outcome.values())
        counts = "; ".join(
            f"{rows.count:,} {said or 'with no outcome'} ({rows_named(rows)})"
            for said, rows in sorted(self.by_outcome.items(), key=lambda i: -i[1].count)
        )
        inserted = "1 row" if self.inserted == 1 else f"{self.inserted:,} rows"
        rows = "1 row whose" if total == 1 else f"{total:,} rows whose"
        return (
            f"{self.file_name} is read as a DNC Desk import report (its header is a report's "
            f"Rows sheet's): only its rows whose Outcome is 'inserted' ({inserted}) are "
            f"removed, the numbers its job put on the list. {rows} Outcome is not 'inserted' "
            f"are left invalid, each saying why: {counts}. Their numbers were not put on the "
            "list by that job (an already_present one was there before it, at another "
            "request): to remove any of them all the same, put it in a file of its own."
        )


def _verdict(c: CheckedRow, said: str, value: CellValue, summary: CheckSummary) -> None:
    """Row ``c``, withheld by :meth:`OwnReport.watch` (the check saw it empty), as invalid."""
    withheld_invalid(c, value, summary)
    what, after = _SAID.get(said) or (
        "its job did not insert this row (its Outcome is {o!r})"
        if said
        else "nothing of this row (its Outcome cell is empty)",
        _AFTER,
    )
    after = "it holds no number to remove" if is_blank([value]) else f"{after}; {_OWN_FILE}"
    c.message = f"row {c.row}: the report says {what.format(o=said)}: {after}"
