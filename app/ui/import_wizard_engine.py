"""The wizard's calls into the engine, Qt-free, each meant to run on a worker thread.

The wizard lets a person choose the sheet, the header row and every column, and fix a cell
before anything is sent; :func:`stage_job` hands that mapping and those corrections to the
engine's public :func:`app.core.job_staging.stage` (the source file itself is never modified:
it is the evidence of what was received). Everything else is the engine's own code.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.core.connections import Connection
from app.core.country_names import US_STATES
from app.core.job_catalog import (
    SOURCE_MTIME_NS,
    SOURCE_SHA256,
    SOURCE_SIZE,
    source_change,
    source_fingerprint,
    source_path,
)
from app.core.job_staging import (
    Corrections,
    JobSettings,
    apply_corrections,
    list_sheets,
    opt_out_sheets,
    phone_cells,
    sheets_before_front_matter,
    stage,
    state_doubt,
    text_delimiter,
)
from app.core.job_store import SOURCE_PATH_BYTES, JobRow, JobStore
from app.core.job_store import Outcome as JobOutcome
from app.core.phones import normalize_code, region_name
from app.core.sheet_check import (
    CheckedRow,
    CheckOptions,
    CheckSummary,
    Outcome,
    Target,
    check_rows,
)
from app.core.sheet_header import detect_header, read_preview
from app.core.sheet_mapping import (
    ColumnMapping,
    column_letter,
    column_said,
    other_phone_columns,
    propose_under_header,
    visible_twin,
)
from app.core.sheet_reader import SheetSource, open_sheet
from app.core.sheet_types import Row
from app.core.staging_notes import (
    column_order,
    formatted_order,
    offered_columns,
    phone_formulas_said,
    stray_quotes_sentence,
)
from app.core.unread_phones import (
    UNREAD_PHONES_NOTE,
    UNREAD_PHONES_WARNING,
    UnreadPhones,
    imported_before_sentence,
    watch_unread_phones,
)
from app.core.wording import joined

# Problem rows kept for the check page; the counts always cover every row.
MAX_PROBLEMS = 5000
# A check's staged job left behind by a window that was killed is swept after this long (a
# check still on screen in another window is younger).
STALE_CHECK_SECONDS = 24 * 3600

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
    # The sheet's hidden columns (0-based): of two phone columns of one header, the one shown
    # is proposed, as staging reads it (black-box bb13 F6).
    hidden_columns: frozenset[int] = frozenset()
    # Whether the person chose the sheet in the Sheet list, rather than the reader guessing it
    # (staging then warns of other sheets laid out alike, as with no sheet named).
    chosen: bool = False


def probe_file(
    path: Path,
    sheet: str | None = None,
    *,
    prefer_opt_outs: bool = False,
    target: Target | None = None,
) -> FileProbe:
    """Open ``path`` and read its first rows; raises SheetError in one sentence.

    The rows are the engine's preview (:func:`app.core.sheet_header.read_preview`): non-blank
    rows only, with their row numbers in the sheet, reaching down to a table under notes or
    blank rows, as staging reads them. ``prefer_opt_outs`` (an import) chooses, with no sheet
    named, the sheet an import's staging reads (:func:`~app.core.job_staging.open_mapped`);
    ``target``, the list it goes into, makes it the sheet staging reads for that list.
    """
    path = Path(path).expanduser()
    with open_sheet(path, sheet) as source:
        probe = _probe(path, source)
        # As staging does with no sheet named: a sheet named for opt-outs with a phone column
        # is shown first rather than a first sheet of contacts (the Sheet list has the rest),
        # and one named for the target's list before those (bb12 F2: 'Opt Outs' was shown for
        # an SMS import the command line read from 'SMS Opt-outs').
        others = _preferred_sheets(source, prefer_opt_outs, target) if sheet is None else []
        # And a cover or instructions sheet first is passed over for a sheet of data, whose
        # numbers the cover's contact phones are not (black-box Q1 #3), holding as many.
        front = sheets_before_front_matter(source) if sheet is None else []
    if sheet is not None:
        return replace(probe, chosen=True)
    numbers = phone_cells(probe.preview) if front else 0
    for name in [*others, *front]:
        with open_sheet(path, name) as other:
            candidate = _probe(path, other)
        if name in front and phone_cells(candidate.preview) < numbers:
            continue  # the front-matter sheet holds more: it is the list (as staging reads)
        if mapping_for(candidate, candidate.header_row).phone is not None:
            return candidate
    return probe


def _preferred_sheets(
    source: SheetSource, prefer_opt_outs: bool, target: Target | None
) -> list[str]:
    """The sheets tried before ``source``'s own, in the order staging's sheet choice
    (``job_staging._choose_sheet``) tries them for ``target``."""
    named = list_sheets(source, target, prefer_opt_outs) if target is not None else []
    opt_outs = opt_out_sheets(source, target) if prefer_opt_outs else []
    return [*named, *(n for n in opt_outs if n not in named)]


def _probe(path: Path, source: SheetSource) -> FileProbe:
    preview: list[Row] = [(n, list(cells)) for n, cells in read_preview(source)]
    return FileProbe(
        path,
        tuple(source.sheet_names),
        source.sheet,
        preview,
        detect_header(preview),
        frozenset(source.notes.hidden_sheets),
        frozenset(source.notes.hidden_columns),
    )


def mapping_for(probe: FileProbe, header_row: int | None, phone_code: str = "1") -> ColumnMapping:
    """The engine's proposal for the preview with ``header_row`` as the header (None: none):
    of a hidden phone column and a visible one of the same header, the visible one. A header
    row other than the one detected is the user's choice, its cells naming the columns."""
    chosen = header_row != probe.header_row
    mapping = propose_under_header(probe.preview, header_row, phone_code, chosen=chosen)
    if mapping.phone in probe.hidden_columns:
        data = [r for r in probe.preview if r[0] > (header_row or 0)]
        twin = visible_twin(
            mapping, other_phone_columns(mapping, data, phone_code), probe.hidden_columns
        )
        if twin is not None:
            mapping.phone = twin
    return mapping


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
    # What staging said (:func:`check_and_stage`): its warnings, the staged rows to look at
    # (invalid, duplicate, damaged, or with a message), and the job file written in the check
    # folder, which Start sends when nothing changed since (``staged_with``).
    warnings: list[str] = field(default_factory=list)
    rows_to_look_at: list[RowToLook] = field(default_factory=list)
    more_rows: int = 0
    staged: StagedCheck | None = None
    # Columns of phone numbers the job does not read (a Mobile beside the Home Phone read),
    # counted over the whole file: a consumer's second number stays off the list unless
    # that column is imported too, so the page says it apart from the ordinary warnings.
    unread_phones: list[UnreadColumn] = field(default_factory=list)


@dataclass(frozen=True)
class UnreadColumn:
    """A column of phone numbers not read: ``rows`` hold a number there, ``differing`` of
    them not the number read on the same row."""

    index: int
    said: str  # "column C ('Mobile')"
    rows: int
    differing: int

    @property
    def letter(self) -> str:
        return column_letter(self.index)


@dataclass(frozen=True)
class RowToLook:
    """One staged row the check page lists, with the problem or message staging gave it."""

    row: int
    original: str  # the file's cell, before any fix typed on the page
    outcome: str  # the job file's final outcome ("" for a row to send)
    problem: str

    @property
    def invalid(self) -> bool:
        return self.outcome == JobOutcome.INVALID

    @property
    def duplicate(self) -> bool:
        return self.outcome == JobOutcome.DUPLICATE


@dataclass
class StagedCheck:
    """A job staged by the check page, not listed as a job (it is outside the jobs folder)
    until Start adopts it (:func:`adopt_staged`); otherwise discarded (:func:`discard_staged`).
    """

    path: Path
    summary: CheckSummary
    # What it was staged with: Start sends it only when the wizard would stage the same.
    settings: JobSettings
    fixes: dict[int, str]
    campaign_lookup: Mapping[str, str] | None
    # The job's meta naming the file and its fingerprint when staged (:func:`source_changed`).
    source: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FixScope:
    """What a fix typed on the check page belongs to: a fix replaces the phone cell of a sheet
    row, so it means that cell only under the file, sheet, header row and phone column it was
    typed under (black-box B11 #1: kept by row number alone, a fix typed for the Phone column
    replaced the Alt Phone cell of that row once Alt Phone was chosen instead)."""

    path: Path
    sheet: str
    header_row: int | None
    phone: int | None
    # How the page names the phone column, for the sentence saying the fixes were dropped.
    phone_said: str = field(default="", compare=False)

    @classmethod
    def of(cls, probe: FileProbe, mapping: ColumnMapping) -> FixScope:
        phone = mapping.phone
        said = "no column" if phone is None else column_said(mapping.headers, phone)
        return cls(probe.path, probe.sheet, mapping.header_row, phone, said)

    def dropped(self, count: int, now: FixScope) -> str:
        """The sentence saying ``count`` fixes typed under this scope were dropped for ``now``."""
        fixes = f"{count} fix{'es' if count != 1 else ''} typed for {self.phone_said}"
        was = "were" if count != 1 else "was"
        if now.path != self.path:
            why = f"the file is now {now.path.name}"
        elif now.sheet != self.sheet:
            why = f"the sheet is now {now.sheet!r}"
        elif now.header_row is None:
            why = "the sheet is now read with no header row"
        elif now.header_row != self.header_row:
            why = f"the header row is now row {now.header_row}"
        else:
            why = f"the phone column is now {now.phone_said}"
        return f"{fixes} {was} dropped: {why}."


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
        unread = _unread_phones(probe, mapping, source)
        rows = apply_fixes(source.iter_rows(), fixes, mapping.phone)
        # A text file's delimiter words its "right of the header" notes, as staging does.
        options = replace(options, text_delimiter=text_delimiter(source))
        if unread is not None:
            rows = unread.rows(rows)
        checked_rows = check_rows(rows, mapping, options, result.summary)
        if unread is not None:
            checked_rows = unread.noted(checked_rows)
        checked_rows = phone_formulas_said(
            checked_rows, source.notes, mapping.phone, result.summary
        )
        for checked in checked_rows:
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
        # The date cells' format, for column_order, as staging has it (bb13 F8).
        result.summary.formatted = formatted_order(source.notes, mapping.request_date)
        below = (mapping.header_row or 0) + 1
        result.hidden_rows = sum(1 for n in source.notes.hidden_rows if n >= below)
        if source.notes.stray_quotes:
            quotes = list(source.notes.stray_quotes.values())
            result.stray_quotes = stray_quotes_sentence(quotes, probe.path.name, "import")
    if unread is not None:
        result.unread_phones = [
            UnreadColumn(i, column_said(mapping.headers, i), rows, differing)
            for i, (rows, differing) in unread.counts().items()
        ]
    return result


def _unread_phones(
    probe: FileProbe, mapping: ColumnMapping, source: SheetSource
) -> UnreadPhones | None:
    """The watch on columns of phone numbers besides the one chosen, as staging keeps: its
    counts say on the check page which column to import next."""
    below = [r for r in probe.preview if r[0] > (mapping.header_row or 0)]
    code = mapping.default_phone_code
    others = offered_columns(mapping, other_phone_columns(mapping, below, code))
    return watch_unread_phones(
        mapping, below, code, "import", merged=source.notes.merged, others=others
    )


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
    their note, so the report shows both. The job keeps the file's fingerprint, as the
    command line's does, so a resume can tell the file changed since.
    """
    return stage(
        fingerprinted(settings),
        jobs_dir,
        kind=kind,
        connection=connection,
        campaign_lookup=campaign_lookup,
        mapping=mapping,
        corrections=fixes,
        reports_dir=reports_dir,
    )


def check_and_stage(
    probe: FileProbe,
    mapping: ColumnMapping,
    options: CheckOptions,
    fixes: Fixes,
    settings: JobSettings,
    checks_dir: Path,
    reports_dir: Path,
    *,
    connection: Connection | None,
    campaign_lookup: Mapping[str, str] | None,
    cancel: threading.Event | None = None,
    progress: Any = None,
) -> CheckResult:
    """:func:`check_file`, then the job staged for real as Start would stage it (nothing is
    sent), so the page shows what staging says before anything is sent: the rows it sets
    apart or gives a message (a second table's rows, a Notes cell naming another number, …),
    its counts, and its warnings. The job file is written in a folder of its own under
    ``checks_dir`` (never listed as a job); Start sends it (:func:`adopt_staged`) or it is
    discarded (:func:`discard_staged`).

    The check reports ``progress(rows_checked)`` and stops when ``cancel`` is set; staging
    reports ``progress("staging")`` and cannot stop midway: a cancel then takes effect once it
    ends, its job file deleted (InterruptedError).
    """
    # The file as the check reads it: Start sends the job only while it still is so.
    with_print = fingerprinted(settings)
    result = check_file(probe, mapping, options, fixes, cancel=cancel, progress=progress)
    _stop_if(cancel)
    if progress is not None:
        progress("staging")
    checks_dir.mkdir(parents=True, exist_ok=True)
    _sweep_stale(checks_dir)
    folder = Path(tempfile.mkdtemp(prefix="check-", dir=checks_dir))
    try:
        store, summary = stage(
            with_print,
            folder,
            kind="import",
            connection=connection,
            campaign_lookup=campaign_lookup,
            mapping=mapping,
            corrections=fixes,
            reports_dir=reports_dir,
        )
        try:
            meta = store.meta()
            warnings = [str(w) for w in meta.get("warnings", [])]
            for row in store.rows():
                if (look := _row_to_look(row)) is None:
                    continue
                if len(result.rows_to_look_at) < MAX_PROBLEMS:
                    result.rows_to_look_at.append(look)
                else:
                    result.more_rows += 1
        finally:
            store.close()
        _stop_if(cancel)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    # Said by the page already, with the box that settles it, or in its status line.
    shown = {result.state_doubt, result.stray_quotes}
    if result.unread_phones:
        # Said apart, with its count.
        shown |= {str(meta.get(k, "")) for k in (UNREAD_PHONES_WARNING, UNREAD_PHONES_NOTE)}
        shown.add(imported_before_sentence(mapping, settings.imported_before, settings.imported_by))
    result.warnings = [w for w in warnings if w not in shown]
    result.summary = summary  # staging's counts: the rows it sets apart are counted as sent
    result.staged = StagedCheck(
        store.path, summary, settings, dict(fixes), campaign_lookup, _source_meta(meta)
    )
    return result


def fingerprinted(settings: JobSettings) -> JobSettings:
    """``settings`` with the file's fingerprint (size, modification time, SHA-256) for the
    job's meta (:func:`~app.core.job_catalog.source_fingerprint`); reads the whole file."""
    return replace(settings, extra={**settings.extra, **source_fingerprint(settings.file)})


def _stop_if(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise InterruptedError("the check was cancelled")


def _row_to_look(row: JobRow) -> RowToLook | None:
    """The staged row as the page lists it, or None for a row to send that nothing is said of
    (and for a blank row, counted apart)."""
    said = row.message
    if said.startswith(prefix := f"row {row.row_number}: "):
        said = said[len(prefix) :]
    if row.outcome == JobOutcome.INVALID:
        return RowToLook(row.row_number, row.original, row.outcome, said)
    if row.outcome == JobOutcome.DUPLICATE:
        text = f"{said} (not sent again)"
        if row.damage and row.damage not in said:
            text += f"; {row.damage}"
        return RowToLook(row.row_number, row.original, row.outcome, text)
    if row.outcome or not (said or row.damage):
        return None
    text = f"sent as +{row.phone_code} {row.national}"
    if row.damage:
        text += f"; check it: {row.damage}"
    if said and said != row.damage:
        text += f"; {said}"
    return RowToLook(row.row_number, row.original, row.outcome, text)


def _sweep_stale(checks_dir: Path) -> None:
    """Delete the check folders a window killed mid-check left behind."""
    now = time.time()
    for folder in checks_dir.glob("check-*"):
        try:
            old = now - folder.stat().st_mtime > STALE_CHECK_SECONDS
        except OSError:
            continue
        if old:
            shutil.rmtree(folder, ignore_errors=True)


def same_staging(
    staged: StagedCheck,
    settings: JobSettings,
    fixes: Mapping[int, str],
    campaign_lookup: Mapping[str, str] | None,
) -> bool:
    """Start would stage exactly what the check staged: the same settings (a box ticked on
    the check page since changes them), the same fixes and the same campaign list (one that
    loaded after the check resolves names the check could not)."""
    return (
        staged.settings == settings
        and staged.fixes == dict(fixes)
        and staged.campaign_lookup is campaign_lookup
    )


def adopt_staged(staged: StagedCheck, jobs_dir: Path) -> tuple[JobStore, CheckSummary]:
    """Move the check's job file into the jobs folder and open it, to be sent as checked."""
    jobs_dir.mkdir(parents=True, exist_ok=True)
    target = jobs_dir / staged.path.name
    if target.exists():
        raise FileExistsError(f"job file {target} already exists")
    # Closed cleanly, a WAL job file has no -wal or -shm beside it; moved too if it has.
    for extra in ("-wal", "-shm"):
        side = staged.path.with_name(staged.path.name + extra)
        if side.exists():
            shutil.move(side, target.with_name(target.name + extra))
    shutil.move(staged.path, target)
    shutil.rmtree(staged.path.parent, ignore_errors=True)
    return JobStore(target), staged.summary


def _source_meta(meta: Mapping[str, Any]) -> dict[str, Any]:
    keys = ("file", "created", SOURCE_PATH_BYTES, SOURCE_SIZE, SOURCE_MTIME_NS, SOURCE_SHA256)
    return {k: meta[k] for k in keys if k in meta}


def source_unchanged(staged: StagedCheck) -> bool:
    """The file is as the check staged it by its size and modification time (a stat: on the
    runner, as a file on a network share can block it); False when it differs or is gone. A
    file that could not be fingerprinted (unreadable then) has nothing to tell it by:
    unchanged, as before."""
    path = source_path(staged.source)
    size, mtime = staged.source.get(SOURCE_SIZE), staged.source.get(SOURCE_MTIME_NS)
    if path is None or not isinstance(size, int) or not isinstance(mtime, int):
        return True
    try:
        stat = path.stat()
    except OSError:
        return False
    return stat.st_size == size and stat.st_mtime_ns == mtime


def source_changed(staged: StagedCheck) -> str:
    """How the file differs from when the check staged it, as a clause to follow its name
    (the command line's :func:`~app.core.job_catalog.source_change`, which --resume uses), or
    "" when it does not; may read the whole file (its SHA-256): call it on a worker."""
    if source_unchanged(staged):
        return ""
    return source_change(dict(staged.source)) or "was saved again with the same contents"


def discard_staged(staged: StagedCheck) -> None:
    """Delete a check's job file and its folder (the check was redone, left or closed)."""
    shutil.rmtree(staged.path.parent, ignore_errors=True)
