"""Refusals that named what was wrong but not the next step (black-box bb2 F4, F11): each is
said in full, through ``main()`` against the sandbox over loopback HTTP."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_an_import_with_no_service_says_base_url_needs_the_token(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "two.csv"
    source.write_text("phone\n+12025550143\n+12025550144\n")
    status, _out, err = _run(capsys, "import", str(source), "--into", "dnc", "--scope", "global")
    assert status == 2
    assert err == (
        "Name the service with --connection NAME or --base-url URL (with the "
        "token in the environment variable DNC_DESK_TOKEN).\n"
    )


def test_a_taken_port_is_said_with_the_next_step(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, _out, err = _run(capsys, "sandbox", "--port", str(port), "--token", "x" * 24)
    assert status == 1
    assert err == (
        f"dnc-desk sandbox: port {port} is in use: give another --port, or --port 0 for a free "
        "one.\n"
    )


def test_https_to_a_service_speaking_http_says_to_check_the_url(
    sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    https = sandbox.base_url.replace("http://", "https://")
    out = tmp_path / "dnc.xlsx"
    status, _out, err = _run(capsys, "export", "dnc", "--out", str(out), "--base-url", https)
    assert status == 1, err
    assert f"the address {https} does not answer https; check the URL (the one the " in err
    assert "service gives may start with http://) (" in err
    assert "cannot be reached" not in err
    assert not out.exists()


def test_a_diff_of_two_lists_says_to_compare_copies_of_one(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = []
    for kind in ("sms-opt-out", "dnc"):
        status, out, err = _run(capsys, "snapshot", kind, "--json", "--base-url", sandbox.base_url)
        assert status == 0, err
        paths.append(json.loads(out)["path"])
    status, _out, err = _run(capsys, "diff", *paths)
    assert status == 2
    assert err.startswith("dnc-desk diff: These are copies of different lists: ")
    assert err.endswith("; compare two copies of one list.\n")
