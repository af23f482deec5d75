"""``--connection NAME`` / ``--base-url URL`` for the CLI commands, and the session they open.

A token is never taken from the command line (it would sit in shell history and ``ps``): it
comes from the keyring for a saved connection, or from the environment variable
``DNC_DESK_TOKEN`` with ``--base-url``. Every token loaded is registered for redaction.

Also the argument helpers the commands share: the refusal of an option given empty or blank
(:func:`refuse_empty_options`), which the reading commands make before connecting.
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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

from app.api.client import ApiClient
from app.api.errors import ApiError, AuthError, RateLimitedError, TransportError
from app.api.transport import DEFAULT_RETRY, Params, Transport
from app.core.connections import (
    Connection,
    ConnectionStore,
    cleartext_problem,
    normalize_base_url,
    token_in_url,
    url_problem,
)
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.redaction import SECRETS, install_log_redaction
from app.core.session import Session
from app.core.sheet_scope import visible_text
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
# A service (or a proxy) closing connections unanswered answers at once, so a flaky one is
# tried longer than a silent one before the checks give up, with the client's growing waits
# between (black-box B25-4: 3 drops in a row, "asked 3 times in 1 s", refused a job the run
# itself would have ridden out at that fault rate).
CHECK_TRIES_CLOSED = 6
CHECK_GIVE_UP = 180.0
# The checks' retries: a running job's (its client's policy), so HTTP 429 is waited out by the
# job's rule (a Retry-After as asked, each of the policy's attempts; without one, holds
# growing to a minute, given up after two minutes of nothing but 429s; black-box W5 #1),
# except that a request taken and left unanswered is not sent again by the transport: those
# are counted by the checks (CHECK_TRIES). Module-level so tests can make its waits tiny.
CHECKS_RETRY = replace(DEFAULT_RETRY, resend_unanswered=False)

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
        help=(
            "the service's base URL (https://; http:// only for a test service on this "
            f"computer); the token is read from the environment variable {TOKEN_ENV}"
        ),
    )


# The scopes a list is read in, by export, snapshot and health alike (black-box R4 #5: a
# snapshot refused campaign:NAME and the bare purpose that export took).
SCOPE_HELP = "global, campaign:ID, campaign:NAME, purpose:TEXT or purpose (every purpose)"

# An option given empty, each (dest, option, what was not given, what to give, what leaving
# it out does): as import refuses its own (black-box R4 #2: an empty --purpose, --scope or
# --phone-code of an export exported the whole list, as an empty shell variable in a script
# does). The last is "" when leaving the option out is no choice either. The reading commands
# (export, snapshot, health, evidence, audit, diff) refuse theirs with refuse_empty_options.
EmptyOption = tuple[str, str, str, str, str]
CONNECTION_OPTIONS: tuple[EmptyOption, ...] = (
    ("connection", "--connection", "a name", "the name of a saved connection", ""),
    (
        "base_url",
        "--base-url",
        "a URL",
        f"the service's base URL (the token in the environment variable {TOKEN_ENV})",
        "",
    ),
)
SCOPE_OPTION: EmptyOption = ("scope", "--scope", "a scope", SCOPE_HELP, "to read the whole list")


def refuse_empty_options(args: argparse.Namespace, options: Sequence[EmptyOption]) -> None:
    """Refuse any of ``options`` given empty or blank (spaces or invisible characters only),
    before a connection is opened; an option left out is None, a list (an argument given more
    than once) is refused for any empty one."""
    for dest, option, noun, give, left_out in options:
        value = getattr(args, dest, None)
        values = value if isinstance(value, list) else [value]
        if any(v is not None and not visible_text(str(v)) for v in values):
            rest = f", or leave the option out {left_out}" if left_out else ""
            raise CliError(f"{option} was given without {noun}: give {give}{rest}.", EXIT_USAGE)


def no_connection_text(name: str, saved: Sequence[str]) -> str:
    """The refusal of ``--connection name`` naming none of the ``saved`` connections: which
    there are, and how to connect without one (black-box B30 F9: it said only that there was
    none, leaving a user with no saved connection nowhere to go)."""
    if saved:
        there = f"the saved ones are {', '.join(repr(x) for x in saved)}): give one of those"
    else:
        there = "none is saved on this computer): save it in the window"
    return (
        f"There is no saved connection named {name!r} ({there}, or run with --base-url URL "
        f"and the token in the environment variable {TOKEN_ENV} instead."
    )


# Where the window edits saved connections (its menu item, as app/ui/main_window.py names it).
CONNECTIONS_MENU = "File ▸ Connections…"


def no_keyring_text(name: str, base_url: str) -> str:
    """The refusal of a saved connection on a computer without a secure keyring. It names the
    kind of keyring missing, never the keyring library's backend class (black-box s31: "(fail
    Keyring)" told an officer nothing), and the one way that works without it."""
    return (
        "This computer has no secure keyring for the app to keep tokens in (such as the "
        "Windows Credential Manager, the macOS Keychain, or a Secret Service keyring like "
        f"GNOME Keyring or KWallet on Linux), so no saved token can be read for the connection "
        f"{name!r}: run with --base-url {base_url} and the token in the environment variable "
        f"{TOKEN_ENV} instead."
    )


def saved_cleartext_text(name: str, cleartext: str) -> str:
    """The refusal of a saved connection whose address is plain http:// to another machine,
    saying where to change it (black-box s31: it said "use the service's https:// address"
    and not where)."""
    reason = f"{cleartext[0].lower()}{cleartext[1:]}".rstrip(".")
    return (
        f"The connection {name!r}: {reason}. Change its address to https:// in the window "
        f"({CONNECTIONS_MENU}), or run with --base-url https://… and the token in the "
        f"environment variable {TOKEN_ENV}."
    )


def resolve_connection(args: argparse.Namespace, paths: AppPaths) -> tuple[Connection, str]:
    """The connection the arguments name and its token; raises CliError in one sentence."""
    install_log_redaction()
    if getattr(args, "connection", None):
        name = str(args.connection)
        store = ConnectionStore(paths.connections_file)
        connection = store.get(name)
        if connection is None:
            raise CliError(no_connection_text(name, [x.name for x in store.list()]), EXIT_USAGE)
        # Saved before the rule (black-box R5 #9): refused before its token is even read.
        cleartext = cleartext_problem(connection.base_url)
        if cleartext is not None:
            raise CliError(saved_cleartext_text(name, cleartext), EXIT_USAGE)
        tokens = TokenStore()
        try:
            token = tokens.get(name)
        except TokenStoreError as exc:
            raise CliError(str(exc)) from exc
        if not token and not tokens.recommended:
            # Saving one in the app cannot help: without a keyring it is kept only while the
            # app runs.
            raise CliError(no_keyring_text(name, connection.base_url))
        if not token:
            raise CliError(
                f"No token is stored for the connection {name!r}: save one in the window "
                f"({CONNECTIONS_MENU}), or run with --base-url {connection.base_url} and the "
                f"token in the environment variable {TOKEN_ENV} instead."
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
        # After the token-in-URL check, which says the worse of the two.
        cleartext = cleartext_problem(args.base_url)
        if cleartext is not None:
            raise CliError(cleartext, EXIT_USAGE)
        return Connection(name=args.base_url, base_url=args.base_url), token
    # --base-url alone is not enough: the token it needs is said here too (black-box bb2 F4).
    raise CliError(
        "Name the service with --connection NAME or --base-url URL "
        f"(with the token in the environment variable {TOKEN_ENV}).",
        EXIT_USAGE,
    )


class NoAnswer(TransportError):
    """The checks before a start gave up: the service took the requests and answered none of
    them for ``waited`` seconds (``tries`` requests of ``endpoint``, each given ``timeout``)."""

    def __init__(
        self,
        endpoint: str,
        base_url: str,
        waited: float,
        tries: int,
        timeout: float,
        timed_out: int | None = None,
    ):
        self.waited = waited
        self.tries = tries
        self.request_timeout = timeout
        # How many of the tries waited out their timeout (None: not counted, taken as all).
        self.timed_out = tries if timed_out is None else timed_out
        super().__init__(
            endpoint,
            f"no answer from {base_url} within {waited:.0f} s",
            timeout=True,
            sent=True,
        )


class RateLimitRefused(RateLimitedError):
    """The checks before a start gave up on the service's rate limit: it answered every request
    HTTP 429 for ``waited`` seconds (``refusals`` answers), as long as a running job waits
    (see :data:`CHECKS_RETRY`)."""

    def __init__(self, refused: RateLimitedError, waited: float, refusals: int) -> None:
        super().__init__(refused.endpoint, refused.message, retry_after=refused.retry_after)
        self.patience_spent = refused.patience_spent
        self.attempts = refused.attempts
        self.waited = waited
        self.refusals = refusals


class _Silence:
    """Since when the service has answered nothing, and the request waited on (as a running
    job's in-flight gate tracks it), and since when it has refused every request with HTTP
    429: for the checks' notices and their giving up. The checks' transport tells it of each
    attempt (its :class:`~app.api.transport.AttemptWatcher`), a retry's included."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answered_at: float | None = None
        self._asking: tuple[float, str] | None = None
        self._unanswered: tuple[float, str] | None = None  # oldest unanswered since an answer
        # The first 429 since an answer that was not one (when, and its URL), and how many.
        self._refused: tuple[float, str] | None = None
        self._refusals = 0
        # Requests taken and left unanswered since the last answer (counted to give up).
        self.unanswered = 0
        # Whether any request since the last answer reached the service: none did when every
        # connection was refused, which is not a silence (black-box B4 #D).
        self._reached = False
        # Of the requests left unanswered, those that waited out their timeout: none when the
        # service (or a proxy) closed every connection unanswered (black-box B9 #6).
        self.timed_out = 0

    def sent(self, url: str) -> None:
        with self._lock:
            self._asking = (time.monotonic(), url)

    def ended(self, error: ApiError | None) -> None:
        with self._lock:
            asking, self._asking = self._asking, None
            if isinstance(error, TransportError):
                # No answer; a connection never made (refused, unknown host) is "cannot be
                # reached", and only one taken and left unanswered counts to giving up.
                if self._unanswered is None:
                    self._unanswered = asking
                if error.sent:
                    self.unanswered += 1
                    self.timed_out += error.timeout
                    self._reached = True
                return
            self._answered_at = time.monotonic()
            self._unanswered = None
            self.unanswered = 0
            self.timed_out = 0
            self._reached = False
            if isinstance(error, RateLimitedError):
                self._refusals += 1
                if self._refused is None and asking is not None:
                    self._refused = asking
            else:
                self._refused = None
                self._refusals = 0

    def refusing(self) -> tuple[float, str, int] | None:
        """(Seconds since the first of a run of 429s, its URL, how many), or None while the
        service's last answer was not a 429."""
        with self._lock:
            if self._refused is None:
                return None
            return time.monotonic() - self._refused[0], self._refused[1], self._refusals

    def refused_only(self) -> bool:
        """Whether every request since the last answer ended with its connection refused (or
        its host unknown): the service cannot be reached, rather than leaving them unanswered."""
        with self._lock:
            return self._unanswered is not None and not self._reached

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
    before a job or an export starts), its reads go through a transport of their own
    (:data:`CHECKS_RETRY`): a read the service takes and leaves unanswered is not sent again
    and again for the client's full retries, each waiting the whole timeout, and a notice on
    stderr says the service is silent (see CHECK_WAITING_AFTER); HTTP 429 is waited out as a
    running job waits it out, a notice saying so, and the checks give up when a job would."""

    def __init__(
        self, base_url: str, token: str, *, requests_per_minute: int | None = None
    ) -> None:
        super().__init__(
            base_url, token, timeout=REQUEST_TIMEOUT, requests_per_minute=requests_per_minute
        )
        self._checks = Transport(
            base_url,
            token,
            timeout=REQUEST_TIMEOUT,
            retry=CHECKS_RETRY,
            requests_per_minute=requests_per_minute,
            max_connections=1,
        )
        # --rate-limit counts every request of the command, the checks' too (black-box R3 #5:
        # with a pacer of their own, the campaign check made 121 requests in 60 s at 120).
        self._checks.pacer = self._t.pacer
        self._rng = random.Random()
        self._silence: _Silence | None = None
        self._gave_up: NoAnswer | None = None

    def begin_checks(self) -> None:
        if self._silence is not None:
            return
        self._silence = _Silence()
        self._gave_up = None
        silence = self._silence
        self._checks.watcher = silence
        threading.Thread(
            target=self._watch, args=(silence,), name="dnc-checks-watch", daemon=True
        ).start()

    def end_checks(self) -> None:
        self._silence = None  # its watch ends with it
        self._checks.watcher = None

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
            refusing = silence.refusing()
            long_quiet = quiet is not None and quiet[0] >= CHECK_WAITING_AFTER
            long_refused = refusing is not None and refusing[0] >= CHECK_WAITING_AFTER
            if not (long_quiet or long_refused):
                said = -CHECK_WAITING_EVERY  # a new silence or run of 429s is said at once
                continue
            now = time.monotonic()
            if now - said < CHECK_WAITING_EVERY or self._silence is not silence:
                continue
            said = now
            if quiet is not None and long_quiet and silence.refused_only():
                seconds, url = quiet
                since = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds)
                warn(
                    f"The service cannot be reached: no connection to it could be made for "
                    f"{seconds:.0f} s (since {since:%H:%M:%S} UTC; trying {url}); still "
                    "checking it, before anything is sent."
                )
            elif quiet is not None and long_quiet:
                seconds, url = quiet
                since = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds)
                warn(
                    f"No answer from the service for {seconds:.0f} s (since {since:%H:%M:%S} "
                    f"UTC; waiting on {url}); still checking it, before anything is sent."
                )
            elif refusing is not None:
                seconds, url, refusals = refusing
                since = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds)
                times = "1 refusal" if refusals == 1 else f"{refusals} refusals"
                warn(
                    f"The service has refused every request for its rate limit (HTTP 429) for "
                    f"{seconds:.0f} s (since {since:%H:%M:%S} UTC; {times}, the first of "
                    f"{url}); waiting it out as a running job does, before anything is sent."
                )

    def _read(
        self, path: str, params: Params | None = None, cancel: threading.Event | None = None
    ) -> Any:
        silence = self._silence
        if silence is None:
            return super()._read(path, params, cancel)
        if self._gave_up is not None:
            raise self._gave_up
        # The transport retries as a job's client does (refused connections, 5xx, 429), all
        # but a request taken and left unanswered, which comes back here to be counted.
        attempt = 0
        while True:
            attempt += 1
            try:
                return self._checks.call(path, params, idempotent=True, cancel=cancel)[0]
            except RateLimitedError as exc:
                # Waited out by the job's rule already: as long as a job waits, no longer.
                refusing = silence.refusing()
                waited, refusals = (refusing[0], refusing[2]) if refusing else (0.0, 1)
                raise RateLimitRefused(exc, waited, refusals) from None
            except TransportError as exc:
                if not exc.sent:
                    raise  # cannot be reached: retried as the client retries it
                quiet = silence.quiet()
                waited = quiet[0] if quiet is not None else 0.0
                tries = CHECK_TRIES if silence.timed_out else CHECK_TRIES_CLOSED
                if silence.unanswered >= tries or waited >= CHECK_GIVE_UP:
                    self._gave_up = NoAnswer(
                        path,
                        self.base_url,
                        waited,
                        silence.unanswered,
                        REQUEST_TIMEOUT,
                        silence.timed_out,
                    )
                    raise self._gave_up from None
                if attempt >= max(self._checks.retry.attempts, tries):
                    raise  # silences between answers (5xx): as many tries as the client's
                time.sleep(self._checks.retry.delay(attempt, self._rng))


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
    paths.check_writable()  # before the token is read or anything is sent
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


def _answers_plain_http(url: str, detail: str) -> bool:
    """Whether an https URL met a service speaking plain http: TLS reads its reply as a
    record of an unknown version."""
    return url.lower().startswith("https://") and "wrong_version_number" in detail.lower()


def describe_api_error(exc: ApiError, connection: Connection, action: str = "") -> str:
    """One sentence for a failure before any row was sent. ``action`` says what did not
    happen because of it ("Import of two.csv not started"), and leads the sentence."""
    url = connection.base_url
    if isinstance(exc, AuthError):
        why = exc.message or exc.meaning or "not authorised"
        sentence = f"{token_source(connection)} was refused by the service at {url} ({why})."
    elif isinstance(exc, NoAnswer):
        tries = "once" if exc.tries == 1 else f"{exc.tries} times"
        if not exc.timed_out:
            # No request waited out its timeout: the service (or something before it) closed
            # the connections unanswered, as a crashing service or a proxy does; "did not
            # answer within 1 s … each waiting up to 30 s" read as a contradiction (black-box
            # B9 #6), and so did a total over the timeout (code review RV #4: closed at 12 s
            # each, "within 37 s … up to 30 s").
            sentence = (
                f"the service at {url} took the connection but closed it without an answer "
                f"({exc.endpoint} asked {tries} in {max(exc.waited, 1):.0f} s)."
            )
        else:
            sentence = (
                f"the service at {url} took the connection but did not answer within "
                f"{exc.waited:.0f} s ({exc.endpoint} asked {tries}, each waiting up to "
                f"{exc.request_timeout:g} s for its answer)."
            )
    elif isinstance(exc, RateLimitRefused):
        times = "once" if exc.refusals == 1 else f"{exc.refusals} times"
        if exc.retry_after is None:
            # The job's rule (CHECKS_RETRY): a job refused so long pauses for a resume.
            why = "with no Retry-After saying how long to wait), as long as a job waits"
        else:
            why = f"the last asking to wait {exc.retry_after:g} s by its Retry-After)"
        sentence = (
            f"the service at {url} refused every request for its rate limit (HTTP 429) for "
            f"{exc.waited:.0f} s ({exc.endpoint} refused {times}, {why}; try again later, "
            "when its limit lets requests through."
        )
    elif isinstance(exc, TransportError) and exc.sent:
        # The connection was made (a service that hangs, a stopped process): it can be reached.
        sentence = f"the service at {url} took the connection but gave no answer ({exc.message})."
    elif isinstance(exc, TransportError) and _answers_plain_http(url, exc.message):
        # TLS's own words ("WRONG_VERSION_NUMBER") do not say what to change (black-box bb2 F11).
        sentence = (
            f"the address {url} does not answer https; check the URL (the one the service "
            f"gives may start with http://) ({exc.message})."
        )
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
