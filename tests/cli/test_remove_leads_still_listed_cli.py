"""``dnc-desk remove --lead-status`` says on stderr, in ``--json`` (``warnings`` and
``leads_still_listed``) and in its text result which leads the service re-statused although the
number stays on the DNC list through another entry (black-box B9 #1: only the row's message in
the report said so, and ``--json`` had ``"warnings": []``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN

# The report Summary's label of their count (job_report.STILL_LISTED_LABEL), as a reader sees it.
STILL_LISTED_LABEL = (
    "Leads set to the lead status although the number stays on the DNC list through its other "
    "entries (check their status)"
)
NUMBER = "9497691638"  # global (taken off) and the campaign's own entry (stays)
ALONE = "4074251581"  # global only


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _seed(sandbox: Any) -> tuple[str, str, str]:
    """The campaign whose entry stays, its list, and the lead there on :data:`NUMBER`."""
    with ApiClient(sandbox.base_url, TOKEN) as api:
        campaign = {c.name: c.id for c in api.campaigns()}["Old Winback"]
        sandbox.bulk_seed_dnc(
            [(NUMBER, "1", "0", "", ""), (NUMBER, "1", campaign, "", ""), (ALONE, "1", "0", "", "")]
        )
        listed = api.insert_list("Winback leads", campaign)
    sandbox.bulk_seed_leads(listed, [(NUMBER, "1", "", ""), (ALONE, "1", "", "")])
    lead = sandbox.store.one(
        "SELECT id FROM leads WHERE phone_number = ? AND list_id = ?", (NUMBER, int(listed))
    )
    return campaign, listed, str(lead["id"])


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def _file(tmp_path: Path, *numbers: str) -> Path:
    path = tmp_path / "R_remove.csv"
    path.write_text("Phone Number,Notes\n" + "".join(f"{n},consent re-obtained\n" for n in numbers))
    return path


def test_json_and_stderr_name_the_lead_still_listed(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign, listed, lead = _seed(sandbox)
    argv = ["remove", str(_file(tmp_path, ALONE, NUMBER)), "--scope", "global"]
    argv += ["--lead-status", "CALLBK", "--note", "consent re-obtained", "--json"]
    code, out, err = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    assert code == 0, err
    data = json.loads(out)
    assert data["removed"] == 2
    assert data["leads_still_listed"] == 1
    said = [w for w in data["warnings"] if "looks callable" in w]
    assert len(said) == 1, data["warnings"]
    assert said[0].startswith("1 lead on 1 removed number was set to CALLBK by the service ")
    assert f"(Campaign {campaign})" in said[0]
    assert f"row 3 (lead {lead} (list {listed}))" in said[0]
    assert f"warning: {said[0]}" in err.splitlines()
    book = openpyxl.load_workbook(data["report"], read_only=True)
    try:
        summary = {str(r[0]): r[1] for r in book["Summary"].iter_rows(values_only=True)}
    finally:
        book.close()
    assert summary[STILL_LISTED_LABEL] == 1
    # The service did set it (the removal cannot stop that): the warning is what an officer
    # has to act on.
    status = sandbox.store.one("SELECT status FROM leads WHERE id = ?", (int(lead),))["status"]
    assert status == "CALLBK"


def test_text_result_says_it_and_a_removal_with_none_says_nothing(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed(sandbox)
    url = ["--base-url", sandbox.base_url]
    argv = ["remove", str(_file(tmp_path, NUMBER)), "--scope", "global"]
    argv += ["--lead-status", "CALLBK", "--note", "consent re-obtained"]
    code, out, err = _run(capsys, [*argv, *url])
    assert code == 0, err
    warned = [x for x in err.splitlines() if x.startswith("warning: ") and "looks callable" in x]
    assert len(warned) == 1, err
    assert f"  note: {warned[0].removeprefix('warning: ')}" in out.splitlines()
    # A number listed only globally: its lead is re-statused and nothing stays listed.
    (tmp_path / "again").mkdir()
    argv = ["remove", str(_file(tmp_path / "again", ALONE)), "--scope", "global"]
    argv += ["--lead-status", "CALLBK", "--note", "consent re-obtained", "--json"]
    code, out, err = _run(capsys, [*argv, *url])
    assert code == 0, err
    data = json.loads(out)
    assert (data["removed"], data["leads_still_listed"]) == (1, 0)
    assert not [w for w in data["warnings"] if "looks callable" in w]
    assert "looks callable" not in err
