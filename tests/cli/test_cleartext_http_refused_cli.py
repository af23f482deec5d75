"""Black-box R5 #9: ``dnc-desk import … --base-url http://192.0.2.2:18682`` (plain http to a host
that is not this machine) was accepted and the token crossed the network unencrypted. It is
refused now (exit 2, one sentence naming https://) before any connection is made, from
``--base-url`` and from a saved connection alike; plain http to this computer still works."""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN

SERVICE = "dnc-desk"


def _this_machine_on_the_network() -> str | None:
    """This computer's own non-loopback IPv4 address (what the tester's 192.0.2.2 was), or
    None without one. A UDP connect sends nothing; it only picks the outgoing interface."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


class Listener:
    """A TCP server on a non-loopback address that records every connection and the bytes
    sent on it, then closes it (so an old client fails fast instead of waiting)."""

    def __init__(self, address: str) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind((address, 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.url = f"http://{address}:{self.sock.getsockname()[1]}"
        self.received: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _peer = self.sock.accept()
            except OSError:
                continue
            self._take(conn)

    def _take(self, conn: socket.socket) -> None:
        conn.settimeout(2.0)
        data = b""
        try:
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
            data += conn.recv(65536) if b"\r\n\r\n" in data else b""
        except OSError:
            pass
        finally:
            conn.close()
        self.received.append(data)

    def close(self) -> list[bytes]:
        """Stop, then take any connection the kernel accepted meanwhile: every one made."""
        if self._stop.is_set():
            return self.received
        self._stop.set()
        self._thread.join()
        self.sock.setblocking(False)
        while True:
            try:
                conn, _peer = self.sock.accept()
            except OSError:
                break
            self._take(conn)
        self.sock.close()
        return self.received


@pytest.fixture
def listener() -> Any:
    address = _this_machine_on_the_network()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to listen on")
    server = Listener(address)
    yield server
    server.close()


@pytest.fixture
def connects(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Every outgoing TCP connection attempted (refused here, so none leaves)."""
    made: list[tuple[Any, ...]] = []

    def refuse(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        made.append(tuple(address))
        raise ConnectionRefusedError("refused by the test")

    monkeypatch.setattr(socket, "create_connection", refuse)
    return made


def _expected(host: str) -> str:
    return (
        f"Plain http:// to {host} would send the API token unencrypted across the network: "
        "use the service's https:// address (http:// is only for a test service on this "
        "computer: localhost, 127.0.0.1 or ::1)."
    )


def _sheet(tmp_path: Path) -> Path:
    sheet = tmp_path / "numbers.csv"
    sheet.write_text("Phone\n3035550101\n3035550102\n", encoding="utf-8")
    return sheet


def test_an_import_to_plain_http_on_another_machine_is_refused_and_nothing_reaches_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    listener: Listener,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    argv = ["import", str(_sheet(tmp_path)), "--into", "dnc", "--scope", "global"]
    code = main([*argv, "--base-url", listener.url])
    captured = capsys.readouterr()
    received = listener.close()
    host = listener.url.split("//")[1].split(":")[0]
    assert code == 2
    assert captured.err == _expected(host) + "\n"
    assert received == []  # no connection at all, so no token either
    assert TOKEN not in captured.out + captured.err
    assert not list((tmp_path / "data").rglob("*.dncjob"))


def test_the_json_refusal_is_the_same_sentence(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    connects: list[tuple[Any, ...]],
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    out = tmp_path / "e.xlsx"
    url = "http://192.0.2.77:18682/v1"
    code = main(["export", "dnc", "--out", str(out), "--base-url", url, "--json"])
    captured = capsys.readouterr()
    assert code == 2
    assert json.loads(captured.out)["error"] == _expected("192.0.2.77")
    assert connects == []
    assert not out.exists()


@pytest.mark.parametrize(
    "url",
    ["http://dialer.example.com", "HTTP://10.0.0.5:8000", "http://[2001:db8::1]:8080"],
)
def test_no_connection_is_attempted_to_any_other_host(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    connects: list[tuple[Any, ...]],
    url: str,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    argv = ["import", str(_sheet(tmp_path)), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", url]) == 2
    assert "would send the API token unencrypted" in capsys.readouterr().err
    assert connects == []


def test_a_connection_saved_with_plain_http_to_another_machine_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    memory_keyring: Any,
    connects: list[tuple[Any, ...]],
) -> None:
    # Saved by a version without the rule: written as that version wrote it.
    paths = AppPaths.default()
    paths.connections_file.parent.mkdir(parents=True, exist_ok=True)
    paths.connections_file.write_text(
        json.dumps(
            {
                "version": 1,
                "active": "Lab",
                "connections": [{"name": "Lab", "base_url": "http://192.0.2.9:18682"}],
            }
        ),
        encoding="utf-8",
    )
    memory_keyring.passwords[(SERVICE, "Lab")] = TOKEN
    out = tmp_path / "e.xlsx"
    code = main(["export", "dnc", "--out", str(out), "--connection", "Lab"])
    err = capsys.readouterr().err
    assert code == 2
    # Where to change it, too (black-box s31: it said only "use the service's https:// address").
    assert err == (
        "The connection 'Lab': plain http:// to 192.0.2.9 would send the API token unencrypted "
        "across the network: use the service's https:// address (http:// is only for a test "
        "service on this computer: localhost, 127.0.0.1 or ::1). Change its address to "
        "https:// in the window (File ▸ Connections…), or run with --base-url https://… and "
        "the token in the environment variable DNC_DESK_TOKEN.\n"
    )
    assert connects == []
    assert not out.exists()


def test_plain_http_to_this_computer_still_works(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    sandbox: Any,
) -> None:
    assert sandbox.base_url.startswith("http://127.0.0.1:")
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    out = tmp_path / "e.xlsx"
    assert main(["export", "dnc", "--out", str(out), "--base-url", sandbox.base_url]) == 0
    assert out.exists()
    argv = ["import", str(_sheet(tmp_path)), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    assert "would send the API token unencrypted" not in capsys.readouterr().err
