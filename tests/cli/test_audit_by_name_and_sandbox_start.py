"""Black-box bb8: ``audit campaign`` took only an id, which no command lists, while export and
health take ``campaign:NAME``; ``sandbox --help`` stated no exit status; and the sandbox said
only its address, not which token to use nor which port ``--port 0`` picked."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _audit(capsys: pytest.CaptureFixture[str], sandbox: Any, given: str) -> tuple[int, str, str]:
    status = main(["audit", "campaign", given, "--base-url", sandbox.base_url])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_campaign_is_audited_by_its_name(
    sandbox: Any, api: ApiClient, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = sandbox.seed_campaign("Harvest Leads")
    api.insert_lead(api.insert_list("Harvest list", campaign), "2025550177")
    status, out, err = _audit(capsys, sandbox, "  harvest LEADS ")
    assert status == 0, err
    assert out.startswith(f"Campaign Harvest Leads (id {campaign}): clean."), out


def test_an_unknown_name_or_id_is_refused_naming_the_campaigns(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = sandbox.seed_campaign("Harvest Leads")
    for given in ("Nonesuch", "99999"):
        status, _out, err = _audit(capsys, sandbox, given)
        assert status == 2, err
        assert f"no campaign with the id or name {given!r}" in err
        # Named by id and name (all of them, or those close to the name), to pick one.
        assert f"{campaign} ('Harvest Leads')" in err, err
        assert "dnc-desk audit campaign ID|NAME" in err


def test_a_name_two_campaigns_share_is_refused_naming_both(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    first = sandbox.seed_campaign("Twin Leads")
    second = sandbox.seed_campaign("twin leads")
    # Neither spelled as typed: an exact spelling would pick its campaign, as campaign:NAME does.
    status, _out, err = _audit(capsys, sandbox, "TWIN LEADS")
    assert status == 2, err
    assert f"{first} ('Twin Leads')" in err and f"{second} ('twin leads')" in err
    assert "give the id of the one you mean" in err


def test_sandbox_help_states_its_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["sandbox", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Exit status: " in text
    epilog = text.split("Exit status: ", 1)[1]
    assert {int(n) for n in re.findall(r"(?:^|; )(\d+) ", epilog)} == {0, 1, 2, 129}


def _start(*options: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    variables = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "app", "sandbox", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=variables,
    )


def _start_lines(process: subprocess.Popen[str]) -> list[str]:
    """The first three lines; a sandbox printing fewer is stopped after 30 s, so the test
    fails on the lines missing rather than waiting on them for ever."""
    assert process.stdout is not None
    watchdog = threading.Timer(30.0, process.terminate)
    watchdog.start()
    try:
        return [process.stdout.readline() for _ in range(3)]
    finally:
        watchdog.cancel()


def _stopped(process: subprocess.Popen[str]) -> int:
    process.send_signal(signal.SIGTERM)
    return process.wait(timeout=20)


def test_sandbox_says_its_test_token_and_the_port_picked() -> None:
    process = _start("--port", "0")
    try:
        serving, token, port = _start_lines(process)
        url = re.fullmatch(r"DNC Desk sandbox serving http://127\.0\.0\.1:(\d+)\n", serving)
        assert url, serving
        assert token == (
            "token: the test token 'sandbox-token' (export DNC_DESK_TOKEN=sandbox-token)\n"
        )
        assert port == f"port: {url.group(1)}, a free one picked for --port 0\n"
        # The port taken: 1, and the sentence says what to do.
        taken = subprocess.run(
            [sys.executable, "-m", "app", "sandbox", "--port", url.group(1)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=60,
        )
        assert taken.returncode == 1, taken.stderr
        assert "is in use: give another --port" in taken.stderr
    finally:
        assert _stopped(process) == 0


def test_sandbox_names_the_variable_of_a_real_token_never_its_value() -> None:
    secret = "a-real-token-7f3k9q"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        free = sock.getsockname()[1]
    process = _start("--port", str(free), env={"DNC_DESK_SANDBOX_TOKEN": secret})
    try:
        lines = _start_lines(process)
        assert lines[1] == "token: from DNC_DESK_SANDBOX_TOKEN (not shown)\n"
        assert lines[2] == f"port: {free} (--port 0 picks a free one)\n"
    finally:
        assert _stopped(process) == 0
    assert process.stdout is not None and process.stderr is not None
    assert secret not in "".join(lines) + process.stdout.read() + process.stderr.read()


def test_a_bad_sandbox_option_is_2() -> None:
    bad = subprocess.run(
        [sys.executable, "-m", "app", "sandbox", "--error-rate", "2"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert bad.returncode == 2
