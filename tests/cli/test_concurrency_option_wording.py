"""``audit`` and ``snapshot`` refuse a bad ``--concurrency`` stating the rule in full, as
``import`` does: they said only "'abc' is not a number" or "must be between 1 and 32".

Run as a user runs them (a subprocess): argparse refuses the value before any connection.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULE = "give the number of requests in flight, from 1 to 32."


def _refusal(*argv: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "app", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    return proc.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("abc", f"'abc' is not a whole number; {RULE}"),
        ("0", f"0 is out of range; {RULE}"),
        ("99", f"99 is out of range; {RULE}"),
    ],
)
def test_audit_and_snapshot_word_a_bad_concurrency_as_import_does(value: str, said: str) -> None:
    base = "http://127.0.0.1:9"  # never reached: the value is refused first
    audit = _refusal("audit", "campaign", "1", "--concurrency", value, "--base-url", base)
    assert audit == f"dnc-desk audit campaign: error: argument --concurrency: {said}", audit
    snapshot = _refusal("snapshot", "dnc", "--concurrency", value, "--base-url", base)
    assert snapshot == f"dnc-desk snapshot: error: argument --concurrency: {said}", snapshot
    imported = _refusal(
        "import", "in.csv", "--into", "dnc", "--scope", "global", "--concurrency", value
    )
    assert imported == f"dnc-desk import: error: argument --concurrency: {said}", imported
