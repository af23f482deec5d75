"""Checks on the files a command will write (``--report``, ``--out``), made before any work.

A report path that is a folder or cannot be created used to surface only after the whole file
had been read and checked (or, for an export, every page fetched), as an OSError naming the
writer's temporary ``.part`` file. These checks say it first, in one sentence.
"""

from __future__ import annotations

from pathlib import Path

from app.cli.connection_args import EXIT_FAILED, EXIT_USAGE, CliError


def _nearest_existing(path: Path) -> Path:
    for candidate in path.parents:
        if candidate.exists():
            return candidate
    return Path(path.anchor or ".")


def writable_problem(path: Path) -> str:
    """Why a file cannot be written at ``path`` (``""`` when it can), touching nothing.

    The probe creates and removes ``PATH.part`` (the name the writers use) when the folder
    exists, so read-only mounts, permissions and pseudo file systems are all caught.
    """
    parent = path.parent
    if not parent.exists():
        existing = _nearest_existing(path)
        if not existing.is_dir():
            return f"{existing} is a file, not a folder"
        return ""  # the writers create missing folders
    if not parent.is_dir():
        return f"{parent} is a file, not a folder"
    probe = path.with_name(path.name + ".part")
    existed = probe.exists()
    try:
        with probe.open("ab"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    if not existed:
        probe.unlink(missing_ok=True)
    return ""


def check_report_path(path: Path) -> Path:
    """``--report PATH`` for an import or removal: an .xlsx file that can be written."""
    path = path.expanduser()
    if path.is_dir():
        raise CliError(
            f"--report {path} is a folder; give a file name ending in .xlsx.", EXIT_USAGE
        )
    if path.suffix.lower() != ".xlsx":
        raise CliError(
            f"--report {path} must end in .xlsx (the report is an Excel workbook).", EXIT_USAGE
        )
    problem = writable_problem(path)
    if problem:
        raise CliError(f"The report cannot be written to {path}: {problem}.")
    return path


def check_export_path(path: Path) -> Path:
    """``--out PATH`` for an export (its suffix is checked by the caller)."""
    path = path.expanduser()
    if path.is_dir():
        raise CliError(
            f"--out {path} is a folder; give a file name ending in .xlsx or .csv.", EXIT_USAGE
        )
    problem = writable_problem(path)
    if problem:
        raise CliError(f"{path} cannot be written: {problem}.", EXIT_FAILED)
    return path
