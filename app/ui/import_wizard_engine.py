"""The wizard's calls into the engine, Qt-free, each meant to run on a worker thread.

The engine's :func:`app.core.job_staging.stage` proposes its own mapping from the file, as the
CLI needs; the wizard lets a person choose the sheet, the header row and every column, and fix
a cell before anything is sent. :func:`stage_job` is that same staging with the mapping given
and the corrections applied on the fly (the source file itself is never modified: it is the
evidence of what was received). Everything else is the engine's own code.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.core.connections import Connection
from app.core.job_staging import JobSettings, _new_row
from app.core.job_store import JobStore, NewRow, new_job_id, utc_now
from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, Outcome, check_rows
from app.core.sheet_header import detect_header
from app.core.sheet_mapping import ColumnMapping, propose_mapping
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import CellValue, Row, SheetError

PREVIEW_ROWS = 50
# Problem rows kept for the check page; the counts always cover every row.
MAX_PROBLEMS = 5000

# Sheet row number → the value a person typed to replace the phone cell.
Fixes = Mapping[int, str]


@dataclass
class FileProbe:
    """What the first pages show: the file's sheets and the first rows of the chosen one."""

    path: Path
    sheet_names: tuple[str, ...]
    sheet: str
    preview: list[Row]
    header_row: int | None


def probe_file(path: Path, sheet: str | None = None) -> FileProbe:
    """Open ``path`` and read its first rows; raises SheetError in one sentence."""
    path = Path(path).expanduser()
    with open_sheet(path, sheet) as source:
        preview: list[Row] = [(n, list(cells)) for n, cells in source.preview(PREVIEW_ROWS)]
        return FileProbe(
            path, tuple(source.sheet_names), source.sheet, preview, detect_header(preview)
        )


def mapping_for(probe: FileProbe, header_row: int | None, phone_code: str = "1") -> ColumnMapping:
    """The engine's proposal for the preview with ``header_row`` as the header (None: none)."""
    header: list[CellValue] | None = None
    if header_row is not None:
        header = next((list(c) for n, c in probe.preview if n == header_row), None)
    data = [r for r in probe.preview if header_row is None or r[0] > header_row]
    mapping = propose_mapping(header, data, phone_code)
    mapping.header_row = header_row
    return mapping


def apply_fixes(rows: Iterable[Row], fixes: Fixes, phone_column: int | None) -> Iterator[Row]:
    """``rows`` with the phone cell of each fixed row replaced by the typed value."""
    if not fixes or phone_column is None:
        yield from rows
        return
    for number, cells in rows:
        fixed = fixes.get(number)
        if fixed is None:
            yield number, cells
            continue
        out = list(cells)
        out += [None] * (phone_column + 1 - len(out))
        out[phone_column] = fixed
        yield number, out


def is_problem(checked: CheckedRow) -> bool:
    return checked.outcome in (Outcome.INVALID, Outcome.DUPLICATE) or bool(checked.damage)


@dataclass
class CheckResult:
    """Counts for every row and the rows a person should look at (invalid, duplicate, damaged)."""

    summary: CheckSummary
    problems: list[CheckedRow] = field(default_factory=list)
    more_problems: int = 0


def check_file(
    probe: FileProbe,
    mapping: ColumnMapping,
    options: CheckOptions,
    fixes: Fixes,
    *,
    cancel: threading.Event | None = None,
    progress: Any = None,
) -> CheckResult:
    """Read and check every row of the probed sheet (a dry run in memory: nothing is written).

    ``progress(rows_checked)`` is called now and then; raises InterruptedError when cancelled.
    """
    result = CheckResult(CheckSummary())
    with open_sheet(probe.path, probe.sheet) as source:
        rows = apply_fixes(source.iter_rows(), fixes, mapping.phone)
        for checked in check_rows(rows, mapping, options, result.summary):
            if is_problem(checked):
                if len(result.problems) < MAX_PROBLEMS:
                    result.problems.append(checked)
                else:
                    result.more_problems += 1
            if result.summary.rows % 2000 == 0:
                if cancel is not None and cancel.is_set():
                    raise InterruptedError("the check was cancelled")
                if progress is not None:
                    progress(result.summary.rows)
    return result


def _corrected(row: NewRow, fixes: Fixes) -> NewRow:
    fixed = fixes.get(row.row_number)
    if fixed is None:
        return row
    note = f"corrected in the import wizard (the file has {row.original!r})"
    return replace(row, damage="; ".join(x for x in (row.damage, note) if x))


def stage_job(
    settings: JobSettings,
    mapping: ColumnMapping,
    jobs_dir: Path,
    reports_dir: Path,
    *,
    kind: str,
    connection: Connection | None,
    campaign_lookup: Mapping[str, str] | None = None,
    fixes: Fixes | None = None,
) -> tuple[JobStore, CheckSummary]:
    """Check the file with ``mapping`` and write a new job file, as the engine's ``stage`` does.

    Rows whose phone cell was corrected keep the file's value in ``original`` and say so in
    their note, so the report shows both.
    """
    fixes = dict(fixes or {})
    path = settings.file.expanduser().resolve()
    if mapping.phone is None:
        raise SheetError(f"No column of phone numbers is chosen for {path.name}.")
    mapping.default_scope = settings.scope
    with open_sheet(path, settings.sheet) as source:
        options = CheckOptions(
            target=settings.target,
            campaign_lookup=campaign_lookup or {},
            insertion_date=dt.date.today(),
        )
        summary = CheckSummary()
        job_id = new_job_id(kind)
        meta: dict[str, Any] = {
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
            "report": str(
                settings.report.expanduser().resolve()
                if settings.report is not None
                else reports_dir / f"{job_id}.xlsx"
            ),
            **settings.extra,
        }
        if fixes:
            meta["corrections"] = {str(k): v for k, v in sorted(fixes.items())}
        store = JobStore.create(jobs_dir, job_id, meta)
        try:
            originals: dict[int, CellValue] = {}
            raw = source.iter_rows()

            def remember(rows: Iterable[Row]) -> Iterator[Row]:
                for number, cells in rows:
                    if number in fixes and mapping.phone is not None:
                        phone = mapping.phone
                        originals[number] = cells[phone] if phone < len(cells) else None
                    yield number, cells

            fixed = apply_fixes(remember(raw), fixes, mapping.phone)
            checked = check_rows(fixed, mapping, options, summary)

            def staged() -> Iterator[NewRow]:
                for c in checked:
                    row = _new_row(c)
                    if c.row in fixes:
                        was = originals.get(c.row)
                        row = replace(row, original="" if was is None else str(was))
                        row = _corrected(row, fixes)
                    yield row

            store.add_rows(staged())
        except BaseException:
            store.close()
            store.path.unlink(missing_ok=True)
            raise
    return store, summary
