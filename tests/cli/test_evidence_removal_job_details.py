"""`dnc-desk evidence` names the removal job of a delete and of a lead re-status as it names an
import's job of an insert: its name, its source row and its report (black-box B20 F3: a
removal's deletes had only the job id and the note, "Job details" empty, ``job_details`` null,
though the removal report is the evidence of what was asked)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN

NUMBER = "3035550141"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    held: dict[str, Any] = json.loads(captured.out)
    return held


def _remove(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> dict[str, Any]:
    source = tmp_path / "removals.csv"
    source.write_text(f"Phone,Reason\n2025550100,other\n{NUMBER},vendor A error\n")
    argv = ["remove", str(source), "--scope", "global", "--name", "Removal R1"]
    argv += ["--note", "Ticket 4411", *extra, "--json", "--base-url", sandbox.base_url]
    removed = _run_json(capsys, argv)
    assert removed["removed"] == 1
    return removed


def test_a_removals_delete_names_the_job_row_and_report(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "requests.csv"
    source.write_text(f"Phone,Request Date\n{NUMBER},2026-11-20\n")
    argv = ["import", str(source), "--into", "dnc", "--scope", "global", "--name", "Vendor A"]
    imported = _run_json(capsys, [*argv, "--json", "--base-url", sandbox.base_url])
    removed = _remove(sandbox, tmp_path, capsys)

    out = tmp_path / "pack.xlsx"
    argv = ["evidence", NUMBER, "--out", str(out), "--json", "--base-url", sandbox.base_url]
    held = _run_json(capsys, argv)
    by_operation = {w["operation"]: w for w in held["writes"]}
    assert set(by_operation) == {"dnc.insert", "dnc.delete"}
    assert by_operation["dnc.insert"]["job_details"]["report"] == imported["report"]
    details = by_operation["dnc.delete"]["job_details"]
    assert details is not None
    assert (details["job"], details["name"], details["row"]) == (removed["job"], "Removal R1", 3)
    assert details["report"] == removed["report"]
    # A removal reads no request date and its report measures no lateness.
    assert (details["request_date"], details["business_days"], details["late"]) == (None,) * 3

    book = openpyxl.load_workbook(out, read_only=True)
    try:
        rows = list(book["Journal"].iter_rows(values_only=True))
    finally:
        book.close()
    header = [str(c) for c in rows[0]]
    operation, details_at = header.index("Operation"), header.index("Job details")
    said = {str(r[details_at]) for r in rows[1:] if r[operation] == "dnc.delete"}
    assert said == {
        f"job {removed['job']} (Removal R1); sheet row 3; job report {removed['report']}"
    }


def test_a_removals_lead_restatus_and_delete_of_a_stored_form_name_the_job(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The entry keeps the country code in its digits ("13035550141"), as its delete sends it;
    # the job's row holds the number as read from the sheet. The lead typed without the code
    # is left by the delete, so the removal sets it by a journaled lead update of its own,
    # which names only the lead.
    sandbox.bulk_seed_dnc([(f"1{NUMBER}", "1", "0", "", "")])
    with ApiClient(sandbox.base_url, TOKEN) as api:
        campaign = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
        listed = api.insert_list("Week 48 leads", campaign)
    sandbox.bulk_seed_leads(listed, [(NUMBER, "1", "", "")])
    removed = _remove(sandbox, tmp_path, capsys, "--lead-status", "CALLBK")

    argv = ["evidence", NUMBER, "--json", "--base-url", sandbox.base_url]
    held = _run_json(capsys, argv)
    by_operation = {w["operation"]: w for w in held["writes"]}
    assert set(by_operation) == {"dnc.delete", "lead.update"}
    for operation, write in by_operation.items():
        details = write["job_details"]
        assert details is not None, operation
        assert (details["job"], details["name"], details["row"]) == (
            removed["job"],
            "Removal R1",
            3,
        )
        assert details["report"] == removed["report"]
