"""TokenStore over keyring: recommended backends, memory fallback, errors without tokens."""

from __future__ import annotations

import traceback
from typing import Any

import keyring
import keyring.backend
import keyring.errors
import pytest
from keyring.backends import chainer, fail

from app.core.redaction import SECRETS
from app.core.tokens import StorageKind, TokenStore, TokenStoreError, is_recommended

TOKEN = "tok-store-a1b2c3d4e5f6"


class DictKeyring(keyring.backend.KeyringBackend):
    """A recommended in-memory keyring (priority 1) that records every call."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}
        self.calls: list[str] = []

    def get_password(self, service: str, username: str) -> str | None:
        self.calls.append("get")
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.calls.append("set")
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.calls.append("delete")
        if (service, username) not in self.store:
            raise keyring.errors.PasswordDeleteError("Password not found")
        del self.store[(service, username)]


class PlaintextKeyring(DictKeyring):
    """Looks like keyrings.alt's PlaintextKeyring, but claims a high priority."""

    priority = 5  # type: ignore[assignment]


class AltFileKeyring(DictKeyring):
    """Any backend from the keyrings.alt package, whatever its name."""

    __module__ = "keyrings.alt.Windows"
    priority = 5  # type: ignore[assignment]


class LowPriorityKeyring(DictKeyring):
    priority = 0.5  # type: ignore[assignment]


class RaisingKeyring(DictKeyring):
    """Raises the given exception from every operation."""

    def __init__(self, exc: Exception, *, on: tuple[str, ...] = ("get", "set", "delete")) -> None:
        super().__init__()
        self.exc = exc
        self.on = on

    def get_password(self, service: str, username: str) -> str | None:
        if "get" in self.on:
            raise self.exc
        return super().get_password(service, username)

    def set_password(self, service: str, username: str, password: str) -> None:
        if "set" in self.on:
            raise self.exc
        super().set_password(service, username, password)

    def delete_password(self, service: str, username: str) -> None:
        if "delete" in self.on:
            raise self.exc
        super().delete_password(service, username)


def _chainer(*children: keyring.backend.KeyringBackend) -> keyring.backend.KeyringBackend:
    cls: Any = type("FixedChainer", (chainer.ChainerBackend,), {"backends": list(children)})
    backend: keyring.backend.KeyringBackend = cls()
    return backend


@pytest.fixture(autouse=True)
def _forget_registered_token() -> Any:
    yield
    SECRETS.discard(TOKEN)


def _assert_no_token(exc: BaseException) -> None:
    text = "".join(traceback.format_exception(exc))
    assert TOKEN not in text
    assert TOKEN not in str(exc) and TOKEN not in repr(exc)
    assert TOKEN not in getattr(exc, "detail", "")


def test_recommended_backend_stores_in_keyring() -> None:
    backend = DictKeyring()
    store = TokenStore(backend)
    assert store.recommended
    assert store.set("Production", f"  {TOKEN}\n") is StorageKind.KEYRING
    assert backend.store == {("dnc-desk", "Production"): TOKEN}
    assert store.get("Production") == TOKEN
    assert store.storage_of("Production") is StorageKind.KEYRING
    assert store.get("Staging") is None
    assert store.storage_of("Staging") is None
    store.delete("Production")
    store.delete("Production")  # forgetting twice is fine
    assert backend.store == {}
    assert store.get("Production") is None
    assert TOKEN not in repr(store)


def test_default_backend_is_the_configured_keyring() -> None:
    store = TokenStore()
    assert store.backend_name == keyring.get_keyring().name
    assert store.set("Production", TOKEN) is StorageKind.KEYRING
    assert keyring.get_password("dnc-desk", "Production") == TOKEN
    store.delete("Production")


def test_stored_token_is_registered_for_redaction() -> None:
    store = TokenStore(DictKeyring())
    store.set("Production", TOKEN)
    assert SECRETS.redact(f"Bearer {TOKEN}") == "Bearer ***"


def test_fail_backend_keeps_token_in_memory() -> None:
    store = TokenStore(fail.Keyring())
    assert not store.recommended
    assert store.set("Production", TOKEN) is StorageKind.MEMORY
    assert store.get("Production") == TOKEN
    assert store.storage_of("Production") is StorageKind.MEMORY
    assert TOKEN not in repr(store)
    store.delete("Production")
    assert store.get("Production") is None
    assert store.storage_of("Production") is None


@pytest.mark.parametrize("backend_type", [PlaintextKeyring, AltFileKeyring, LowPriorityKeyring])
def test_plaintext_and_low_priority_backends_are_refused(
    backend_type: type[DictKeyring],
) -> None:
    backend = backend_type()
    store = TokenStore(backend)
    assert not store.recommended
    assert store.set("Production", TOKEN) is StorageKind.MEMORY
    assert backend.store == {}
    assert store.get("Production") == TOKEN
    # A non-recommended backend is never even read: a token some other tool left in a
    # plaintext file must not be picked up either.
    assert backend.calls == []


def test_chainer_is_judged_by_where_it_writes() -> None:
    good, plain = DictKeyring(), PlaintextKeyring()
    recommended_first = TokenStore(_chainer(good, plain))
    assert recommended_first.recommended
    assert recommended_first.set("Production", TOKEN) is StorageKind.KEYRING
    assert good.store and not plain.store
    assert "via" in recommended_first.backend_name

    plain_first = TokenStore(_chainer(PlaintextKeyring(), DictKeyring()))
    assert not plain_first.recommended
    assert not is_recommended(_chainer())


def test_locked_keyring_on_set_gives_a_clear_sentence_without_the_token() -> None:
    store = TokenStore(RaisingKeyring(keyring.errors.InitError("Prompt dismissed")))
    with pytest.raises(TokenStoreError) as info:
        store.set("Production", TOKEN)
    message = str(info.value)
    assert message.startswith("The system keyring is locked or refused access (Prompt dismissed)")
    assert "memory for this session" in message
    _assert_no_token(info.value)
    assert info.value.__cause__ is None and info.value.__suppress_context__
    # The caller's fallback after the user chooses "continue in memory".
    assert store.keep_in_memory("Production", TOKEN) is StorageKind.MEMORY
    assert store.get("Production") == TOKEN


def test_backend_error_text_containing_the_token_is_redacted() -> None:
    leaky = RaisingKeyring(keyring.errors.PasswordSetError(f"cannot store {TOKEN}"))
    with pytest.raises(TokenStoreError) as info:
        TokenStore(leaky).set("Production", TOKEN)
    assert "cannot store ***" in str(info.value)
    _assert_no_token(info.value)


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (keyring.errors.KeyringLocked("Failed to unlock the collection!"), "is locked"),
        (keyring.errors.NoKeyringError("No recommended backend"), "No usable system keyring"),
        (keyring.errors.KeyringError("D-Bus went away"), "Could not read the token"),
        (RuntimeError("org.freedesktop.DBus.Error.ServiceUnknown"), "unexpected error"),
    ],
)
def test_read_errors_become_token_store_errors(exc: Exception, expected: str) -> None:
    store = TokenStore(RaisingKeyring(exc, on=("get",)))
    with pytest.raises(TokenStoreError, match=expected) as info:
        store.get("Production")
    assert str(info.value).endswith(".")
    with pytest.raises(TokenStoreError):
        store.storage_of("Production")


def test_delete_error_is_reported() -> None:
    backend = RaisingKeyring(keyring.errors.PasswordDeleteError("access denied"), on=("delete",))
    store = TokenStore(backend)
    store.set("Production", TOKEN)
    with pytest.raises(TokenStoreError, match="Could not delete the token"):
        store.delete("Production")


@pytest.mark.parametrize("bad", ["", "   ", "abc\ndef", "abc\tdef"])
def test_unusable_tokens_are_refused(bad: str) -> None:
    backend = DictKeyring()
    with pytest.raises(TokenStoreError):
        TokenStore(backend).set("Production", bad)
    assert backend.store == {}


def test_rename_moves_the_token() -> None:
    backend = DictKeyring()
    store = TokenStore(backend)
    store.set("Prod", TOKEN)
    store.rename("Prod", "Production")
    assert backend.store == {("dnc-desk", "Production"): TOKEN}

    memory = TokenStore(fail.Keyring())
    memory.set("Prod", TOKEN)
    memory.rename("Prod", "Production")
    assert memory.get("Prod") is None
    assert memory.storage_of("Production") is StorageKind.MEMORY


def test_is_recommended_matches_keyring_for_ordinary_backends() -> None:
    assert is_recommended(DictKeyring())
    assert not is_recommended(fail.Keyring())
    assert not is_recommended(PlaintextKeyring())
    assert keyring.core.recommended(PlaintextKeyring())  # keyring alone would accept it


def test_what_is_found_instead_of_a_secure_keyring_is_said_in_words() -> None:
    """keyring's null backend is named "fail Keyring": the user is told none was found; an
    untrusted backend is named, with why it is not used (bb2 F8)."""
    assert TokenStore(fail.Keyring()).keyring_found == "none was found"
    plain = TokenStore(PlaintextKeyring())
    assert plain.keyring_found.startswith("only ")
    assert "does not trust" in plain.keyring_found
