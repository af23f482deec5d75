"""Keep secrets (API tokens) out of logs and out of anything we write to disk.

Every token the app handles is registered in the process-wide ``SECRETS`` registry; log records
and journal fields are passed through ``SECRETS.redact`` so a token that slips into a message,
an ``%r`` of a request body or an exception text is replaced by ``***`` before it is stored.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote, quote_plus

REPLACEMENT = "***"
# Shorter strings would match all over ordinary text and make logs unreadable while
# protecting nothing (no real token is that short).
MIN_SECRET_LENGTH = 4


class SecretRegistry:
    """A thread-safe set of secret strings that ``redact`` replaces with ``***``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._secrets: set[str] = set()
        # Swapped as a whole under the lock and read without it: a reader sees either the
        # old or the new pattern, both of which are complete.
        self._pattern: re.Pattern[str] | None = None

    def __repr__(self) -> str:
        # Never show the secrets themselves, only how many there are.
        return f"<SecretRegistry with {len(self._secrets)} secret(s)>"

    def add(self, secret: str) -> None:
        if len(secret) < MIN_SECRET_LENGTH:
            return
        with self._lock:
            self._secrets.add(secret)
            self._rebuild()

    def discard(self, secret: str) -> None:
        with self._lock:
            self._secrets.discard(secret)
            self._rebuild()

    def clear(self) -> None:
        with self._lock:
            self._secrets.clear()
            self._rebuild()

    def __len__(self) -> int:
        return len(self._secrets)

    def _rebuild(self) -> None:
        # The encoded forms matter because httpx logs form bodies and URLs, where a token
        # with "/", "+" or "=" (base64) appears percent-encoded rather than verbatim.
        variants: set[str] = set()
        for secret in self._secrets:
            variants.update((secret, quote(secret, safe=""), quote_plus(secret, safe="")))
        if not variants:
            self._pattern = None
            return
        # Longest first so a secret that contains another is replaced whole. In any case of
        # its letters: a service quoting the token upper-cased gives it back to anyone who
        # lowers it (black-box B23 F2).
        ordered = sorted(variants, key=len, reverse=True)
        self._pattern = re.compile("|".join(re.escape(v) for v in ordered), re.IGNORECASE)

    def redact(self, text: str) -> str:
        pattern = self._pattern
        if pattern is None or not text:
            return text
        return pattern.sub(REPLACEMENT, text)


SECRETS = SecretRegistry()


class RedactingFilter(logging.Filter):
    """Rewrites a record so its final message, exception and stack text hold no secret
    (see ``redact_record``)."""

    def __init__(self, registry: SecretRegistry | None = None) -> None:
        super().__init__()
        self._registry = registry if registry is not None else SECRETS

    def filter(self, record: logging.LogRecord) -> bool:
        redact_record(record, self._registry)
        return True


class _RedactedArg:
    """Stands in for a log argument whose text contains a secret; renders the redacted
    ``str`` and ``repr`` so ``%s`` and ``%r`` both work."""

    __slots__ = ("_repr", "_str")

    def __init__(self, text: str, representation: str) -> None:
        self._str = text
        self._repr = representation

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return self._repr


def _redact_arg(value: Any, reg: SecretRegistry) -> Any:
    if isinstance(value, str):
        return reg.redact(value)
    if value is None or isinstance(value, int | float):
        return value
    text, representation = str(value), repr(value)
    safe_text, safe_repr = reg.redact(text), reg.redact(representation)
    if safe_text == text and safe_repr == representation:
        return value
    return _RedactedArg(safe_text, safe_repr)


def _redact_args(args: Any, reg: SecretRegistry) -> Any:
    if isinstance(args, tuple):
        return tuple(_redact_arg(a, reg) for a in args)
    if isinstance(args, Mapping):
        return {k: _redact_arg(v, reg) for k, v in args.items()}
    return args


def redact_record(record: logging.LogRecord, registry: SecretRegistry | None = None) -> None:
    """Remove registered secrets from a record's message, exception and stack text.

    The args are redacted one by one and kept as args where that suffices, because some
    formatters read them structurally (uvicorn's access formatter unpacks five of them);
    only when that is not enough (a secret in the format string, or one assembled by
    formatting) is the message replaced by its redacted, formatted text.
    """
    reg = registry if registry is not None else SECRETS
    if not len(reg):
        return
    _redact_exception_text(record, reg)
    try:
        message = record.getMessage()
    except Exception:
        # A broken format string is the caller's bug; logging reports it later. Redact the
        # raw parts so that report does not leak.
        record.msg = reg.redact(str(record.msg)) + " " + reg.redact(repr(record.args))
        record.args = None
        return
    if reg.redact(message) == message:
        return
    if isinstance(record.msg, str) and reg.redact(record.msg) == record.msg and record.args:
        new_args = _redact_args(record.args, reg)
        try:
            candidate = record.msg % new_args
        except Exception:
            candidate = None
        if candidate is not None and reg.redact(candidate) == candidate:
            record.args = new_args
            return
    record.msg = reg.redact(message)
    record.args = None


def _redact_exception_text(record: logging.LogRecord, reg: SecretRegistry) -> None:
    if record.exc_info and not record.exc_text:
        # Formatter.format() reuses exc_text when set, so a redacted copy here is what
        # every handler prints.
        record.exc_text = logging.Formatter().formatException(record.exc_info)
    if record.exc_text:
        record.exc_text = reg.redact(record.exc_text)
    if record.stack_info:
        record.stack_info = reg.redact(record.stack_info)


# Loggers that see request and response bodies, headers and URLs.
NOISY_LOGGERS = ("httpx", "httpcore", "uvicorn")

_install_lock = threading.Lock()
_installed_factory: Callable[..., logging.LogRecord] | None = None


def _has_redacting_filter(filterer: logging.Filterer) -> bool:
    return any(isinstance(f, RedactingFilter) for f in filterer.filters)


def _attach(filterer: logging.Filterer) -> None:
    if not _has_redacting_filter(filterer):
        filterer.addFilter(RedactingFilter())


def install_log_redaction() -> None:
    """Make sure no registered secret reaches any log handler. Safe to call repeatedly.

    A filter on a logger does not apply to records logged on its child loggers
    ("httpcore.http11" propagates past a filter on "httpcore"), so three layers are used:
    a LogRecord factory wrapper redacts every record at creation, whatever logger or handler
    it later meets (including handlers added after this call); filters on the existing
    root-logger handlers and on the named loggers' handlers cover records built without the
    factory (``logging.makeLogRecord``, records from other processes); and filters on the
    named loggers themselves cover records logged directly on them.
    """
    global _installed_factory
    with _install_lock:
        current = logging.getLogRecordFactory()
        if current is not _installed_factory:
            previous = current

            def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
                record = previous(*args, **kwargs)
                redact_record(record)
                return record

            logging.setLogRecordFactory(factory)
            _installed_factory = factory

        for handler in logging.getLogger().handlers:
            _attach(handler)
        for name in NOISY_LOGGERS:
            logger = logging.getLogger(name)
            _attach(logger)
            for handler in logger.handlers:
                _attach(handler)
