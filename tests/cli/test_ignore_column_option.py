"""``--ignore-column NAME`` sets a column aside for import and remove: an SMS platform's
Campaign column naming its own campaigns ("Holiday Promo") made every row invalid, and nothing
let ``--scope`` apply to every row instead (black-box pass L1 #4, the CLI's part)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.cli.main import main
from tests.conftest import TOKEN

NUMBERS = ("3035550101", "3035550102")


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _log(tmp_path: Path) -> Path:
    path = tmp_path / "sms_log.csv"
    rows = "".join(f"{n},Holiday Promo,STOP\n" for n in NUMBERS)
    path.write_text("Phone,Campaign,Message\n" + rows)
    return path


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def test_an_ignored_campaign_column_lets_the_scope_apply_to_every_row(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(_log(tmp_path)), "--into", "dnc", "--scope", "global"]
    argv += ["--base-url", sandbox.base_url]
    # Without it, each row names a campaign the dialer does not have.
    data = _json(capsys, [*argv, "--dry-run"])
    assert (data["valid"], data["invalid"]) == (0, 2)
    data = _json(capsys, [*argv, "--ignore-column", "campaign"])
    assert (data["valid"], data["inserted"]) == (2, 2)
    assert data["mapping"] == {
        "phone": "Phone (column A)",
        "ignored (as asked)": "Campaign (column B)",
    }
    with ApiClient(sandbox.base_url, TOKEN) as api:
        entries = api.search_dnc(DncQuery()).items
    assert sorted((e.phone_number, e.scope) for e in entries) == [
        (n, Scope.global_()) for n in NUMBERS
    ]


def test_the_line_names_the_columns_set_aside_and_remove_takes_it_too(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _log(tmp_path)
    url = ["--base-url", sandbox.base_url]
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", *url]
    assert main([*argv, "--ignore-column", "column:B", "--ignore-column", "Message"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == (
        "  columns read: phone = 'Phone' (A), ignored (as asked) = 'Campaign' (B), 'Message' (C)"
    ), lines
    argv = ["remove", str(path), "--scope", "global", "--note", "asked", *url]
    # Its Message column says STOP: set aside too, or the removal is refused (B31 F2).
    data = _json(capsys, [*argv, "--ignore-column", "Campaign", "--ignore-column", "Message"])
    assert (data["valid"], data["removed"]) == (2, 2)


def test_a_name_no_column_has_is_a_bad_argument_and_a_resume_refuses_it(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(_log(tmp_path)), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--ignore-column", "Channel"]) == 2
    err = capsys.readouterr().err
    assert "sms_log.csv has no column headed 'Channel'; its headers are 'Phone' (A)" in err
    resume = ["import", "--resume", "import-x", "--ignore-column", "Campaign"]
    assert main(resume) == 2
    err = capsys.readouterr().err
    assert "--ignore-column does not apply to --resume" in err


def test_the_phone_column_named_and_ignored_at_once_is_a_bad_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Re-test M1 #6: the contradiction was exit status 1, as for a file that cannot be used.
    argv = ["import", str(_log(tmp_path)), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--phone-column", "Phone", "--ignore-column", "Phone"]) == 2
    err = capsys.readouterr().err
    assert "is named both as the phone column and as a column to ignore" in err


def test_ignoring_the_phone_column_says_so_when_no_other_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Re-test M1 #7: the refusal only said no column of phone numbers was found.
    argv = ["import", str(_log(tmp_path)), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--ignore-column", "Phone"]) == 1
    err = capsys.readouterr().err
    assert "No column of phone numbers was found in sms_log.csv" in err
    assert "Column A ('Phone'), the one holding them, is set aside as a column to ignore." in err
