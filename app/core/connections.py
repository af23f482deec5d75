"""Named connections to the dialer's API (name + base URL), persisted without tokens.

Tokens belong to ``app.core.tokens`` (the OS keyring); this file never sees one, which is why
``Connection`` has no token field at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlsplit

from app.api.client import cleartext_refusal, plain_http_host

FORMAT_VERSION = 1


class ConnectionConfigError(ValueError):
    """A connection cannot be saved or loaded as given; the message is one sentence for the
    user. (Not named ConnectionError, which would shadow the builtin socket error.)"""


def normalize_base_url(base_url: str) -> str:
    """Strip spaces, trailing slashes and a trailing "/v1" (the client appends it)."""
    url = base_url.strip()
    while True:
        before = url
        url = url.rstrip("/")
        if url.lower().endswith("/v1"):
            url = url[:-3]
        if url == before:
            return url


@dataclass(frozen=True)
class Connection:
    """One API endpoint the user works with, such as "Production" or "Staging"."""

    name: str
    base_url: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", self.name.strip())
        object.__setattr__(self, "base_url", normalize_base_url(self.base_url))


# Where the app's dialog takes the token; the command line names its variable instead.
TOKEN_FIELD: Final = "in the token field"  # noqa: S105 (where it goes, not a token)


def url_problem(base_url: str, token_place: str = TOKEN_FIELD) -> str | None:
    """A sentence when the URL cannot be used at all, else None. ``token_place`` says where
    the token goes instead of the URL (the dialog's field, the command line's variable)."""
    url = normalize_base_url(base_url)
    if not url:
        return "Enter the service's base URL, for example https://api.example.com."
    if any(ch.isspace() for ch in url):
        return "The base URL contains a space; check it for typing or pasting mistakes."
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "The base URL is not a valid URL (check the host name and port)."
    del port
    if parts.scheme.lower() not in ("http", "https"):
        return (
            "The base URL must start with https:// (or http:// for a test service on this "
            "computer); "
            f"{parts.scheme or 'a missing'} scheme is not supported."
        )
    if not parts.hostname:
        return "The base URL has no host name; enter it like https://api.example.com."
    if parts.username is not None or parts.password is not None:
        # A user:password@ part would be stored in the connections file in plain text and
        # sent on every request; the token belongs in the keyring instead.
        return (
            "The base URL must not contain a user name or password; enter the token "
            f"{token_place} instead."
        )
    if parts.query or parts.fragment:
        return "The base URL must not contain a query string (?…) or fragment (#…)."
    return None


def token_in_url(base_url: str, token: str, token_place: str = TOKEN_FIELD) -> str | None:
    """A sentence when ``base_url`` holds ``token`` (as typed or percent-encoded: a gateway
    keyed by a path such as https://gw.example.com/TOKEN), else None.

    A connection's URL is written where a token never may be: the connections file, job
    files, reports, the change journal, resume commands (black-box N2 #1: a report's Summary
    held a token given in the URL's path). So such a URL is refused, not redacted here and
    there.
    """
    secret = token.strip()
    if not secret:
        return None
    url = normalize_base_url(base_url)
    if secret in url or secret in unquote(url):
        return (
            "The base URL holds the API token: a URL is written into reports, job files and "
            "the change journal, where a token must never be, so give the service's base URL "
            f"without it, and the token only {token_place}."
        )
    return None


def cleartext_problem(base_url: str) -> str | None:
    """A sentence when ``base_url`` is plain http:// to a host that is not this machine (not
    loopback: 127.0.0.0/8, ::1, localhost), else None.

    The token and the phone numbers would cross the network unencrypted, which a compliance
    tool must not do (black-box R5 #9: an import to http://192.0.2.2 sent the token in
    cleartext). There is no opt-in: a test service on another machine is reached over https://
    or through a tunnel to this computer (``ssh -L``), so nothing can be switched to cleartext
    by mistake. The same rule guards :class:`~app.api.client.ApiClient` itself, for a
    connection saved before it.
    """
    host = plain_http_host(normalize_base_url(base_url))
    if host is None:
        return None
    text = cleartext_refusal(host)
    return f"{text[0].upper()}{text[1:]}."


def connection_url_problem(base_url: str, token_place: str = TOKEN_FIELD) -> str | None:
    """The sentence refusing ``base_url`` for a connection (unusable, or cleartext to another
    machine), else None: the one check the app's dialog and the command line both make."""
    return url_problem(base_url, token_place) or cleartext_problem(base_url)


def url_warning(base_url: str) -> str | None:
    """One sentence the user should read before using this URL, or None if it is fine: why it
    is refused (:func:`connection_url_problem`), as it is typed."""
    return connection_url_problem(base_url)


class ConnectionStore:
    """The user's connections and which one is active, kept as JSON in the config dir.

    Every change is written at once with a temp file + ``os.replace`` so a crash never
    leaves a half-written file. Tokens are never passed in, so they can never be written.
    """

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.RLock()
        self._connections: dict[str, Connection] = {}
        self._active: str | None = None
        self._load()

    @property
    def path(self) -> Path:
        return self._path

    def _load(self) -> None:
        try:
            raw = self._path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ConnectionConfigError(
                f"The connections file {self._path} is damaged ({exc.msg} at line "
                f"{exc.lineno}); fix or delete it and add the connections again."
            ) from None
        if not isinstance(data, dict):
            raise ConnectionConfigError(
                f"The connections file {self._path} is not in the expected format; "
                "fix or delete it and add the connections again."
            )
        for item in data.get("connections", []):
            if isinstance(item, dict):
                name, url = item.get("name"), item.get("base_url")
                if isinstance(name, str) and isinstance(url, str) and name.strip():
                    conn = Connection(name=name, base_url=url)
                    self._connections[conn.name] = conn
        active = data.get("active")
        self._active = active if isinstance(active, str) and active in self._connections else None

    def _write(self) -> None:
        data: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "active": self._active,
            "connections": [
                {"name": c.name, "base_url": c.base_url} for c in self._connections.values()
            ],
        }
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        self._path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".connections-", suffix=".tmp", dir=self._path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self._path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def list(self) -> list[Connection]:
        with self._lock:
            return sorted(self._connections.values(), key=lambda c: c.name.casefold())

    def get(self, name: str) -> Connection | None:
        with self._lock:
            return self._connections.get(name.strip())

    def save(self, connection: Connection) -> None:
        """Add the connection, or replace the one with the same name."""
        if not connection.name:
            raise ConnectionConfigError("Give the connection a name, for example Production.")
        problem = connection_url_problem(connection.base_url)
        if problem is not None:
            raise ConnectionConfigError(problem)
        with self._lock:
            self._connections[connection.name] = connection
            self._write()

    def rename(self, old: str, new: str) -> None:
        """Rename a connection; the caller moves its keyring token (keyed by name) too."""
        old, new = old.strip(), new.strip()
        with self._lock:
            conn = self._connections.get(old)
            if conn is None:
                raise ConnectionConfigError(f"There is no connection named {old!r}.")
            if not new:
                raise ConnectionConfigError("Give the connection a name, for example Production.")
            if new != old and new in self._connections:
                raise ConnectionConfigError(f"A connection named {new!r} already exists.")
            renamed = Connection(name=new, base_url=conn.base_url)
            # Rebuild to keep insertion order stable for the file.
            self._connections = {
                (new if k == old else k): (renamed if k == old else v)
                for k, v in self._connections.items()
            }
            if self._active == old:
                self._active = new
            self._write()

    def delete(self, name: str) -> None:
        name = name.strip()
        with self._lock:
            if self._connections.pop(name, None) is None:
                return
            if self._active == name:
                self._active = None
            self._write()

    @property
    def active_name(self) -> str | None:
        with self._lock:
            return self._active

    @property
    def active(self) -> Connection | None:
        with self._lock:
            return self._connections.get(self._active) if self._active else None

    def set_active(self, name: str | None) -> None:
        with self._lock:
            if name is not None:
                name = name.strip()
                if name not in self._connections:
                    raise ConnectionConfigError(f"There is no connection named {name!r}.")
            self._active = name
            self._write()
