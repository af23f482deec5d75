"""TokenStore against a real Secret Service (gnome-keyring over D-Bus).

Skipped unless DNC_DESK_SECRET_SERVICE=1; .ci/run runs it inside dbus-run-session with an
unlocked gnome-keyring daemon.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from keyring.backends import SecretService

from app.core.tokens import StorageKind, TokenStore, TokenStoreError

pytestmark = [
    pytest.mark.secret_service,
    pytest.mark.skipif(
        os.environ.get("DNC_DESK_SECRET_SERVICE") != "1",
        reason="needs a running Secret Service; set DNC_DESK_SECRET_SERVICE=1 (see .ci/run)",
    ),
]

NAMES = ("dnc-desk-ci-production", "dnc-desk-ci-renamed")


def _real_store() -> TokenStore:
    # Built explicitly: the suite swaps keyring's default for an in-memory backend, and
    # keyring's own detection could pick a backend class defined by another test module.
    backend = SecretService.Keyring()
    assert backend.priority >= 1, "no Secret Service is reachable on this D-Bus session"
    return TokenStore(backend)


@pytest.fixture
def store() -> Iterator[TokenStore]:
    token_store = _real_store()
    yield token_store
    for name in NAMES:
        with contextlib.suppress(TokenStoreError):
            token_store.delete(name)


def test_round_trip_through_the_secret_service(store: TokenStore) -> None:
    production, renamed = NAMES
    token = "tok-ci-" + secrets.token_hex(12)
    assert store.recommended
    assert "SecretService" in store.backend_name
    assert store.set(production, token) is StorageKind.KEYRING

    # A second store has nothing in memory, so what it reads came from the keyring.
    fresh = _real_store()
    assert fresh.get(production) == token
    assert fresh.storage_of(production) is StorageKind.KEYRING

    replacement = "tok-ci-" + secrets.token_hex(12)
    assert store.set(production, replacement) is StorageKind.KEYRING
    assert fresh.get(production) == replacement

    store.rename(production, renamed)
    assert fresh.get(production) is None
    assert fresh.get(renamed) == replacement

    store.delete(renamed)
    assert fresh.get(renamed) is None
    assert fresh.storage_of(renamed) is None


_LOCKED_PROBE = """
import sys
from keyring.backends import SecretService
from app.core.tokens import TokenStore, TokenStoreError

token = sys.argv[1]
try:
    TokenStore(SecretService.Keyring()).set("dnc-desk-ci-locked", token)
except TokenStoreError as exc:
    print("MESSAGE:", exc)
    print("DETAIL:", exc.detail)
else:
    print("STORED")
"""


def test_locked_keyring_gives_a_clear_message(tmp_path: Path) -> None:
    """A daemon started without --unlock has no usable login collection: creating one needs
    a prompt, which fails without a display ("Prompt dismissed"), just like a user
    dismissing the unlock dialog."""
    for tool in ("dbus-run-session", "gnome-keyring-daemon"):
        assert shutil.which(tool), f"{tool} is required for the secret_service tests"
    run_dir = tmp_path / "run"
    run_dir.mkdir(mode=0o700)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY")
    }
    env.update(
        HOME=str(tmp_path),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_RUNTIME_DIR=str(run_dir),
        PYTHONPATH=str(Path(__file__).resolve().parents[2]),
    )
    token = "tok-locked-" + secrets.token_hex(8)
    script = tmp_path / "probe.py"
    script.write_text(_LOCKED_PROBE, encoding="utf-8")
    result = subprocess.run(
        [
            "dbus-run-session",
            "--",
            "sh",
            "-c",
            'gnome-keyring-daemon --start --components=secrets >/dev/null; exec "$@"',
            "sh",
            sys.executable,
            str(script),
            token,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "MESSAGE: The system keyring is locked or refused access" in result.stdout, (
        result.stdout + result.stderr
    )
    assert "Prompt dismissed" in result.stdout
    assert "memory for this session" in result.stdout
    assert token not in result.stdout + result.stderr
