"""Black-box pass R4: diff of copies of two services, empty options of the reading commands,
snapshot's scopes as export's, and what export, health and audit print of a scope."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from app.core.sheet_scope import campaign_cell_written
from app.core.snapshots import load_snapshot
from tests.conftest import TOKEN
from tests.core.test_audit import seed_campaign_with_conflicts


@pytest.fixture(autouse=True)
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _snapshot(capsys: pytest.CaptureFixture[str], url: str, *more: str) -> dict[str, Any]:
    status, out, err = _run(capsys, "snapshot", "dnc", "--json", "--base-url", url, *more)
    assert status == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


# R4 #1 ---------------------------------------------------------------------------------


def test_diff_refuses_copies_of_two_services(
    make_sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Two services whose entries share ids by chance: the ids 1 and 2 of one are other
    # numbers than the other's, and were counted as changed.
    one, two = make_sandbox(), make_sandbox()
    for server, numbers in ((one, ("2025550101", "2025550102")), (two, ("3035550101",))):
        with ApiClient(server.base_url, TOKEN) as api:
            for number in numbers:
                api.insert_dnc(number, "1", Scope.global_())
    first = _snapshot(capsys, one.base_url)["path"]
    second = _snapshot(capsys, two.base_url)["path"]

    status, out, err = _run(capsys, "diff", first, second)
    assert status == 2, out
    assert "different services" in err
    assert one.base_url.rstrip("/") in err and two.base_url.rstrip("/") in err
    assert "added" not in out

    # With now: refused before the list is read, naming both services.
    status, out, err = _run(capsys, "diff", first, "--base-url", two.base_url, "--json")
    assert status == 2, out
    assert "different services" in err and two.base_url.rstrip("/") in err
    assert "added" not in out


def test_diff_names_the_service(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    api.insert_dnc("2025550101", "1", Scope.global_())
    first = _snapshot(capsys, sandbox.base_url)["path"]
    url = sandbox.base_url.rstrip("/")

    status, out, err = _run(capsys, "diff", first, "--base-url", sandbox.base_url)
    assert status == 0, err
    assert f"Service: {url}" in out

    report = tmp_path / "d.xlsx"
    status, out, err = _run(
        capsys, "diff", first, "--base-url", sandbox.base_url, "--json", "--out", str(report)
    )
    assert status == 0, err
    assert json.loads(out)["service"] == url
    summary = CalamineWorkbook.from_path(str(report)).get_sheet_by_name("Summary").to_python()
    assert ["Service", url] in [list(row[:2]) for row in summary]


# R4 #2 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "option",
    ["--purpose", "--scope", "--phone-number", "--insert-date", "--id", "--phone-code"],
)
def test_export_refuses_an_empty_option(
    api: ApiClient,
    sandbox: Any,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    option: str,
) -> None:
    api.insert_dnc("2025550101", "1", Scope.global_())
    out_file = tmp_path / "g.xlsx"
    status, out, err = _run(
        capsys, "export", "dnc", "--out", str(out_file), option, "", "--base-url", sandbox.base_url
    )
    assert status == 2, out
    assert f"{option} was given without" in err
    assert not out_file.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ("snapshot", "dnc", "--scope", ""),
        ("snapshot", "dnc", "--scope", " \u200b"),
        ("health", "--scope", ""),
        ("evidence", "2025550101", "--phone-code", ""),
        ("evidence", "2025550101", "--out", ""),
        ("audit", "campaign", "1", "--out", ""),
    ],
)
def test_reading_commands_refuse_an_empty_option(
    sandbox: Any, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    status, out, err = _run(capsys, *argv, "--base-url", sandbox.base_url)
    assert status == 2, out
    option = argv[-2]
    assert f"{option} was given without" in err, err


def test_diff_refuses_an_empty_out(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _snapshot(capsys, sandbox.base_url)["path"]
    status, out, err = _run(capsys, "diff", first, "--out", "", "--base-url", sandbox.base_url)
    assert status == 2, out
    assert "--out was given without" in err


# R4 #5 ---------------------------------------------------------------------------------


def test_snapshot_takes_the_scopes_export_takes(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = next(c.id for c in api.campaigns() if c.name == "Spring Renewals")
    api.insert_dnc("2025550101", "1", Scope.campaign(campaign))
    api.insert_dnc("2025550102", "1", Scope.purpose("Surveys"))
    api.insert_dnc("2025550103", "1", Scope.purpose("Collections"))
    api.insert_dnc("2025550104", "1", Scope.global_())

    named = _snapshot(capsys, sandbox.base_url, "--scope", "campaign:Spring Renewals")
    assert named["entries"] == 1
    assert named["scope"] == f"campaign:Spring Renewals (id {campaign})"
    assert load_snapshot(Path(named["path"])).scope == Scope.campaign(campaign)

    every = _snapshot(capsys, sandbox.base_url, "--scope", "purpose")
    assert every["entries"] == 2
    assert every["scope"] == "purpose (every purpose)"
    # The file reads back as the every-purpose scope, and diff with now reads that again.
    assert load_snapshot(Path(every["path"])).scope == Scope.purpose("")
    status, out, err = _run(capsys, "diff", every["path"], "--base-url", sandbox.base_url)
    assert status == 0, err
    assert "purpose (every purpose)" in out

    status, out, err = _run(
        capsys, "snapshot", "dnc", "--scope", "campaign:Nobody", "--base-url", sandbox.base_url
    )
    assert status == 2, out
    assert "Nobody" in err

    with pytest.raises(SystemExit):
        main(["snapshot", "--help"])
    assert "campaign:NAME" in capsys.readouterr().out


# R4 #9, #3 -----------------------------------------------------------------------------


def test_export_scope_forms_help_and_filters_as_typed(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = _run(
        capsys, "export", "dnc", "--out", str(tmp_path / "a.csv"), "--scope", "nowhere",
        "--base-url", sandbox.base_url,
    )  # fmt: skip
    assert status == 2
    assert "is not a scope" in err and "campaign:NAME" in err and "(every purpose)" in err

    with pytest.raises(SystemExit):
        main(["export", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--phone-number NUMBER", "--phone-code CODE", "--id ID"):
        assert option in text
        helped = text.split(option, 1)[1].lstrip()
        assert not helped.startswith("--"), f"{option} has no help text"

    campaign = next(c.id for c in api.campaigns() if c.name == "Spring Renewals")
    api.insert_dnc("2025550101", "1", Scope.campaign(campaign))
    status, out, err = _run(
        capsys, "export", "dnc", "--out", str(tmp_path / "b.csv"), "--scope",
        "campaign:Spring Renewals", "--json", "--base-url", sandbox.base_url,
    )  # fmt: skip
    assert status == 0, err
    data = json.loads(out)
    assert data["rows"] == 1
    assert data["filters"]["scope"] == f"campaign:Spring Renewals (id {campaign})"


def test_health_says_its_exit_statuses_and_the_lists_spelling(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["health", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Exit status: 0 nothing found; 3 findings" in text

    api.insert_dnc("2025550101", "1", Scope.purpose("Debt Collection"))
    api.insert_sms("2025550102", "1", Scope.purpose("Debt Collection"))
    status, out, err = _run(capsys, "health", "--base-url", sandbox.base_url)
    assert status == 3, err
    assert "purpose:Debt Collection: 1 on SMS opt-out only, 1 on DNC only" in out
    assert "purpose:debt collection" not in out
    # As printed, it is a scope health (and export) take.
    status, out, err = _run(
        capsys, "health", "--scope", "purpose:Debt Collection", "--base-url", sandbox.base_url
    )
    assert status == 3, err
    assert "purpose:Debt Collection:" in out


def test_audit_says_the_every_purpose_scope(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    seeded = seed_campaign_with_conflicts(api)
    status, out, err = _run(
        capsys, "audit", "campaign", seeded.campaign, "--base-url", sandbox.base_url
    )
    assert status == 3, err
    assert "purpose::" not in out
    assert "DNC purpose (any)" in out


def test_a_campaign_cell_of_minus_one_is_written_as_the_purpose_scope() -> None:
    # The check reads -1 (and the float text -1.0) as the API's purpose code; the report's
    # Scope column said campaign:-1.0.
    for cell in ("-1", "-1.0", -1.0, "'-1"):
        assert campaign_cell_written(cell) == "purpose"
    assert campaign_cell_written("0") == "global"
    assert campaign_cell_written("1001.0") == "campaign:1001"
    assert campaign_cell_written("Solar Savings Outreach") == "campaign:Solar Savings Outreach"
    assert campaign_cell_written("purpose:Surveys") == "purpose:Surveys"
