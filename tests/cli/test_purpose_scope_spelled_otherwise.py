"""A purpose scope the target list has only in another case or spacing is refused before
anything is sent (black-box pass L3 #2: ``--scope purpose:surveys`` beside the list's
"Surveys" inserted every row under a new purpose "surveys", without a word)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.cli.import_cmd import purpose_spellings
from app.cli.main import main
from tests.conftest import TOKEN

LISTED = "2025558101"
NEW = "3035558102"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.fixture
def listed(sandbox: Any) -> Any:
    """The sandbox with one DNC entry of purpose "Surveys" and one of "Debt Collection", and
    one SMS opt-out of purpose "Marketing"."""
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc(LISTED, "1", Scope.purpose("Surveys"))
        api.insert_dnc(LISTED, "1", Scope.purpose("Debt Collection"))
        api.insert_sms(LISTED, "1", Scope.purpose("Marketing"))
    return sandbox


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "numbers.csv"
    path.write_text(f"Phone\n{NEW}\n")
    return path


def _dnc_purposes(sandbox: Any) -> list[str]:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        return sorted(e.purpose for e in api.search_dnc(DncQuery()).items)


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert captured.out == ""
    return captured.err


def test_an_import_under_a_purpose_spelled_otherwise_is_refused(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = ["--base-url", listed.base_url]
    argv = ["import", str(_file(tmp_path)), "--into", "dnc", *url]
    err = _refused(capsys, [*argv, "--scope", "purpose:surveys"])
    assert "has the purpose 'Surveys', not 'surveys' (--scope purpose:surveys)" in err
    assert 'exactly as the list has it: --scope "purpose:Surveys"' in err
    # Spacing too, and a dry run with a connection alike.
    err = _refused(capsys, [*argv, "--scope", "purpose:debt  collection", "--dry-run"])
    assert "has the purpose 'Debt Collection', not 'debt  collection'" in err
    assert _dnc_purposes(listed) == ["Debt Collection", "Surveys"]  # nothing was sent
    # As the list spells it, the rows go in under it.
    assert main([*argv, "--scope", "purpose:Surveys"]) == 0
    capsys.readouterr()
    assert _dnc_purposes(listed) == ["Debt Collection", "Surveys", "Surveys"]


def test_a_new_purpose_is_taken(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(_file(tmp_path)), "--into", "dnc", "--base-url", listed.base_url]
    assert main([*argv, "--scope", "purpose:Fundraising"]) == 0
    capsys.readouterr()
    assert _dnc_purposes(listed) == ["Debt Collection", "Fundraising", "Surveys"]


def test_the_sms_list_is_the_one_searched_and_purpose_option_named(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(_file(tmp_path)), "--base-url", listed.base_url, "--dry-run"]
    err = _refused(
        capsys, [*argv, "--into", "sms-opt-out", "--scope", "purpose", "--purpose", "MARKETING"]
    )
    assert "The SMS opt-out list on the service at " in err
    assert "has the purpose 'Marketing', not 'MARKETING' (--purpose MARKETING)" in err
    assert 'exactly as the list has it: --purpose "Marketing"' in err
    # "Marketing" is on the SMS list only: the DNC list takes "marketing" as a new purpose.
    assert main([*argv, "--into", "dnc", "--scope", "purpose:marketing"]) == 0
    capsys.readouterr()


def test_a_removal_under_a_purpose_spelled_otherwise_is_refused(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["remove", str(_file(tmp_path)), "--note", "asked", "--base-url", listed.base_url]
    err = _refused(capsys, [*argv, "--scope", "purpose:SURVEYS"])
    assert "has the purpose 'Surveys', not 'SURVEYS' (--scope purpose:SURVEYS)" in err
    # Every purpose at once names none to spell.
    assert main([*argv, "--scope", "purpose", "--dry-run"]) == 0
    capsys.readouterr()


def test_a_dry_run_without_a_connection_says_it_could_not_look(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(_file(tmp_path)), "--into", "dnc", "--scope", "purpose:surveys"]
    assert main([*argv, "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "note: The purpose 'surveys' was not compared with the list's purposes" in err


def test_the_spellings_searched() -> None:
    assert purpose_spellings("debt  collection") == [
        "debt  collection",
        "Debt  Collection",
        "DEBT  COLLECTION",
        "Debt  collection",
        "debt collection",
        "Debt Collection",
        "DEBT COLLECTION",
        "Debt collection",
    ]
    assert purpose_spellings("SURVEYS")[:3] == ["SURVEYS", "surveys", "Surveys"]
