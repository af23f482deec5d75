"""Re-test S24 U2 F4: a header-less semicolon file whose other column holds decimal commas
("2025550147;12,50") has as many commas as semicolons on every line, and the tie went to the
comma: "2025550147;12" was read as one cell, and no phone column was found (or, for
"8035551,125;x", 8035551 was taken for a phone number). Commas that all stand between digits are
decimal commas; in a tie the other delimiter splits the cells."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from app.core.sheet_csv import sniff_delimiter
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.mark.parametrize(
    ("text", "delimiter"),
    [
        ("2025550147;12,50\n3035550148;7,25\n", ";"),
        ("8035551,125;x\n2025550,147;y\n", ";"),
        ("2025550147\t12,50\n3035550148\t7,25\n", "\t"),
        ("2025550147|12,50\n3035550148|7,25\n", "|"),
        # A comma beside a letter or a space is a delimiter's: a tie keeps it.
        ("x,1;2\ny,3;4\n", ","),
        ("2025550147, 1;2\n3035550148, 3;4\n", ","),
        # No tie: the delimiter that splits every line alike wins, as before.
        ("Telefon;Betrag\n2025550147;12,50\n", ";"),
        ("2025550147,12\n3035550148,7\n", ","),
    ],
)
def test_decimal_commas_lose_a_tie(text: str, delimiter: str) -> None:
    assert sniff_delimiter(text) == delimiter


def _dry_run(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, object]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    main(argv)
    data: dict[str, object] = json.loads(capsys.readouterr()[0])
    return data


def test_a_header_less_semicolon_file_with_amounts_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "eu.csv"
    path.write_text("2025550147;12,50\n3035550148;7,25\n7205550133;100,00\n", encoding="utf-8")
    data = _dry_run(capsys, path)
    assert data["mapping"] == {"phone": "column A"}
    assert (data["valid"], data["invalid"]) == (3, 0)


def test_a_header_less_semicolon_file_of_amounts_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "betraege.csv"
    lines = ["8035551,125;x", "2025550,147;y", "3035550,112;z", "7205550,133;w"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    data = _dry_run(capsys, path)
    assert "No column of phone numbers was found" in str(data["error"])
