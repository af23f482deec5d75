"""Black-box pass N4 #4: a "Phone" of five numbers lost to a "Mobile" of two.

Of two columns headed as phone lines, one with twice as many different numbers is read over a
sparse one; a +44 number and one written with an extension did not count, so the sparse Mobile
was read and the UK number (the "Do Not Call = 1" contact) went unread.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl

from tests.core.test_mapping_call_log_caller_id import _stage


def test_a_phone_of_five_with_an_international_number_and_an_extension_wins(
    tmp_path: Path,
) -> None:
    path = tmp_path / "pm.csv"
    path.write_text(
        "Name,Phone,Mobile\n"
        "a,(303) 555-2101,(720) 555-2111\n"
        "b,(303) 555-2102,\n"
        "c,+44 20 7946 0958,\n"
        "d,(303) 555-2104 x22,(720) 555-2114\n"
        "e,(303) 555-2105,\n",
        encoding="utf-8",
    )
    mapping, warnings, counts = _stage(path, tmp_path)
    assert mapping["phone"] == "Phone (column B)"
    assert counts == {"valid": 4, "invalid": 1, "dups": 0}  # the extension is refused by name
    assert any(w.startswith("Column C ('Mobile') also holds phone numbers") for w in warnings)


def test_a_salesforce_report_reads_its_phone_column(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Contact Owner", "First Name", "Phone", "Mobile", "Do Not Call", "Mailing Country"])
    ws.append(["Jane", "Tim", "(303) 555-1201", "(720) 555-1211", 1, "United States"])
    ws.append(["Jane", "Sue", "(303) 555-1202", None, 0, "United States"])
    ws.append(["Jane", "Raj", "+44 20 7946 0958", None, 1, "United Kingdom"])
    ws.append(["Jane", "Lou", "(303) 555-1204 x22", "(720) 555-1214", 1, "United States"])
    wb.save(tmp_path / "report.xlsx")
    mapping, _, counts = _stage(tmp_path / "report.xlsx", tmp_path)
    assert mapping["phone"] == "Phone (column C)"
    assert counts["valid"] == 3
