"""Black-box V4 #1: a removal's dry run counted a row whose number is in no number range in use
today (looked up as written since 5f63869) among the valid rows and said nothing more:
``remove … --dry-run`` of six numbers, one ``+44 7700 900123``, said "valid: 6, invalid: 0"
(it was 5 / 1), and a file of UK number cells of 9 digits beside a Country Code 44 column went
from 20 invalid to "valid: 2, duplicates in file: 18, invalid: 0". An officer read "0 invalid"
before the run, and the real run made every such row the list does not hold invalid.

Such rows are still sent (nothing about what is sent changes), and every place that says the
counts says how many of the valid rows they are: the count line ("valid: 6 (of which 1 not a
valid number today, looked up as written: …)"), ``--json``'s ``valid_as_written`` and a row of
the report's Summary. After a real run the count holds the rows still valid (removed as listed);
those the list did not hold are invalid, as before.

Through ``dnc-desk remove`` (the sandbox over loopback for the real run), files in tmp_path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from tests.conftest import TOKEN

SAID = "not a valid number today, looked up as written: removed if the list holds it, else invalid"
LABEL = (
    "Valid rows whose number is not valid today, looked up as written: removed if the list "
    "holds it, else invalid"
)
# Valid numbers of five countries, and one UK number in no range in use (V4's remove11.csv).
FILE = [
    "+61 412 345 678",
    "+91 98765 43210",
    "+52 55 1234 5678",
    "+34 612 34 56 70",
    "+86 139 1234 5678",
    "+44 7700 900123",
]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out


def _summary(report: str) -> dict[str, Any]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        return {str(row[0]): row[1] for row in book["Summary"].values}
    finally:
        book.close()


def test_a_dry_run_says_how_many_valid_rows_are_looked_up_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "remove11.csv"
    src.write_text("Phone\n" + "".join(f"{n}\n" for n in FILE))
    argv = ["remove", str(src), "--scope", "global", "--dry-run"]

    code, out = _run(capsys, argv)
    assert code == 0
    assert f"rows: 6, valid: 6 (of which 1 {SAID}), invalid: 0," in out

    code, out = _run(capsys, [*argv, "--json"])
    assert code == 0
    data = json.loads(out)
    # Still sent: what a real run would send is unchanged.
    assert (data["valid"], data["valid_as_written"], data["invalid"], data["pending"]) == (
        6,
        1,
        0,
        6,
    )
    assert list(data).index("valid_as_written") == list(data).index("valid") + 1
    assert _summary(data["report"])[LABEL] == 1


def test_nothing_is_added_when_no_row_is_looked_up_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "remove.csv"
    src.write_text("Phone\n" + "".join(f"{n}\n" for n in FILE[:5]))
    code, out = _run(capsys, ["remove", str(src), "--scope", "global", "--dry-run"])
    assert code == 0
    assert "rows: 5, valid: 5, invalid: 0," in out and "looked up as written" not in out
    code, out = _run(capsys, ["remove", str(src), "--scope", "global", "--dry-run", "--json"])
    data = json.loads(out)
    assert data["valid_as_written"] == 0
    assert LABEL not in _summary(data["report"])


def test_number_cells_of_nine_digits_under_44_are_counted_once_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # V4's k2_uk_numcells_cc_cut.xlsx: 20 number cells, two numbers, beside Country Code 44.
    src = tmp_path / "uk_cut.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Country Code", "Phone"])
    for number in [791112340] * 10 + [791112341] * 10:
        sheet.append([44, number])
    book.save(src)

    argv = ["remove", str(src), "--scope", "global", "--dry-run"]
    code, out = _run(capsys, argv)
    assert code == 0
    assert f"rows: 20, valid: 2 (of which 2 {SAID}), invalid: 0, duplicates in file: 18," in out
    code, out = _run(capsys, [*argv, "--json"])
    data = json.loads(out)
    assert (data["valid"], data["valid_as_written"], data["duplicates_in_file"]) == (2, 2, 18)
    assert _summary(data["report"])[LABEL] == 2


def test_after_the_run_the_count_holds_the_rows_removed_as_listed(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc("7911600927", "44", Scope.global_(), reason="Wrong number")
    src = tmp_path / "remove.csv"
    # Listed as written; not listed (ends invalid); a valid number not listed.
    src.write_text("Phone\n+447911600927\n+447911600931\n+61412345678\n")
    argv = ["remove", str(src), "--scope", "global", "--base-url", sandbox.base_url]

    code, out = _run(capsys, [*argv, "--note", "asked", "--json"])
    data = json.loads(out)
    assert (code, data["status"]) == (0, "finished"), data
    assert data["removed"] == 1 and data["invalid"] == 1 and data["not_found"] == 1, data
    assert (data["valid"], data["valid_as_written"]) == (2, 1)
    assert _summary(data["report"])[LABEL] == 1
