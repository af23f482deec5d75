"""``dnc-desk --self-test`` from source, as a user or the packaging script runs it: in its own
process, offscreen. The frozen bundle runs the same code (packaging/build.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.cli.self_test import EXPORT_DIR_ENV, FAILED_PREFIX, PASSED_PREFIX

ROOT = Path(__file__).resolve().parents[2]


def _run_self_test(tmp_path: Path, **extra_env: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m app --self-test`` with a home, config and data dir of its own: the
    self-test must leave all three untouched (it works in a temporary folder)."""
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "DNC_DESK_CONFIG_DIR": str(tmp_path / "user-config"),
        "DNC_DESK_DATA_DIR": str(tmp_path / "user-data"),
        **extra_env,
    }
    return subprocess.run(
        [sys.executable, "-m", "app", "--self-test"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def _assert_user_profile_untouched(tmp_path: Path) -> None:
    assert not (tmp_path / "user-config").exists()
    assert not (tmp_path / "user-data").exists()
    assert not list((tmp_path / "home").rglob("*dnc-desk*"))


def test_self_test_passes_from_source_with_one_line(tmp_path: Path) -> None:
    result = _run_self_test(tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout
    line = lines[0]
    assert line.startswith(PASSED_PREFIX)
    for part in (
        "keyring backends",
        "main window on Qt platform offscreen",
        "sandbox at http://127.0.0.1:",
        "DNC search",
        "SMS opt-out search",
        "xlsx export of 1 row",
        "read back 1 row with the sheet reader",
        "phone metadata and US holidays ok",
    ):
        assert part in line
    assert FAILED_PREFIX not in result.stderr
    _assert_user_profile_untouched(tmp_path)


def test_self_test_fails_naming_the_step_when_the_export_cannot_be_written(
    tmp_path: Path,
) -> None:
    # A real failure: the export folder lies below a regular file, so creating it fails.
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the export folder should be\n")
    result = _run_self_test(tmp_path, **{EXPORT_DIR_ENV: str(blocker / "exports")})
    assert result.returncode == 1
    assert PASSED_PREFIX not in result.stdout
    failure = [line for line in result.stderr.splitlines() if line.startswith(FAILED_PREFIX)]
    assert len(failure) == 1, result.stderr
    assert failure[0].startswith(f"{FAILED_PREFIX} export: ")
    assert "not-a-folder" in failure[0]
    assert not (blocker.parent / "exports").exists()
    _assert_user_profile_untouched(tmp_path)
