"""Ctrl+C stopping ``health``, ``evidence``, ``snapshot`` or ``diff`` says what was stopped and
that no file was kept, as an export's does (black-box B23 F8: each said only "Interrupted.").
Each is a real process, sent SIGINT while it waits for a slow service."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="needs Linux's /proc"
)


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler for ``signum`` (Linux's /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def has_socket(pid: int) -> bool:
    """Whether process ``pid`` has a socket open (Linux's /proc)."""
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.readlink(fd).startswith("socket:"):
                return True
        except OSError:  # closed meanwhile
            continue
    return False


def interrupted(argv: list[str]) -> tuple[int, str, str]:
    """Run ``dnc-desk ARGV --json``, Ctrl+C it once it is under way; its status, stdout and
    stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", *argv, "--json"],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    # SIGTERM is taken once the command runs (before, the interpreter is still starting), and
    # a socket is its first request to the service, which answers it 3 s later.
    while not (catches(proc.pid, signal.SIGTERM) and has_socket(proc.pid)):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def said_once(status: int, out: str, err: str, sentence: str) -> None:
    assert status == 130, (out, err)
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == sentence
    assert json.loads(out) == {"error": sentence, "exit_status": 130}


def test_health_stopped_says_it_changed_nothing(sandbox: Any) -> None:
    sandbox.set_faults(latency_ms=3000)
    said_once(
        *interrupted(["health", "--base-url", sandbox.base_url]),
        "Interrupted: the health check was cancelled; it only reads the lists, so nothing was "
        "changed.",
    )


def test_evidence_stopped_says_no_pack_was_written(sandbox: Any, tmp_path: Path) -> None:
    sandbox.set_faults(latency_ms=3000)
    out = tmp_path / "packs" / "pack.xlsx"
    argv = ["evidence", "303-555-0100", "--out", str(out), "--base-url", sandbox.base_url]
    said_once(
        *interrupted(argv),
        "Interrupted: the evidence pack was cancelled and no file was written.",
    )
    assert list(out.parent.iterdir()) == []


def test_snapshot_stopped_says_none_was_saved(sandbox: Any, tmp_path: Path) -> None:
    sandbox.set_faults(latency_ms=3000)
    said_once(
        *interrupted(["snapshot", "dnc", "--base-url", sandbox.base_url]),
        "Interrupted: the snapshot was cancelled and no snapshot file was saved.",
    )
    snapshots = tmp_path / "data" / "snapshots"
    assert not snapshots.exists() or list(snapshots.iterdir()) == []


def test_diff_stopped_says_no_differences_file_was_written(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["snapshot", "dnc", "--json", "--base-url", sandbox.base_url]) == 0
    old = json.loads(capsys.readouterr().out)["path"]
    sandbox.set_faults(latency_ms=3000)
    out = tmp_path / "diffs" / "d.xlsx"
    argv = ["diff", old, "--out", str(out), "--base-url", sandbox.base_url]
    said_once(
        *interrupted(argv),
        "Interrupted: the comparison was cancelled and no differences file was written.",
    )
    assert list(out.parent.iterdir()) == []


def test_audit_stopped_says_no_report_was_written(sandbox: Any, tmp_path: Path) -> None:
    campaign = sandbox.seed_campaign("Summer Leads", active=True)
    sandbox.set_faults(latency_ms=3000)
    out = tmp_path / "audits" / "a.xlsx"
    argv = ["audit", "campaign", campaign, "--out", str(out), "--base-url", sandbox.base_url]
    said_once(
        *interrupted(argv),
        "Interrupted: the audit was cancelled; no report was written or recorded.",
    )
    assert list(out.parent.iterdir()) == []


@pytest.mark.parametrize("command", ["health", "evidence", "snapshot", "diff", "audit"])
def test_help_states_the_status_of_a_stop(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The tests above show each of these exits 130 when stopped; its --help says so, as
    import's does (s31)."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "130, 143 or 129" in " ".join(capsys.readouterr().out.split())
