"""A ``--resume`` given another service than its job's is refused before any request
(black-box bb12 F9): it used to ask the other service (with this token) first, and when that
one was down, waited and blamed it for not answering."""

from __future__ import annotations

import csv
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.connections import Connection
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.paths import AppPaths
from app.core.removal_job import stage_removal
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.fixture
def listener() -> Iterator[tuple[str, list[bytes]]]:
    """A loopback port that records what each connection made to it sends, then closes it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    heard: list[bytes] = []
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    heard.append(conn.recv(65536))
                except OSError:
                    heard.append(b"")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}", heard
    done.set()
    thread.join(timeout=5)
    server.close()


def _csv(path: Path) -> Path:
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone"], ["303-555-0100"], ["303-555-0101"]])
    return path


@pytest.mark.parametrize("command", ["import", "remove"])
def test_a_resume_on_another_service_is_refused_before_any_request(
    command: str,
    sandbox: Any,
    tmp_path: Path,
    listener: tuple[str, list[bytes]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    other_url, heard = listener
    stage = stage_import if command == "import" else stage_removal
    store, _ = stage(
        JobSettings(_csv(tmp_path / "n.csv"), Scope.global_()),
        AppPaths.default().jobs_dir,
        connection=Connection(sandbox.base_url, sandbox.base_url),
    )
    store.close()
    job_id = store.path.stem
    code = main([command, "--resume", job_id, "--base-url", other_url])
    err = capsys.readouterr().err.strip()
    assert code == 1, err
    assert err == (
        f"Job {job_id} was started on {sandbox.base_url}, not on {other_url}; its rows go only "
        "to the service it was started on, so resume it there."
    )
    assert heard == []  # no request, so no token, went to the other service
