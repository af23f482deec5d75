"""A log with "Our number" and "Customer number" columns imports the customers (leftover of
black-box T1: "Customer number" was taken for an account number, so the business's one line,
under "Our number", went on the list in every row's place and no consumer did).

"Customer number" is read as phone numbers when nearly every value is written as one
("+1 720…", "(720) 555-…"), and, beside a column naming the business's side, when its bare digits
are phone numbers too (regression check V2 #5, 75617e5: an .xls keeps them as numbers); digits
that are no phone numbers are still a CRM's customer id."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, SmsQuery
from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.test_mapping_call_log_caller_id import _stage

LOG = """\
Date,Our number,Customer number,Message
2026-11-01 10:00,+13035550142,+17205551234,STOP
2026-11-01 11:00,+13035550142,+17205551235,stop please
2026-11-02 09:00,+13035550142,+17205551236,Unsubscribe
2026-11-02 09:30,+13035550142,+17205551237,STOP
"""
CUSTOMERS = {"7205551234", "7205551235", "7205551236", "7205551237"}


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def test_the_customers_go_on_the_list_not_the_business_line(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "log.csv"
    path.write_text(LOG)
    argv = ["import", str(path), "--into", "sms-opt-out", "--scope", "global"]
    code = main([*argv, "--base-url", sandbox.base_url, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out
    assert (out["inserted"], out["duplicates_in_file"]) == (4, 0), out
    with ApiClient(sandbox.base_url, TOKEN) as api:
        listed = {e.phone_number for e in api.search_sms(SmsQuery()).items}
    assert listed == CUSTOMERS


def test_our_number_is_named_as_the_business_line(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    path.write_text(LOG)
    mapping, warnings, counts = _stage(path, tmp_path)
    assert mapping["phone"] == "Customer number (column C)"
    assert counts == {"valid": 4, "invalid": 0, "dups": 0}
    assert (
        "Column B ('Our number') names the business's own line, so it is not imported (only "
        "column C ('Customer number') is read)."
    ) in warnings, warnings
    assert not any("--phone-column column:B" in w for w in warnings), warnings


@pytest.mark.parametrize(
    "header", ["Our Phone", "Our line", "Our SMS Number", "Our DID", "Our Number"]
)
def test_our_line_is_not_read_over_a_column_of_numbers(header: str, tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    path.write_text(
        f"{header},Number\n"
        "+13035550142,720-555-1234\n+13035550142,720-555-1235\n+13035550142,720-555-1236\n"
    )
    mapping, _, counts = _stage(path, tmp_path)
    assert mapping["phone"] == "Number (column B)"
    assert counts["valid"] == 3


def test_a_customer_number_of_bare_digits_is_still_an_id(tmp_path: Path) -> None:
    """A CRM's "Customer Number" beside "Phone": the phone column is read, as before."""
    path = tmp_path / "crm.csv"
    path.write_text(
        "Customer Number,Name,Phone\n"
        "3035550101,Ann,720-555-1234\n3035550102,Bo,720-555-1235\n3035550103,Cy,720-555-1236\n"
    )
    mapping, _, counts = _stage(path, tmp_path)
    assert mapping["phone"] == "Phone (column C)"
    assert counts["valid"] == 3


def test_our_number_beside_bare_customer_digits_reads_the_customers(tmp_path: Path) -> None:
    """Bare digits that are phone numbers, beside the business's own line: the customers are
    read (this file was refused until 75617e5, as an .xls of the same log, whose cells are
    numbers, was: regression check V2 #5), the note naming the business's column."""
    path = tmp_path / "log.csv"
    path.write_text(
        "Our number,Customer number,Message\n"
        "+13035550142,7205551234,STOP\n+13035550142,7205551235,STOP\n"
        "+13035550142,7205551236,STOP\n"
    )
    mapping, notes, counts = _stage(path, tmp_path)
    assert mapping == {"phone": "Customer number (column B)"}
    assert counts["valid"] == 3
    assert any("'Our number') names the business's own line" in n for n in notes), notes


def test_our_number_beside_customer_ids_is_refused(tmp_path: Path) -> None:
    """With the customer's column of ids (digits no phone number has), the business's own line
    is not imported in its place: the file is refused, naming it."""
    from app.core.job_staging import MappingError

    path = tmp_path / "log.csv"
    path.write_text(
        "Our number,Customer number,Message\n"
        "+13035550142,100234,STOP\n+13035550142,100235,STOP\n+13035550142,100236,STOP\n"
    )
    with pytest.raises(MappingError) as caught:
        _stage(path, tmp_path)
    assert "'Our number' (column A) names the business's own line" in str(caught.value)
