"""Leftovers of black-box V3's issue 4: which column is read as the phone column, and what a
refusal says of the columns it did not read.

1. A "Stock Number", "Part Number" or "Security Number" column of phone numbers written as
   such ("(720) 555-0142") was read as the phone column, while "Stock No" or "NSN" was refused:
   a stock, part or security number names goods, never a person, so it is read only when
   chosen, and the refusal names it with the option that reads it.
2. The refusal said a "Volume" column's header "names other numbers (an account, customer or
   member number)": it names what the header names (a quantity or a price, a stock number).
3. The refusal counted the header row among a column's values: 4 phone numbers of 8 rows were
   4 of 9, under half, so the column was not named.
4. A "Key" column of ten-digit ids was read over a "High Priority" column of phone numbers
   (both all valid, the first column winning the tie): a key names a record, as an id does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError

NUMBERS = [
    "303-555-0101", "(720) 555-0142", "212.555.0187", "+1 415 555 0133", "(312) 555-0176",
    "617-555-0119", "206 555 0168", "(404) 555-0123",
]  # fmt: skip


def _write(tmp_path: Path, header: str, rows: list[str]) -> Path:
    path = tmp_path / "file.csv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def _stage(path: Path, phone_column: str | None = None) -> tuple[str, int]:
    settings = JobSettings(path, Scope.global_(), phone_column=phone_column)
    store, summary = stage_import(settings, path.parent / "jobs", connection=None)
    mapping = dict(store.meta().get("mapping") or {})
    store.close()
    return mapping["phone"], summary.valid


def _refusal(path: Path) -> MappingError:
    with pytest.raises(MappingError) as refused:
        stage_import(JobSettings(path, Scope.global_()), path.parent / "jobs", connection=None)
    return refused.value


# --- 1: a stock, part or security number is never read by content -----------------------------


@pytest.mark.parametrize(
    "header",
    [
        "Stock Number", "Part Number", "Security Number", "Serial Number", "Item Number",
        "Model Number", "Product No", "SKU Number", "Part #", "Stock No", "NSN", "CUSIP",
    ],
)  # fmt: skip
def test_a_stock_or_part_number_of_phone_numbers_is_refused_and_named(
    tmp_path: Path, header: str
) -> None:
    path = _write(tmp_path, f'Name,"{header}"', [f'P{i},"{n}"' for i, n in enumerate(NUMBERS)])
    refused = _refusal(path)
    said = str(refused)
    assert said.startswith("No column of phone numbers was found in file.csv."), said
    assert (
        f"'{header}' (column B) holds phone numbers, but its header names a stock, part or "
        "security number, so it is read only when chosen as the phone column."
    ) in said, said
    assert "--phone-column" not in said, said  # the window has no options
    assert refused.cli_text.endswith(
        "so it is read only when chosen as the phone column: --phone-column column:B."
    ), refused.cli_text
    # Chosen, it is read.
    assert _stage(path, phone_column="column:B") == (f"{header} (column B)", len(NUMBERS))


def test_a_security_contact_is_still_read_by_its_content(tmp_path: Path) -> None:
    # Only a header made of a stock, part or security number's words is one.
    path = _write(tmp_path, "Name,Security Contact", [f'P{i},"{n}"' for i, n in enumerate(NUMBERS)])
    assert _stage(path) == ("Security Contact (column B)", len(NUMBERS))


def test_a_customer_number_written_as_phone_numbers_is_still_read(tmp_path: Path) -> None:
    # A person's number written as a phone number is the person's phone number.
    path = _write(tmp_path, "Name,Customer Number", [f'P{i},"{n}"' for i, n in enumerate(NUMBERS)])
    assert _stage(path) == ("Customer Number (column B)", len(NUMBERS))


# --- 2: the refusal says what the header names -------------------------------------------------


@pytest.mark.parametrize("header", ["Volume", "Qty", "Total Amount", "Unit Price"])
def test_a_measure_column_is_said_to_name_a_quantity_or_a_price(
    tmp_path: Path, header: str
) -> None:
    path = _write(tmp_path, f"Name,{header}", [f'P{i},"{n}"' for i, n in enumerate(NUMBERS)])
    refused = _refusal(path)
    said = str(refused)
    assert (
        f"'{header}' (column B) holds phone numbers, but its header names a quantity or a "
        "price, so it is read only when chosen as the phone column."
    ) in said, said
    assert "account, customer or member" not in said, said
    assert "--phone-column column:B." in refused.cli_text, refused.cli_text


def test_columns_of_several_kinds_are_each_said(tmp_path: Path) -> None:
    rows = [f'30355501{i:02},"{n}",x' for i, n in enumerate(NUMBERS)]
    refused = _refusal(_write(tmp_path, "Ref,Total,Name", rows))
    said = str(refused)
    assert (
        "'Ref' (column A) and 'Total' (column B) hold phone numbers, but their headers name an "
        "id or a reference and a quantity or a price, so they are read only when chosen as the "
        "phone column."
    ) in said, said
    assert refused.cli_text.endswith(
        "phone column: --phone-column column:A or --phone-column column:B."
    ), refused.cli_text


def test_an_account_number_is_said_as_before(tmp_path: Path) -> None:
    rows = [f"{3035550100 + i},P{i}" for i in range(8)]
    said = str(_refusal(_write(tmp_path, "Account Number,Name", rows)))
    assert said.endswith(
        "'Account Number' (column A) holds phone numbers, but its header names other numbers "
        "(an account, customer or member number), so it is read only when chosen as the phone "
        "column."
    ), said


# --- 3: the header row is not one of the column's values ---------------------------------------


def test_half_the_data_rows_of_phone_numbers_are_named(tmp_path: Path) -> None:
    # 4 phone numbers of 8 data rows: half, so named (the header made it 4 of 9).
    values = [NUMBERS[0], "A-100", NUMBERS[1], "A-101", NUMBERS[2], "A-102", NUMBERS[3], "A-103"]
    path = _write(tmp_path, "Name,Stock No", [f'P{i},"{v}"' for i, v in enumerate(values)])
    said = str(_refusal(path))
    assert "'Stock No' (column B) holds phone numbers" in said, said


def test_under_half_of_the_data_rows_is_not_named(tmp_path: Path) -> None:
    values = [NUMBERS[0], "A-100", NUMBERS[1], "A-101", NUMBERS[2], "A-102", "A-104", "A-103"]
    path = _write(tmp_path, "Name,Stock No", [f'P{i},"{v}"' for i, v in enumerate(values)])
    said = str(_refusal(path))
    assert "Stock No" not in said, said


def test_half_valid_among_numbers_of_the_same_shape_is_not_named(tmp_path: Path) -> None:
    # Four valid US numbers among eight ten-digit numbers are what any such numbers give.
    values = ["2123456789", "3038675309", "1589542356", "2687003400"]
    values += ["4157623300", "1302456120", "2031567890", "7182340001"]
    path = _write(tmp_path, "Name,Stock No", [f"P{i},{v}" for i, v in enumerate(values)])
    said = str(_refusal(path))
    assert "Stock No" not in said, said


def test_rows_above_the_header_are_not_counted_either(tmp_path: Path) -> None:
    # A title line and a blank line above the header: 4 of 8 data rows, still half.
    values = [NUMBERS[0], "A-100", NUMBERS[1], "A-101", NUMBERS[2], "A-102", NUMBERS[3], "A-103"]
    rows = [f'P{i},"{v}"' for i, v in enumerate(values)]
    path = _write(tmp_path, "Parts list 2026,", ["", "Name,Stock No", *rows])
    said = str(_refusal(path))
    assert "'Stock No' (column B) holds phone numbers" in said, said


# --- 4: a key column loses to a column of phone numbers ----------------------------------------


@pytest.mark.parametrize("key", ["Key", "Primary Key", "PK", "UID", "Record Key", "Unique Key"])
def test_a_key_column_loses_to_a_column_of_phone_numbers(tmp_path: Path, key: str) -> None:
    # V3 own2/x02: "Key" of 2125550100… was read, "High Priority" only named in a warning.
    rows = [f'{2125550100 + i},"{n}",x' for i, n in enumerate(NUMBERS)]
    path = _write(tmp_path, f"{key},High Priority,Name", rows)
    assert _stage(path) == ("High Priority (column B)", len(NUMBERS))


def test_a_key_column_loses_to_bare_phone_numbers_too(tmp_path: Path) -> None:
    rows = [f"{2125550100 + i},{3035550140 + i},x" for i in range(8)]
    path = _write(tmp_path, "Key,Contact,Name", rows)
    assert _stage(path) == ("Contact (column B)", 8)


def test_a_key_column_alone_is_refused_and_named(tmp_path: Path) -> None:
    rows = [f"{2125550100 + i},x" for i in range(8)]
    refused = _refusal(_write(tmp_path, "Key,Name", rows))
    assert (
        "'Key' (column A) holds phone numbers, but its header names an id or a reference"
    ) in str(refused), str(refused)
    assert _stage(refused_path := tmp_path / "file.csv", phone_column="Key") == (
        "Key (column A)",
        8,
    ), refused_path


def test_a_key_contact_is_read_by_its_content(tmp_path: Path) -> None:
    path = _write(tmp_path, "Name,Key Contact", [f'P{i},"{n}"' for i, n in enumerate(NUMBERS)])
    assert _stage(path) == ("Key Contact (column B)", len(NUMBERS))
