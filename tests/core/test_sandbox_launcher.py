"""The sandbox as a child process: start, answer, restart with reset, stop, failures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core import sandbox_launcher
from app.core.connection_check import check_token
from app.core.redaction import SECRETS
from app.core.sandbox_launcher import SandboxLaunchError, SandboxProcess, sandbox_command


def test_starts_on_loopback_keeps_data_and_resets(tmp_path: Path) -> None:
    db = tmp_path / "data" / "sandbox.sqlite3"
    process = SandboxProcess.start(db, timeout=20)
    try:
        assert process.base_url.startswith("http://127.0.0.1:")
        assert process.running
        assert process.token not in repr(process)
        assert SECRETS.redact(f"x {process.token} y") == "x *** y"
        demo = check_token(process.base_url, process.token).campaigns
        assert demo > 0
        with ApiClient(process.base_url, process.token) as api:
            before = api.search_dnc().total
            api.insert_dnc("2025550143", "1", Scope.global_(), reason="test")
            assert api.search_dnc().total == before + 1

        # Restarting keeps the data (the db file is in the data dir)...
        restarted = process.restart(timeout=20)
        assert not process.running
        process = restarted
        with ApiClient(process.base_url, process.token) as api:
            assert api.search_dnc().total == before + 1
        # ...and a reset restores the demo data.
        reset = process.reset_demo_data(timeout=20)
        assert not process.running
        process = reset
        with ApiClient(process.base_url, process.token) as api:
            assert api.search_dnc().total == before
        assert db.exists()
    finally:
        process.stop()
    assert not process.running
    process.stop()  # idempotent


def test_the_token_stays_off_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = sandbox_command(tmp_path / "s.db")
    assert command[1:4] == ["-m", "app", "sandbox"]
    assert "--token" not in command
    assert "--exit-with-parent" in command
    assert command[command.index("--port") + 1] == "0"
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert "--reset" not in command
    assert sandbox_command(tmp_path / "s.db", reset=True)[-1] == "--reset"
    # A frozen build's executable is the dnc-desk command itself; the token still travels
    # in the environment.
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    frozen = sandbox_command(tmp_path / "s.db")
    assert frozen[:2] == [sys.executable, "sandbox"]
    assert "--token" not in frozen


def test_each_launch_has_its_own_token_and_stops_when_the_app_goes_away(
    tmp_path: Path,
) -> None:
    db = tmp_path / "sandbox.sqlite3"
    first = SandboxProcess.start(db, timeout=20)
    second = SandboxProcess.start(db, timeout=20)
    try:
        assert first.token != second.token
        cmdline = Path(f"/proc/{first.pid}/cmdline").read_bytes()
        assert first.token.encode() not in cmdline
        # Losing the app closes the child's stdin; the child then shuts itself down.
        stdin = first._process.stdin
        assert stdin is not None
        stdin.close()
        first._process.wait(timeout=10)
        assert not first.running
        assert second.running
    finally:
        first.stop()
        second.stop()


def test_early_exit_reports_the_childs_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(db_path: Path, *, reset: bool = False) -> list[str]:
        env_name = sandbox_launcher.TOKEN_ENV
        code = (
            "import os, sys; "
            f"sys.stderr.write('port in use ' + os.environ[{env_name!r}] + '\\n');"
            " sys.exit(3)"
        )
        return [sys.executable, "-c", code]

    monkeypatch.setattr(sandbox_launcher, "sandbox_command", failing)
    with pytest.raises(SandboxLaunchError) as info:
        SandboxProcess.start(tmp_path / "s.db", timeout=10, token="tok-secret-launch-1")
    text = str(info.value)
    assert "stopped while starting (exit code 3)" in text
    assert "port in use ***" in text
    assert "tok-secret-launch-1" not in text


def test_silence_times_out_and_the_child_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid_file = tmp_path / "pid"

    def silent(db_path: Path, *, reset: bool = False) -> list[str]:
        code = (
            "import os, sys, time; "
            f"open({str(pid_file)!r}, 'w').write(str(os.getpid())); "
            "print('starting', flush=True); sys.stderr.write('still loading\\n'); "
            "sys.stderr.flush(); time.sleep(60)"
        )
        return [sys.executable, "-c", code]

    monkeypatch.setattr(sandbox_launcher, "sandbox_command", silent)
    with pytest.raises(SandboxLaunchError) as info:
        SandboxProcess.start(tmp_path / "s.db", timeout=1.5)
    assert "did not start within 1.5 seconds" in str(info.value)
    assert "still loading" in str(info.value)
    pid = int(pid_file.read_text())
    assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text()
