"""A number beside a total's label that is not the sum of the numbers above (black-box B26
F7: ``7450100335 | Total |``) got the long note of a UK number that lost its 0, was counted as
damaged, and made the file's warning advise --phone-code 44. It may be a total mislabelled or a
consumer's number; it is refused as before, with a short message saying so.
"""

from __future__ import annotations

from pathlib import Path

from app.core.sheet_check import check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import CellValue
from tests.core.test_damage_scientific_and_lost_zeros import stage, write_csv

NUMBERS = [3035550101, 3035550102, 2025550143, 3035550104, 3035550105]


def _last(headers: tuple[str, ...], phone: int, rows: list[list[CellValue]]) -> tuple[str, str]:
    mapping = ColumnMapping(header_row=1, headers=headers, phone=phone, default_phone_code="1")
    checked, _ = check_all([(i + 2, row) for i, row in enumerate(rows)], mapping)
    last = checked[-1]
    assert last.outcome.value == "invalid"
    return last.message, last.damage


def test_a_number_beside_total_is_refused_shortly_without_a_lost_zero_note() -> None:
    rows: list[list[CellValue]] = [[n, "Ann"] for n in NUMBERS] + [[7450100335, "Total"]]
    message, damage = _last(("Phone", "Name"), 0, rows)
    assert message == (
        "row 7: phone: the row holds only 7450100335 (column A) and 'Total' (column B): no "
        "valid phone number as read and not the sum of the numbers above, so a total line "
        "mislabelled or a consumer's number mistyped; check it against the source"
    )
    assert damage == ""


def test_a_valid_number_beside_total_and_a_name_like_total_wine_are_consumers() -> None:
    rows: list[list[CellValue]] = [[n, "Ann"] for n in NUMBERS]
    mapping = ColumnMapping(header_row=1, headers=("Phone", "Name"), phone=0)
    more: list[list[CellValue]] = [[3035550199, "Total"], [7450100336, "Total Wine"]]
    checked, _ = check_all([(i + 2, r) for i, r in enumerate(rows + more)], mapping)
    assert checked[5].outcome.value == "valid"
    assert "lost a leading 0" in checked[6].message  # a consumer's row, judged as before


def test_a_number_beside_total_in_a_file_is_no_sign_of_a_uk_list(tmp_path: Path) -> None:
    lines = ["Phone,Name,Notes", *(f"{n},Ann," for n in NUMBERS), "7450100335,Total,"]
    staged, warnings, summary = stage(write_csv(tmp_path / "total.csv", lines))
    assert summary.damaged == 0
    assert not [w for w in warnings if "--phone-code" in w]
    assert "a total line mislabelled" in staged[-1].message
