"""An inbound log's From column of a few consumers, each texting STOP again and again, is not
called the business's own line (regression check V2 #4): two consumers, three STOPs each, got
"Column B ('From Number') holds 2 numbers … as the business's own line is the same on every
row"; the warning is for ONE number on every row, which a Sender of one line still gets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main

LINE = "+12025550191"


def _warnings(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    code = main(["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out
    assert out["mapping"]["phone"] == "From Number (column B)"
    warnings: list[str] = out["warnings"]
    return warnings


def test_a_few_consumers_texting_stop_again_are_not_the_business_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    rows = ["Message ID,From Number,To Number,Message,Time"] + [
        f"m{n},+1720555030{1 + n % 2},{LINE},STOP,2026-11-0{1 + n} 10:00" for n in range(6)
    ]
    path = tmp_path / "bandwidth.csv"
    path.write_text("\n".join(rows) + "\n")
    said = " ".join(_warnings(path, capsys))
    assert "('From Number') holds" not in said
    assert "the business's own line is the same on every row" not in said


def test_one_number_on_every_row_of_the_from_side_is_still_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    rows = ["Message ID,From Number,To Number,Message,Time"] + [
        f"m{n},+17205550301,{LINE},STOP,2026-11-0{1 + n} 10:00" for n in range(6)
    ]
    path = tmp_path / "bandwidth.csv"
    path.write_text("\n".join(rows) + "\n")
    said = " ".join(_warnings(path, capsys))
    assert "Column B ('From Number') holds one number ('+17205550301') on all 6 of its rows" in said
