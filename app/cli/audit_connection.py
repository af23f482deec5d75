"""Connection options for the audit, snapshot and diff commands.

Interim copy of the shared behaviour (``app/cli/connection_args.py`` is being written in
parallel): ``--connection NAME`` takes the token from the keyring; ``--base-url URL`` takes it
from the environment variable ``DNC_DESK_TOKEN``. A token is never accepted on the command
line, where it would land in shell history and in ``ps`` output. Without either option the
active connection is used.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

from app.api.client import ApiClient
from app.api.concurrency import MAX_CONCURRENCY
from app.core.connections import Connection, ConnectionConfigError, ConnectionStore, url_problem
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.redaction import SECRETS
from app.core.session import Session
from app.core.tokens import TokenStore, TokenStoreError

TOKEN_ENV = "DNC_DESK_TOKEN"  # noqa: S105 (the variable's name, not a token)

# Exit statuses shared by these commands.
EXIT_OK = 0
EXIT_FAILED = 1  # the service or the disk failed while running
EXIT_USAGE = 2  # the command cannot run as given (no connection, no token, bad option)
EXIT_FINDINGS = 3  # ran, and found what the user must act on


class ConnectionProblem(Exception):
    """The command cannot connect as asked; ``str()`` is one sentence for stderr."""


def concurrency_arg(text: str) -> int:
    """``--concurrency N``: requests in flight, within what the bulk helper allows."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 1 <= value <= MAX_CONCURRENCY:
        raise argparse.ArgumentTypeError(f"must be between 1 and {MAX_CONCURRENCY}")
    return value


def add_connection_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("connection")
    group.add_argument(
        "--connection", metavar="NAME", help="a saved connection (token from the keyring)"
    )
    group.add_argument(
        "--base-url",
        metavar="URL",
        help=f"the service's base URL; the token is read from the {TOKEN_ENV} variable",
    )


@dataclass
class CliContext:
    """What a command needs: paths, the session (API client + journal)."""

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
    name = getattr(args, "connection", None)
    base_url = getattr(args, "base_url", None)
    if name and base_url:
        raise ConnectionProblem("Give either --connection or --base-url, not both.")
    if base_url:
        problem = url_problem(base_url)
        if problem is not None:
            raise ConnectionProblem(problem)
        token = os.environ.get(TOKEN_ENV, "").strip()
        if not token:
            raise ConnectionProblem(
                f"--base-url needs the API token in the {TOKEN_ENV} environment variable."
            )
        SECRETS.add(token)
        connection = Connection(name="command line", base_url=base_url)
    else:
        try:
            store = ConnectionStore(paths.connections_file)
        except ConnectionConfigError as exc:
            raise ConnectionProblem(str(exc)) from None
        found = store.get(name) if name else store.active
        if found is None:
            raise ConnectionProblem(
                f"There is no connection named {name!r}; add it in the app or use --base-url."
                if name
                else "No connection is chosen; pass --connection NAME or --base-url URL."
            )
        connection = found
        try:
            stored = TokenStore().get(connection.name)
        except TokenStoreError as exc:
            raise ConnectionProblem(str(exc)) from None
        if not stored:
            raise ConnectionProblem(
                f"No token is stored for the connection {connection.name!r}; "
                "enter it in the app first."
            )
        token = stored
    api = ApiClient(connection.base_url, token)
    paths.ensure()
    journal = ChangeJournal(paths.journal_db)
    return CliContext(paths, Session(connection, api, journal))
