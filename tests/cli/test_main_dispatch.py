"""The dnc-desk entry point: lazy subcommands and the frozen sheet-worker dispatch."""

from __future__ import annotations

import subprocess
import sys

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
