"""Black-box B36 F2: the spec gives /dnc/search's insert_date as a moment (``YYYY-MM-DD
hh:mm:ss``) and /sms-opt-out/search's as a day. ``--dnc-insert-date`` makes the sandbox a
service that matches the DNC search's as the spec allows: the whole day (``day``, the default),
the exact moment with a bare date its midnight (``moment``), or a bare date refused (``strict``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from app.cli.main import main
from tests.conftest import TOKEN

DAY = "2026-11-20"


def _seeded(make_sandbox: Callable[..., Any], mode: str) -> Any:
    server = make_sandbox(dnc_insert_date=mode)
    server.bulk_seed_dnc((f"20255501{i:02d}", "1", "0", "", "") for i in range(3))
    for entry_id, moment in ((1, "00:00:00"), (2, "10:30:00"), (3, "23:59:59")):
        server.store.execute(
            "UPDATE dnc SET insert_date = ? WHERE id = ?", (f"{DAY} {moment}", entry_id)
        )
    for moment in ("00:00:00", "10:30:00"):
        server.store.execute(
            "INSERT INTO sms_opt_out(phone_number, phone_code, campaign_id, reason, purpose,"
            " insert_date) VALUES (?, '1', 0, '', '', ?)",
            (f"20255502{moment[:2]}", f"{DAY} {moment}"),
        )
    return server


def _search(server: Any, path: str, insert_date: str) -> dict[str, Any]:
    answer = httpx.post(
        f"{server.base_url}/v1{path}", data={"auth_token": TOKEN, "insert_date": insert_date}
    )
    return dict(answer.json())


def _ids(body: dict[str, Any]) -> list[str]:
    return [entry["id"] for entry in body["data"]["entries"]]


def test_day_mode_the_default_matches_the_whole_day(make_sandbox: Callable[..., Any]) -> None:
    server = _seeded(make_sandbox, "day")
    assert _ids(_search(server, "/dnc/search", DAY)) == ["1", "2", "3"]
    assert _ids(_search(server, "/dnc/search", f"{DAY} 10:30:00")) == ["1", "2", "3"]


def test_moment_mode_matches_the_moment_a_bare_date_its_midnight(
    make_sandbox: Callable[..., Any],
) -> None:
    server = _seeded(make_sandbox, "moment")
    assert _ids(_search(server, "/dnc/search", DAY)) == ["1"]
    assert _ids(_search(server, "/dnc/search", f"{DAY} 10:30:00")) == ["2"]
    assert _ids(_search(server, "/dnc/search", f"{DAY} 10:30:01")) == []


def test_strict_mode_refuses_a_bare_date(make_sandbox: Callable[..., Any]) -> None:
    server = _seeded(make_sandbox, "strict")
    body = _search(server, "/dnc/search", DAY)
    assert (body["success"], body["code"]) == (False, 6008)
    assert _ids(_search(server, "/dnc/search", f"{DAY} 23:59:59")) == ["3"]


@pytest.mark.parametrize("mode", ["day", "moment", "strict"])
def test_the_sms_search_matches_a_day_in_every_mode(
    make_sandbox: Callable[..., Any], mode: str
) -> None:
    server = _seeded(make_sandbox, mode)
    body = _search(server, "/sms-opt-out/search", DAY)
    assert body["total"] == 2


def test_an_unknown_mode_is_refused(make_sandbox: Callable[..., Any]) -> None:
    with pytest.raises(ValueError, match="dnc_insert_date"):
        make_sandbox(dnc_insert_date="week")


def test_sandbox_help_says_each_mode(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["sandbox", "--help"])
    # argparse wraps the help, breaking "YYYY-MM-DD" at a hyphen too.
    out = "".join(capsys.readouterr().out.split())
    assert "--dnc-insert-date{day,moment,strict}" in out
    assert "abareYYYY-MM-DDbeingitsmidnight00:00:00" in out
    assert "refused(code6008)" in out
