"""A stray quote mark in a CSV that another quote mark closes further down makes the lines
between them part of one cell (Excel reads them so too), and their opt-outs were lost without
a word (black-box pass H2: rows 3, valid 3, warnings empty, three numbers never read). Staging
now warns, naming the row, the column, the lines swallowed and their numbers, and the row
itself says so; a cell legitimately spanning lines (an address, a note) is not named. (A
quote never closed is still refused: test_blackbox_files.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.removal_job import stage_removal

# The tester's stray2.csv: a quote opened in Name on line 3, closed on line 6.
STRAY2 = (
    "Phone,Name,Notes\r\n"
    "202-555-1501,Al,ok\r\n"
    '202-555-1502,"Bob,x\r\n'
    "202-555-1503,Carl,x\r\n"
    "202-555-1504,Dee,y\r\n"
    '202-555-1505,Ed "the" Man",z\r\n'
    "202-555-1506,Fay,w\r\n"
)
STRAY2_WARNING = (
    "Row 3 of stray2.csv has a quote mark in column B (line 3 of the file) that is closed "
    "only on line 6, so lines 4–6, which look like rows of their own (202-555-1503, "
    "202-555-1504 and 202-555-1505), were read as part of that one cell and their phone "
    "numbers are not imported: open the file in a text editor such as Notepad (Excel reads it "
    "the same way), remove the stray quote mark (or close it where its cell ends) and import "
    "the file again."
)
# The tester's stray3.csv: a quote opened in Notes on line 3, closed two lines later.
STRAY3 = (
    "Phone,Name,Notes\n"
    "202-555-1511,Al,ok\n"
    '202-555-1512,Bob,"he said\n'
    "202-555-1513,Carl,x\n"
    '202-555-1514,Dee,y"\n'
    "202-555-1515,Fay,w\n"
)
# Addresses and notes over several lines, as Outlook and CRMs export them, some lines with
# the delimiter in them or a phone number alone: no stray quote.
ADDRESSES = (
    "Phone,Name,Address,Notes\n"
    '202-555-1601,Al,"12 Main St\nApt 4\nSpringfield, IL 62701",ok\n'
    '202-555-1602,Bea,"PO Box 9\nDover, DE 19901","also call\n202-555-1699"\n'
    '202-555-1603,Cy,"1 Elm Rd, Unit 2\nAustin, TX, 73301","stop\nno more calls, please"\n'
    "202-555-1604,Di,3 Oak Ave,\n"
)


def _stage(path: Path, tmp_path: Path) -> tuple[list[str], dict[int, str], list[str]]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    warnings = list(store.meta().get("warnings") or [])
    rows = list(store.rows())
    store.close()
    return warnings, {r.row_number: r.message for r in rows}, [r.national for r in rows]


def test_a_stray_quote_closed_later_is_named_in_the_warnings_and_the_row(tmp_path: Path) -> None:
    path = tmp_path / "stray2.csv"
    path.write_bytes(STRAY2.encode())
    warnings, messages, numbers = _stage(path, tmp_path)
    assert warnings == [STRAY2_WARNING]
    # The rows read are as before (the file is not guessed at): only the warning is new.
    assert numbers == ["2025551501", "2025551502", "2025551506"]
    assert messages[3].startswith("row 3: column B runs from line 3 of the file to line 6")
    assert "lines 4–6, which look like rows of their own (202-555-1503," in messages[3]
    assert "not imported" in messages[3]
    assert not messages[2] and not messages[4]


def test_a_quote_opened_in_the_last_column_is_named_too(tmp_path: Path) -> None:
    path = tmp_path / "stray3.csv"
    path.write_text(STRAY3)
    warnings, messages, _ = _stage(path, tmp_path)
    assert len(warnings) == 1
    assert warnings[0].startswith(
        "Row 3 of stray3.csv has a quote mark in column C (line 3 of the file) that is closed "
        "only on line 5, so lines 4–5, which look like rows of their own (202-555-1513 and "
        "202-555-1514), were read as part of that one cell"
    )
    assert "lines 4–5" in messages[3]


def test_the_cli_says_it_in_the_json_and_on_a_note_line(tmp_path: Path) -> None:
    path = tmp_path / "stray2.csv"
    path.write_bytes(STRAY2.encode())
    env = {
        **os.environ,
        "DNC_DESK_CONFIG_DIR": str(tmp_path / "cli-config"),
        "DNC_DESK_DATA_DIR": str(tmp_path / "cli-data"),
    }
    argv = [sys.executable, "-m", "app.cli.main", "import", str(path), "--into", "dnc"]
    argv += ["--scope", "global", "--dry-run"]
    done = subprocess.run([*argv, "--json"], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["warnings"] == [STRAY2_WARNING]
    assert data["rows"] == 3
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert f"note: {STRAY2_WARNING}" in done.stdout + done.stderr


def test_several_stray_quotes_are_named_in_one_warning(tmp_path: Path) -> None:
    path = tmp_path / "two.csv"
    # The first opened at the start of the phone cell of the first row, the second in Notes.
    path.write_text(
        "Phone;Notes\n"
        '"202-555-1701;a\n202-555-1702;b\n202-555-1703;c"\n'
        "202-555-1704;d\n"
        '202-555-1705;"e\n202-555-1706;f\n202-555-1707;g"\n'
    )
    warnings, messages, _ = _stage(path, tmp_path)
    assert len(warnings) == 1
    assert warnings[0].startswith("2 rows of two.csv have a quote mark that is closed only")
    assert (
        "in row 2 (column A runs over lines 3–4: 202-555-1702 and 202-555-1703) and row 4 "
        "(column B runs over lines 7–8: 202-555-1706 and 202-555-1707)"
    ) in warnings[0]
    assert "lines 3–4" in messages[2] and "lines 7–8" in messages[4]


def test_a_removal_says_the_numbers_are_not_removed(tmp_path: Path) -> None:
    path = tmp_path / "stray3.csv"
    path.write_text(STRAY3)
    store, _ = stage_removal(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    warnings = list(store.meta().get("warnings") or [])
    store.close()
    assert len(warnings) == 1
    assert "their phone numbers are not removed" in warnings[0]
    assert warnings[0].endswith("and run the removal again.")


def test_cells_legitimately_over_several_lines_are_not_named(tmp_path: Path) -> None:
    path = tmp_path / "addresses.csv"
    # Rows 2-5 span lines as exports do; row 6 holds a stray quote closed on line 15.
    stray = (
        '202-555-1605,"Ed,x\n'
        "202-555-1606,Flo,12 Elm St,ok\n"
        "and a line of text\n"
        '202-555-1607,Gus,1 Rd,ok"\n'
        "202-555-1608,Hal,2 Rd,ok\n"
    )
    path.write_text(ADDRESSES + stray)
    warnings, messages, numbers = _stage(path, tmp_path)
    # Row 3's Notes "also call\n202-555-1699" names another number: its own warning (S19 N1).
    warnings = [w for w in warnings if "quote mark" in w]
    assert len(warnings) == 1
    assert warnings[0].startswith(
        "Row 6 of addresses.csv has a quote mark in column B (line 12 of the file) that is "
        "closed only on line 15, so lines 13–15, 2 of which look like rows of their own "
        "(202-555-1606 and 202-555-1607), were read as part of that one cell"
    )
    assert numbers == [f"202555160{i}" for i in (1, 2, 3, 4, 5, 8)]
    assert [n for n, m in messages.items() if "quote" in m] == [6]


def test_a_stray_quote_in_the_header_line_is_named_too(tmp_path: Path) -> None:
    # Black-box pass H4: with no row before it, no column was known to hold the numbers, so
    # the two rows the header's quote swallowed were lost without a word.
    path = tmp_path / "sq_header.csv"
    path.write_text(
        'Phone,"Name,Notes\n202-555-2081,Al,ok\n202-555-2082,Bob",x\n202-555-2083,Cy,z\n'
    )
    warnings, _, numbers = _stage(path, tmp_path)
    assert any(
        w.startswith("Row 1 of sq_header.csv has a quote mark in column B (line 1 of the file)")
        and "(202-555-2081 and 202-555-2082)" in w
        for w in warnings
    ), warnings
    assert "2025552081" not in numbers and "2025552083" in numbers
