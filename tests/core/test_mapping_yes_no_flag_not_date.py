"""Black-box pass N4 #3: a Yes/No "On DNC" was read as the request date.

"On DNC" ranked as a request date ("on" read as in "Opted out on"), so each row's "No" was
not a date and the warning a yes/no "DNC" column gets was lost. "On" or "at" dates an event
only after it, and a column of yes/no values is never the request date, whatever its header.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.sheet_mapping import propose_mapping, request_date_rank
from tests.core.test_mapping_call_log_caller_id import _csv, _stage


@pytest.mark.parametrize("header", ["On DNC", "On DNC List", "DNC"])
def test_a_yes_no_on_dnc_column_is_a_flag_not_the_request_date(tmp_path: Path, header: str) -> None:
    rows = [("3035552031", "No", "Yes"), ("3035552032", "Yes", "No"), ("3035552033", "No", "Yes")]
    mapping, warnings, counts = _stage(_csv(tmp_path, f"Phone,{header},Callable", rows), tmp_path)
    assert mapping == {"phone": "Phone (column A)"}
    assert counts == {"valid": 3, "invalid": 0, "dups": 0}
    assert any(w.startswith(f"Column B ('{header}') marks") for w in warnings)
    assert not any("date" in w for w in warnings), warnings


def test_on_before_the_event_names_no_day() -> None:
    assert request_date_rank("On DNC") is None
    assert request_date_rank("Opted out on") is not None
    assert request_date_rank("DNC on") is not None


@pytest.mark.parametrize("header", ["Opted out on", "Received", "DNC Date"])
@pytest.mark.parametrize(("yes", "no"), [("Y", "N"), ("TRUE", "FALSE")])
def test_a_yes_no_column_is_never_the_request_date(header: str, yes: str, no: str) -> None:
    rows = [(2, ["3035552031", yes]), (3, ["3035552032", no]), (4, ["3035552033", yes])]
    mapping = propose_mapping(["Phone", header], rows)
    assert mapping.request_date is None


def test_an_event_header_over_text_is_not_the_request_date_but_one_over_dates_is() -> None:
    channels = [(2, ["3035552031", "Email"]), (3, ["3035552032", "Phone call"])]
    assert propose_mapping(["Phone", "Received"], channels).request_date is None
    dates = [(2, ["3035552031", "2026-11-02"]), (3, ["3035552032", "not given"])]
    assert propose_mapping(["Phone", "Received"], dates).request_date == 1
    # A header with a date word is read over damaged values: each row then says why.
    damaged = [(2, ["3035552031", "soon"]), (3, ["3035552032", "Email"])]
    assert propose_mapping(["Phone", "Date received"], damaged).request_date == 1
