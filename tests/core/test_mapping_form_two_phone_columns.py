"""Black-box pass N4 #1: a form's two phone columns, the consumer's and the one that called.

"calling" made "Your phone number (the one to stop calling)" a country-code column, and the
form's other number column, "What number called you?" (the business's own caller ID), was
imported in its place. A dialling word names the country code only beside a word for a code,
in a header naming no phone line or number; of a form's two number columns, the one naming the
consumer's number ("Your phone number", "Number to stop calling") is read, and the one naming
the number that called them never over another column of phone numbers.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from app.core.sheet_mapping import Role, header_role, propose_mapping
from tests.core.test_mapping_call_log_caller_id import _stage

CALLERS = ["(720) 555-0100", "720-555-0101", "(720) 555-0199", ""]
CONSUMERS = ["303-555-4001", "303-555-4002", "303-555-4003", "303-555-4004"]


def _form(tmp_path: Path, caller: str, consumer: str) -> Path:
    path = tmp_path / "form.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["Timestamp", caller, consumer, "Anything else?"])
        for day, (theirs, mine) in enumerate(zip(CALLERS, CONSUMERS, strict=True)):
            writer.writerow([f"11/2{day}/2026 14:22:05", theirs, mine, ""])
    return path


@pytest.mark.parametrize(
    ("caller", "consumer"),
    [
        ("What number called you?", "Your phone number (the one to stop calling)"),
        ("Number that called you", "Your phone number (the one to stop calling)"),
        ("Caller's number", "Phone number to stop calling"),
        ("What number called you?", "Your phone number"),
        ("What number called you?", "Number to stop calling"),
        ("What phone number called you?", "Phone"),
        ("What phone number called you?", "Home phone (optional)"),
        ("Caller ID", "Your number"),
    ],
)
def test_a_form_reads_the_consumers_number_not_the_one_that_called(
    tmp_path: Path, caller: str, consumer: str
) -> None:
    mapping, warnings, counts = _stage(_form(tmp_path, caller, consumer), tmp_path)
    assert mapping["phone"] == f"{consumer} (column C)"
    assert "phone_code" not in mapping
    assert counts == {"valid": 4, "invalid": 0, "dups": 0}
    assert not any("country codes" in w for w in warnings), warnings


@pytest.mark.parametrize(
    "header",
    [
        "Your phone number (the one to stop calling)",
        "Phone number to stop calling",
        "Number to stop calling",
        "Calling number",
        "Dial-in number",
    ],
)
def test_a_header_naming_a_number_is_no_country_code(header: str) -> None:
    assert header_role(header) is Role.PHONE


@pytest.mark.parametrize(
    "header",
    ["Calling Code", "Country calling code (+)", "Dial prefix", "International dialling prefix"],
)
def test_a_dialling_code_is_still_read_as_one(header: str) -> None:
    assert header_role(header) is Role.PHONE_CODE


def test_a_lone_stop_calling_column_is_read_beside_a_calling_code() -> None:
    header = ["Name", "Number to stop calling", "Calling Code"]
    rows = [(2, ["A", "303-555-4201", "1"]), (3, ["B", "20 7946 0958", "44"])]
    mapping = propose_mapping(header, rows)
    assert (mapping.phone, mapping.phone_code) == (1, 2)
