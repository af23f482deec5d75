"""Black-box R3 #5: the requests before a job starts (the campaign check, the list's purposes)
were not counted against --rate-limit: the checks had a pacer of their own, so with
--rate-limit 120 the service saw 121 requests within 60 s (/campaigns/search and 120 /dnc/
requests). Every request of the command now waits for the one pacer."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from app.api import transport
from app.cli.main import main
from tests.conftest import TOKEN


def test_the_checks_and_the_job_share_one_pacer(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    waits: list[int] = []  # the pacer each request waited for, by id
    lock = threading.Lock()
    wait = transport.RequestPacer.wait

    def counted(self: transport.RequestPacer, *args: Any, **kwargs: Any) -> None:
        with lock:
            waits.append(id(self))
        wait(self, *args, **kwargs)

    monkeypatch.setattr(transport.RequestPacer, "wait", counted)
    src = tmp_path / "three.csv"
    src.write_text("phone\n2025550142\n2025550143\n2025550144\n")
    argv = [
        "import",
        str(src),
        "--into",
        "dnc",
        "--scope",
        "campaign:Spring Renewals",  # a name: the campaign list is searched before the job
        "--base-url",
        sandbox.base_url,
        "--rate-limit",
        "6000",
        "--concurrency",
        "1",
        "--json",
    ]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["status"], result["inserted"]) == ("finished", 3)
    # The checks' requests (at least the campaign search) and the three rows' inserts.
    assert len(waits) >= 4
    assert len(set(waits)) == 1
