"""Black-box s31: the docs say never a token on the command line, yet ``dnc-desk sandbox`` took
its read-only and limited tokens only as options, which any local user can read in the process
list; only the full token had a variable (DNC_DESK_SANDBOX_TOKEN). Each role now has one, and
``--help`` says the token options are for a local test sandbox only. The command is run here as
a user runs it, each token given in its variable alone, then used over HTTP for what its role
may and may not do."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.cli.main import main
from app.sandbox.auth import FORBIDDEN

ROOT = Path(__file__).resolve().parents[2]
FULL = "sbx-variable-full-token"
READ_ONLY = "sbx-variable-read-token"
LIMITED = "sbx-variable-limited-token"
LIMITED_OPTION = "sbx-option-limited-token"
VARIABLES = {
    "DNC_DESK_SANDBOX_TOKEN": FULL,
    "DNC_DESK_SANDBOX_READ_ONLY_TOKEN": READ_ONLY,
    "DNC_DESK_SANDBOX_LIMITED_TOKEN": LIMITED,
}


class Sandbox:
    """A ``dnc-desk sandbox`` process on a free loopback port, asked over HTTP."""

    def __init__(self, process: subprocess.Popen[str], url: str) -> None:
        self.process = process
        self.http = httpx.Client(base_url=url + "/v1", timeout=10.0)

    def post(self, path: str, token: str, **params: str) -> httpx.Response:
        return self.http.post(path, data={**params, "auth_token": token})

    def ok(self, path: str, token: str, **params: str) -> dict[str, object]:
        response = self.post(path, token, **params)
        assert response.status_code == 200, (path, response.text)
        body: dict[str, object] = response.json()
        return body

    def refused(self, path: str, token: str, **params: str) -> None:
        response = self.post(path, token, **params)
        assert response.status_code == 403, (path, response.text)
        assert response.json() == {"success": False, "error": FORBIDDEN}


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    env = {**os.environ, **VARIABLES, "PYTHONPATH": str(ROOT)}
    command = [
        *(sys.executable, "-m", "app", "sandbox", "--port", "0", "--exit-with-parent"),
        *("--limited-token", LIMITED_OPTION),
    ]
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.fullmatch(r"DNC Desk sandbox serving (http://127\.0\.0\.1:\d+)\n", line)
        assert match, (line, process.stderr.read() if process.poll() is not None else "")
        sandbox = Sandbox(process, match.group(1))
        yield sandbox
        sandbox.http.close()
        assert process.stdin is not None
        process.stdin.close()  # --exit-with-parent: the sandbox stops
        assert process.wait(timeout=10) == 0
        assert process.stderr is not None
        out, err = process.stdout.read(), process.stderr.read()
        for token in VARIABLES.values():
            assert token not in out + err
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_read_only_token_from_its_variable_may_only_read(sandbox: Sandbox) -> None:
    sandbox.ok("/dnc/search", READ_ONLY, limit="1")
    sandbox.ok("/campaigns/search", READ_ONLY)
    sandbox.refused("/dnc/insert", READ_ONLY, phone_number="3035550142", phone_code="1")
    sandbox.refused("/campaigns/status", READ_ONLY, campaign_id="1", status="true")


def test_limited_token_from_its_variable_writes_but_cannot_manage_campaigns(
    sandbox: Sandbox,
) -> None:
    sandbox.ok("/dnc/insert", LIMITED, phone_number="3035550143", phone_code="1", campaign_id="0")
    (entry,) = sandbox.ok("/dnc/search", LIMITED, phone_number="3035550143")["data"]["entries"]  # type: ignore[index]
    assert entry["campaign_id"] == "0"
    campaign = sandbox.ok("/campaigns/search", LIMITED)["data"][0]  # type: ignore[index]
    sandbox.refused("/campaigns/status", LIMITED, campaign_id=campaign["id"], status="true")
    # A variable wins over its option, as --help says.
    assert sandbox.post("/dnc/search", LIMITED_OPTION).status_code == 401


def test_full_token_from_its_variable_manages_campaigns(sandbox: Sandbox) -> None:
    campaign = sandbox.ok("/campaigns/search", FULL)["data"][0]  # type: ignore[index]
    status = "true" if campaign["status"] == "Y" else "false"  # unchanged: other tests read it
    sandbox.ok("/campaigns/status", FULL, campaign_id=campaign["id"], status=status)
    # The variable's token replaces the demo token rather than joining it.
    response = sandbox.post("/campaigns/search", "sandbox-token")
    assert response.status_code == 401


def test_help_says_token_options_are_for_a_local_test_sandbox(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["sandbox", "--help"])
    assert exited.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "for a local test sandbox only" in text
    assert "process list" in text
    for variable in VARIABLES:
        assert variable in text
