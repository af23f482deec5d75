"""A business's number beside the customer's, headed in another language or held as number
cells, imports the customers (regression check V2 #1, #5).

"Número de la empresa" beside "Número del cliente" (and the French, German and Italian pairs)
read the business's line, one valid row and the rest duplicates; "Customer Number" of number
cells beside "Business Number" was refused as an account-number column. "Kundennummer" or
"Número de cliente" alone still names an account number, never read by its digits."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.core.sheet_mapping import ColumnMapping, names_own_line, propose_mapping
from app.core.sheet_types import CellValue, Row

LINE = "+13035550142"
CONSUMERS = ["+17205551234", "+17205551235", "+17205551236", "+17205551237"]
PAIRS = [
    ("Número de la empresa", "Número del cliente"),
    ("Numéro de l'entreprise", "Numéro du client"),
    ("Firmennummer", "Kundennummer"),
    ("Numero aziendale", "Numero cliente"),
    ("Número da empresa", "Telefone do cliente"),
    ("Bedrijfsnummer", "Klantnummer"),
]


def _propose(header: Sequence[str], *columns: Sequence[CellValue]) -> ColumnMapping:
    rows: list[Row] = [(n + 2, list(c)) for n, c in enumerate(zip(*columns, strict=True))]
    return propose_mapping(list(header), rows)


@pytest.mark.parametrize(("business", "customer"), PAIRS)
def test_the_customers_column_is_read_in_any_language(business: str, customer: str) -> None:
    dates = ["2026-11-01"] * 4
    mapping = _propose(["Date", business, customer], dates, [LINE] * 4, CONSUMERS)
    assert mapping.phone == 2
    assert names_own_line(business)
    mapping = _propose(["Date", customer, business], dates, CONSUMERS, [LINE] * 4)
    assert mapping.phone == 1


@pytest.mark.parametrize("customer", ["Kundennummer", "Número de cliente", "Numero cliente"])
def test_a_customer_number_alone_is_still_an_account_number(customer: str) -> None:
    mapping = _propose(["Name", customer], ["Ann", "Bo", "Cy", "Di"], CONSUMERS)
    assert mapping.phone is None


def test_number_cells_under_customer_number_beside_a_business_number_are_read() -> None:
    """As LibreOffice saves the CSV to .xls: the numbers stored as numbers."""
    customers: list[CellValue] = [int(n[1:]) for n in CONSUMERS]
    business: list[CellValue] = [int(LINE[1:])] * 4
    mapping = _propose(["Business Number", "Customer Number"], business, customers)
    assert mapping.phone == 1
