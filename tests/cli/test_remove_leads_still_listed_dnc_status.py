"""Black-box bb15: ``remove … --lead-status DNC`` warned that leads set to DNC while their
number stays on the DNC list through another entry made the number "look callable". A lead in
a status the service flags as a DNC status (``/status/search``'s ``dnc``) does not: the warning
says the status is a DNC status and that the leads' status was replaced, and keeps "looks
callable" for a status that is not one (NI, CALLBK)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli.main import main
from app.core.job_store import JobStore
from tests.conftest import TOKEN

# The job file's key of the status's flag (job_report.LEAD_STATUS_DNC).
LEAD_STATUS_DNC = "lead_status_dnc"
NUMBER = "9497691638"  # global (taken off) and the campaign's own entry (stays)


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _seed(sandbox: Any) -> str:
    """The lead, in a list of a campaign whose own entry on :data:`NUMBER` stays; and the
    account's own DNC status (a custom one, as the demo data's DNCREQ)."""
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_status("DNCREQ", "DNC Requested By Caller", final=True, dnc=True)
        campaign = {c.name: c.id for c in api.campaigns()}["Old Winback"]
        sandbox.bulk_seed_dnc([(NUMBER, "1", "0", "", ""), (NUMBER, "1", campaign, "", "")])
        listed = api.insert_list("Winback leads", campaign)
    sandbox.bulk_seed_leads(listed, [(NUMBER, "1", "", "")])
    lead = sandbox.store.one(
        "SELECT id FROM leads WHERE phone_number = ? AND list_id = ?", (NUMBER, int(listed))
    )
    return str(lead["id"])


def _flag(sandbox: Any, status: str) -> bool:
    row = sandbox.store.one("SELECT dnc FROM lead_statuses WHERE status = ?", (status,))
    return str(row["dnc"]) == "Y"


def _remove(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], status: str
) -> tuple[dict[str, Any], str]:
    path = tmp_path / "R_remove.csv"
    path.write_text(f"Phone Number,Notes\n{NUMBER},consent re-obtained\n")
    argv = ["remove", str(path), "--scope", "global", "--lead-status", status]
    argv += ["--note", "consent re-obtained", "--json", "--base-url", sandbox.base_url]
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "Traceback" not in captured.err
    return json.loads(captured.out), captured.err


@pytest.mark.parametrize(("typed", "status"), [("dnc", "DNC"), ("DNCREQ", "DNCREQ")])
def test_a_dnc_status_is_not_said_to_look_callable(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], typed: str, status: str
) -> None:
    lead = _seed(sandbox)
    assert _flag(sandbox, status)  # the sandbox's own flag, not this test's
    data, err = _remove(sandbox, tmp_path, capsys, typed)
    assert (data["removed"], data["leads_still_listed"]) == (1, 1)
    (said,) = [w for w in data["warnings"] if "by the service although" in w]
    assert "callable there" not in said and "looks callable" not in said
    assert said.startswith(
        f"1 lead on 1 removed number was set to {status} by the service although the number "
        "stays on the DNC list through its other entry (Campaign "
    )
    assert (
        f"; {status} is a do-not-call status on the service, so it does not look callable, but the "
        "status it had was replaced: row 2 (lead "
    ) in said
    assert f"warning: {said}" in err.splitlines()
    assert "looks callable" not in err
    assert JobStore(Path(data["job_file"])).meta()[LEAD_STATUS_DNC] is True
    status_now = sandbox.store.one("SELECT status FROM leads WHERE id = ?", (int(lead),))
    assert status_now["status"] == status


@pytest.mark.parametrize("status", ["NI", "CALLBK"])
def test_a_status_that_is_not_a_dnc_one_still_looks_callable(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], status: str
) -> None:
    _seed(sandbox)
    assert not _flag(sandbox, status)
    data, err = _remove(sandbox, tmp_path, capsys, status)
    assert data["leads_still_listed"] == 1
    (said,) = [w for w in data["warnings"] if "by the service although" in w]
    assert "(Campaign " in said
    assert "), so a number still listed there now looks callable: row 2 (lead " in said
    assert "is a DNC status" not in said
    assert f"warning: {said}" in err.splitlines()
    assert JobStore(Path(data["job_file"])).meta()[LEAD_STATUS_DNC] is False
