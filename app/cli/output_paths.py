"""Checks on the files a command will write (``--report``, ``--out``), made before any work.

A report path that is a folder or cannot be created used to surface only after the whole file
had been read and checked (or, for an export, every page fetched), as an OSError naming the
writer's temporary ``.part`` file. These checks say it first, in one sentence.

They also keep a command from destroying a file: a report is never written over the
spreadsheet being read (the vendor's original is the evidence) nor over another job's report
(that job's record of what it sent), and a file already at
``--report`` or ``--out`` (export, audit, evidence, diff) is replaced only with ``--overwrite``,
and an ``--out`` is never a file the command reads nor one of the app's own records (a job's
report, a job file, the change journal: :func:`app_record`). Missing folders are created
here, and the folder is proved writable with a temporary file, so nothing is sent to the
service for a report that could not be written.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

from app.cli.connection_args import EXIT_FAILED, EXIT_USAGE, CliError
from app.cli.main import signals_held


def nearest_existing(path: Path) -> tuple[Path, Path]:
    """The nearest of ``path`` and its parents that exists, and the first missing one below
    it (``path`` itself when it exists). One that cannot be looked at (a parent that may not
    be searched) is taken as missing: making it is refused with the reason."""
    missing = path
    for candidate in (path, *path.parents):
        with contextlib.suppress(OSError):
            if candidate.exists():
                return candidate, missing
        missing = candidate
    return Path(path.anchor or "."), missing


def writable_problem(path: Path) -> str:
    """Why a file cannot be written at ``path`` (``""`` when it can).

    Missing folders are created (and stay: the file will go there). The probe creates and
    removes ``PATH.part`` (the name the writers use), so read-only mounts, permissions and
    pseudo file systems are all caught; a stop signal meanwhile is taken once it is removed.
    """
    parent = path.parent
    if not parent.exists():
        existing, _ = nearest_existing(parent)
        if not existing.is_dir():
            return f"{existing} is a file, not a folder"
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return f"the folder {parent} cannot be created ({exc.strerror or exc})"
    if not parent.is_dir():
        return f"{parent} is a file, not a folder"
    probe = path.with_name(path.name + ".part")
    # Made and removed as one step: a stop signal between the two (SIGTERM, Ctrl+C) left an
    # empty PATH.part beside a command that said it wrote nothing (X1, Q2).
    with signals_held():
        existed = probe.exists()
        try:
            with probe.open("ab"):
                pass
        except OSError as exc:
            return exc.strerror or str(exc)
        if not existed:
            probe.unlink(missing_ok=True)
    return ""


def same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (links, ``..``, case-insensitive disks included)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.expanduser().resolve() == b.expanduser().resolve()


def report_of_job(path: Path, jobs_dir: Path | None) -> str:
    """The job that sent rows (not a dry run) whose report ``path`` is (``""`` when none): a
    job file of its name beside it (a job's own report, in the jobs folder or a copy of it,
    written yet or not), or, for a file that is there, a job in ``jobs_dir`` that names it as
    its report. (A path a job names but that holds no file yet is left to that job's claim on
    it: see ``job_exec.report_destination``.) A dry run's report records nothing sent: it
    may be replaced, with ``--overwrite``."""
    from app.core.job_catalog import JobInfo, list_jobs, read_job
    from app.core.job_store import SUFFIX, JobStatus

    def named(info: JobInfo) -> str:
        if info.error or info.status == JobStatus.DRY_RUN.value:
            return ""
        name = info.meta.get("name")
        return f"job {info.job_id}" + (f" ({name})" if name else "")

    beside = path.with_suffix(SUFFIX)
    if beside.is_file():
        return named(read_job(beside, with_counts=False))
    if jobs_dir is None or not path.is_file():
        return ""
    for info in list_jobs(jobs_dir, with_counts=False):
        if info.meta.get("report") and same_file(info.report, path) and named(info):
            return named(info)
    return ""


def app_record(path: Path) -> str:
    """What ``path`` is, when it is one of the app's own records (``""`` when not): the report
    of a job that sent rows (:func:`report_of_job`), a job file, or the change journal."""
    from app.core.job_store import SUFFIX
    from app.core.paths import AppPaths

    paths = AppPaths.locate()
    if job := report_of_job(path, paths.jobs_dir if paths.jobs_dir.is_dir() else None):
        return f"the report of {job}, its record of what was sent"
    if not path.exists():
        return ""
    if path.resolve().suffix == SUFFIX:
        return "a job file, the record of a job's rows and what was sent"
    journal = paths.journal_db
    for part in ("", "-wal", "-shm", "-journal"):
        if same_file(path, journal.with_name(journal.name + part)):
            return "the change journal, the record of every change sent"
    return ""


def check_report_path(
    path: Path,
    *,
    source: Path | None = None,
    overwrite: bool = False,
    jobs_dir: Path | None = None,
) -> Path:
    """``--report PATH`` for an import or removal: an .xlsx file that can be written.

    Refused, whatever ``overwrite`` says, when it is ``source`` (the spreadsheet being read)
    or a file another job that sent rows wrote as its report (:func:`report_of_job`, looking
    in ``jobs_dir``); refused when a file is already there unless ``overwrite``.
    """
    path = path.expanduser()
    if path.is_dir():
        raise CliError(
            f"--report {path} is a folder; give a file name ending in .xlsx.", EXIT_USAGE
        )
    if source is not None and same_file(path, source):
        raise CliError(
            f"--report {path} is the spreadsheet being read; the report would replace the "
            "original, so give another file name.",
            EXIT_USAGE,
        )
    if job := report_of_job(path, jobs_dir):
        # A dry run's --overwrite replaced a finished import's report, the record of what it
        # sent (black-box R5 #8).
        raise CliError(
            f"--report {path} is the report of {job}, its record of what was sent; give "
            "another file name.",
            EXIT_USAGE,
        )
    if path.suffix.lower() != ".xlsx":
        raise CliError(
            f"--report {path} must end in .xlsx (the report is an Excel workbook).", EXIT_USAGE
        )
    if path.exists() and not overwrite:
        raise CliError(
            f"--report {path} already exists; give another file name, or add --overwrite "
            "to replace it.",
            EXIT_USAGE,
        )
    problem = writable_problem(path)
    if problem:
        raise CliError(f"The report cannot be written to {path}: {problem}.")
    return path


def check_export_path(path: Path, *, overwrite: bool = False) -> Path:
    """``--out PATH`` for an export (its suffix is checked by the caller)."""
    return check_out_path(path, overwrite=overwrite, what="export", kinds=".xlsx or .csv")


def check_out_path(
    path: Path,
    *,
    overwrite: bool = False,
    reads: Iterable[Path] = (),
    what: str = "file",
    kinds: str = ".xlsx",
) -> Path:
    """``--out PATH.xlsx`` of ``audit``, ``evidence`` and ``diff`` (the suffix is checked by
    the caller): a file that can be written, and not one of ``reads`` (the files the command
    reads), whatever ``overwrite`` says; refused when a file is already there unless
    ``overwrite`` (an earlier report, export or evidence pack is evidence too)."""
    path = path.expanduser()
    if path.is_dir():
        raise CliError(f"--out {path} is a folder; give a file name ending in {kinds}.", EXIT_USAGE)
    if record := app_record(path):
        # export --out jobs/import-….xlsx --overwrite replaced a finished import's report with
        # the export (black-box B35 F3): the app's own records are never an --out.
        raise CliError(
            f"--out {path} is {record}; the {what} would replace it, so give another file name.",
            EXIT_USAGE,
        )
    for source in reads:
        if same_file(path, source):
            raise CliError(
                f"--out {path} is a file this command reads; the {what} would replace it, "
                "so give another file name.",
                EXIT_USAGE,
            )
    if path.exists() and not overwrite:
        raise CliError(
            f"--out {path} already exists; give another file name, or add --overwrite "
            "to replace it.",
            EXIT_USAGE,
        )
    problem = writable_problem(path)
    if problem:
        raise CliError(f"The {what} cannot be written to {path}: {problem}.", EXIT_FAILED)
    return path
