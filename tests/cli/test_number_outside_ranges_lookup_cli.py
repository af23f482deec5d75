"""Black-box B5 #2, rest: ``export dnc --phone-number +447911600927`` and ``evidence
+447911600927`` were refused (exit 2, "not a valid United Kingdom number … in no number range in
use") though the list held the number (UK 7911600927 under 44, "Wrong number"): only
``export --id`` reached it, and an officer asked for its evidence could not get it.

Both commands now search such a number, refused only because it is in no range in use today
(its length right for its country), as written under its code, as a removal looks it up; stderr
says it is not a valid number today and how it was searched, and so do the export's filters
(``--json``, About sheet) and the evidence pack's Summary. Other invalid input (letters, too
short, digits that fit another country under the default code 1) is still refused in one
sentence, exit 2. Run through ``main`` against a sandbox over loopback."""

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

LISTED = "7911600927"  # as the service holds it, under 44
REASON = "not a valid United Kingdom number: 7911600927 (10 digits) is in no number range in use"
SEARCHED = (
    "searched as written, 7911600927 under phone code 44, as the list may hold a number not "
    "valid today"
)


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.fixture
def listed(sandbox: Any) -> str:
    """The entry's id: the service takes the number (6 to 15 digits), as from another tool."""
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc(LISTED, "44", Scope.global_(), reason="Wrong number")
        (entry,) = [e for e in api.iter_dnc() if e.phone_number == LISTED]
    return entry.id


def _summary(path: str) -> dict[Any, Any]:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        return {r[0]: r[1] for r in book["Summary"].iter_rows(values_only=True) if r}
    finally:
        book.close()


@pytest.mark.parametrize(
    "number", [["+447911600927"], ["+44 7911 600927"], ["07911600927", "--phone-code", "44"]]
)
def test_export_finds_a_listed_number_in_no_range_in_use(
    sandbox: Any,
    listed: str,
    number: list[str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    out = tmp_path / "one.xlsx"
    argv = ["export", "dnc", "--out", str(out), "--json", "--phone-number", *number]
    capsys.readouterr()
    status = main([*argv, "--base-url", sandbox.base_url])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    result = json.loads(captured.out)
    assert result["rows"] == 1
    assert f"--phone-number {number[0]!r} is {REASON}; {SEARCHED}.\n" in captured.err
    typed = (
        f"{number[0]} (not a valid number today: searched as written, 7911600927 under phone "
        "code 44)"
    )
    assert result["filters"]["phone_number"] == typed
    book = openpyxl.load_workbook(out)
    about = dict(book["About"].iter_rows(values_only=True))
    assert f"phone_number={typed}" in about["Filters"]
    header, *rows = book.worksheets[0].iter_rows(values_only=True)
    (row,) = rows
    assert str(row[header.index("id")]) == listed
    assert row[header.index("phone_number")] == LISTED


def test_evidence_of_a_listed_number_in_no_range_in_use(
    sandbox: Any, listed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A lead keeping it as written (with its trunk 0) is found too.
    campaign = sandbox.store.one("SELECT id FROM campaigns")["id"]
    sandbox.store.execute(
        "INSERT INTO lists(name, campaign_id, status) VALUES ('UK', ?, 1)", (campaign,)
    )
    sandbox.store.execute(
        "INSERT INTO leads(list_id, created_at, modified_at, phone_number, phone_code) "
        "SELECT id, '2024-01-02 03:04:05', '2024-01-02 03:04:05', '07911600927', '44' "
        "FROM lists WHERE name = 'UK'"
    )
    capsys.readouterr()
    status = main(["evidence", "+447911600927", "--json", "--base-url", sandbox.base_url])
    captured = capsys.readouterr()
    assert status == 3, captured.err  # on a list: a finding
    data = json.loads(captured.out)
    assert data["number"] == "+447911600927"
    assert [(e["id"], e["reason"]) for e in data["dnc"]] == [(listed, "Wrong number")]
    assert len(data["leads"]) == 1
    assert data["dnc_forms_searched"].startswith("7911600927, 07911600927 under phone code 44")
    assert captured.err == f"'+447911600927' is {REASON}; {SEARCHED}.\n"
    summary = _summary(data["report"])
    assert summary["Not a valid number today"] == f"{REASON}; {SEARCHED}"
    assert summary["DNC entries"] == 1


def test_evidence_with_its_code_given_and_not_listed_exits_0(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    status = main(["evidence", LISTED, "--phone-code", "44", "--base-url", sandbox.base_url])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.out.startswith("+447911600927: 0 DNC entries, 0 SMS opt-outs")
    assert f"is {REASON}; {SEARCHED}." in captured.err


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["79116009x7", "--phone-code", "44"], "the number has an extension (x7)"),
        (["12", "--phone-code", "44"], "too short for a United Kingdom number: 2 digits"),
        # Under the default code 1 these digits are a UK number that lost its 0: a guess.
        ([LISTED], "not a valid US number: area code 791 does not exist"),
    ],
)
def test_other_invalid_input_is_still_refused(
    sandbox: Any,
    listed: str,
    argv: list[str],
    reason: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    url = ["--base-url", sandbox.base_url]
    number, *code = argv
    out = str(tmp_path / "x.csv")
    capsys.readouterr()
    assert main(["export", "dnc", "--out", out, "--phone-number", number, *code, *url]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"--phone-number {number!r}: {reason}"), err
    assert err.count("\n") == 1 and "searched as written" not in err
    assert not Path(out).exists()

    assert main(["evidence", *argv, *url]) == 2
    err = capsys.readouterr().err
    assert f"{number!r} cannot be looked up: {reason}" in err
    assert err.count("\n") == 1 and "searched as written" not in err
