"""Build the one-folder bundle with PyInstaller and smoke-test the frozen binary.

Run: .venv/bin/python -m pip install -e ".[packaging]" && .venv/bin/python packaging/build.py
The smoke test runs ``dist/dnc-desk/dnc-desk --self-test``: it starts a sandbox inside the
frozen app, calls it through the API client and loads Qt offscreen.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
         "--distpath", str(ROOT / "dist"), "--workpath", str(ROOT / "build"),
         str(ROOT / "packaging" / "dnc-desk.spec")],
        check=True,
    )
    binary = ROOT / "dist" / "dnc-desk" / "dnc-desk"
    size = sum(p.stat().st_size for p in binary.parent.rglob("*") if p.is_file())
    print(f"built {binary} in {time.perf_counter() - started:.0f} s, {size / 2**20:.0f} MB")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([str(binary), "--self-test"], env=env, timeout=120)
    print("self-test", "passed" if result.returncode == 0 else "FAILED")
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
