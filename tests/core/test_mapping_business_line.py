"""The business's own line is not read as the consumers' numbers (regression check V1 #1, #2).

A log headed "Business Number" beside "Customer Number" imported the business's line on every
row and none of the consumers; a column naming the business's side ("Company Phone") or one end
of a log ("Sender") that holds one number over and over is passed over for a column of many,
and said so; "Our number" alone, or a "Business Number" of one number, is not read unasked."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.core.sheet_mapping import (
    ColumnMapping,
    names_business_side,
    names_customers_side,
    names_own_line,
    other_phone_columns,
    propose_mapping,
)
from app.core.sheet_types import CellValue, Row

LINE = "+13035550142"
CONSUMERS = ["+17205551234", "+17205551235", "+17205551236", "+17205551237"]


def _rows(columns: Sequence[Sequence[CellValue]]) -> list[Row]:
    return [(n + 2, list(cells)) for n, cells in enumerate(zip(*columns, strict=True))]


def _propose(header: Sequence[str], *columns: Sequence[CellValue]) -> ColumnMapping:
    return propose_mapping(list(header), _rows(columns))


@pytest.mark.parametrize(
    "business",
    ["Business Number", "Company Number", "Business #", "Business Line", "Company DID"],
)
def test_a_business_number_is_not_read_over_the_customers(business: str) -> None:
    mapping = _propose(
        ["Date", business, "Customer Number", "Message"],
        ["2026-11-01"] * 4,
        [LINE] * 4,
        CONSUMERS,
        ["STOP"] * 4,
    )
    assert mapping.phone == 2
    assert mapping.own_line_by_count is None  # named by its header, as "Our number" is


def test_the_customers_column_is_read_over_one_end_of_a_log() -> None:
    mapping = _propose(["Sender", "Customer Number"], [LINE] * 4, CONSUMERS)
    assert mapping.phone == 1
    assert mapping.own_line_by_count == (0, 1)  # it holds one number: said by the notes


def test_a_company_phone_of_one_number_gives_way_to_a_column_of_many() -> None:
    """ "Company Phone" outscores "Number" by its header; what each holds decides."""
    mapping = _propose(["Company Phone", "Number"], [LINE] * 4, CONSUMERS)
    assert mapping.phone == 1
    assert mapping.own_line_by_count == (0, 1)
    assert other_phone_columns(mapping, _rows([[LINE] * 4, CONSUMERS])) == []


def test_a_company_phone_read_over_by_its_score_is_kept_for_its_note() -> None:
    rows = _rows([[LINE] * 4, CONSUMERS])
    mapping = propose_mapping(["Company Phone", "Phone"], rows)
    assert mapping.phone == 1
    assert mapping.own_line_by_count == (0, 1)
    assert other_phone_columns(mapping, rows) == []  # never offered for import


def test_a_company_phone_of_many_numbers_beside_a_phone_is_offered_as_before() -> None:
    others = ["+13035550101", "+13035550102", "+13035550103", "+13035550104"]
    rows = _rows([others, CONSUMERS])
    mapping = propose_mapping(["Company Phone", "Phone"], rows)
    assert (mapping.phone, mapping.own_line_by_count) == (1, None)
    assert other_phone_columns(mapping, rows) == [0]


@pytest.mark.parametrize("header", ["Our number", "Our Phone", "Our line"])
def test_our_number_alone_is_not_read_unasked(header: str) -> None:
    assert _propose(["Date", header], ["2026-11-01"] * 4, CONSUMERS).phone is None


def test_a_business_number_alone_of_one_number_is_not_read_unasked() -> None:
    assert _propose(["Date", "Business Number"], ["2026-11-01"] * 4, [LINE] * 4).phone is None


def test_a_business_number_alone_of_many_numbers_is_read() -> None:
    """A list of businesses that opted out ("Business Name, Business Number")."""
    mapping = _propose(["Business Name", "Business Number"], ["A", "B", "C", "D"], CONSUMERS)
    assert mapping.phone == 1


def test_outlooks_business_phone_is_still_a_contacts_line() -> None:
    mapping = _propose(
        ["First Name", "Business Phone", "Home Phone"],
        ["Ann", "Bo", "Cy", "Di"],
        CONSUMERS,
        ["", "", "", ""],
    )
    assert (mapping.phone, mapping.own_line_by_count) == (1, None)


@pytest.mark.parametrize(
    ("header", "own", "business", "customer"),
    [
        ("Our number", True, True, False),
        ("Business Number", True, True, False),
        ("Company Line", True, True, False),
        ("Company Phone", False, True, False),
        ("Business Phone", False, True, False),
        ("Business Fax", False, False, False),
        ("Company Name", False, True, False),
        ("Customer Number", False, False, True),
        ("Client Phone", False, False, True),
        ("Your phone number", False, False, True),
        ("Phone", False, False, False),
        ("Sender", False, False, False),
    ],
)
def test_which_side_a_header_names(header: str, own: bool, business: bool, customer: bool) -> None:
    assert names_own_line(header) is own
    assert names_business_side(header) is business
    assert names_customers_side(header) is customer
