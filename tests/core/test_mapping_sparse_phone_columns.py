"""Black-box pass I2: which column is read as the phone column, and which are named as not.

- A "Phone" column of four numbers and six "N/A" lost to an "Alt Phone" column of two, and was
  named nowhere: 303-619-4100 was lost without a word. Placeholders ("N/A", "-", "none", 0,
  "000-000-0000") count neither for nor against a column being one of phone numbers.
- A column headed as a phone line whose numbers are fewer than half its cells (extensions,
  notes) was neither read nor named; one that holds several numbers is now read over a sparse
  one beside it, and named when not read.
- "Número de cliente", "Kundennummer"… (ten-digit customer numbers) were read as the phone
  column over one headed "Tfno.", "Cel", "Mobilnr."…, abbreviations not known as phone headers.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from tests.core.test_mapping_call_log_caller_id import _csv, _stage


@pytest.mark.parametrize(
    "placeholder", ["N/A", "-", "none", "NULL", "unknown", "0", "000-000-0000"]
)
def test_a_phone_column_of_placeholders_is_read_over_a_sparse_alternative(
    tmp_path: Path, placeholder: str
) -> None:
    rows = [("n0", "303-619-4100", "720-619-4100")]
    rows += [(f"n{i}", f"303-619-410{i}", "") for i in range(1, 4)]
    rows += [(f"n{i}", placeholder, "720-619-4105" if i == 5 else "") for i in range(4, 10)]
    mapping, warnings, counts = _stage(_csv(tmp_path, "Name,Phone,Alt Phone", rows), tmp_path)
    assert mapping["phone"] == "Phone (column B)"
    assert counts["valid"] == 4
    assert warnings == [
        "Column C ('Alt Phone') also holds phone numbers (on 2 rows, 2 of them not the number "
        "read from column B ('Phone') on that row: each such row's message names it) but is "
        "not imported: only column B ('Phone') is read. "
        "To import it too, run the file again with --phone-column column:C."
    ]


def test_a_phone_line_column_of_extensions_is_named_when_not_read(tmp_path: Path) -> None:
    rows = []
    for i in range(10):
        work = f"303-555-01{i:02d} x1{i:02d}" if i < 7 else f"303-555-01{i:02d}"
        rows.append((f"720-555-02{i:02d}", work))
    mapping, warnings, _ = _stage(_csv(tmp_path, "Mobile,Work Phone", rows), tmp_path)
    assert mapping["phone"] == "Mobile (column A)"
    assert any(w.startswith("Column B ('Work Phone') also holds phone numbers") for w in warnings)


def test_a_messy_phone_1_is_read_over_a_sparse_phone_2(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Name", "Phone 1", "Phone 2"])
    for row in [
        ("N0", "303-555-0101", None),
        ("N1", "303-555-0102 x12", "720-555-0190"),
        ("N2", "303-555-0103 ext. 4", None),
        ("N3", "call 303 555 0104 after 5", None),
        ("N4", "303-555-0105 / 303-555-0106", None),
        ("N5", "303-555-0107", None),
        ("N6", "303-555-0108 x9", None),
    ]:
        ws.append(row)
    wb.save(tmp_path / "p12.xlsx")
    mapping, warnings, counts = _stage(tmp_path / "p12.xlsx", tmp_path)
    assert mapping["phone"] == "Phone 1 (column B)"
    assert counts["valid"] == 2  # 303-555-0101 and 0107: read, where they were lost
    assert any(w.startswith("Column C ('Phone 2') also holds phone numbers") for w in warnings)


def test_a_full_column_still_wins_over_a_sparse_one_of_the_same_kind(tmp_path: Path) -> None:
    # Both named lines, the second with fewer numbers but not half as many: the first stays
    # the one read, as before, and the second is named.
    rows = [(f"303-555-01{i:02d}", f"720-555-01{i:02d}" if i < 6 else "") for i in range(10)]
    mapping, _, counts = _stage(_csv(tmp_path, "Phone,Mobile", rows), tmp_path)
    assert mapping["phone"] == "Phone (column A)"
    assert counts["valid"] == 10


@pytest.mark.parametrize(
    ("ids", "phone"),
    [
        ("Número de cliente", "Tfno."),
        ("Kundennummer", "Cel"),
        ("Número de cuenta", "Tlf"),
        ("Número de póliza", "Fono"),
        ("Número de socio", "Whatsapp"),
        ("Número de documento", "Mobilnr."),
        ("Numero cliente", "Rufnr."),
        ("Numéro de contrat", "Tél."),
    ],
)
def test_customer_numbers_headed_in_other_languages_are_not_read_as_phones(
    tmp_path: Path, ids: str, phone: str
) -> None:
    rows = [(f"n{i}", f"303619440{i}", f"720-619-440{i}") for i in range(6)]
    mapping, _, counts = _stage(_csv(tmp_path, f"Nombre,{ids},{phone}", rows), tmp_path)
    assert mapping["phone"] == f"{phone} (column C)"
    assert counts["valid"] == 6


def test_a_customer_number_column_alone_is_not_read_by_its_ten_digits(tmp_path: Path) -> None:
    rows = [(f"n{i}", f"303619440{i}") for i in range(6)]
    with pytest.raises(Exception, match="Kundennummer"):
        _stage(_csv(tmp_path, "Name,Kundennummer", rows), tmp_path)
