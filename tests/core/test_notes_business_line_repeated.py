"""A number named in the reason (Notes) cells of many rows is the business's or a vendor's own
line ("called from our line 800-555-0199"), not each consumer's second number: no row's message
tells the officer to add it, and one warning names it once with its count (S20 N2, left by N1's
fix of black-box B7 #4, which named it on every row of the file). Numbers named on a row or two
are named on each row as before."""

from __future__ import annotations

from pathlib import Path

from tests.core.test_notes_cell_second_number import _stage

LINE = "(800) 555-0199"


def _csv(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "opt_outs.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _twenty_rows(tmp_path: Path, header: str = "Name,Phone,Notes") -> Path:
    """Rows 2-21: 15 name the business line, rows 5 and 12 a second number of their own
    (row 12 beside the line too), four name nothing."""
    lines = [header]
    for row in range(2, 22):
        phone = f"480-555-{6000 + row}"
        if row == 5:
            notes = "also cell 480-555-5504"
        elif row == 12:
            notes = "called from our line 800-555-0199; wife 602-555-0188"
        elif row in (8, 15, 20, 21):
            notes = "stop calling"
        else:
            notes = "called from our line 800-555-0199"
        lines.append(f"c{row},{phone},{notes}")
    return _csv(tmp_path, lines)


def _about_reason_numbers(warnings: list[str]) -> list[str]:
    return [w for w in warnings if "besides the row" in w or "reason cells of" in w]


def test_the_business_line_is_named_once_in_the_warning_and_on_no_row(tmp_path: Path) -> None:
    staged, warnings = _stage(_twenty_rows(tmp_path), tmp_path)
    # Every row is staged once, in sheet order, each to be sent with its own number.
    assert list(staged) == list(range(2, 22))
    assert {r.outcome for r in staged.values()} == {""}
    assert [r.national for r in staged.values()] == [f"480555{6000 + n}" for n in range(2, 22)]
    assert staged[3].reason == "called from our line 800-555-0199"
    # The distinct second numbers are named on their rows, as before.
    assert staged[5].message == (
        "row 5: its Notes cell C5 names another number, (480) 555-5504: if the consumer asked "
        "for it too, add it as a row of its own"
    )
    assert staged[12].message == (
        "row 12: its Notes cell C12 names another number, (602) 555-0188: if the consumer "
        "asked for it too, add it as a row of its own"
    )
    # The business line is on no row's message, the first rows' (2-4, seen before it was
    # known to be repeated) included.
    assert [n for n, r in staged.items() if LINE in r.message] == []
    assert [n for n, r in staged.items() if r.message and n not in (5, 12)] == []
    assert _about_reason_numbers(warnings) == [
        "2 rows' reason cells, in column C ('Notes'), name phone numbers besides the rows' own: "
        "row 5 ((480) 555-5504) and row 12 ((602) 555-0188). Only the phone column's number is "
        "imported from a row, so those numbers are not: if the consumer asked for them too, "
        "import each as a row of its own. Each row's message names its numbers.",
        "(800) 555-0199 is named in the reason cells of 15 rows, in column C ('Notes'): rows "
        "2, 3, 4 and 12 more. A number named on so many rows is likely the business's or a "
        "vendor's own line (one that called, a hotline) rather than a consumer's, so the rows' "
        "messages do not suggest adding it. If consumers did ask for it, import it as a row of "
        "its own.",
    ]


def test_a_number_named_on_three_rows_is_still_named_on_each(tmp_path: Path) -> None:
    # Three rows of a household naming its shared landline: each consumer's, named on each.
    lines = ["Phone,Notes"]
    lines += [f"480-555-{6100 + i},home line 480-555-6199" for i in range(3)]
    lines += [f"480-555-{6110 + i},nothing" for i in range(3)]
    staged, warnings = _stage(_csv(tmp_path, lines), tmp_path)
    assert [n for n, r in staged.items() if "(480) 555-6199" in r.message] == [2, 3, 4]
    assert len(_about_reason_numbers(warnings)) == 1
    assert _about_reason_numbers(warnings)[0].startswith(
        "3 rows' reason cells, in column B ('Notes'), name phone numbers besides the rows' own"
    )
    assert "reason cells of" not in warnings[0]


def test_a_removal_says_so_in_its_own_words(tmp_path: Path) -> None:
    path = _twenty_rows(tmp_path, "Name,Phone,Reason")
    staged, warnings = _stage(path, tmp_path, removal=True)
    assert list(staged) == list(range(2, 22))
    assert {r.outcome for r in staged.values()} == {""}
    assert [n for n, r in staged.items() if LINE in r.message] == []
    assert staged[5].message == (
        "row 5: its Reason cell C5 names another number, (480) 555-5504: if the consumer asked "
        "to remove it too, add it as a row of its own"
    )
    said = _about_reason_numbers(warnings)
    assert len(said) == 2
    assert said[1] == (
        "(800) 555-0199 is named in the reason cells of 15 rows, in column C ('Reason'): rows "
        "2, 3, 4 and 12 more. A number named on so many rows is likely the business's or a "
        "vendor's own line (one that called, a hotline) rather than a consumer's, so the rows' "
        "messages do not suggest removing it. If it is to come off the list too, remove it as "
        "a row of its own."
    )


def test_two_lines_named_on_many_rows_are_listed_together(tmp_path: Path) -> None:
    lines = ["Phone,Notes"]
    for i in range(10):
        line = "800-555-0199" if i % 2 else "vendor hotline 888-555-0142"
        lines.append(f"480-555-{6200 + i},{line}")
    staged, warnings = _stage(_csv(tmp_path, lines), tmp_path)
    assert [r.message for r in staged.values()] == [""] * 10
    assert _about_reason_numbers(warnings) == [
        "2 numbers are each named in the reason cells of 4 rows or more, in column B "
        "('Notes'): (888) 555-0142 in 5 rows (rows 2, 4, 6 and 2 more) and (800) 555-0199 in 5 "
        "rows (rows 3, 5, 7 and 2 more). A number named on so many rows is likely the "
        "business's or a vendor's own line (one that called, a hotline) rather than a "
        "consumer's, so the rows' messages do not suggest adding these. If consumers did ask "
        "for one, import it as a row of its own."
    ]


def test_rows_staged_long_before_the_line_is_seen_again_still_name_it(tmp_path: Path) -> None:
    # The line on rows 2-4, then on rows 2,503-2,505, over 2,000 rows later: rows 2-4 could not
    # be held that long, so their messages name it and the warning says which do.
    lines = ["Phone,Notes"]
    for row in range(2, 2_506):
        notes = "called from 800-555-0199" if row in (2, 3, 4, 2_503, 2_504, 2_505) else "stop"
        lines.append(f"{2_125_550_000 + row},{notes}")
    staged, warnings = _stage(_csv(tmp_path, lines), tmp_path)
    assert len(staged) == 2_504
    assert [n for n, r in staged.items() if LINE in r.message] == [2, 3, 4]
    said = _about_reason_numbers(warnings)
    assert len(said) == 2
    assert said[0].startswith("3 rows' reason cells, in column B ('Notes'), name phone numbers")
    assert said[1].startswith("(800) 555-0199 is named in the reason cells of 6 rows")
    assert (
        "do not suggest adding it (but for rows 2, 3 and 4, staged before it was seen so "
        in said[1]
    )
