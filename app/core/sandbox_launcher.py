"""Start the local sandbox service as a child process for the desktop app.

The sandbox runs in its own process rather than a thread of the GUI process so that its
request handling never competes with the window for the GIL. Its database lives in the
user's data dir and is kept between runs; each launch gets a fresh random token that is
held in memory only.
"""

from __future__ import annotations

import collections
import contextlib
import os
import re
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

from app.core.redaction import SECRETS

READY_PREFIX = "DNC Desk sandbox serving "
_READY_RE = re.compile(r"^DNC Desk sandbox serving (https?://\S+)\s*$")
DEFAULT_START_TIMEOUT = 30.0
_STOP_TIMEOUT = 5.0
_STDERR_TAIL_LINES = 20
# The token travels to the child in this environment variable (read by the sandbox command),
# so it is not visible in the process list.
TOKEN_ENV = "DNC_DESK_SANDBOX_TOKEN"  # noqa: S105  (a variable name, not a secret)


class SandboxLaunchError(RuntimeError):
    """The sandbox process did not start; ``str()`` is a sentence for the user, followed by
    the last lines the child wrote to stderr when there are any."""


def sandbox_command(db_path: Path, *, reset: bool = False) -> list[str]:
    """The command line that starts the sandbox on a free loopback port.

    The token goes in the environment (``TOKEN_ENV``), never on the command line, and the
    child stops when its stdin closes, so a crashed app leaves no server behind.
    """
    # A PyInstaller bundle's executable is the dnc-desk command itself.
    frozen = getattr(sys, "frozen", False)
    base = [sys.executable, "sandbox"] if frozen else [sys.executable, "-m", "app", "sandbox"]
    command = [
        *base,
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--db",
        str(db_path),
        "--exit-with-parent",
    ]
    if reset:
        command.append("--reset")
    return command


def _source_root() -> Path:
    return Path(__file__).resolve().parents[2]


class SandboxProcess:
    """A running sandbox child process: its URL, its per-launch token, and how to stop it.

    Create with :meth:`start`. ``token`` is kept in memory only and registered for log
    redaction; ``repr`` never shows it.
    """

    def __init__(
        self,
        process: subprocess.Popen[str],
        base_url: str,
        token: str,
        db_path: Path,
        stderr_tail: collections.deque[str],
    ) -> None:
        self._process = process
        self.base_url = base_url
        self._token = token
        self.db_path = db_path
        self._stderr_tail = stderr_tail

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"SandboxProcess({self.base_url!r}, pid={self._process.pid}, {state})"

    @property
    def token(self) -> str:
        return self._token

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def running(self) -> bool:
        return self._process.poll() is None

    @classmethod
    def start(
        cls,
        db_path: Path,
        *,
        reset: bool = False,
        timeout: float = DEFAULT_START_TIMEOUT,
        token: str | None = None,
    ) -> SandboxProcess:
        """Start the sandbox and return once it accepts requests.

        Raises :class:`SandboxLaunchError` when the child exits early or does not announce
        its address within ``timeout`` seconds (the child is then stopped).
        """
        token = token or "sbx-" + secrets.token_urlsafe(24)
        SECRETS.add(token)
        db_path.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env[TOKEN_ENV] = token
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONIOENCODING"] = "utf-8"
        if not getattr(sys, "frozen", False):
            # `python -m app` must find this source tree even when started from elsewhere.
            root = str(_source_root())
            env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
        try:
            process = subprocess.Popen(  # noqa: S603  (our own executable, no shell)
                sandbox_command(db_path, reset=reset),
                # Kept open for the child's lifetime: its end-of-file tells the child to stop.
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                env=env,
                cwd=str(db_path.parent),
            )
        except OSError as exc:
            raise SandboxLaunchError(
                f"The sandbox could not be started ({exc.strerror or exc})."
            ) from None
        stderr_tail: collections.deque[str] = collections.deque(maxlen=_STDERR_TAIL_LINES)
        ready = threading.Event()
        found: list[str] = []
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(
            target=_read_stdout,
            args=(process.stdout, ready, found),
            name="sandbox-stdout",
            daemon=True,
        ).start()
        threading.Thread(
            target=_read_stderr,
            args=(process.stderr, stderr_tail),
            name="sandbox-stderr",
            daemon=True,
        ).start()
        deadline = time.monotonic() + timeout
        while not ready.wait(0.05):
            if process.poll() is not None:
                # Give the stderr reader a moment to collect the child's last words.
                time.sleep(0.1)
                _terminate(process)
                raise SandboxLaunchError(
                    _with_tail(
                        f"The sandbox stopped while starting (exit code {process.returncode}).",
                        stderr_tail,
                    )
                )
            if time.monotonic() > deadline:
                _terminate(process)
                raise SandboxLaunchError(
                    _with_tail(
                        f"The sandbox did not start within {timeout:g} seconds.", stderr_tail
                    )
                )
        return cls(process, found[0], token, db_path, stderr_tail)

    def stop(self) -> None:
        """Stop the process (terminate, wait, then kill); safe to call more than once."""
        _terminate(self._process)

    def restart(
        self, *, reset: bool = False, timeout: float = DEFAULT_START_TIMEOUT
    ) -> SandboxProcess:
        """Stop this process and start a new one on the same database (new port, new token)."""
        self.stop()
        return SandboxProcess.start(self.db_path, reset=reset, timeout=timeout)

    def reset_demo_data(self, *, timeout: float = DEFAULT_START_TIMEOUT) -> SandboxProcess:
        """Wipe the sandbox database and reseed the demo data; returns the new process."""
        return self.restart(reset=True, timeout=timeout)

    def stderr_tail(self) -> str:
        return SECRETS.redact("\n".join(self._stderr_tail))


def _read_stdout(stream: IO[str], ready: threading.Event, found: list[str]) -> None:
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            if not ready.is_set():
                match = _READY_RE.match(line.strip())
                if match:
                    found.append(match.group(1))
                    ready.set()
    # Reading on until EOF keeps the pipe drained, so the child never blocks on a full pipe.


def _read_stderr(stream: IO[str], tail: collections.deque[str]) -> None:
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            tail.append(line.rstrip("\n"))


def _with_tail(message: str, tail: collections.deque[str]) -> str:
    lines = [SECRETS.redact(line) for line in list(tail) if line.strip()]
    if not lines:
        return message
    return message + " Its last messages were:\n" + "\n".join(lines[-10:])


def _terminate(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        with contextlib.suppress(OSError):
            process.terminate()
        try:
            process.wait(timeout=_STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=_STOP_TIMEOUT)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                stream.close()
