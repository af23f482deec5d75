"""API tokens in the OS keyring, or, when no trustworthy keyring exists, in memory only.

A token is stored under service ``dnc-desk`` with the connection name as the user name. It is
never written to a file by this module: a backend that would put it in a file (keyrings.alt's
plaintext and "encrypted" file backends) or that cannot store anything (the fail backend) makes
the store keep the token in this process's memory for the session, and the UI says so.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from enum import Enum
from typing import TypeVar

import keyring
import keyring.backend
import keyring.errors
from keyring.backends import chainer, fail

from app.core.redaction import SECRETS

_T = TypeVar("_T")

_CONTINUE_IN_MEMORY = "or continue with the token kept in memory for this session."

# Name fragments of backends that keep secrets in files or otherwise without OS protection.
# keyrings.alt is matched by package because all of its backends are documented as less
# secure alternatives; the words catch look-alikes from other packages.
_UNSAFE_NAME_WORDS = ("plaintext", "unencrypted", "insecure")
_UNSAFE_MODULE_PREFIXES = ("keyrings.alt",)
_UNSAFE_MODULE_LEAVES = ("file", "file_base")


class TokenStoreError(Exception):
    """A keyring operation failed. ``str()`` is one sentence for the user; it never contains
    the token (the keyring's own text is redacted and the original exception is not chained,
    because tracebacks of the cause could be logged or shown verbatim)."""

    def __init__(self, message: str, *, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class StorageKind(Enum):
    KEYRING = "keyring"
    MEMORY = "memory"


def _looks_unsafe(backend_type: type) -> bool:
    for cls in backend_type.__mro__:
        module = cls.__module__ or ""
        name = cls.__name__.lower()
        if module.startswith(_UNSAFE_MODULE_PREFIXES):
            return True
        if module.rpartition(".")[2] in _UNSAFE_MODULE_LEAVES:
            return True
        if any(word in name for word in _UNSAFE_NAME_WORDS):
            return True
    return False


def _priority(backend: keyring.backend.KeyringBackend) -> float:
    try:
        return float(backend.priority)
    except Exception:
        # Backends signal "not usable here" by raising from priority.
        return -1.0


def _chain_children(
    backend: keyring.backend.KeyringBackend,
) -> list[keyring.backend.KeyringBackend]:
    try:
        return list(getattr(backend, "backends", []))
    except Exception:
        return []


def is_recommended(backend: keyring.backend.KeyringBackend) -> bool:
    """Whether a token may be stored in this backend.

    ``keyring.core.recommended`` only checks ``priority >= 1``; we also refuse file-based
    and plaintext backends by class/module name, since some third-party ones claim a high
    priority. For the chainer, what counts is its first (highest-priority) child, because that
    is where ``set_password`` writes.
    """
    if isinstance(backend, fail.Keyring):
        return False
    if isinstance(backend, chainer.ChainerBackend):
        children = _chain_children(backend)
        return bool(children) and is_recommended(children[0])
    if _priority(backend) < 1:
        return False
    return not _looks_unsafe(type(backend))


def _effective_backend(
    backend: keyring.backend.KeyringBackend,
) -> keyring.backend.KeyringBackend:
    # The chainer reads from *every* child, including plaintext ones; talking to its write
    # target directly means we never pick up a token some other tool left in a file.
    if isinstance(backend, chainer.ChainerBackend):
        children = _chain_children(backend)
        if children:
            return children[0]
    return backend


def _backend_label(backend: keyring.backend.KeyringBackend) -> str:
    try:
        return str(backend.name)
    except Exception:
        return type(backend).__name__


class TokenStore:
    """Get, set and forget the token of each connection."""

    SERVICE = "dnc-desk"

    def __init__(self, backend: keyring.backend.KeyringBackend | None = None) -> None:
        self._configured = backend if backend is not None else keyring.get_keyring()
        self._backend = _effective_backend(self._configured)
        self._recommended = is_recommended(self._configured)
        self._memory: dict[str, str] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        with self._lock:
            names = sorted(self._memory)
        return f"<TokenStore backend={self.backend_name!r} in_memory={names!r}>"

    @property
    def backend_name(self) -> str:
        """A readable name of the keyring in use, such as "SecretService Keyring"."""
        if self._backend is not self._configured:
            return f"{_backend_label(self._backend)} (via {_backend_label(self._configured)})"
        return _backend_label(self._backend)

    @property
    def recommended(self) -> bool:
        return self._recommended

    @property
    def keyring_found(self) -> str:
        """What this computer offers in place of a secure keyring, in words a user can act on:
        keyring's null backend is called "fail Keyring", which reads as jargon (bb2 F8)."""
        if isinstance(self._backend, fail.Keyring):
            return "none was found"
        return f"only {self.backend_name} was found, which the app does not trust with tokens"

    def get(self, connection: str) -> str | None:
        with self._lock:
            token = self._memory.get(connection)
        if token is None and self._recommended:
            token = self._call(
                "read the token from", lambda: self._backend.get_password(self.SERVICE, connection)
            )
        if token is not None:
            SECRETS.add(token)
        return token

    def set(self, connection: str, token: str) -> StorageKind:
        """Store the token; KEYRING when it went to a recommended keyring, MEMORY when it is
        kept for this session only because no recommended keyring exists.

        Raises TokenStoreError when the keyring refuses (e.g. it is locked); the caller may
        then offer ``keep_in_memory``.
        """
        token = self._clean(connection, token)
        if not self._recommended:
            return self.keep_in_memory(connection, token)
        self._call(
            "store the token in",
            lambda: self._backend.set_password(self.SERVICE, connection, token),
        )
        with self._lock:
            self._memory.pop(connection, None)
        return StorageKind.KEYRING

    def keep_in_memory(self, connection: str, token: str) -> StorageKind:
        """Hold the token in this process only; it is gone when the app quits."""
        token = self._clean(connection, token)
        with self._lock:
            self._memory[connection] = token
        return StorageKind.MEMORY

    def delete(self, connection: str) -> None:
        """Forget the token everywhere we put it. Forgetting a missing token is not an error."""
        with self._lock:
            old = self._memory.pop(connection, None)
        if old is not None:
            SECRETS.discard(old)
        if not self._recommended:
            return
        stored = self._call(
            "read the token from", lambda: self._backend.get_password(self.SERVICE, connection)
        )
        if stored is None:
            return
        self._call(
            "delete the token from",
            lambda: self._backend.delete_password(self.SERVICE, connection),
        )
        # Other connections may share the same token, so redaction keeps it registered:
        # over-redacting a log line is harmless, leaking a token is not.

    def storage_of(self, connection: str) -> StorageKind | None:
        with self._lock:
            if connection in self._memory:
                return StorageKind.MEMORY
        if not self._recommended:
            return None
        stored = self._call(
            "read the token from", lambda: self._backend.get_password(self.SERVICE, connection)
        )
        return StorageKind.KEYRING if stored is not None else None

    def rename(self, old: str, new: str) -> None:
        """Move a token when its connection is renamed (the keyring is keyed by name)."""
        token = self.get(old)
        if token is None:
            return
        kind = self.storage_of(old)
        if kind is StorageKind.MEMORY:
            self.keep_in_memory(new, token)
        else:
            self.set(new, token)
        self.delete(old)

    @staticmethod
    def _clean(connection: str, token: str) -> str:
        if not connection.strip():
            raise TokenStoreError("The connection has no name, so its token cannot be stored.")
        # Pasted tokens often carry a trailing newline or space that would make every request
        # fail with "invalid token".
        cleaned = token.strip()
        if not cleaned:
            raise TokenStoreError("Enter the API token for this connection.")
        if any(ch in cleaned for ch in "\r\n\t"):
            raise TokenStoreError(
                "The token contains a line break or tab; paste it again as a single line."
            )
        SECRETS.add(cleaned)
        return cleaned

    def _call(self, action: str, operation: Callable[[], _T]) -> _T:
        try:
            return operation()
        except keyring.errors.KeyringError as exc:
            raise self._error(action, exc) from None
        except Exception as exc:
            # D-Bus and backend bugs surface as arbitrary exceptions; the UI must still get
            # a sentence, not a traceback.
            raise self._error(action, exc) from None

    def _error(self, action: str, exc: Exception) -> TokenStoreError:
        detail = SECRETS.redact(str(exc)).strip().rstrip(".") or type(exc).__name__
        where = f"the system keyring ({_backend_label(self._backend)})"
        if isinstance(exc, keyring.errors.NoKeyringError):
            message = (
                f"No usable system keyring is available ({detail}); the token can only be "
                "kept in memory for this session."
            )
        elif isinstance(exc, keyring.errors.InitError | keyring.errors.KeyringLocked):
            message = (
                f"The system keyring is locked or refused access ({detail}); unlock it and "
                f"try again, {_CONTINUE_IN_MEMORY}"
            )
        elif isinstance(exc, keyring.errors.KeyringError):
            message = f"Could not {action} {where} ({detail}); try again, {_CONTINUE_IN_MEMORY}"
        else:
            message = (
                f"Could not {action} {where} because of an unexpected error "
                f"({type(exc).__name__}: {detail}); try again, {_CONTINUE_IN_MEMORY}"
            )
        return TokenStoreError(message, detail=f"{type(exc).__name__}: {detail}")
