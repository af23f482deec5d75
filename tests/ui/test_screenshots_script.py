"""packaging/screenshot.py drives the real window on its own sandbox through every state the
README shows and saves each picture at the size docs/screenshots has (a run in a child process,
as the script is run by hand: its own QApplication, config and data folders)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parents[2]


def test_the_script_saves_every_readme_screenshot(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("DNC_DESK_TOKEN", None)
    done = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "screenshot.py"), str(tmp_path)],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    image = QImage(str(tmp_path / "import-check.png"))
    assert (image.width(), image.height()) == (1000, 700)
    # Not a blank grab: the page's text and table make many colours.
    colours = {image.pixel(x, y) for x in range(0, 1000, 7) for y in range(0, 700, 7)}
    assert len(colours) > 20
    shown = {p.name for p in (ROOT / "docs" / "screenshots").glob("*.png")}
    assert {p.name for p in tmp_path.iterdir()} == shown
