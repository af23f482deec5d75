"""Task V2c (black-box V2 #5): one opt-out note typed without a space ("STOP?pls", "Remove?yes",
"OPT?OUT", "Call?back", "DNC?Y") was taken for a word whose letter was lost, and the dry run told
the officer to save the file again as "CSV UTF-8" from an original that does not exist. Such
run-ons now count for nothing; a name or a country with a lost letter is still warned about,
even beside one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN

LOST = "in place of letters"
OTHER_ROWS = "(720) 555-1235,asked to stop\n(720) 555-1236,asked to stop\n"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _lost_warnings(capsys: pytest.CaptureFixture[str], path: Path, tmp_path: Path) -> list[str]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--report", str(tmp_path / "r.xlsx"), "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return [w for w in data["warnings"] if LOST in w]


# The tester's q1.csv … q15.csv: one Notes cell each, beside plain text.
@pytest.mark.parametrize(
    "note",
    [
        "STOP?pls",
        "Remove?yes",
        "OPT?OUT",
        "Stop?Please",
        "N?A",
        "Call?back",
        "Wrong#?yes",
        "DNC?Y",
        "Hello?Anyone",
        "email?no",
        "Stop texting me?pls",
        "U?S",
        "Sr?",
        "Texto?",
        "Me?",
        # More of the same kind.
        "stop?PLS",
        "Unsubscribe?remove",
        "CALL?me",
        "opt?out?now",
    ],
)
def test_one_note_typed_without_a_space_gets_no_lost_letters_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], note: str
) -> None:
    path = tmp_path / "q.csv"
    path.write_text(f"Phone,Notes\n(720) 555-1234,{note}\n{OTHER_ROWS}", encoding="utf-8")
    assert _lost_warnings(capsys, path, tmp_path) == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # A name whose lost letter follows its one capital: no change from capitals to lowercase.
        ("Name,Phone,Notes\nJ?rgen Berg,(720) 555-1234,STOP?pls\n", "('J?rgen')"),
        # A country in capitals, beside run-ons, which are not shown.
        (
            "Phone,Country,Notes\n(720) 555-1234,M?XICO,Remove?yes\n(720) 555-1235,USA,OPT?OUT\n",
            "('M?XICO')",
        ),
        # A name of two lost letters, and a Spanish note whose pieces are no opt-out words.
        (
            "Name,Phone,Notes\nJos? Mu?oz,(720) 555-1234,Call?back\n"
            "Ana Pe?a,(720) 555-1235,DNC?Y\n",
            "('Mu?oz' and 'Pe?a')",
        ),
        # A header, beside a note of the kind.
        ("Phone,Pa?s,Notes\n(720) 555-1234,Mexico,STOP?pls\n", "('Pa?s')"),
        # "No?l": "no" is an opt-out word, "l" is not.
        ("Name,Phone\nNo?l Dupont,(720) 555-1234\n", "('No?l')"),
    ],
)
def test_names_and_countries_with_lost_letters_are_still_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: str
) -> None:
    path = tmp_path / "lost.csv"
    path.write_bytes(text.encode("cp1252"))
    warnings = _lost_warnings(capsys, path, tmp_path)
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith(f"lost.csv has '?' {LOST} {words}: "), warnings
