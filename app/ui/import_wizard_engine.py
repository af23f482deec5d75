"""The wizard's calls into the engine, Qt-free, each meant to run on a worker thread.

The wizard lets a person choose the sheet, the header row and every column, and fix a cell
before anything is sent; :func:`stage_job` hands that mapping and those corrections to the
engine's public :func:`app.core.job_staging.stage` (the source file itself is never modified:
it is the evidence of what was received). Everything else is the engine's own code.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.core.connections import Connection
from app.core.country_names import US_STATES
from app.core.job_staging import (
    Corrections,
    JobSettings,
    apply_corrections,
    opt_out_sheets,
    phone_cells,
    sheets_before_front_matter,
    stage,
    state_doubt,
    text_delimiter,
)
from app.core.job_store import JobStore
from app.core.phones import normalize_code, region_name
from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, Outcome, check_rows
from app.core.sheet_header import detect_header, read_preview
from app.core.sheet_mapping import ColumnMapping, column_said, propose_under_header
from app.core.sheet_reader import SheetSource, open_sheet
from app.core.sheet_types import Row
from app.core.staging_notes import column_order, stray_quotes_sentence
from app.core.wording import joined

# Problem rows kept for the check page; the counts always cover every row.
MAX_PROBLEMS = 5000

# Sheet row number → the value a person typed to replace the phone cell.
Fixes = Corrections
apply_fixes = apply_corrections


@dataclass
class FileProbe:
    """What the first pages show: the file's sheets and the first rows of the chosen one."""

    path: Path
    sheet_names: tuple[str, ...]
    sheet: str
    preview: list[Row]
    header_row: int | None
    hidden_sheets: frozenset[str] = frozenset()


def probe_file(path: Path, sheet: str | None = None, *, prefer_opt_outs: bool = False) -> FileProbe:
    """Open ``path`` and read its first rows; raises SheetError in one sentence.

    The rows are the engine's preview (:func:`app.core.sheet_header.read_preview`): non-blank
    rows only, with their row numbers in the sheet, reaching down to a table under notes or
    blank rows, as staging reads them. ``prefer_opt_outs`` (an import) chooses, with no sheet
    named, the sheet an import's staging reads (:func:`~app.core.job_staging.open_mapped`).
    """
    path = Path(path).expanduser()
    with open_sheet(path, sheet) as source:
        probe = _probe(path, source)
        # As staging does with no sheet named: a sheet named for opt-outs with a phone column
        # is shown first rather than a first sheet of contacts (the Sheet list has the rest).
        others = opt_out_sheets(source) if prefer_opt_outs and sheet is None else []
        # And a cover or instructions sheet first is passed over for a sheet of data, whose
        # numbers the cover's contact phones are not (black-box Q1 #3), holding as many.
        front = sheets_before_front_matter(source) if sheet is None else []
    numbers = phone_cells(probe.preview) if front else 0
    for name in [*others, *front]:
        with open_sheet(path, name) as other:
            candidate = _probe(path, other)
        if name in front and phone_cells(candidate.preview) < numbers:
            continue  # the front-matter sheet holds more: it is the list (as staging reads)
        if mapping_for(candidate, candidate.header_row).phone is not None:
            return candidate
    return probe


def _probe(path: Path, source: SheetSource) -> FileProbe:
    preview: list[Row] = [(n, list(cells)) for n, cells in read_preview(source)]
    return FileProbe(
        path,
        tuple(source.sheet_names),
        source.sheet,
        preview,
        detect_header(preview),
        frozenset(source.notes.hidden_sheets),
    )


def mapping_for(probe: FileProbe, header_row: int | None, phone_code: str = "1") -> ColumnMapping:
    """The engine's proposal for the preview with ``header_row`` as the header (None: none)."""
    return propose_under_header(probe.preview, header_row, phone_code)


def is_problem(checked: CheckedRow) -> bool:
    return checked.outcome in (Outcome.INVALID, Outcome.DUPLICATE) or bool(checked.damage)


@dataclass
class CheckResult:
    """Counts for every row and the rows a person should look at (invalid, duplicate, damaged)."""

    summary: CheckSummary
    problems: list[CheckedRow] = field(default_factory=list)
    more_problems: int = 0
    # Data rows hidden in the file (by hand or by a filter): imported like the others, but a
    # person filtering a sheet before sending it may not expect that.
    hidden_rows: int = 0
    # The warning on quoted cells that swallowed lines looking like rows of their own (a
    # stray quote mark in a CSV), or "": their numbers are in no row, so no count shows them.
    stray_quotes: str = ""
    # The warning the import's report will give when the column read for countries holds
    # US state codes that are countries' too beside numbers read both ways, or "" (W6 #1);
    # and what the box saying the column holds countries says, to settle it.
    state_doubt: str = ""
    countries_box: str = ""


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
    A request-date column written one way is checked again in that order, as staging does
    (:func:`~app.core.staging_notes.column_order`), so the counts shown are the job's. The
    doubt of a column of state codes that are countries' too, which staging would warn of
    (:func:`~app.core.job_staging.state_doubt`), is said before the import is started.
    """
    result = _check_file(probe, mapping, options, fixes, cancel, progress)
    if options.day_first is None and (order := column_order(result.summary)) is not None:
        result = _check_file(
            probe, mapping, replace(options, day_first=order), fixes, cancel, progress
        )
    # The rows staging looks at for it: the preview's, below the header, with the fixes.
    below = [r for r in probe.preview if r[0] > (mapping.header_row or 0)]
    rows = list(apply_fixes(below, fixes, mapping.phone))
    doubt = state_doubt(mapping, rows, "import", mapping.default_phone_code, chosen=True)
    if doubt is not None:
        found, result.state_doubt = doubt
        column = column_said(mapping.headers, found.index)
        countries = joined([region_name(normalize_code(c) or "") for c in found.codes])
        states = joined([US_STATES[c] for c in found.codes])
        result.countries_box = (
            f"{column[0].upper()}{column[1:]} holds countries ({countries}), not US states "
            f"({states})"
        )
    return result


def _check_file(
    probe: FileProbe,
    mapping: ColumnMapping,
    options: CheckOptions,
    fixes: Fixes,
    cancel: threading.Event | None,
    progress: Any,
) -> CheckResult:
    result = CheckResult(CheckSummary())
    with open_sheet(probe.path, probe.sheet) as source:
        rows = apply_fixes(source.iter_rows(), fixes, mapping.phone)
        # A text file's delimiter words its "right of the header" notes, as staging does.
        options = replace(options, text_delimiter=text_delimiter(source))
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
        below = (mapping.header_row or 0) + 1
        result.hidden_rows = sum(1 for n in source.notes.hidden_rows if n >= below)
        if source.notes.stray_quotes:
            quotes = list(source.notes.stray_quotes.values())
            result.stray_quotes = stray_quotes_sentence(quotes, probe.path.name, "import")
    return result


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
    """Check the file with ``mapping`` and write a new job file (the engine's ``stage``).

    Rows whose phone cell was corrected keep the file's value in ``original`` and say so in
    their note, so the report shows both.
    """
    return stage(
        settings,
        jobs_dir,
        kind=kind,
        connection=connection,
        campaign_lookup=campaign_lookup,
        mapping=mapping,
        corrections=fixes,
        reports_dir=reports_dir,
    )
