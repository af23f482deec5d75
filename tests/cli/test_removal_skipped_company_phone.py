"""A removal names the phone column it skips (regression check V2 #2): "Company Phone" of one
number beside a column of many is passed over as the business's own line, and a removal dry run
said nothing of it, where it used to say the column is not removed and how to remove it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main

LINE = "(303) 555-0100"
CONTACTS = [f"(720) 555-20{n:02d}" for n in range(6)]


@pytest.mark.parametrize("header", ["Company Phone", "Business Phone"])
def test_a_removal_says_the_company_phone_is_not_removed(
    header: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    path = tmp_path / "contacts.csv"
    lines = [f"{header},Contact Phone"] + [f"{LINE},{number}" for number in CONTACTS]
    path.write_text("\n".join(lines) + "\n")
    code = main(["remove", str(path), "--scope", "global", "--dry-run", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out
    assert out["mapping"]["phone"] == "Contact Phone (column B)"
    assert out["warnings"] == [
        f"Column A ({header!r}) also holds phone numbers but is not removed: only column B "
        "('Contact Phone') is read. To remove its numbers too, run the file again with "
        "--phone-column column:A."
    ]
