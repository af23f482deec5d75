"""``dnc-desk`` alone (or ``--sandbox``) on a Linux machine with no display: one sentence and
exit 1, not Qt aborting the process (exit 134) saying reinstalling may help (black-box bb2 F5).
Run as a real process, with the display variables taken out of its environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's displays")


@pytest.mark.parametrize("argv", [[], ["--sandbox"]])
def test_the_window_without_a_display_is_one_sentence(tmp_path: Path, argv: list[str]) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}
    }
    env["DNC_DESK_CONFIG_DIR"] = str(tmp_path / "config")
    env["DNC_DESK_DATA_DIR"] = str(tmp_path / "data")
    done = subprocess.run(
        [sys.executable, "-m", "app", *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert done.stderr == (
        "There is no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set, "
        "as in a session over SSH): run dnc-desk in a desktop session, or use its subcommands "
        "here (dnc-desk --help).\n"
    )
    assert done.stdout == ""
    # Nothing was started: no data folder made for a window that never opened.
    assert not (tmp_path / "data").exists()
