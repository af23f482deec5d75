"""The repeated-number warning's list of rows staged before their number was seen so often is
capped like its other lists (code review RV #3: a 10,000-row file naming 2,500 numbers on 4 rows
each, 2,500 rows apart, gave a 44,602-character warning naming 7,500 rows), and two numbers a
reason cell writes side by side, a space between, are both named (RV: neither was)."""

from __future__ import annotations

from pathlib import Path

from app.core.reason_numbers import numbers_written
from tests.core.test_notes_cell_second_number import _stage

# Numbers named first on rows 2-21, then each on three rows over 2,000 rows later: rows 2-21
# cannot be held that long, so each of them is staged naming its number.
_NUMBERS = 20
_GAP = 2_100


def _file(tmp_path: Path) -> Path:
    lines = ["Phone,Notes"]
    for row in range(2, 2 + _GAP + 3 * _NUMBERS):
        if row < 2 + _NUMBERS:
            k: int | None = row - 2
        elif row >= 2 + _GAP:
            k = (row - 2 - _GAP) // 3
        else:
            k = None
        notes = f"also 303-301-{k:04d}" if k is not None else "stop"
        lines.append(f"{2_125_550_000 + row},{notes}")
    path = tmp_path / "spaced.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_rows_staged_early_are_capped_in_the_repeated_number_warning(
    tmp_path: Path,
) -> None:
    staged, warnings = _stage(_file(tmp_path), tmp_path)
    assert len(staged) == _GAP + 3 * _NUMBERS
    # Each early row names its number; none held long enough to know better.
    assert [n for n, r in staged.items() if "(303) 301-" in r.message] == list(range(2, 22))
    repeated = [w for w in warnings if "reason cells of 4 rows or more" in w]
    assert len(repeated) == 1
    said = repeated[0]
    assert said.startswith(
        "20 numbers are each named in the reason cells of 4 rows or more, in column B "
        "('Notes'): (303) 301-0000 in 4 rows (rows 2, 2102, 2103 and 1 more), "
        "(303) 301-0001 in 4 rows (rows 3, 2105, 2106 and 1 more), "
    )
    assert "(303) 301-0004 in 4 rows (rows 6, 2114, 2115 and 1 more) and 15 more numbers. " in said
    assert (
        "do not suggest adding these (but for rows 2, 3, 4, 5, 6 and 15 more, staged before "
        "these were seen so often). If consumers did ask for one, import it as a row of its own."
    ) in said
    # Names a handful of rows, whatever the file's size: 20 rows before, 2,500 in RV's file.
    assert "rows 2, 3, 4, 5, 6, 7" not in said
    assert len(said) < 800


def test_two_numbers_written_side_by_side_are_both_named() -> None:
    assert numbers_written("also 480-555-5504 480-555-5505") == ["480-555-5504", "480-555-5505"]
    assert numbers_written("(480) 555-5504 (480) 555-5505") == [
        "(480) 555-5504",
        "(480) 555-5505",
    ]
    assert numbers_written("+1 480-555-5504 480-555-5505") == ["+1 480-555-5504", "480-555-5505"]
    assert numbers_written("4805555504\u00a04805555505") == ["4805555504", "4805555505"]
    # One number written with spaces is still one; groups that cannot be told apart stay
    # unsplit, so no number is made up.
    assert numbers_written("call +1 480 555 5504") == ["+1 480 555 5504"]
    assert numbers_written("(480) 555-5504") == ["(480) 555-5504"]
    assert numbers_written("480 555 5504 480 555 5505") == []


def test_a_row_naming_two_numbers_side_by_side_names_both(tmp_path: Path) -> None:
    path = tmp_path / "two.csv"
    path.write_text(
        "Name,Phone,Notes\nb,480-555-5503,also 480-555-5504 480-555-5505\n", encoding="utf-8"
    )
    staged, warnings = _stage(path, tmp_path)
    assert staged[2].outcome == ""
    assert staged[2].message == (
        "row 2: its Notes cell C2 names other numbers, (480) 555-5504 and (480) 555-5505: if "
        "the consumer asked for them too, add each as a row of its own"
    )
    assert any(w.startswith("1 row's reason cell, in column C ('Notes')") for w in warnings)
