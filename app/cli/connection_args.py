"""``--connection NAME`` / ``--base-url URL`` for the CLI commands, and the session they open.

A token is never taken from the command line (it would sit in shell history and ``ps``): it
comes from the keyring for a saved connection, or from the environment variable
``DNC_DESK_TOKEN`` with ``--base-url``. Every token loaded is registered for redaction.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from app.api.client import ApiClient
from app.api.errors import ApiError, AuthError, RateLimitedError, ServerError, TransportError
from app.api.transport import DEFAULT_RETRY, NO_RETRY, Params, Transport
from app.core.connections import (
    Connection,
    ConnectionStore,
    normalize_base_url,
    token_in_url,
    url_problem,
)
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.redaction import SECRETS, install_log_redaction
from app.core.session import Session
from app.core.tokens import TokenStore, TokenStoreError

TOKEN_ENV = "DNC_DESK_TOKEN"  # noqa: S105 (the variable's name, not a token)
# Exit statuses shared by the commands.
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
# Stopped by a signal: 128 + its number, as a shell reports a process the signal ended.
EXIT_SIGNAL_BASE = 128
EXIT_INTERRUPTED = EXIT_SIGNAL_BASE + signal.SIGINT  # 130: Ctrl+C

# How long the CLI's client waits for the answer to one request (module-level so tests can
# shorten it; the client's own default).
REQUEST_TIMEOUT = 30.0
# The checks before a job or an export starts (the token, the campaign list, the list's
# purposes, a lead status) say on stderr when the service has answered nothing for
# CHECK_WAITING_AFTER seconds, and again every CHECK_WAITING_EVERY seconds, as a running job
# does. A check the service took and left unanswered is sent at most CHECK_TRIES times in a
# row, and the checks give up once it has been silent for CHECK_GIVE_UP seconds (a running
# job's three minutes): a check changes nothing, so nothing is lost by giving up (re-test R2
# #1: a hung service kept an import silent for four minutes, 8 campaign-list requests each
# waiting its whole timeout).
CHECK_WAITING_AFTER = 10.0
CHECK_WAITING_EVERY = 30.0
CHECK_TRIES = 3
CHECK_GIVE_UP = 180.0

# Whether the command runs with --json: a refusal is then also one JSON object on stdout, so a
# script's parser never gets an empty string. Set by app.cli.main for the command's run.
_JSON_REFUSALS: ContextVar[bool] = ContextVar("json_refusals", default=False)


class CliError(Exception):
    """A reason the command cannot run; ``str()`` is the one sentence printed on stderr."""

    def __init__(self, message: str, status: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class StopSignal:
    """Which signal stopped a command (a job paused, an export cancelled), for its exit status.

    The first one counts: a SIGTERM after Ctrl+C does not change what stopped the command.
    """

    signum: int | None = None

    def record(self, signum: int) -> None:
        if self.signum is None:
            self.signum = signum

    def exit_status(self) -> int:
        """128 + the signal's number: 130 for SIGINT (Ctrl+C), 143 for SIGTERM; 130 when no
        signal was recorded (the command was stopped as Ctrl+C stops it)."""
        if self.signum is None:
            return EXIT_INTERRUPTED
        return EXIT_SIGNAL_BASE + self.signum


def interrupt_status(exc: KeyboardInterrupt) -> int:
    """The exit status of a command ``exc`` stopped: 143 for SIGTERM (``app.cli.main`` raises
    it as a KeyboardInterrupt carrying ``exit_status``), 130 for Ctrl+C."""
    return int(getattr(exc, "exit_status", EXIT_INTERRUPTED))


def add_connection_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("connection")
    where = group.add_mutually_exclusive_group()
    where.add_argument(
        "--connection", metavar="NAME", help="a saved connection (its token comes from the keyring)"
    )
    where.add_argument(
        "--base-url",
        metavar="URL",
        help=f"the service's base URL; the token is read from the environment variable {TOKEN_ENV}",
    )


def resolve_connection(args: argparse.Namespace, paths: AppPaths) -> tuple[Connection, str]:
    """The connection the arguments name and its token; raises CliError in one sentence."""
    install_log_redaction()
    if getattr(args, "connection", None):
        name = str(args.connection)
        connection = ConnectionStore(paths.connections_file).get(name)
        if connection is None:
            raise CliError(f"There is no saved connection named {name!r}.", EXIT_USAGE)
        tokens = TokenStore()
        try:
            token = tokens.get(name)
        except TokenStoreError as exc:
            raise CliError(str(exc)) from exc
        if not token and not tokens.recommended:
            # Saving one in the app cannot help: without a keyring it is kept only while the
            # app runs.
            raise CliError(
                f"This system has no keyring the app keeps tokens in ({tokens.backend_name}), "
                f"so no saved token can be read for the connection {name!r}: run with "
                f"--base-url {connection.base_url} and the token in the environment variable "
                f"{TOKEN_ENV} instead."
            )
        if not token:
            raise CliError(
                f"No token is stored for the connection {name!r}; save one in the app first."
            )
        SECRETS.add(token)
        held = token_in_url(connection.base_url, token, "in the app's token field")
        if held is not None:
            raise CliError(f"The connection {name!r}: {held[0].lower()}{held[1:]}", EXIT_USAGE)
        return connection, token
    if getattr(args, "base_url", None):
        in_env = f"in the environment variable {TOKEN_ENV}"
        problem = url_problem(args.base_url, in_env)
        if problem is not None:
            raise CliError(problem, EXIT_USAGE)
        token = os.environ.get(TOKEN_ENV, "").strip()
        if not token:
            raise CliError(f"--base-url needs the token {in_env}.", EXIT_USAGE)
        SECRETS.add(token)
        held = token_in_url(args.base_url, token, in_env)
        if held is not None:
            raise CliError(held, EXIT_USAGE)
        return Connection(name=args.base_url, base_url=args.base_url), token
    raise CliError("Name the service with --connection NAME or --base-url URL.", EXIT_USAGE)


class NoAnswer(TransportError):
    """The checks before a start gave up: the service took the requests and answered none of
    them for ``waited`` seconds (``tries`` requests of ``endpoint``, each given ``timeout``)."""

    def __init__(self, endpoint: str, base_url: str, waited: float, tries: int, timeout: float):
        self.waited = waited
        self.tries = tries
        self.request_timeout = timeout
        super().__init__(
            endpoint,
            f"no answer from {base_url} within {waited:.0f} s",
            timeout=True,
            sent=True,
        )


class _Silence:
    """Since when the service has answered nothing, and the request waited on (as a running
    job's in-flight gate tracks it), for the checks' notices and their giving up."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answered_at: float | None = None
        self._asking: tuple[float, str] | None = None
        self._unanswered: tuple[float, str] | None = None  # oldest unanswered since an answer

    def asked(self, url: str) -> None:
        with self._lock:
            self._asking = (time.monotonic(), url)

    def ended(self, answered: bool) -> None:
        with self._lock:
            if answered:
                self._answered_at = time.monotonic()
                self._unanswered = None
            elif self._unanswered is None:
                self._unanswered = self._asking
            self._asking = None

    def quiet(self) -> tuple[float, str] | None:
        """(Seconds of silence, the URL waited on), or None while nothing is left unanswered."""
        with self._lock:
            oldest = min(
                (w for w in (self._asking, self._unanswered) if w is not None), default=None
            )
            answered = self._answered_at
        if oldest is None:
            return None
        since = oldest[0] if answered is None else max(oldest[0], answered)
        return time.monotonic() - since, oldest[1]


class CliClient(ApiClient):
    """The CLI's client. Between :meth:`begin_checks` and :meth:`end_checks` (the checks
    before a job or an export starts), its reads are sent with retries of its own: a read
    the service takes and leaves unanswered is not sent again and again for the client's
    full retries, each waiting the whole timeout, and a notice on stderr says the service is
    silent (see CHECK_WAITING_AFTER)."""

    def __init__(
        self, base_url: str, token: str, *, requests_per_minute: int | None = None
    ) -> None:
        super().__init__(
            base_url, token, timeout=REQUEST_TIMEOUT, requests_per_minute=requests_per_minute
        )
        # One attempt per call: the retries are _read's.
        self._checks = Transport(
            base_url,
            token,
            timeout=REQUEST_TIMEOUT,
            retry=NO_RETRY,
            requests_per_minute=requests_per_minute,
            max_connections=1,
        )
        # --rate-limit counts every request of the command, the checks' too (black-box R3 #5:
        # with a pacer of their own, the campaign check made 121 requests in 60 s at 120).
        self._checks.pacer = self._t.pacer
        self._rng = random.Random()
        self._silence: _Silence | None = None
        self._silent_tries = 0
        self._gave_up: NoAnswer | None = None

    def begin_checks(self) -> None:
        if self._silence is not None:
            return
        self._silence = _Silence()
        self._silent_tries = 0
        self._gave_up = None
        silence = self._silence
        threading.Thread(
            target=self._watch, args=(silence,), name="dnc-checks-watch", daemon=True
        ).start()

    def end_checks(self) -> None:
        self._silence = None  # its watch ends with it

    def close(self) -> None:
        self.end_checks()
        self._checks.close()
        super().close()

    def _watch(self, silence: _Silence) -> None:
        said = -CHECK_WAITING_EVERY
        poll = min(0.5, CHECK_WAITING_AFTER / 4)
        while self._silence is silence:
            time.sleep(poll)
            quiet = silence.quiet()
            if quiet is None or quiet[0] < CHECK_WAITING_AFTER:
                said = -CHECK_WAITING_EVERY  # a new silence is said at once
                continue
            now = time.monotonic()
            if now - said < CHECK_WAITING_EVERY or self._silence is not silence:
                continue
            said = now
            seconds, url = quiet
            since = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds)
            warn(
                f"No answer from the service for {seconds:.0f} s (since {since:%H:%M:%S} UTC; "
                f"waiting on {url}); still checking it, before anything is sent."
            )

    def _read(
        self, path: str, params: Params | None = None, cancel: threading.Event | None = None
    ) -> Any:
        silence = self._silence
        if silence is None:
            return super()._read(path, params, cancel)
        if self._gave_up is not None:
            raise self._gave_up
        attempt = 0
        while True:
            attempt += 1
            silence.asked(self._checks.api_url + path)
            try:
                body = self._checks.call(path, params, idempotent=True, cancel=cancel)[0]
            except (TransportError, ServerError, RateLimitedError) as exc:
                # No connection (refused, unknown host) is "cannot be reached", retried as the
                # client retries it; a request taken and left unanswered counts to giving up.
                unanswered = isinstance(exc, TransportError) and exc.sent
                silence.ended(not isinstance(exc, TransportError))
                if unanswered:
                    self._silent_tries += 1
                    quiet = silence.quiet()
                    waited = quiet[0] if quiet is not None else 0.0
                    if self._silent_tries >= CHECK_TRIES or waited >= CHECK_GIVE_UP:
                        self._gave_up = NoAnswer(
                            path, self.base_url, waited, self._silent_tries, REQUEST_TIMEOUT
                        )
                        raise self._gave_up from None
                else:
                    if not isinstance(exc, TransportError):
                        self._silent_tries = 0
                    if attempt >= DEFAULT_RETRY.attempts:
                        raise
                delay = DEFAULT_RETRY.delay(attempt, self._rng)
                if isinstance(exc, RateLimitedError) and exc.retry_after is not None:
                    delay = max(delay, min(exc.retry_after, DEFAULT_RETRY.max_delay * 4))
                time.sleep(delay)
            except ApiError:
                silence.ended(True)  # the service's own refusal: an answer
                raise
            else:
                silence.ended(True)
                self._silent_tries = 0
                return body


@contextmanager
def service_checks(api: ApiClient) -> Iterator[None]:
    """The checks before a start (see :class:`CliClient`), for a block."""
    if not isinstance(api, CliClient):
        yield
        return
    api.begin_checks()
    try:
        yield
    finally:
        api.end_checks()


def begin_checks(api: ApiClient) -> None:
    """The checks before a start begin (see :class:`CliClient`): until :func:`end_checks`."""
    if isinstance(api, CliClient):
        api.begin_checks()


def end_checks(api: ApiClient) -> None:
    if isinstance(api, CliClient):
        api.end_checks()


def open_client(
    args: argparse.Namespace, paths: AppPaths, *, requests_per_minute: int | None = None
) -> tuple[Connection, ApiClient]:
    """The connection the arguments name and a client for it, without the change journal:
    for a command that writes nothing to the service (an export), which a journal that
    cannot be used must not stop."""
    connection, token = resolve_connection(args, paths)
    api = CliClient(connection.base_url, token, requests_per_minute=requests_per_minute)
    return connection, api


def open_session(
    args: argparse.Namespace, paths: AppPaths, *, requests_per_minute: int | None = None
) -> Session:
    """The connection, its client and the change journal, which is checked as it is opened
    (a damaged or emptied one raises :class:`~app.core.journal.JournalError`)."""
    connection, api = open_client(args, paths, requests_per_minute=requests_per_minute)
    try:
        journal = ChangeJournal(paths.journal_db)
    except BaseException:
        api.close()
        raise
    return Session(connection, api, journal)


def named_by_url(name: str, base_url: str) -> bool:
    """Whether a connection named ``name`` (a job's, a session's) was given with
    ``--base-url``: it is then named after the URL as typed, which may end in ``/v1`` or
    ``/`` where ``base_url`` (normalized) does not."""
    return not name or normalize_base_url(name) == normalize_base_url(base_url)


def token_source(connection: Connection) -> str:
    """Where the token came from, as a sentence names it: ``the token in DNC_DESK_TOKEN``
    (``--base-url``: the connection is named after its URL) or ``the token of the connection
    'Production'`` (``--connection``, from the keyring)."""
    if named_by_url(connection.name, connection.base_url):
        return f"the token in {TOKEN_ENV}"
    return f"the token of the connection {connection.name!r}"


def describe_api_error(exc: ApiError, connection: Connection, action: str = "") -> str:
    """One sentence for a failure before any row was sent. ``action`` says what did not
    happen because of it ("Import of two.csv not started"), and leads the sentence."""
    url = connection.base_url
    if isinstance(exc, AuthError):
        why = exc.message or exc.meaning or "not authorised"
        sentence = f"{token_source(connection)} was refused by the service at {url} ({why})."
    elif isinstance(exc, NoAnswer):
        tries = "once" if exc.tries == 1 else f"{exc.tries} times"
        sentence = (
            f"the service at {url} took the connection but did not answer within "
            f"{exc.waited:.0f} s ({exc.endpoint} asked {tries}, each waiting up to "
            f"{exc.request_timeout:g} s for its answer)."
        )
    elif isinstance(exc, TransportError) and exc.sent:
        # The connection was made (a service that hangs, a stopped process): it can be reached.
        sentence = f"the service at {url} took the connection but gave no answer ({exc.message})."
    elif isinstance(exc, TransportError):
        sentence = f"the service at {url} cannot be reached ({exc.message})."
    else:
        described = exc.describe().rstrip()
        if not described.endswith((".", "!", "?")):
            described += "."
        sentence = f"the service at {url} answered with an error: {described}"
    if action:
        return f"{action}: {sentence}"
    return sentence[0].upper() + sentence[1:]


@contextmanager
def json_refusals(enabled: bool) -> Iterator[None]:
    """Within this block :func:`fail` also prints its sentence as JSON when ``enabled``."""
    token = _JSON_REFUSALS.set(enabled)
    try:
        yield
    finally:
        _JSON_REFUSALS.reset(token)


def fail(message: str, status: int = EXIT_FAILED, *, prefix: str = "") -> int:
    """Refuse: ``prefix + message`` on stderr and, under ``--json``, ``{"error": message,
    "exit_status": status}`` on stdout. Returns ``status``."""
    print(SECRETS.redact(prefix + message), file=sys.stderr)
    if _JSON_REFUSALS.get():
        emit_json({"error": message, "exit_status": status})
    return status


def warn(message: str) -> None:
    """A sentence on stderr only (the JSON, if any, was printed already)."""
    print(SECRETS.redact(message), file=sys.stderr)


def emit_json(data: dict[str, Any]) -> None:
    import json

    print(SECRETS.redact(json.dumps(data, ensure_ascii=False)))
