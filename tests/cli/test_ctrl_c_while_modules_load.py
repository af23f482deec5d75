"""Ctrl+C while ``dnc-desk``'s own modules load (before :func:`app.cli.main.main` handles
signals) exits 130 saying nothing was sent, not with a KeyboardInterrupt traceback and 1
(black-box B25-3). The signal is raised from an import hook as ``app.cli.main`` imports its
first module, which no timing can promise from outside."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import app.cli.main

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import signal, sys
sys.argv[:] = ["/opt/bin/dnc-desk", *{argv!r}]


class StopWhileLoading:
    def find_spec(self, name, path=None, target=None):
        if name == "argparse":
            signal.raise_signal(signal.SIGINT)
        return None


sys.modules.pop("argparse", None)
sys.meta_path.insert(0, StopWhileLoading())
import app.cli.main
print("not stopped")
"""


def _child(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CHILD.format(argv=argv)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        # SIGINT at its default, as a terminal starts the command (pytest may run with it
        # ignored, which the app rightly leaves so).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


@pytest.mark.parametrize("command", ["import", "remove"])
def test_ctrl_c_while_the_modules_load_says_nothing_was_sent(command: str) -> None:
    done = _child([command, "in.csv", "--scope", "global"])
    assert done.returncode == 130, done.stderr
    assert done.stderr == "Interrupted before the job started: nothing was sent.\n"
    assert done.stdout == ""
    done = _child([command, "in.csv", "--json"])
    assert done.returncode == 130, done.stderr
    assert json.loads(done.stdout) == {
        "error": "Interrupted before the job started: nothing was sent.",
        "exit_status": 130,
    }


def test_another_program_importing_the_module_keeps_its_own_sigint() -> None:
    assert signal.getsignal(signal.SIGINT) is not app.cli.main._early_interrupt
