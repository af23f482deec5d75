"""The session and paths the audit-family commands (audit, snapshot, diff, evidence, health)
run with, over the shared ``--connection`` / ``--base-url`` options of
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
    open_session,
)
from app.core.paths import AppPaths
from app.core.session import Session

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
    """What a command needs: paths, and the session (API client + change journal)."""

    paths: AppPaths
    session: Session

    @property
    def api(self) -> ApiClient:
        return self.session.api

    def close(self) -> None:
        self.session.close()
        self.session.journal.close()


def open_context(args: argparse.Namespace) -> CliContext:
    """Resolve the connection and token; raises :class:`ConnectionProblem`."""
    paths = AppPaths.default()
    try:
        session = open_session(args, paths)
    except CliError as exc:
        raise ConnectionProblem(str(exc), exc.status) from None
    return CliContext(paths, session)
