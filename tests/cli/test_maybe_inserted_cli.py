"""``import`` says how many of its already-present rows this job may have inserted itself (an
answer was lost, or the insert ended in an error: the report's Summary label's words, black-box
P1 #3), beside the count, and ``remove --json`` keeps the key at 0 (the contract)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN

NUMBERS = [f"30355502{i:02d}" for i in range(30)]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def test_the_count_line_says_how_many_already_present_rows_may_be_the_jobs_own(
    make_sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = make_sandbox(seed=9)
    server.set_faults(drop_rate=0.3)
    src = tmp_path / "in.csv"
    src.write_text("Phone\n" + "".join(f"{n}\n" for n in NUMBERS))
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--concurrency", "1"]
    argv += ["--base-url", server.base_url]
    assert main(argv) == 0
    out = capsys.readouterr().out
    server.set_faults(drop_rate=0.0)
    match = re.search(
        r"already present: (\d+) \(of which (\d+) may have been inserted by this job: an "
        r"attempt got no answer saying whether it was done, or the insert ended in an error\)",
        out,
    )
    assert match, out
    present, maybe = int(match[1]), int(match[2])
    assert 0 < maybe <= present
    # Nothing was on the list before the job: every already-present row may be its own.
    assert maybe == present
    listed = {r["phone_number"] for r in server.store.all("SELECT phone_number FROM dnc")}
    assert listed == set(NUMBERS)
    removal = ["remove", str(src), "--scope", "global", "--note", "asked", "--json"]
    assert main([*removal, "--base-url", server.base_url]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["removed"], data["already_present_maybe_inserted"]) == (30, 0)
