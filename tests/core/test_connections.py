"""Connections: URL checks, normalisation, persistence without tokens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.core.connections import (
    Connection,
    ConnectionConfigError,
    ConnectionStore,
    connection_url_problem,
    normalize_base_url,
    url_problem,
    url_warning,
)
from app.core.paths import AppPaths
from app.core.tokens import TokenStore

TOKEN = "tok-conn-77aa88bb99cc"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("https://api.example.com", "https://api.example.com"),
        ("  https://api.example.com/  ", "https://api.example.com"),
        ("https://api.example.com/v1", "https://api.example.com"),
        ("https://api.example.com/v1/", "https://api.example.com"),
        ("https://api.example.com/dialer/v1//", "https://api.example.com/dialer"),
        ("https://api.example.com/v10", "https://api.example.com/v10"),
    ],
)
def test_normalize_base_url(raw: str, expected: str) -> None:
    assert normalize_base_url(raw) == expected
    assert Connection(name=" Prod ", base_url=raw) == Connection("Prod", expected)


@pytest.mark.parametrize(
    "url",
    [
        "https://api.example.com",
        "https://10.0.0.5:8443/api",
        "http://localhost:8000",
        "http://app.localhost:8000",
        "http://127.0.0.1:5000",
        "http://127.1.2.3",
        "http://[::1]:8080",
    ],
)
def test_no_warning_for_https_and_loopback(url: str) -> None:
    assert url_warning(url) is None
    assert url_problem(url) is None


@pytest.mark.parametrize(
    "url", ["http://api.example.com", "http://10.0.0.5:8000", "HTTP://[2001:db8::1]/v1"]
)
def test_plain_http_to_other_hosts_is_refused(url: str) -> None:
    warning = url_warning(url)
    assert warning is not None and "unencrypted" in warning and warning.endswith(".")
    # The URL's form is fine; a connection to it is refused (black-box R5 #9: it was only a
    # warning, and the token went to the other machine in cleartext).
    assert url_problem(url) is None
    assert connection_url_problem(url) == warning


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("", "Enter the service's base URL"),
        ("ftp://api.example.com", "ftp scheme is not supported"),
        ("file:///etc/passwd", "file scheme"),
        ("api.example.com", "scheme is not supported"),
        ("https://user:secret@api.example.com", "must not contain a user name or password"),
        ("https://api.example.com?token=abc", "query string"),
        ("https://api.example.com#x", "fragment"),
        ("https://", "no host name"),
        ("https://api.example.com:99999", "not a valid URL"),
        ("https://api.exa mple.com", "contains a space"),
    ],
)
def test_unusable_urls_are_explained(url: str, fragment: str) -> None:
    problem = url_problem(url)
    assert problem is not None and fragment in problem
    assert url_warning(url) == problem


def test_store_persists_and_reloads(tmp_path: Path) -> None:
    path = tmp_path / "config" / "connections.json"
    store = ConnectionStore(path)
    assert store.list() == [] and store.active_name is None
    store.save(Connection("Staging", "https://staging.example.com/v1/"))
    store.save(Connection("Production", "https://api.example.com"))
    store.set_active("Production")

    again = ConnectionStore(path)
    assert [c.name for c in again.list()] == ["Production", "Staging"]
    assert again.get("Staging") == Connection("Staging", "https://staging.example.com")
    assert again.active_name == "Production"
    assert again.active == Connection("Production", "https://api.example.com")
    # No temp files left behind by the atomic writes.
    assert sorted(p.name for p in path.parent.iterdir()) == ["connections.json"]


def test_save_replaces_by_name(tmp_path: Path) -> None:
    store = ConnectionStore(tmp_path / "c.json")
    store.save(Connection("Production", "https://old.example.com"))
    store.save(Connection("Production", "https://new.example.com"))
    assert store.list() == [Connection("Production", "https://new.example.com")]


def test_rename_and_delete_follow_the_active_connection(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    store = ConnectionStore(path)
    store.save(Connection("Prod", "https://api.example.com"))
    store.save(Connection("Staging", "https://staging.example.com"))
    store.set_active("Prod")
    store.rename("Prod", "Production")
    assert store.active_name == "Production"
    assert store.get("Prod") is None
    with pytest.raises(ConnectionConfigError, match="already exists"):
        store.rename("Production", "Staging")
    with pytest.raises(ConnectionConfigError, match="no connection named"):
        store.rename("Nope", "Other")
    store.delete("Production")
    store.delete("Production")
    assert store.active_name is None
    assert ConnectionStore(path).list() == [Connection("Staging", "https://staging.example.com")]
    with pytest.raises(ConnectionConfigError):
        store.set_active("Production")
    store.set_active(None)


def test_refuses_unusable_connections(tmp_path: Path) -> None:
    store = ConnectionStore(tmp_path / "c.json")
    with pytest.raises(ConnectionConfigError, match="name"):
        store.save(Connection("  ", "https://api.example.com"))
    with pytest.raises(ConnectionConfigError, match="user name or password"):
        store.save(Connection("Prod", f"https://x:{TOKEN}@api.example.com"))
    assert not (tmp_path / "c.json").exists()


def test_damaged_file_is_explained(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConnectionConfigError, match="damaged"):
        ConnectionStore(path)
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(ConnectionConfigError, match="expected format"):
        ConnectionStore(path)


def test_file_ignores_unknown_and_invalid_entries(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(
        json.dumps(
            {
                "active": "Gone",
                "connections": [
                    {"name": "Prod", "base_url": "https://api.example.com", "extra": 1},
                    {"name": 3},
                    "junk",
                ],
            }
        ),
        encoding="utf-8",
    )
    store = ConnectionStore(path)
    assert store.list() == [Connection("Prod", "https://api.example.com")]
    assert store.active_name is None


def test_token_never_reaches_the_connections_file(tmp_path: Path) -> None:
    paths = AppPaths(config_dir=tmp_path / "config", data_dir=tmp_path / "data")
    paths.ensure()
    store = ConnectionStore(paths.connections_file)
    tokens = TokenStore()
    store.save(Connection("Production", "https://api.example.com"))
    tokens.set("Production", TOKEN)
    store.set_active("Production")
    store.rename("Production", "Prod")
    tokens.rename("Production", "Prod")
    assert tokens.get("Prod") == TOKEN
    for file in tmp_path.rglob("*"):
        if file.is_file():
            assert TOKEN.encode() not in file.read_bytes()
    assert "token" not in paths.connections_file.read_text(encoding="utf-8").lower()
    tokens.delete("Prod")


def test_app_paths_default_honours_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "dat"))
    paths = AppPaths.default()
    assert paths.config_dir == tmp_path / "cfg"
    assert paths.connections_file == tmp_path / "cfg" / "connections.json"
    assert paths.journal_db == tmp_path / "dat" / "journal.sqlite3"
    assert paths.sandbox_db == tmp_path / "dat" / "sandbox.sqlite3"
    for directory in (paths.config_dir, paths.jobs_dir, paths.reports_dir, paths.snapshots_dir):
        assert directory.is_dir()


def test_app_paths_default_uses_platformdirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import platformdirs

    monkeypatch.delenv("DNC_DESK_CONFIG_DIR", raising=False)
    monkeypatch.delenv("DNC_DESK_DATA_DIR", raising=False)
    seen: list[str] = []

    def fake(kind: str) -> object:
        def resolve(app: str) -> str:
            seen.append(app)
            return str(tmp_path / kind)

        return resolve

    monkeypatch.setattr(platformdirs, "user_config_dir", fake("config"))
    monkeypatch.setattr(platformdirs, "user_data_dir", fake("data"))
    paths = AppPaths.default()
    assert seen == ["dnc-desk", "dnc-desk"]
    assert paths.config_dir == tmp_path / "config"
    assert paths.data_dir == tmp_path / "data"
    assert paths.jobs_dir.is_dir()
