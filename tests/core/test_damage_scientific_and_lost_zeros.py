"""Black-box pass P2 #1, #2, #4, #6: damaged phone cells are noted and warned about.

#1: a number a short scientific display cut (2.02555E+09, saved back as 2025550000) was read
silently. #2: a UK file whose number cells lost their leading 0 read as US numbers with no
warning. #4: damage showed only in each row's note. #6: a correctly quoted cell of two numbers on
two lines was called a stray quote. Real files written to tmp_path, LibreOffice conversions where
the finding came from one.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

import pytest

from app.core.job_staging import _new_row
from app.core.job_store import NewRow, Outcome
from app.core.sheet_check import CUT_SHORT_REMOVAL, CheckOptions, CheckSummary, check_rows
from app.core.sheet_damage import CUT_SHORT
from app.core.sheet_mapping import propose_from_preview
from app.core.sheet_reader import open_sheet
from app.core.staging_notes import (
    Held,
    HiddenRows,
    damage_sentences,
    noted,
    notes_sentences,
    watched,
)

SOFFICE = shutil.which("soffice")
SEND = ""  # a staged row's outcome before it is sent
needs_soffice = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")


def to_xlsx(source: Path) -> Path:
    """``source`` (a CSV) opened and saved as xlsx by LibreOffice, as Excel opens such a CSV."""
    assert SOFFICE is not None
    out = source.parent / "xlsx"
    subprocess.run(
        [
            SOFFICE,
            "--headless",
            "--norestore",
            f"-env:UserInstallation={(source.parent / 'profile').as_uri()}",
            "--convert-to",
            "xlsx",
            "--outdir",
            str(out),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    return out / f"{source.stem}.xlsx"


def stage(path: Path, kind: str = "import") -> tuple[list[NewRow], list[str], CheckSummary]:
    """The rows staging stores and the warnings staging_notes gives, as job_staging reads a file
    with the sheet and columns guessed and no country code given."""
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
        held, summary = Held(), CheckSummary()
        notes = source.notes
        rows = watched(source.iter_rows(), mapping, notes.formulas, held, notes.errors)
        checked = check_rows(rows, mapping, CheckOptions(removal=kind == "removal"), summary)
        hidden = HiddenRows(kind, False)
        staged = list(noted(checked, notes, mapping.phone, hidden, summary, held, _new_row))
        warnings = notes_sentences(source, path.name, kind, hidden, True)
        warnings += damage_sentences(held, kind)
    return staged, warnings, summary


def by_row(staged: list[NewRow]) -> dict[int, NewRow]:
    return {r.row_number: r for r in staged}


def write_csv(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@needs_soffice
@pytest.mark.parametrize("kind", ["import", "removal"])
def test_number_cut_by_a_scientific_display_is_flagged(tmp_path: Path, kind: str) -> None:
    """#1: "2.02555E+09" in a CSV becomes the number cell 2025550000 in the xlsx; an import
    reads it as it stands (a real number can end in 0000) but flags it in the row, and a
    warning names it; a removal refuses it, as deleting a number cut from another would take
    that consumer's opt-out off the list."""
    source = write_csv(tmp_path / "excel_src.csv", ["Phone", "2125551238", "2.02555E+09"])
    path = to_xlsx(source)
    staged, warnings, summary = stage(path, kind)
    row = by_row(staged)[3]
    if kind == "removal":
        assert row.outcome == Outcome.INVALID.value
        assert CUT_SHORT_REMOVAL in row.message
    else:
        assert row.outcome == SEND
    assert row.national == "2025550000"
    assert CUT_SHORT in row.damage
    assert "2025545000 to 2025554999" in row.damage
    assert "check it against the source" in row.message
    assert by_row(staged)[2].damage == ""
    assert summary.damaged == 1
    cut = [w for w in warnings if CUT_SHORT in w]
    assert len(cut) == 1
    assert "(row 3)" in cut[0]
    assert ("not removed (invalid)" if kind == "removal" else "imported as read") in cut[0]
    assert any(
        w.startswith("1 row was read from phone cells a spreadsheet had damaged") for w in warnings
    )


@pytest.mark.parametrize("plain", [True, False])
def test_plain_digits_text_cut_short_is_flagged_on_both_paths(tmp_path: Path, plain: bool) -> None:
    """Text "2025550000" (a CSV saved from such a cell) is flagged too, on the plain-row path
    and on the full check (a request-date column sends every row there)."""
    header = "Phone" if plain else "Phone,Request Date"
    date = "" if plain else ",2026-01-05"
    path = write_csv(
        tmp_path / "cut.csv",
        [header, f"2025550000{date}", f"2025551241{date}", f"2025550001{date}"],
    )
    staged, warnings, _ = stage(path)
    rows = by_row(staged)
    assert CUT_SHORT in rows[2].damage
    assert rows[2].outcome == SEND
    assert rows[3].damage == "" and rows[4].damage == ""
    assert any(CUT_SHORT in w and "(row 2)" in w for w in warnings)


@needs_soffice
def test_uk_file_that_lost_its_zeros_is_named_with_its_country(tmp_path: Path) -> None:
    """#2: a UK list saved by LibreOffice as number cells, read with no country: the refused rows
    say they are UK numbers that lost their 0, and a warning names them, the rows valid both
    ways, and --phone-code 44."""
    numbers = ["07911123456", "07400123456", "02079460001", "02089460002", "01214960004"]
    path = to_xlsx(write_csv(tmp_path / "uk_london.csv", ["Phone", *numbers]))
    staged, warnings, _ = stage(path)
    rows = by_row(staged)
    for number in (2, 3, 6):
        assert rows[number].outcome == "invalid"
        assert "United Kingdom number" in rows[number].message
        assert "--phone-code 44" in rows[number].message
        assert "lost a leading 0" in rows[number].damage
    assert "+44 7911 123456" in rows[2].message
    assert rows[4].outcome == SEND  # 2079460001 is a US number too
    said = [w for w in warnings if "--phone-code 44" in w]
    assert len(said) == 1
    assert "(rows 2, 3 and 6;" in said[0]
    assert "rows 4 and 5" in said[0]  # valid both ways
    assert "not valid US numbers" in said[0]


def test_uk_number_written_with_its_zero_gets_the_country_hint(tmp_path: Path) -> None:
    """#2: text "020 7946 0018" under code 1 was refused only as too long for a US number."""
    path = write_csv(tmp_path / "uk.csv", ["Phone", "020 7946 0018", "2125551238"])
    staged, warnings, _ = stage(path)
    row = by_row(staged)[2]
    assert row.outcome == "invalid"
    assert "reads as a United Kingdom number: +44 20 7946 0018" in row.message
    assert "use --phone-code 44 or a Country column" in row.message
    # Written with its 0: no "0 put back" clause after the row (black-box Q1 #2).
    assert any("--phone-code 44" in w and "(row 2):" in w for w in warnings)


def test_typo_us_number_is_not_called_another_countrys(tmp_path: Path) -> None:
    """A hand-grouped US number with a digit too many is no number cell that lost its 0."""
    path = write_csv(tmp_path / "typo.csv", ["Phone", "212-555-12634", "212555128600"])
    staged, warnings, _ = stage(path)
    for row in staged:
        assert "--phone-code" not in row.message
    assert not [w for w in warnings if "--phone-code" in w]


def test_damaged_rows_are_counted_in_a_warning(tmp_path: Path) -> None:
    """#4: rows read from damaged cells were only in each row's note."""
    path = write_csv(
        tmp_path / "damaged.csv",
        ["Phone", "2.025551241E+09", "2025550000.0", "2.02555E+09", "2125551238"],
    )
    _, warnings, summary = stage(path)
    assert summary.damaged == 3
    said = [w for w in warnings if "a spreadsheet had damaged" in w]
    assert len(said) == 1
    assert said[0].startswith("3 rows were read from phone cells a spreadsheet had damaged")
    assert "rows 2, 3 and 4" in said[0]
    assert "1 of them is invalid" in said[0]


def test_quoted_cell_of_two_numbers_is_no_stray_quote(tmp_path: Path) -> None:
    """#6: a cell holding two numbers on two lines, quoted by Python's csv module, is invalid
    for holding two numbers; nothing tells the person to remove a quote mark."""
    path = tmp_path / "two.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerows(
            [["Phone", "Notes"], ["2125551273", "x"], ["212-555-1274\n212-555-1275", "x"]]
        )
        writer.writerow(["2125551276", "x"])
    staged, warnings, _ = stage(path)
    row = by_row(staged)[3]
    assert row.outcome == "invalid"
    assert "two phone numbers" in row.message
    assert "quote" not in row.message
    assert not [w for w in warnings if "quote" in w]


def test_stray_quote_swallowing_one_line_is_still_warned_in_good_grammar(tmp_path: Path) -> None:
    """A quote mark that really swallowed a line is still named; one line "was" read."""
    path = write_csv(
        tmp_path / "stray.csv",
        ["Phone,Notes", '2125551270,"call back', '2125551271,x"', "2125551273,x"],
    )
    staged, warnings, _ = stage(path)
    said = [w for w in warnings if "quote" in w]
    assert len(said) == 1
    assert "line 3, which looks like a row of its own (2125551271), was read" in said[0]
    assert "its phone number is not imported" in said[0]
    assert "was part of" not in by_row(staged)[2].message
    assert "is part of this cell and its phone number is not imported" in by_row(staged)[2].message


def test_a_removal_takes_a_number_ending_so_only_when_written_grouped(tmp_path: Path) -> None:
    """The removal's way out for a real number ending in 0000: written grouped by hand, it is
    no spreadsheet's damage and is removed; as plain digits it is refused."""
    path = write_csv(tmp_path / "rm.csv", ["Phone", "2025550000", "202-555-0000", "2125551238"])
    staged, _, _ = stage(path, "removal")
    rows = by_row(staged)
    assert rows[2].outcome == Outcome.INVALID.value
    assert CUT_SHORT_REMOVAL in rows[2].message
    assert (rows[3].outcome, rows[3].damage) == (SEND, "")
    assert rows[4].outcome == SEND
