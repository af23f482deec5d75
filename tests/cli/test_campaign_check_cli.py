"""``dnc-desk import``/``remove`` with a scope column: campaign ids are checked against the
service's campaign list (fetched once per job), in a run and in a dry run; an offline dry run
says it could not check them."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.fixture
def campaign_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts /campaigns/search calls made through the client."""
    calls: list[int] = []
    original = ApiClient.campaigns

    def counted(self: ApiClient, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(ApiClient, "campaigns", counted)
    return calls


def spring_id(sandbox: Any) -> str:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        return next(c.id for c in api.campaigns() if c.name == "Spring Renewals")


def scoped_csv(path: Path, spring: str) -> Path:
    rows = [
        ["2025550101", f"campaign:{spring}"],
        ["2025550102", "9912"],  # row 3
        ["2025550103", "Spring Renewals"],
        ["2025550104", "global"],
    ]
    rows += [[f"20255502{i:02d}", "campaign:9912"] for i in range(30)]  # rows 6-35
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone", "Scope"])
        writer.writerows(rows)
    return path


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any]]:
    code = main([*argv, "--json"])
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1, out
    return code, json.loads(out[0])


def import_argv(src: Path, *extra: str) -> list[str]:
    return ["import", str(src), "--into", "dnc", "--scope", "global", *extra]


def test_unknown_campaign_ids_are_invalid_not_failed(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], campaign_calls: list[int]
) -> None:
    src = scoped_csv(tmp_path / "in.csv", spring_id(sandbox))
    campaign_calls.clear()
    code, data = run_json(capsys, import_argv(src, "--base-url", sandbox.base_url))
    assert code == 0
    assert (data["rows"], data["valid"], data["invalid"]) == (34, 3, 31)
    assert (data["inserted"], data["failed"]) == (3, 0)
    assert data["warnings"] == []
    assert len(campaign_calls) == 1  # the list is fetched once for the whole job
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 3


def test_dry_run_reports_unknown_campaign_ids(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], campaign_calls: list[int]
) -> None:
    src = scoped_csv(tmp_path / "in.csv", spring_id(sandbox))
    campaign_calls.clear()
    code, data = run_json(capsys, import_argv(src, "--base-url", sandbox.base_url, "--dry-run"))
    assert code == 0 and len(campaign_calls) == 1
    assert (data["valid"], data["invalid"], data["inserted"], data["pending"]) == (3, 31, 0, 3)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0
    book = openpyxl.load_workbook(data["report"], read_only=True)
    try:
        rows = {r[0]: r for r in list(book["Rows"].iter_rows(values_only=True))[1:]}
    finally:
        book.close()
    assert "row 3: scope: campaign 9912 does not exist on this connection" in rows[3]
    assert "row 35: scope: campaign 9912 does not exist on this connection" in rows[35]
    # The same through remove.
    code, data = run_json(
        capsys, ["remove", str(src), "--scope", "global", "--per-row-scope", "--base-url",
                 sandbox.base_url, "--dry-run"]
    )  # fmt: skip
    assert code == 0 and (data["valid"], data["invalid"]) == (3, 31)


def test_offline_dry_run_says_it_could_not_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], campaign_calls: list[int]
) -> None:
    src = scoped_csv(tmp_path / "in.csv", "1001")
    code, data = run_json(capsys, import_argv(src, "--dry-run"))
    assert code == 0 and campaign_calls == []
    # Ids pass unchecked; the campaign name cannot be resolved without the list.
    assert (data["valid"], data["invalid"]) == (33, 1)
    assert data["warnings"] == [
        "Campaign ids were not checked, as there was no connection to fetch the campaign list "
        "from; rows name campaign 1001 (1 row), 9912 (31 rows), and a run with a connection "
        "refuses those that do not exist. Row 4 names a campaign by its name, so it counts as "
        "invalid here; with a connection (--connection or --base-url, a dry run too) the names "
        "are looked up, and a row whose name is one campaign's is valid."
    ]
    code = main(import_argv(src, "--dry-run"))
    out = capsys.readouterr().out
    assert code == 0
    assert "  note: Campaign ids were not checked, as there was no connection" in out
    # A campaign scope for the whole file cannot be checked offline either.
    plain = tmp_path / "plain.csv"
    plain.write_text("Phone\n2025550101\n2025550102\n")
    code, data = run_json(
        capsys,
        ["import", str(plain), "--into", "dnc", "--scope", "campaign:9912", "--dry-run"],
    )
    assert code == 0 and data["valid"] == 2
    assert data["warnings"][0].startswith(
        "Campaign ids were not checked, as there was no connection to fetch the campaign list "
        "from; rows name campaign 9912 (2 rows)"
    )
    # Names alone: the sentence says why they are invalid, and nothing of ids.
    named = tmp_path / "named.csv"
    named.write_text("Phone,Campaign\n2025550101,Spring Renewals\n2025550102,Fall Promo\n")
    code, data = run_json(
        capsys, ["import", str(named), "--into", "dnc", "--scope", "global", "--dry-run"]
    )
    assert code == 0 and (data["valid"], data["invalid"]) == (0, 2)
    assert data["warnings"] == [
        "Campaign names were not looked up, as there was no connection to fetch the campaign "
        "list from: rows 2 and 3 name a campaign by its name, so they count as invalid here; "
        "with a connection (--connection or --base-url, a dry run too) the names are looked "
        "up, and a row whose name is one campaign's is valid."
    ]
