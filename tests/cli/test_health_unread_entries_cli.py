"""Black-box bb11 F8 and F9 on ``health``:

- F8: 101,500 +44 numbers on both lists (one day, one scope, so no search of the split gets
  under the service's paging cap) printed "101,000 of 101,500 entries checked", no warning, exit
  0; with the SMS rows in the reverse id order, 500 "on SMS opt-out only" and 500 "on DNC only",
  all false. Now entries not read make health warn that findings among them are not known and
  exit 3, and a number the other list may hold unread is counted "not known", not a gap; a gap
  whose other list's part was read whole is still named.
- F9: the gap lists printed bare digits (a +44 number as 2079460000) and --json gave bare
  strings; they now show the number with its country code, and --json objects.

A cap of 2,000 (3,000 entries reachable at 1,000 a page) stands in for the service's 100,000.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.limits import PageLimits
from app.api.scope import Scope
from app.cli.main import main
from app.sandbox.params import now_timestamp
from tests.conftest import TOKEN

SMALL_CAP = PageLimits("/dnc/search", default_limit=100, max_limit=1000, max_offset=2000)
ROWS = 3_500  # 500 past what one search reaches
UK = [f"79111{i:05d}" for i in range(ROWS)]


@pytest.fixture(autouse=True)
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    monkeypatch.setattr("app.core.snapshots.limits_of", lambda kind: SMALL_CAP)


def _seed_both(sandbox: Any, *, sms_reversed: bool) -> None:
    """The same +44 global numbers on both lists, one reason, one insert day: no finding."""
    sandbox.bulk_seed_dnc((n, "44", "0", "req", "") for n in UK)
    stamp = now_timestamp()
    sandbox.store.executemany(
        "INSERT INTO sms_opt_out(phone_number, phone_code, campaign_id, reason, purpose,"
        " insert_date) VALUES (?, '44', 0, 'req', '', ?)",
        ((n, stamp) for n in (reversed(UK) if sms_reversed else UK)),
    )


def _health(capsys: pytest.CaptureFixture[str], sandbox: Any, *more: str) -> tuple[int, str]:
    status = main(["health", *more, "--base-url", sandbox.base_url])
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    return status, out


def test_entries_not_read_are_said_and_exit_3(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed_both(sandbox, sms_reversed=False)
    status, out = _health(capsys, sandbox)
    assert status == 3, out
    assert "DNC: 3,000 of 3,500 entries checked" in out
    assert (
        "Warning: 500 entries of the DNC list (no search of the service reaches them) and 500 "
        "entries of the SMS opt-out list (no search of the service reaches them) could not be "
        "read: findings among them are not known." in out
    )
    status, out = _health(capsys, sandbox, "--json")
    data = json.loads(out)
    assert status == 3
    assert (data["dnc"]["unreachable"], data["sms_opt_out"]["unreachable"]) == (500, 500)
    assert data["warning"].startswith("500 entries of the DNC list")


def test_a_number_the_other_list_may_hold_unread_is_not_known_not_a_gap(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # SMS read from the other end: each list's 500 unread numbers are the other's read ones.
    _seed_both(sandbox, sms_reversed=True)
    # Real gaps in parts both lists read whole (+1), named as gaps all the same.
    api.insert_sms("3035550101", "1", Scope.global_(), reason="STOP")
    api.insert_dnc("3035550177", "1", Scope.global_(), reason="asked")
    status, out = _health(capsys, sandbox)
    assert status == 3, out
    lines = out.splitlines()
    assert (
        "global: 1 on SMS opt-out only, 1 on DNC only; not known: 500 on SMS opt-out and 500 on "
        "DNC whose entries on the other list were not all read"
    ) in lines
    sms_at = lines.index("  on SMS opt-out only:")
    assert lines[sms_at + 1].startswith("    +13035550101 (SMS opt-out id ")
    dnc_at = lines.index("  on DNC only:")
    assert lines[dnc_at + 1].startswith("    +13035550177 (DNC id ")
    assert "+447911" not in out  # no +44 number is a gap: each is on both lists
    assert "1,000 numbers on one list may be among the other's entries not read" in out

    status, out = _health(capsys, sandbox, "--json")
    data = json.loads(out)
    assert status == 3
    [gap] = data["gaps"]
    assert [e["phone_number"] for e in gap["sms_not_dnc"]] == ["3035550101"]
    assert [e["phone_number"] for e in gap["dnc_not_sms"]] == ["3035550177"]
    assert (gap["sms_not_known"], gap["dnc_not_known"]) == (500, 500)


def test_gap_numbers_carry_their_country_code(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # One national number under +1 on DNC and under +44 on SMS opt-out: two numbers.
    api.insert_dnc("3035550177", "1", Scope.global_(), reason="asked")
    sandbox.store.execute(
        "INSERT INTO sms_opt_out(phone_number, phone_code, campaign_id, reason, purpose,"
        " insert_date) VALUES ('3035550177', '44', 0, 'STOP', '', ?)",
        (now_timestamp(),),
    )
    status, out = _health(capsys, sandbox)
    assert status == 3, out
    lines = out.splitlines()
    assert "global: 1 on SMS opt-out only, 1 on DNC only" in lines
    sms_at = lines.index("  on SMS opt-out only:")
    assert lines[sms_at + 1].startswith("    +443035550177 (SMS opt-out id ")
    dnc_at = lines.index("  on DNC only:")
    assert lines[dnc_at + 1].startswith("    +13035550177 (DNC id ")
    assert "Warning" not in out

    status, out = _health(capsys, sandbox, "--json")
    data = json.loads(out)
    [gap] = data["gaps"]
    [sms] = gap["sms_not_dnc"]
    [dnc] = gap["dnc_not_sms"]
    assert (sms["phone_number"], sms["phone_code"], sms["scope"]) == ("3035550177", "44", "global")
    assert (dnc["phone_number"], dnc["phone_code"], dnc["scope"]) == ("3035550177", "1", "global")
    assert sms["id"] == str(sandbox.store.one("SELECT id FROM sms_opt_out")["id"])
    assert dnc["id"] == str(sandbox.store.one("SELECT id FROM dnc")["id"])
    assert data["warning"] is None
