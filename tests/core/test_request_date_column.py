"""Which column is the request date: the one whose header names the consumer's request wins
over a bare "Date", and a header naming another day (a last call, a birthday, the day a row
was added) is never read as it, as the days counted from it would be false evidence of a
timely (or late) request under 47 CFR 64.1200(d)(3)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_mapping import (
    ColumnMapping,
    DateColumn,
    DateRank,
    Role,
    header_role,
    other_date_columns,
    propose_from_preview,
    propose_mapping,
    request_date_rank,
)
from app.core.sheet_types import CellValue, Row

INSERTED = dt.date(2026, 11, 20)
REQUESTED = dt.date(2026, 1, 5)  # 221 business days before INSERTED


def numbered(*rows: list[CellValue]) -> list[Row]:
    return [(i, row) for i, row in enumerate(rows, 1)]


def mapped(header: str, *rows: list[CellValue]) -> ColumnMapping:
    return propose_mapping(header.split(","), numbered(*rows))


@pytest.mark.parametrize(
    ("header", "column"),
    [
        # The black-box findings.
        ("Phone,Last Call Date,Opt-out Request Date", 2),
        ("Phone,Date,Date of request", 2),
        ("Phone,Date of Birth", None),
        ("Phone,Expiry Date", None),
        ("Phone,Created", None),
        ("Phone,insert_date", None),
        # Whatever the order, the header naming the request wins.
        ("Phone,Opt-out Request Date,Last Call Date", 1),
        ("Phone,Date of request,Date", 1),
        ("Date,Phone,Date Received", 2),
        ("Phone,Timestamp,Unsubscribe date", 2),
        ("Phone,Date,Submitted", 2),
        ("Phone,Submitted,Opt-out date", 2),
        # A bare date is read when nothing better is there.
        ("Phone,Date", 1),
        ("Phone,Date of Birth,Date", 2),
        ("Phone,Last Call Date,Date,Created At", 2),
        ("Phone,Timestamp", 1),
        # Equals: the first, as for every other role.
        ("Phone,Request Date,Date Received", 1),
        ("Phone,Date,When", 1),
        # Other days, none of them the request.
        ("Phone,Date Added,Modified Date,Last Contacted,Sent Date,Due Date", None),
        ("Phone,Start Date,End Date,Payment Date,Ship Date,Order Date,DOB", None),
        ("Phone,Invoice Date,Opt-in date,Consent date,Date Updated,Inserted", None),
        ("Phone,Last called on,Campaign start date,Date added to DNC", None),
    ],
)
def test_the_column_read_as_the_request_date(header: str, column: int | None) -> None:
    row: list[CellValue] = [
        "2025550123" if name == "Phone" else "2026-01-05" for name in header.split(",")
    ]
    assert mapped(header, row).request_date == column


@pytest.mark.parametrize(
    "header",
    [
        # Every name read as the request date before, but "Created".
        "date received|request date|received|received date|received on|date of request|"
        "opt out date|optout date|dnc date|date|requested on|request received|"
        "date requested|requested|submitted|submitted on|date submitted|timestamp|"
        "request timestamp|date of opt out|received at|when",
        # And more ways of saying it.
        "Opt-out Request Date|Opted out on|Unsubscribed at|Unsubscribe Date|Revoked on|"
        "Consent revoked date|Revocation date|STOP received|Stop date|Do Not Call Date|"
        "DNC Request Dt|Date of DNC request|Last opt-out date|Withdrawal date|"
        "optOutDate|requestDate|REQUEST_DATE|datereceived|Date/Time (UTC)|Date:",
    ],
)
def test_headers_read_as_the_request_date(header: str) -> None:
    for name in header.split("|"):
        assert header_role(name) is Role.REQUEST_DATE, name


@pytest.mark.parametrize(
    ("name", "rank"),
    [
        ("Opt-out Request Date", DateRank.REQUEST),
        ("Date received", DateRank.REQUEST),
        ("DNC date", DateRank.REQUEST),
        ("Last opt-out date", DateRank.REQUEST),
        ("Submitted", DateRank.SUBMITTED),
        ("Date submitted", DateRank.SUBMITTED),
        ("Date", DateRank.BARE),
        ("Timestamp", DateRank.BARE),
        ("When", DateRank.BARE),
        ("Date/Time (UTC)", DateRank.BARE),
        ("Last Call Date", DateRank.OTHER),
        ("Date of Birth", DateRank.OTHER),
        ("Expiry Date", DateRank.OTHER),
        ("Expires", None),  # no date word: names no day (and no role)
        ("Created At", DateRank.OTHER),
        ("insert_date", DateRank.OTHER),
        ("Date Added", DateRank.OTHER),
        ("Payment received", DateRank.OTHER),
        ("Request sent date", DateRank.OTHER),
        ("Invoice Date", DateRank.OTHER),
        ("Phone", None),
        ("Requested by", None),
        ("Revoked", None),  # may be a yes/no
        ("Update", None),
        ("Candidate", None),
    ],
)
def test_request_date_rank(name: str, rank: DateRank | None) -> None:
    assert request_date_rank(name) is rank


@pytest.mark.parametrize(
    "name",
    ["Date of Birth", "DOB", "Expiry Date", "Created", "Created On", "insert_date",
     "Last Call Date", "Date Added", "Last Modified", "Invoice Date", "Opt-in date",
     "Campaign start date", "Payment received"],
)  # fmt: skip
def test_headers_naming_another_day_name_no_role(name: str) -> None:
    assert header_role(name) is None


@pytest.mark.parametrize(
    ("name", "role"),
    [
        ("Opt-out reason", Role.REASON),
        ("Reason for opt out", Role.REASON),
        ("Opt out number", Role.PHONE),
        ("DNC phone", Role.PHONE),
        ("Phone received", Role.PHONE),
        ("Request phone number", Role.PHONE),
        ("Campaign", Role.CAMPAIGN),
        ("Opt-out scope", Role.SCOPE),
        ("Dial code", Role.PHONE_CODE),
    ],
)
def test_other_roles_keep_their_headers(name: str, role: Role) -> None:
    assert header_role(name) is role


def test_a_last_call_date_is_not_the_request_date_when_checked() -> None:
    # The finding: the last call (on the day of insertion) was read as the request, so a
    # request 221 business days old was 0 days old and not late.
    preview = numbered(
        ["Phone", "Last Call Date", "Opt-out Request Date"],
        ["2025550123", INSERTED.isoformat(), REQUESTED.isoformat()],
    )
    mapping = propose_from_preview(preview)
    checked, summary = check_all(preview, mapping, CheckOptions(insertion_date=INSERTED))
    assert mapping.describe()["request_date"] == "Opt-out Request Date (column C)"
    assert [(c.request_date, c.business_days, c.late) for c in checked] == [(REQUESTED, 221, True)]
    assert summary.late_requests == 1


def test_a_generic_date_loses_to_the_date_of_request_when_checked() -> None:
    preview = numbered(
        ["Phone", "Date", "Date of request"],
        ["2025550123", INSERTED.isoformat(), REQUESTED.isoformat()],
    )
    mapping = propose_from_preview(preview)
    checked, _ = check_all(preview, mapping, CheckOptions(insertion_date=INSERTED))
    assert [(c.business_days, c.late) for c in checked] == [(221, True)]


def test_other_date_columns_are_listed_for_a_warning() -> None:
    row: list[CellValue] = ["2025550123", "2026-01-05", "2026-01-05", "x", "2026-01-05"]
    mapping = mapped("Phone,Date,Date of request,Reason,Last Call Date", row)
    assert mapping.request_date == 2
    assert other_date_columns(mapping) == [
        DateColumn(1, DateRank.BARE),  # could still be the request date
        DateColumn(4, DateRank.OTHER),  # never read as it
    ]
    # A tie: the first is read, the other is listed at the same rank.
    tie = mapped("Phone,Request Date,Date Received", ["2025550123", "2026-01-05", "2026-01-06"])
    assert tie.request_date == 1
    assert other_date_columns(tie) == [DateColumn(2, DateRank.REQUEST)]
    # No request date read: the dates that were not, and why.
    none = mapped("Phone,Date of Birth,Created", ["2025550123", "1980-01-01", "2026-01-05"])
    assert none.request_date is None
    assert other_date_columns(none) == [DateColumn(1, DateRank.OTHER)]
