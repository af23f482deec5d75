"""``dnc-desk audit campaign ID``: JSON keys, report, exit statuses, connection options."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli.main import main
from app.core.audit_records import AuditRecords
from app.core.connections import Connection, ConnectionStore
from app.core.paths import AppPaths
from app.core.tokens import TokenStore
from tests.conftest import TOKEN
from tests.core.test_audit import seed_campaign_with_conflicts


@pytest.fixture
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_conflicts_exit_3_with_json_and_report(
    api: ApiClient,
    sandbox: Any,
    env_token: None,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    seeded = seed_campaign_with_conflicts(api)
    out_path = tmp_path / "report.xlsx"
    status, out, err = _run(
        capsys,
        "audit", "campaign", seeded.campaign, "--base-url", sandbox.base_url,
        "--json", "--out", str(out_path), "--concurrency", "4",
    )  # fmt: skip
    assert status == 3, err
    assert out.count("\n") == 1  # one JSON object on one line, as every command prints it
    data = json.loads(out)
    for key in ("lists", "leads", "numbers", "conflicts", "unparseable", "report"):
        assert key in data
    assert (data["lists"], data["leads"], data["numbers"]) == (2, 7, 9)
    assert (data["conflicts"], data["unparseable"]) == (6, 1)
    assert data["report"] == str(out_path.resolve())
    assert out_path.is_file()
    assert len(data["conflict_rows"]) == 6
    for text in (out, err, out_path.read_bytes().decode("latin-1")):
        assert TOKEN not in text
    paths = AppPaths.default()
    with AuditRecords.in_data_dir(paths.data_dir) as records:
        last = records.last(sandbox.base_url, seeded.campaign)
    assert last is not None and last.report_sha256 == data["report_sha256"]
    assert last.conflicts == 6


def test_lookup_forced_from_the_command_line(
    api: ApiClient, sandbox: Any, env_token: None, capsys: pytest.CaptureFixture[str]
) -> None:
    seeded = seed_campaign_with_conflicts(api)
    status, out, _ = _run(
        capsys, "audit", "campaign", seeded.campaign, "--base-url", sandbox.base_url,
        "--json", "--max-download-pages", "0",
    )  # fmt: skip
    assert status == 3
    data = json.loads(out)
    assert {s["strategy"] for s in data["strategies"]} == {"lookup"}
    assert data["conflicts"] == 6
    # Without --out the report goes to the reports folder.
    assert Path(data["report"]).parent == AppPaths.default().reports_dir


def test_clean_campaign_exits_0_through_a_saved_connection(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    api.insert_lead(api.insert_list("Clean list one", camp), "2025550150")
    paths = AppPaths.default()
    ConnectionStore(paths.connections_file).save(Connection("Sandbox", sandbox.base_url))
    TokenStore().set("Sandbox", TOKEN)
    status, out, err = _run(capsys, "audit", "campaign", camp, "--connection", "Sandbox")
    assert status == 0, err
    assert out.startswith(f"Campaign Spring Renewals (id {camp}): clean. ")
    # Counts of one read as one (it said "1 lists, 1 leads, 1 numbers checked").
    assert "1 list, 1 lead, 1 number checked, 0 conflicts, 0 unparseable numbers.\n" in out
    assert TOKEN not in out + err


@pytest.mark.parametrize(
    ("argv", "env", "status", "phrase"),
    [
        (["--base-url", "{url}"], False, 2, "DNC_DESK_TOKEN"),
        (["--connection", "Nope"], True, 2, "no saved connection named"),
        ([], True, 2, "--connection NAME or --base-url URL"),
        (["--base-url", "{url}", "--out", "x.csv"], True, 2, ".xlsx"),
    ],
)
def test_cannot_start(
    sandbox: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    env: bool,
    status: int,
    phrase: str,
) -> None:
    if env:
        monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    else:
        monkeypatch.delenv("DNC_DESK_TOKEN", raising=False)
    args = [a.format(url=sandbox.base_url) for a in argv]
    code, out, err = _run(capsys, "audit", "campaign", "1", *args)
    assert code == status
    assert phrase in err
    assert err.count("\n") == 1  # one sentence
    assert out == ""


def test_unknown_campaign_and_bad_token(
    sandbox: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    code, _, err = _run(capsys, "audit", "campaign", "999", "--base-url", sandbox.base_url)
    assert code == 2 and "no campaign with the id or name '999'" in err
    monkeypatch.setenv("DNC_DESK_TOKEN", "tok-wrong-000000")
    code, _, err = _run(capsys, "audit", "campaign", "1", "--base-url", sandbox.base_url)
    # Refused while the campaign is looked up, before any lead is read.
    assert code == 1 and "could not start" in err
    assert "tok-wrong-000000" not in err


def _run_module(
    module: Any, capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[int, str, str]:
    """Run a subcommand module not yet in main's registry (evidence, health)."""
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)
    status = module.run(parser.parse_args(list(argv)))
    out, err = capsys.readouterr()
    return status, out, err


def test_evidence_command(
    api: ApiClient,
    sandbox: Any,
    env_token: None,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    from app.cli import evidence_cmd

    seeded = seed_campaign_with_conflicts(api)
    out_path = tmp_path / "evidence.xlsx"
    status, out, err = _run_module(
        evidence_cmd, capsys, "(202) 555-0101", "--json", "--out", str(out_path),
        "--base-url", sandbox.base_url,
    )  # fmt: skip
    assert status == 3, err
    data = json.loads(out)
    assert data["number"] == "+12025550101"
    assert [d["scope"] for d in data["dnc"]] == ["global"]
    assert {(d["id"], d["field"]) for d in data["leads"]} == {
        (seeded.leads["L1"], "phone_number"),
        (seeded.leads["L7"], "phone_number"),
    }
    assert out_path.is_file() and TOKEN not in out + err
    status, out, _ = _run_module(evidence_cmd, capsys, "2025550177", "--base-url", sandbox.base_url)
    assert status == 0 and "0 DNC entries" in out
    status, _, err = _run_module(evidence_cmd, capsys, "123", "--base-url", sandbox.base_url)
    assert status == 2 and "cannot be looked up" in err


def test_health_command(
    api: ApiClient, sandbox: Any, env_token: None, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import health_cmd

    status, out, err = _run_module(health_cmd, capsys, "--base-url", sandbox.base_url)
    assert status == 0, err  # empty lists: nothing to report
    seed_campaign_with_conflicts(api)
    status, out, err = _run_module(health_cmd, capsys, "--json", "--base-url", sandbox.base_url)
    assert status == 3, err
    assert out.count("\n") == 1
    data = json.loads(out)
    assert data["dnc"]["checked"] == 6
    assert data["dnc"]["findings"]["blank_reason"]["count"] == 3
    assert data["dnc"]["findings"]["inactive_campaign"]["count"] == 1
    gaps = {g["scope"]: g for g in data["gaps"]}
    assert [e["phone_number"] for e in gaps["global"]["sms_not_dnc"]] == ["2025550106"]
