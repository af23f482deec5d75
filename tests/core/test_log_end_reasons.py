"""The reason given for the end of a message log not read is the one that decided it: a log
whose Direction says its texts went out, sent from a pool of more numbers than it has
consumers, is not said to hold "fewer different numbers" at the business's end; and a column
named with --phone-column is no guess (black-box Q1 #2, Q1b's notes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main

# Four of the business's numbers send to three consumers: "From" holds more numbers.
_OUTBOUND_POOL = "From,To,Body,Direction\n" + "".join(
    f"+1202555018{1 + n % 4},+1720555031{1 + n % 3},Your appointment is confirmed,outbound-api\n"
    for n in range(12)
)
# Nothing says which end is whose: the end with more numbers (From) is read, by a guess.
_NO_SAY = "From,To,Body\n" + "".join(
    f"+1720555032{1 + n % 4},+12025550191,Thanks\n" for n in range(8)
)


def _dry_run(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> dict[str, Any]:
    path = tmp_path / "log.csv"
    path.write_text(text)
    argv = ["import", str(path), "--into", "sms-opt-out", "--scope", "global", "--dry-run"]
    code = main([*argv, *extra, "--json", "--report", str(tmp_path / "r.xlsx"), "--overwrite"])
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert code == 0, out
    return out


def test_an_outbound_log_from_a_pool_gives_the_direction_as_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _dry_run(_OUTBOUND_POOL, tmp_path, capsys)
    assert out["mapping"]["phone"] == "To (column B)"
    warnings = " ".join(out["warnings"])
    assert "holds fewer different numbers" not in warnings
    assert "Column A ('From') is taken for the business's own line: the file says" in warnings
    assert "Nothing in the file says which end" not in warnings


def test_a_guessed_end_says_so_unless_the_column_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    guessed = " ".join(_dry_run(_NO_SAY, tmp_path, capsys)["warnings"])
    assert "Nothing in the file says which end" in guessed
    named = _dry_run(_NO_SAY, tmp_path, capsys, "--phone-column", "From")
    assert named["mapping"]["phone"] == "From (column A)"
    assert not any("Nothing in the file says which end" in w for w in named["warnings"])
