"""A full disk, told apart from damage (black-box pass L4 #5), and said as one sentence."""

from __future__ import annotations

import errno
import sqlite3

from app.core.paths import AppPaths


def disk_full(exc: BaseException) -> bool:
    """SQLite's "database or disk is full", or the system's "no space left" (or quota)."""
    if isinstance(exc, sqlite3.Error):
        return getattr(
            exc, "sqlite_errorcode", None
        ) == sqlite3.SQLITE_FULL or "database or disk is full" in str(exc)
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def full_where(exc: BaseException) -> str:
    """ "the disk holding X is full (detail)": the file the write failed on, else the data
    folder (SQLite names no file)."""
    filename = getattr(exc, "filename", None)
    where = filename if filename else f"the data folder ({AppPaths.locate().data_dir})"
    detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return f"the disk holding {where} is full ({detail})"


def disk_full_sentence(exc: BaseException, command: str | None, dry_run: bool) -> str:
    """Say which disk, that what was saved is kept, and how to go on once there is room."""
    full = full_where(exc)
    if command in ("import", "remove") and not dry_run:
        # SQLite rolled back the write that did not fit; a job that had started is
        # "interrupted" and its --resume sends only the rows that have no answer.
        return (
            f"{full[0].upper()}{full[1:]}, so the {command} stopped; what was saved before it "
            "is kept. Free some space, then resume its job if it had started one (dnc-desk "
            "jobs lists it, with the command to resume it), or run the command again."
        )
    return (
        f"{full[0].upper()}{full[1:]}, so the command stopped; nothing that was saved before "
        "is lost. Free some space and run it again."
    )
