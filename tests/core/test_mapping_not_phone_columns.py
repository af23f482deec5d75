"""Black-box pass B2 #1, #2 (the mapping's part) and #7: columns that are not phone lines.

#1 A stock price file (commons-csv's bom.csv: Date, Open, High, Low, Close, Volume) was read
   with its "Volume" column as the phone column, every row invalid and a hint to import it
   again as French numbers; with ten-digit volumes, nine share volumes went on the list as US
   numbers. csvkit's "nsn" column of stock numbers (1005-00-073-9421) was read the same way.
   A column whose header names a quantity, a price or a stock number is never read as the
   phone column by its content alone: the file is refused, unless a line is named elsewhere.
#2 A "Phone 1 - Value" column of bare 11-digit Iranian numbers was said to be "refused as it
   writes them (an extension or a note beside the number)": nothing is written beside them.
#7 Google's "Phone 2 - Value" was read over "Phone 1 - Value" holding as many valid numbers:
   of such a tie, the first-numbered or primary line is read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError
from app.core.sheet_mapping import propose_mapping, refused_phone_columns
from app.core.sheet_types import Row


def _stage(
    tmp_path: Path, text: str, phone_column: str | None = None
) -> tuple[dict[str, str], list[str], int, int]:
    """The mapping, the warnings, and the valid and invalid row counts of staging ``text``."""
    path = tmp_path / "file.csv"
    path.write_text(text, encoding="utf-8")
    settings = JobSettings(path, Scope.global_(), phone_column=phone_column)
    store, summary = stage_import(settings, tmp_path / "jobs", connection=None)
    meta = store.meta()
    store.close()
    mapping = dict(meta.get("mapping") or {})
    return mapping, [str(w) for w in meta.get("warnings") or []], summary.valid, summary.invalid


def _refusal(tmp_path: Path, text: str) -> str:
    path = tmp_path / "file.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MappingError) as refused:
        stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    return str(refused.value)


def _rows(lines: list[str]) -> tuple[list[str], list[Row]]:
    header, *data = [line.split(",") for line in lines]
    return header, [(n, list(cells)) for n, cells in enumerate(data, start=2)]


# --- #1: a market data file's Volume, a stock number ------------------------------------------

# commons-csv's bom.csv (its byte order mark and spaces after the commas kept).
BOM_STOCK = (
    "\ufeffDate, Open, High, Low, Close, Volume\n"
    "14-Mar-14,223.80,225.20,220.85,221.51,79448141\n"
    "13-Mar-14,230.00,230.00,224.40,224.42,59454628\n"
    "12-Mar-14,226.30,230.75,225.70,228.98,92063054\n"
    "11-Mar-14,230.00,230.30,225.30,226.25,115683458\n"
    "10-Mar-14,238.00,239.15,229.65,234.07,93871417\n"
    "7-Mar-14,247.05,247.90,238.65,241.76,66214720\n"
    "24-Feb-14,242.40,252.30,241.70,250.71,93462093\n"
)
# The tester's variant: ten-digit volumes, most of them valid US numbers.
BIG_VOLUMES = (
    "\ufeffDate, Open, High, Low, Close, Volume\n"
    "14-Mar-14,223.80,225.20,220.85,221.51,2123456789\n"
    "13-Mar-14,230.00,230.00,224.40,224.42,3038675309\n"
    "12-Mar-14,226.30,230.75,225.70,228.98,1589542356\n"
    "11-Mar-14,230.00,230.30,225.30,226.25,2687003400\n"
    "10-Mar-14,238.00,239.15,229.65,234.07,4157623300\n"
    "7-Mar-14,247.05,247.90,238.65,241.76,1302456120\n"
    "24-Feb-14,242.40,252.30,241.70,250.71,2031567890\n"
    "2-Sep-13,394.17,395.54,389.86,390.87,7182340001\n"
)
# csvkit's ks_1033_data.csv, its first rows.
NSN = (
    "state,county,fips,nsn,item_name,quantity,ui,acquisition_cost,total_cost\n"
    'KS,ALLEN,20001,1005-00-073-9421,"RIFLE,5.56 MILLIMETER",1,Each,499,499\n'
    'KS,ALLEN,20001,1005-00-589-1271,"RIFLE,7.62 MILLIMETER",1,Each,138,138\n'
    'KS,BROWN,20013,2320-01-107-7155,"TRUCK,UTILITY",1,Each,25000,25000\n'
    "KS,BROWN,20013,4110-01-302-0350,REFRIGERATOR-FREEZE,1,EA,190,190\n"
    'KS,BUTLER,20015,1005-01-128-9936,"RIFLE,5.56 MILLIMETER",1,Each,499,499\n'
)


@pytest.mark.parametrize("text", [BOM_STOCK, BIG_VOLUMES, NSN], ids=["bom", "big", "nsn"])
def test_a_file_of_volumes_or_stock_numbers_is_refused(tmp_path: Path, text: str) -> None:
    said = _refusal(tmp_path, text)
    assert said.startswith("No column of phone numbers was found in file.csv"), said
    # Not sent to import the volumes as phone numbers either.
    assert "holds phone numbers" not in said, said


def test_the_volume_column_is_still_read_when_chosen(tmp_path: Path) -> None:
    mapping, _, valid, invalid = _stage(tmp_path, BIG_VOLUMES, phone_column="Volume")
    assert mapping["phone"] == "Volume (column F)"
    assert valid + invalid == 8


@pytest.mark.parametrize(
    "header",
    [
        "Volume", "Vol.", "Price", "Close", "Adj Close", "Amount", "Qty", "Quantity", "Total",
        "Total Cost", "Stock Number", "Stock No.", "NSN", "FIPS", "Cantidad", "Betrag",
        "Montant",
    ],
)  # fmt: skip
def test_a_header_naming_a_measure_is_not_read_by_content(header: str) -> None:
    header_row, rows = _rows(["Name," + header, *[f"n{i},303619{4100 + i}" for i in range(6)]])
    assert propose_mapping(header_row, rows).phone is None


@pytest.mark.parametrize(
    "header",
    [
        "Phone", "Tel", "Mobile", "Cell", "Number", "No.", "Contact number", "MSISDN", "To",
        "From", "Recipient", "Subscriber", "Handset", "Numero", "Teléfono", "Telefonnummer",
        "Phone 1 - Valor", "Phone Volume",
    ],
)  # fmt: skip
def test_a_phone_header_beside_a_quantity_is_read(header: str) -> None:
    """Headers naming a line in other words stay read, a Qty and a Total beside them."""
    header_row, rows = _rows(
        [
            f"Name,{header},Qty,Total",
            *[f"n{i},303-619-{4100 + i},{i + 1},{9 * i}" for i in range(6)],
        ]
    )
    assert propose_mapping(header_row, rows).phone == 1


def test_a_line_beside_a_volume_is_read_and_the_volume_not_offered(tmp_path: Path) -> None:
    lines = ["Phone,Volume"] + [f"720-619-{4100 + i},303619{4200 + i}" for i in range(6)]
    mapping, warnings, valid, _ = _stage(tmp_path, "\n".join(lines) + "\n")
    assert mapping["phone"] == "Phone (column A)"
    assert valid == 6
    assert not any("Volume" in w for w in warnings), warnings


# --- #2: bare numbers of another country are no extension ----------------------------------------

IRAN = (
    "First Name,Last Name,Phone 1 - Value,Phone 2 - Value\n"
    "a,b1,09120000001,02100000000\n"
    "a,b2,+989300000002,09200000003\n"
    "a,b3,02100000001,09010000004\n"
    "a,b4,09360000005,02100000002\n"
    "a,b5,09210000006,09110000007\n"
    "a,b6,invalid-value,09290000008\n"
)


def test_bare_numbers_of_another_country_are_not_said_to_carry_an_extension(
    tmp_path: Path,
) -> None:
    mapping, warnings, _, _ = _stage(tmp_path, IRAN)
    # Phone 1 reads the one number valid as written (+98), Phone 2 none: Phone 1 is read.
    assert mapping["phone"] == "Phone 1 - Value (column C)"
    assert (
        "Column D ('Phone 2 - Value') also holds phone numbers but is not imported: only "
        "column C ('Phone 1 - Value') is read. "
        "To import it too, run the file again with "
        "--phone-column column:D."
    ) in warnings, warnings
    assert not any("extension" in w for w in warnings), warnings


def test_only_numbers_written_with_something_are_refused_as_written() -> None:
    _, rows = _rows(
        [
            "Name,Bare,Extension,Two",
            "a,09120000001,303-619-4101 x12,+1 617-555-0142 ::: +1 303-619-3451",
            "b,09360000005,303-619-4102 #22,303 619 4103  303 619 4104",
            "c,02100000001,303-619-4103 ext. 5,303 619 4105  303 619 4106",
        ]
    )
    assert refused_phone_columns([1, 2, 3], rows) == [2, 3]


# --- #7: of a tie, Phone 1 ----------------------------------------------------------------------

GOOGLE = (
    "Name,Phone 1 - Type,Phone 1 - Value,Phone 2 - Type,Phone 2 - Value\n"
    "Dana,Mobile,+1 617-555-0142 ::: +1 303-619-3451,,\n"
    "Marcus,Mobile,(303) 619-3452,Work,+1 720-555-0100\n"
    "Priya,Home,303-619-3453,,\n"
    "Tom,Mobile,+44 7700 900123,,\n"
    "Ana,Mobile,,Work,3036193454\n"
)


def test_of_two_phone_columns_reading_as_many_the_first_is_read(tmp_path: Path) -> None:
    mapping, warnings, _, _ = _stage(tmp_path, GOOGLE)
    assert mapping["phone"] == "Phone 1 - Value (column C)"
    assert (
        "Column E ('Phone 2 - Value') also holds phone numbers (on 2 rows, 2 of them not the "
        "number read from column C ('Phone 1 - Value') on that row: each such row's message "
        "names it) but is not imported: only column C ('Phone 1 - Value') is read. "
        "To import it too, run the file again with "
        "--phone-column column:E."
    ) in warnings, warnings


@pytest.mark.parametrize(
    ("first", "second"),
    [("Phone 1", "Phone 2"), ("Primary Phone", "Other Phone"), ("Mobile", "Alt Phone")],
)
def test_of_a_tie_the_primary_line_is_read_wherever_it_stands(first: str, second: str) -> None:
    # The primary column to the right, its cells less tidy (one holds a note): still read.
    header, rows = _rows(
        [
            f"Name,{second},{first}",
            "a,720-619-4101,303-619-4201",
            "b,720-619-4102,303-619-4202 (cell)",
            "c,,303-619-4203 after 5pm",
        ]
    )
    assert propose_mapping(header, rows).phone == 2


def test_a_later_line_holding_more_numbers_is_still_read() -> None:
    header, rows = _rows(
        [
            "Name,Phone 1,Phone 2",
            "a,303-619-4101 x1,720-619-4101",
            "b,303-619-4102 x2,720-619-4102",
            "c,,720-619-4103",
        ]
    )
    assert propose_mapping(header, rows).phone == 2


def test_a_company_main_phone_is_not_put_first_for_its_main() -> None:
    # Outlook's columns: "Main" names the company's switchboard, not the contact's first line.
    header, rows = _rows(
        [
            "Name,Company Main Phone,Mobile Phone",
            "a,720-619-4101,303-619-4201",
            "b,720-619-4102,303-619-4202 (cell)",
            "c,,303-619-4203 after 5pm",
        ]
    )
    assert propose_mapping(header, rows).phone == 2
