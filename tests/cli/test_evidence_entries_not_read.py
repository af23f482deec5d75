"""`evidence` and `audit` say on the command line what the service counted but did not give
(re-test U1 #2, #5: the pack held 80 of the number's 150 entries, and the output, --json and
the exit status said nothing of the 70)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.cli.test_export_snapshot_short_pages_cli import env_token, short_service  # noqa: F401
from tests.core.test_export_short_pages import Shorten

NUMBER = "3035550177"


def _forty_then_nothing(offset: int, limit: int, rows: list[Any]) -> list[Any]:
    return rows[:40] if offset < 80 else []


def test_evidence_says_the_entries_it_could_not_read(
    sandbox: Any,
    short_service: Callable[[str, Shorten], str],  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    sandbox.bulk_seed_dnc([(NUMBER, "1", "-1", "", f"Purpose {i}") for i in range(150)])
    url = short_service(sandbox.base_url, _forty_then_nothing)
    out = tmp_path / "pack.xlsx"
    code = main(["evidence", NUMBER, "--base-url", url, "--out", str(out), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 3
    assert (len(data["dnc"]), data["dnc_not_read"], data["sms_not_read"]) == (80, 70, 0)
    code = main(["evidence", NUMBER, "--base-url", url, "--out", str(out), "--overwrite"])
    printed = capsys.readouterr().out
    assert code == 3
    assert "70 DNC entries the service counted for the number could not be read" in printed
