"""Black-box s31: after ``bash scripts/run-sandbox-app.sh`` the README's command-line examples
(``dnc-desk import …``) gave "command not found": the command is installed in the virtualenv,
not on PATH, and the script said nothing of it. It now prints the two ways to run it, quoted to
be pasted as they are. Run here on a copy of the script in a folder whose name needs quoting,
with a real virtualenv, and with its installer (bootstrap.sh, which runs apt-get and pip) and the
window left out; each printed line is then run in a shell whose PATH lacks the virtualenv."""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BARE_PATH = "/usr/bin:/bin"


def _executable(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _checkout(tmp_path: Path) -> Path:
    """A copy of the script beside a bootstrap that only notes its argument and a virtualenv
    whose dnc-desk only says how it was called."""
    root = tmp_path / "dnc desk's copy"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "run-sandbox-app.sh", root / "scripts")
    (root / "scripts" / "bootstrap.sh").write_text(
        'echo "$@" > bootstrap-called\n', encoding="utf-8"
    )
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")], check=True)
    _executable(root / ".venv" / "bin" / "dnc-desk", '#!/bin/sh\necho "dnc-desk $*"\n')
    return root


def _shell(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    env["PATH"] = BARE_PATH
    return subprocess.run(
        ["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=30
    )


def test_script_prints_how_to_run_the_command_line(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = str(root / "scripts" / "run-sandbox-app.sh")
    run = _shell(f"bash {shlex.quote(script)} --extra", elsewhere)
    assert run.returncode == 0, run.stderr
    assert (root / "bootstrap-called").read_text(encoding="utf-8") == "app\n"
    lines = run.stdout.splitlines()
    # The hint comes before the window, which is what the script runs last.
    assert lines[-1] == "dnc-desk --sandbox --extra"
    commands = [line.strip() for line in lines[:-1] if line.startswith("  ")]
    assert len(commands) == 2, run.stdout

    assert _shell("command -v dnc-desk", elsewhere).returncode != 0
    direct = _shell(commands[0], elsewhere)
    assert direct.stdout == "dnc-desk --help\n", (commands[0], direct.stderr)
    activated = _shell(f"{commands[1]} && dnc-desk --version", elsewhere)
    assert activated.stdout == "dnc-desk --version\n", (commands[1], activated.stderr)
