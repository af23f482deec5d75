"""The connection, client and paths the audit-family commands (audit, snapshot, diff, evidence,
health) run with, over the shared ``--connection`` / ``--base-url`` options of
:mod:`app.cli.connection_args`, plus what only these commands need: the "findings" exit
status and the ``--concurrency`` option.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from app.api.client import ApiClient
from app.api.concurrency import MAX_CONCURRENCY
from app.cli.connection_args import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    add_connection_arguments,
    open_client,
)
from app.core.connections import Connection
from app.core.journal import ChangeJournal, JournalError
from app.core.paths import DATA_ENV, AppPaths, path_text

__all__ = [
    "EXIT_FAILED",
    "EXIT_FINDINGS",
    "EXIT_OK",
    "EXIT_USAGE",
    "CliContext",
    "ConnectionProblem",
    "add_connection_arguments",
    "concurrency_arg",
    "open_context",
]

EXIT_FINDINGS = 3  # ran, and found what the user must act on (conflicts, differences)


class ConnectionProblem(Exception):
    """The command cannot connect as asked; ``str()`` is one sentence, ``status`` the exit."""

    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.status = status


def concurrency_arg(text: str) -> int:
    """``--concurrency N``: requests in flight, within what the bulk helper allows. Each
    refusal states the rule in full, as import's does: "'abc' is not a number" and "must be
    between 1 and 32" left the option to guess (after black-box B4 #7)."""
    rule = f"the number of requests in flight, from 1 to {MAX_CONCURRENCY}"
    try:
        value = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give {rule}.") from None
    if not 1 <= value <= MAX_CONCURRENCY:
        raise argparse.ArgumentTypeError(f"{value} is out of range; give {rule}.")
    return value


@dataclass
class CliContext:
    """What a command needs: paths, the connection and its API client, and the change journal
    when the command reads it (an evidence pack). None of these commands writes to the
    service, so none is given a journaled :class:`~app.core.session.Session`: a write here
    could not happen without its journal record."""

    paths: AppPaths
    connection: Connection
    api: ApiClient
    journal: ChangeJournal | None = None
    # Why the journal could not be read (emptied, damaged): one sentence, "" when it was.
    journal_problem: str = ""

    def close(self) -> None:
        self.api.close()
        if self.journal is not None:
            self.journal.close()


# What refusing an emptied or damaged journal means for an evidence pack, which reads it.
JOURNAL_NOT_IN_PACK = "none of its entries are in this evidence pack"


def open_context(args: argparse.Namespace, *, read_journal: bool = False) -> CliContext:
    """Resolve the connection and token; raises :class:`ConnectionProblem`.

    The change journal is opened only with ``read_journal``, and one that cannot be used
    (emptied, damaged) does not stop the command: it is said in ``journal_problem``. These
    commands only read the lists, and right after a journal is damaged is when an officer
    wants a snapshot or an evidence pack of the lists as they are (black-box bb2 F15)."""
    paths = AppPaths.default()
    try:
        paths.check_writable()  # reports, snapshots and audit records are written there
        connection, api = open_client(args, paths)
    except CliError as exc:
        raise ConnectionProblem(str(exc), exc.status) from None
    ctx = CliContext(paths, connection, api)
    if read_journal:
        try:
            ctx.journal_problem = _open_journal(ctx)
        except BaseException:
            api.close()
            raise
    return ctx


def _open_journal(ctx: CliContext) -> str:
    """Open the data folder's journal read only into ``ctx``, as ``journal verify`` does:
    reading evidence never changes the evidence (opened to be written to, a -wal a stopped
    process left was folded into the file on closing, an old journal given a column, a
    dropped chain head table made anew, and a missing journal made empty). Returns why it was
    not read, "" when it was."""
    path = ctx.paths.journal_db
    if not path.exists():
        return (
            f"There is no change journal yet at {path_text(path)}: no change was sent from "
            f"this data folder. If changes were sent, check {DATA_ENV} names the data folder "
            "they were sent from."
        )
    try:
        ctx.journal = ChangeJournal(path, reader=JOURNAL_NOT_IN_PACK, read_only=True)
    except JournalError as exc:
        return str(exc)
    return ""
