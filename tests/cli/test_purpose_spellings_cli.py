"""Purposes are compared with the target list's by case, white space and Unicode form, from a
page-by-page read of its purposes (re-test M2 #2, severe: 'Loan  Offers' on the list, with two
spaces, let ``--scope "purpose:loan offers"`` insert under a new purpose; so did a trailing
space, a tab, a decomposed accent, 'STRASSE' beside 'Straße', a row's Purpose or Scope cell
and ``--purpose`` as the rows' default; M2 #5: of two spellings on the list, only one was
suggested)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.cli import import_cmd
from app.cli.import_cmd import option_exactly
from app.cli.main import main
from app.core import job_staging
from tests.conftest import TOKEN

DECOMPOSED = "Mu\u0308ller"
LISTED = [
    "Loan  Offers",
    "Solar Leads ",
    "Tab\tSep",
    "Marketing",
    "surveys",
    "Surveys",
    DECOMPOSED,
    "Straße",
    "Fundraising",
]
NEW = "3035558102"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.fixture
def listed(sandbox: Any) -> Any:
    """The sandbox's DNC list with an entry under each purpose of LISTED, written into its
    database as another tool may have written them."""
    sandbox.bulk_seed_dnc((f"20255581{i:02d}", "1", "-1", "", p) for i, p in enumerate(LISTED))
    return sandbox


def _purposes(sandbox: Any) -> list[str]:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        return sorted(e.purpose for e in api.search_dnc(DncQuery()).items)


def _numbers(tmp_path: Path) -> Path:
    path = tmp_path / "numbers.csv"
    path.write_text(f"Phone\n{NEW}\n")
    return path


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and captured.out == ""
    return captured.err


@pytest.mark.parametrize(
    ("typed", "listed_as", "fix"),
    [
        ("loan offers", "'Loan  Offers'", '--scope "purpose:Loan  Offers"'),
        ("Loan Offers", "'Loan  Offers'", '--scope "purpose:Loan  Offers"'),
        ("tab sep", "'Tab\\tSep'", "--scope $'purpose:Tab\\tSep'"),
        ("Müller", "'Mu\\u0308ller'", "--scope $'purpose:Mu\\u0308ller'"),
        ("STRASSE", "'Straße'", '--scope "purpose:Straße"'),
    ],
)
def test_a_purpose_the_list_writes_otherwise_is_refused(
    listed: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    typed: str,
    listed_as: str,
    fix: str,
) -> None:
    argv = ["import", str(_numbers(tmp_path)), "--into", "dnc", "--base-url", listed.base_url]
    err = _refused(capsys, [*argv, "--scope", f"purpose:{typed}"])
    assert f"has the purpose {listed_as}, not '{typed}' (--scope purpose:{typed})" in err
    assert f"Give it exactly as the list has it: {fix}." in err
    assert _purposes(listed) == sorted(LISTED)  # nothing was sent


def test_the_option_shown_gives_the_purpose_exactly(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(_numbers(tmp_path)), "--into", "dnc", "--base-url", listed.base_url]
    for purpose in ("Loan  Offers", "Tab\tSep", DECOMPOSED):
        assert main([*argv, "--scope", f"purpose:{purpose}"]) == 0, capsys.readouterr().err
        capsys.readouterr()
    assert _purposes(listed) == sorted([*LISTED, "Loan  Offers", "Tab\tSep", DECOMPOSED])
    assert option_exactly("--purpose", 'say "hi"') == "--purpose $'say \"hi\"'"


def test_every_spelling_on_the_list_is_offered(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(_numbers(tmp_path)), "--into", "dnc", "--base-url", listed.base_url]
    err = _refused(capsys, [*argv, "--scope", "purpose:SURVEYS", "--dry-run"])
    assert "has the purposes 'surveys' and 'Surveys', not 'SURVEYS'" in err
    assert (
        'Give the one meant exactly as the list has it: --scope "purpose:surveys" or --scope '
        '"purpose:Surveys".'
    ) in err


def test_a_spelling_no_option_can_give_says_so(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(_numbers(tmp_path)), "--into", "dnc", "--base-url", listed.base_url]
    err = _refused(capsys, [*argv, "--scope", "purpose:Solar Leads"])
    assert "has the purpose 'Solar Leads ', not 'Solar Leads'" in err
    assert "'Solar Leads ' cannot be given in an option" in err
    assert "Give it" not in err


def test_purpose_as_the_rows_default_is_compared(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m1.csv"
    path.write_text("Phone,Scope\n3035560401,-1\n3035560402,global\n")
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--purpose", "fundraising"]
    err = _refused(capsys, [*argv, "--base-url", listed.base_url, "--dry-run"])
    assert "has the purpose 'Fundraising', not 'fundraising' (--purpose fundraising)" in err
    assert 'exactly as the list has it: --purpose "Fundraising".' in err
    # Without a connection it cannot be compared, and says so.
    assert main([*argv, "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "note: The purpose 'fundraising' was not compared with the list's purposes" in err


def test_rows_purposes_take_the_list_spelling(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rows.csv"
    path.write_text(
        "Phone,Scope,Purpose,Reason\n"
        "3035560201,purpose:MARKETING,,row scope cell upper\n"
        "3035560202,-1,marketing,row purpose cell lower\n"
        "3035560203,-1,surveys ,trailing space\n"
        "3035560204,-1,SURVEYS,which?\n"
    )
    argv = ["import", str(path), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", listed.base_url]) == 0
    out = capsys.readouterr().out
    assert "invalid: 1" in out
    assert (
        "note: 2 rows name a purpose the DNC list writes otherwise ('MARKETING' as "
        "'Marketing'; 'marketing' as 'Marketing'; rows 2 and 3)"
    ) in out
    assert "note: 1 row is invalid because the DNC list has its purpose only spelled" in out
    assert _purposes(listed) == sorted([*LISTED, "Marketing", "Marketing", "surveys"])


def test_a_removal_finds_the_entries_of_the_list_spelling(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marketing = f"20255581{LISTED.index('Marketing'):02d}"
    path = tmp_path / "remove.csv"
    path.write_text(f"Phone,Scope\n{marketing},purpose:MARKETING\n")
    argv = ["remove", str(path), "--scope", "global", "--per-row-scope", "--note", "asked"]
    assert main([*argv, "--base-url", listed.base_url]) == 0
    assert "removed: 1" in capsys.readouterr().out
    assert "Marketing" not in _purposes(listed)


def test_a_list_read_only_in_part_is_searched_and_noted(
    listed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # One page of two entries: "Marketing" is beyond it, found by the search of its spellings.
    for module in (import_cmd, job_staging):
        monkeypatch.setattr(module, "PURPOSE_PAGES", 1)
        monkeypatch.setattr(module, "PURPOSE_PAGE", 2)
    argv = ["import", str(_numbers(tmp_path)), "--into", "dnc", "--base-url", listed.base_url]
    err = _refused(capsys, [*argv, "--scope", "purpose:MARKETING"])
    assert "has the purpose 'Marketing', not 'MARKETING'" in err
    assert main([*argv, "--scope", "purpose:Marketing", "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert (
        "note: The DNC list has more purpose entries than the 2 read to learn its purposes, so "
        "not every purpose on it could be compared: the purposes of the options were compared"
    ) in err
