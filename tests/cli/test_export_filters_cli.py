"""Black-box pass N1 on ``dnc-desk export``'s filters and what it says.

- #4: a purpose filter spelled otherwise than on the list (a precomposed ü against the list's
  combining mark, other spaces, other case) exported 0 rows with exit 0; it is refused naming
  the list's spelling, as import and remove refuse it.
- #6: a campaign the service lacks, an ``--id`` that is not a number and a purpose longer than
  255 characters were refused by the service (exit 1, read as its failure); they are bad
  arguments (exit 2) before anything is searched.
- #8: a slow export said nothing; it says when the service has not answered, and how far it is.
- #9: "Exported 1 rows"; the filters of the bare purpose scope and of ``--reason`` were shown as
  the service is sent them (``scope=purpose:``, ``reason=-BLANK-``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.cli import export_cmd
from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _seed(sandbox: Any) -> Any:
    from app.api.client import ApiClient

    with ApiClient(sandbox.base_url, TOKEN) as api:
        campaign = next(c.id for c in api.campaigns())
        api.insert_dnc("3035551001", "1", Scope.purpose("Mu\u0308ller"), purpose="Mu\u0308ller")
        api.insert_dnc("3035551006", "1", Scope.purpose("Loan  Offers"), purpose="Loan  Offers")
        api.insert_dnc("3035551011", "1", Scope.campaign(campaign), purpose="campaign with purpose")
        api.insert_dnc("3035551012", "1", Scope.global_(), reason="")
    return campaign


def _export(sandbox: Any, out: Path, *extra: str) -> int:
    return main(["export", "dnc", "--out", str(out), "--base-url", sandbox.base_url, *extra])


@pytest.mark.parametrize(
    ("given", "listed", "fix"),
    [
        (
            ["--scope", "purpose:M\u00fcller"],
            "'Mu\\u0308ller'",
            "--scope $'purpose:Mu\\u0308ller'",
        ),
        (["--scope", "purpose:loan  offers"], "'Loan  Offers'", '--scope "purpose:Loan  Offers"'),
        (
            ["--purpose", "CAMPAIGN WITH PURPOSE"],
            "'campaign with purpose'",
            '--purpose "campaign with purpose"',
        ),
    ],
)
def test_a_purpose_spelled_otherwise_than_on_the_list_is_refused_naming_its_spelling(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    given: list[str],
    listed: str,
    fix: str,
) -> None:
    _seed(sandbox)
    out = tmp_path / "p.csv"
    assert _export(sandbox, out, *given) == 2
    err = capsys.readouterr().err
    assert f"has the purpose {listed}, not " in err
    assert err.rstrip().endswith(f"Give it exactly as the list has it: {fix}.")
    assert not out.exists()


def test_the_purpose_as_the_list_spells_it_exports_its_entries(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed(sandbox)
    out = tmp_path / "p.csv"
    assert _export(sandbox, out, "--scope", "purpose:Mu\u0308ller") == 0
    assert capsys.readouterr().out.startswith(f"Exported 1 row to {out}")
    # A purpose no entry has in any spelling is an empty export, not a refusal.
    assert _export(sandbox, out, "--overwrite", "--scope", "purpose:Nobody") == 0
    assert capsys.readouterr().out.startswith(f"Exported 0 rows to {out}")


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (
            ["--scope", "campaign:9999"],
            "The service at URL has no campaign 9999; its campaigns are 1 ('Spring Renewals') "
            "and 2 ('Old Winback'): give one's id (campaign:ID) or its name (campaign:NAME).",
        ),
        (
            ["--id", "abc"],
            "--id 'abc' is not an entry id: the service's ids are whole numbers (the id column "
            "of an export).",
        ),
        (
            ["--purpose", "x" * 300],
            "--purpose is 300 characters long; the service takes at most 255.",
        ),
        (
            ["--scope", "purpose:" + "x" * 256],
            "--scope purpose:TEXT is 256 characters long; the service takes at most 255.",
        ),
    ],
)
def test_a_filter_the_service_would_refuse_is_a_bad_argument(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    given: list[str],
    said: str,
) -> None:
    out = tmp_path / "x.csv"
    assert _export(sandbox, out, *given, "--json") == 2
    said = said.replace("URL", sandbox.base_url)  # a refusal naming the service names it
    assert json.loads(capsys.readouterr().out) == {"error": said, "exit_status": 2}
    assert not out.exists()


def test_a_listed_campaign_and_a_numeric_id_still_export(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = _seed(sandbox)
    out = tmp_path / "c.csv"
    assert _export(sandbox, out, "--scope", f"campaign:{campaign}") == 0
    assert capsys.readouterr().out.startswith(f"Exported 1 row to {out}")
    assert _export(sandbox, out, "--overwrite", "--id", "1") == 0
    assert capsys.readouterr().out.startswith(f"Exported 1 row to {out}")


def test_filters_are_said_as_typed(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed(sandbox)
    out = tmp_path / "f.xlsx"
    assert _export(sandbox, out, "--scope", "purpose", "--reason", "blank", "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["filters"] == {"scope": "purpose (every purpose)", "reason": "blank"}
    about = dict(openpyxl.load_workbook(out)["About"].iter_rows(values_only=True))
    assert about["Filters"] == "scope=purpose (every purpose), reason=blank"
    assert _export(sandbox, out, "--overwrite", "--reason", "not-blank", "--json") == 0
    assert json.loads(capsys.readouterr().out)["filters"] == {"reason": "not-blank"}


def test_a_slow_export_says_the_service_has_not_answered_and_how_far_it_is(
    make_sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slow = make_sandbox(latency_ms=1500)
    slow.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(3))
    # Scaled down from 10 s and 30 s: each search takes 1.5 s here.
    monkeypatch.setattr(export_cmd, "QUIET_AFTER", 0.3)
    monkeypatch.setattr(export_cmd, "SAY_EVERY", 0.5)
    out = tmp_path / "s.csv"
    assert _export(slow, out, "--json") == 0
    err = capsys.readouterr().err
    assert "No answer from the service for " in err
    assert f"waiting on {slow.base_url}/v1/dnc/search); the export is still trying." in err
    assert "Export running for " in err
