"""Server lifecycle, persistence, demo data shape, operator helpers, and the CLI process."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

import httpx
import phonenumbers
import pytest

from tests.sandbox.conftest import FULL, Api, start
from tests.sandbox.test_status_query_required import every_status

ROOT = Path(__file__).resolve().parents[2]


def dnc_entries(api: Api) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    while True:
        data = api.ok("/dnc/search", limit=1000, offset=len(out))["data"]
        out.extend(data["entries"])
        if len(out) >= data["total"]:
            return out


def all_leads(api: Api) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    while True:
        page = api.ok("/leads/search", limit=2000, offset=len(out))["results"]
        if not page:
            return out
        out.extend(page)


def test_binds_loopback_on_a_free_port(demo_api: Api) -> None:
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", demo_api.server.base_url)
    assert demo_api.server.base_url != "http://127.0.0.1:0"


def test_demo_data_shape(demo_api: Api) -> None:
    campaigns = demo_api.ok("/campaigns/search")["data"]
    assert len(campaigns) >= 5 and {c["status"] for c in campaigns} == {"Y", "N"}
    lists = (
        demo_api.ok("/lists/search", status=1)["data"]
        + demo_api.ok("/lists/search", status=0)["data"]
    )
    assert {row["campaign_id"] for row in lists} == {c["id"] for c in campaigns}
    assert all(len(row["name"]) >= 10 for row in lists)

    leads = all_leads(demo_api)
    assert 2000 <= len(leads) <= 10_000
    codes = Counter(lead["phone_code"] for lead in leads)
    assert codes["1"] > len(leads) // 2 and codes["44"] and codes["61"]
    assert any(re.fullmatch(r"\(\d{3}\) \d{3}-\d{4}", lead["phone_number"]) for lead in leads)
    assert any(re.search(r"[A-Za-z]", lead["phone_number"]) for lead in leads)
    valid = 0
    for lead in leads:
        if lead["phone_number"].isdigit() and lead["phone_code"]:
            region = phonenumbers.region_code_for_country_code(int(lead["phone_code"]))
            valid += phonenumbers.is_valid_number(phonenumbers.parse(lead["phone_number"], region))
    assert valid > 0.9 * len(leads)

    entries = dnc_entries(demo_api)
    scopes = {e["campaign_id"] for e in entries}
    assert {"0", "-1"} <= scopes and scopes - {"0", "-1"}
    assert any(e["reason"] for e in entries) and any(not e["reason"] for e in entries)
    assert all(e["purpose"] for e in entries if e["campaign_id"] == "-1")
    five_years_ago = (date.today() - timedelta(days=5 * 365 + 2)).isoformat()
    assert any(e["insert_date"] < five_years_ago for e in entries)
    assert any(e["insert_date"] > five_years_ago for e in entries)
    lead_numbers = {lead["phone_number"] for lead in leads}
    assert sum(e["phone_number"] in lead_numbers for e in entries) >= 50

    sms = demo_api.ok("/sms-opt-out/search")["records"]
    assert {r["campaign_id"] for r in sms} >= {"0", "-1"}
    assert any(r["campaign_id"] not in ("0", "-1") for r in sms)
    assert any(r["phone_number"] in lead_numbers for r in sms)

    statuses = every_status(demo_api)
    assert any(s["custom_status"] for s in statuses) and any(
        not s["custom_status"] for s in statuses
    )


def test_demo_data_is_deterministic_per_seed(demo_api: Api) -> None:
    apis = [demo_api, Api(start(seed=1)), Api(start(seed=2))]  # demo_api uses seed 1
    try:
        numbers = [
            [e["phone_number"] for e in api.ok("/dnc/search", limit=50)["data"]["entries"]]
            for api in apis
        ]
    finally:
        for api in apis[1:]:
            api.close()
            api.server.stop()
    assert numbers[0] == numbers[1] != numbers[2]


def test_db_file_persists_across_restarts(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.sqlite3"
    server = start(db_path=db, demo=False)
    api = Api(server)
    campaign = server.seed_campaign("Persistent Campaign")
    api.ok("/dnc/insert", phone_number="2025550143", phone_code="1", campaign_id=campaign)
    api.close()
    server.stop()

    server = start(db_path=db, demo=True)  # existing data: no reseed
    api = Api(server)
    try:
        (entry,) = api.ok("/dnc/search")["data"]["entries"]
        assert entry["campaign_name"] == "Persistent Campaign"
        assert [c["name"] for c in api.ok("/campaigns/search")["data"]] == ["Persistent Campaign"]
    finally:
        api.close()
        server.stop()

    server = start(db_path=db, demo=True, reset=True)
    api = Api(server)
    try:
        names = [c["name"] for c in api.ok("/campaigns/search")["data"]]
        assert "Persistent Campaign" not in names and len(names) >= 5
    finally:
        api.close()
        server.stop()


def test_new_empty_sandbox_has_only_system_statuses(api: Api) -> None:
    assert api.ok("/campaigns/search") == {"data": []}
    assert api.ok("/dnc/search")["data"]["total"] == 0
    assert api.ok("/sms-opt-out/search")["total"] == 0
    assert api.ok("/leads/search") == {"success": True, "results": []}
    statuses = every_status(api)
    assert statuses and not any(s["custom_status"] for s in statuses)


def test_reset_demo_data_discards_changes(make_api: Callable[..., Api]) -> None:
    api: Api = make_api(demo=True)
    before = api.ok("/dnc/search", limit=0)["data"]["total"]
    api.ok("/dnc/insert", phone_number="2025550143", phone_code="1", campaign_id="0")
    api.server.reset_demo_data()
    assert api.ok("/dnc/search", limit=0)["data"]["total"] == before


def test_bulk_seed_helpers(api: Api, campaign: str) -> None:
    rows = [(f"20255{i:05d}", "1", "0", "", "") for i in range(5000)]
    rows.append(("2025500000", "1", "0", "dup", ""))  # collides: skipped
    rows.append(("3035550100", "1", "-1", "", "Marketing"))
    rows.append(("3035550100", "1", campaign, "Asked", ""))
    assert api.server.bulk_seed_dnc(rows) == 5002
    assert api.ok("/dnc/search", limit=0)["data"]["total"] == 5002
    assert api.ok("/dnc/search", campaign_id="-1")["data"]["entries"][0]["purpose"] == "Marketing"

    list_id = api.ok("/lists/insert", name="Benchmark Lead List", campaign_id=campaign)["id"]
    leads = [(f"30355{i:05d}", "1", "", "") for i in range(300)]
    assert api.server.bulk_seed_leads(list_id, leads) == 300
    assert len(api.ok("/leads/search", list_id=list_id, limit=2000)["results"]) == 300
    with pytest.raises(ValueError):
        api.server.bulk_seed_leads("999999", leads)


CLI_CODE = (
    "import argparse, sys; from app.sandbox import cli; p = argparse.ArgumentParser(); "
    "cli.add_arguments(p); sys.exit(cli.run(p.parse_args(sys.argv[1:])))"
)


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_cli_prints_its_url_serves_and_stops(tmp_path: Path, stop_signal: signal.Signals) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable, "-c", CLI_CODE, "--port", "0", "--token", FULL, "--read-only-token", "ro",
        "--db", str(tmp_path / "cli.sqlite3"), "--latency-ms", "1",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.fullmatch(r"DNC Desk sandbox serving (http://127\.0\.0\.1:\d+)\n", line)
        assert match, line
        # The token's source and the port picked follow the first line, the token not shown.
        started = process.stdout.readline() + process.stdout.readline()
        assert started == (
            "token: the one given with --token (not shown)\n"
            f"port: {match.group(1).rsplit(':', 1)[1]}, a free one picked for --port 0\n"
        )
        url = match.group(1) + "/v1"
        response = httpx.post(url + "/campaigns/search", data={"auth_token": FULL})
        assert response.status_code == 200 and response.json()["data"]
        response = httpx.post(url + "/dnc/insert", data={"auth_token": "ro"})
        assert response.status_code == 403
        process.send_signal(stop_signal)
        assert process.wait(timeout=10) == 0
        out, err = process.communicate()
        assert out == "" and FULL not in started + err
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
