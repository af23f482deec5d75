"""Black-box s31: ``health``'s text output said "Numbers not valid for their country code: 1"
and named no entry (the id and number were only in --json), so an officer could not act on a
finding without --json. Every finding and every gap now names its entries, the first 10 of
each, and how many more --json names."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from tests.conftest import TOKEN

# North American numbers whose exchange starts with 1: no such number can be dialled.
INVALID = [f"20212345{n:02d}" for n in range(12)]


@pytest.fixture(autouse=True)
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _health(sandbox: Any, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str]:
    status = main(["health", *more, "--base-url", sandbox.base_url])
    out, err = capsys.readouterr()
    assert status == 3, err
    return status, out


def test_every_finding_names_its_first_ten_entries_and_points_to_json_for_the_rest(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    for number in INVALID:
        api.insert_dnc(number, "1", Scope.global_(), reason="asked")
    api.insert_sms("3035550101", "1", Scope.global_(), reason="STOP")

    _status, out = _health(sandbox, capsys, "--json")
    data = json.loads(out)
    invalid = data["dnc"]["findings"]["invalid_number"]["entries"]
    assert sorted(e["phone_number"] for e in invalid) == INVALID
    ids = {e["phone_number"]: e["id"] for e in invalid}
    gap = data["gaps"][0]
    # Each gap entry an object naming its code, scope and id (black-box bb11 F9).
    assert gap["sms_not_dnc"][0]["phone_number"] == "3035550101"
    assert sorted(e["phone_number"] for e in gap["dnc_not_sms"]) == INVALID
    assert {(e["phone_code"], e["scope"], e["id"]) for e in gap["dnc_not_sms"]} == {
        ("1", "global", ids[n]) for n in INVALID
    }

    _status, out = _health(sandbox, capsys)
    lines = out.splitlines()
    at = lines.index("  Numbers not valid for their country code: 12")
    named = lines[at + 1 : at + 11]
    assert len(named) == 10
    # With its country code, as the gaps name theirs (black-box bb16 M7: bare digits read the
    # same for a +44 and a +1 number).
    for line in named:
        number = line.strip().split(" ")[0]
        assert number.startswith("+1"), line
        assert line.startswith(f"    {number} (global, id {ids[number.removeprefix('+1')]}): ")
    assert lines[at + 11] == "    … and 2 more: see --json"

    # The gaps name their numbers too, with the id on the one list each is on.
    assert "global: 1 on SMS opt-out only, 12 on DNC only" in lines
    sms_at = lines.index("  on SMS opt-out only:")
    assert lines[sms_at + 1].startswith("    +13035550101 (SMS opt-out id ")
    dnc_at = lines.index("  on DNC only:")
    for line in lines[dnc_at + 1 : dnc_at + 11]:
        number = line.strip().split(" ")[0]
        assert line == f"    {number} (DNC id {ids[number.removeprefix('+1')]})", line
    assert lines[dnc_at + 11] == "    … and 2 more: see --json"
