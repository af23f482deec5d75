"""The dnc-desk entry point: lazy subcommands and the frozen sheet-worker dispatch."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main as cli_main
from app.core import sheet_reader


def test_sheet_worker_flag_matches_the_reader() -> None:
    assert cli_main.SHEET_WORKER_FLAG == sheet_reader.WORKER_FLAG


def test_help_lists_every_subcommand_without_importing_them() -> None:
    code = (
        "import sys; from app.cli.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print('LOADED', sorted(m for m in sys.modules if m.startswith('app.core.sheet')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    for name in cli_main.SUBCOMMANDS:
        assert name in out
    assert "LOADED []" in out


def test_self_test_flag_runs_the_self_test(monkeypatch: pytest.MonkeyPatch) -> None:
    # The self-test itself runs in tests/cli/test_self_test.py (in a subprocess, as shipped).
    monkeypatch.setattr("app.cli.self_test.run_self_test", lambda: 7)
    assert cli_main.main(["--self-test"]) == 7


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_a_reader_that_goes_away_gets_no_traceback(tmp_path: Path, unbuffered: str) -> None:
    # `dnc-desk import … --json | head -c 0`: the JSON print meets a closed pipe. The command
    # ends quietly with the shell's SIGPIPE status instead of a BrokenPipeError traceback.
    # Unbuffered (as output longer than the buffer is), the print fails inside the command,
    # which said "A file could not be written or read: [Errno 32] Broken pipe" (re-test R2 #4).
    src = tmp_path / "in.csv"
    src.write_text("Phone\n2025550143\n")
    env = {
        **os.environ,
        "DNC_DESK_CONFIG_DIR": str(tmp_path / "config"),
        "DNC_DESK_DATA_DIR": str(tmp_path / "data"),
        "PYTHONUNBUFFERED": unbuffered,
    }
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    proc = subprocess.run(
        [sys.executable, "-m", "app", "import", str(src), "--into", "dnc", "--scope", "global",
         "--dry-run", "--json"],
        stdout=write, stderr=subprocess.PIPE, text=True, env=env, timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    os.close(write)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr
    assert "Broken pipe" not in proc.stderr, proc.stderr
    assert proc.returncode == 141
