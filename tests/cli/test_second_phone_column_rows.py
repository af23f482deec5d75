"""A file of Home Phone and Mobile columns (black-box bb4 F4): Home Phone is read, and a row
holding both numbers ended ``valid`` with no word of its Mobile number, left off the list;
only a file-level ``note:`` named the column. The column is now a ``warning:`` counting the
rows holding a number there and those differing from the row's number read, and each such
row's message names its number not imported. Nothing is imported unasked."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN

ROWS = [
    ("Ann", "(303) 555-0201", "(303) 555-0301"),  # both: Mobile another number
    ("Bob", None, "720-555-0302"),  # Mobile only: invalid, its message names it already
    ("Cy", "303-555-0203", None),
    ("Di", "303-555-0204", "3035550204"),  # the same number twice: nothing left off
    ("Ed", "303-555-0205", "(720) 555-0305"),
    ("Fa", "303-555-0206", None),  # Home Phone the fuller column: the one read
    ("Gi", "303-555-0207", None),
]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _book(path: Path) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Name", "Phone", "Phone 2", "Reason"])
    for name, home, mobile in ROWS:
        sheet.append([name, home, mobile, "asked"])
    book.save(path)
    return path


def _messages(report: Path) -> dict[int, str]:
    book = openpyxl.load_workbook(report, read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))
    head = list(rows[0])
    at, said = head.index("Source row"), head.index("Message")
    return {int(r[at]): str(r[said] or "") for r in rows[1:]}  # type: ignore[arg-type]


def test_a_second_phone_column_is_warned_counted_and_named_on_its_rows(
    make_sandbox: Callable[..., Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "sandbox.db"
    server = make_sandbox(db_path=db)
    src = _book(tmp_path / "src2.xlsx")
    report = tmp_path / "report.xlsx"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--note", "bb4 F4"]
    argv += ["--base-url", server.base_url, "--report", str(report)]
    main(argv)
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    counted = (
        "Column C ('Phone 2') also holds phone numbers (on 4 rows, 3 of them not the number "
        "read from column B ('Phone') on that row: each such row's message names it) but "
        "is not imported"
    )
    assert f"  warning: {counted}" in out.out
    assert f"warning: {counted}" in out.err  # said before the run too
    assert f"note: {counted}" not in out.out + out.err
    messages = _messages(report)
    assert (
        "column C on this row holds '(303) 555-0301' (+13035550301), not imported" in (messages[2])
    )
    assert messages[3].count("column C on this row holds '720-555-0302'") == 1
    assert "column C" not in messages[4] + messages[5]
    assert "column C on this row holds '(720) 555-0305'" in messages[6]
    # Nothing else changes: only the Home Phone numbers went in.
    with sqlite3.connect(db) as con:
        sent = {n for (n,) in con.execute("SELECT phone_number FROM dnc")}
    assert sent == {f"30355502{i:02d}" for i in (1, 3, 4, 5, 6, 7)}


def test_json_keeps_the_counted_sentence_among_its_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _book(tmp_path / "src2.xlsx")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["valid"], data["invalid"]) == (6, 1)
    assert any("(on 4 rows, 3 of them not the number" in w for w in data["warnings"])


def _summary_warnings(report: Path) -> list[str]:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        rows = book["Summary"].iter_rows(values_only=True)
        return [str(r[1]) for r in rows if r and str(r[0] or "").startswith("Warning")]
    finally:
        book.close()


def _same_book(path: Path, *, third: bool = False) -> Path:
    """Phone (B) read; Mobile (C) each row's number again; with ``third``, Phone 3 (D) another
    number on two rows."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Name", "Phone", "Mobile", *(["Phone 3"] if third else [])])
    for n in range(1, 6):
        other = [f"(720) 555-03{n:02d}" if n in (2, 4) else None] if third else []
        sheet.append([f"N{n}", f"303-555-02{n:02d}", f"(303) 555-02{n:02d}", *other])
    book.save(path)
    return path


SAME_NOTE = (
    "Column C ('Mobile') also holds a phone number on 5 rows, each the number read from "
    "column B ('Phone') on the same row: it is not imported, and no number stays off the "
    "list for it."
)


def test_a_second_column_of_the_same_numbers_is_a_note_that_offers_nothing(
    make_sandbox: Callable[..., Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """bb14 W2 on the command line: a column whose every number is the one read said
    "warning: … (on 5 rows, 0 of them not the number read …) … To import it too, run the
    file again with --phone-column column:C", though nothing stays off the list."""
    server = make_sandbox(db_path=tmp_path / "sandbox.db")
    src = _same_book(tmp_path / "same.xlsx")
    report = tmp_path / "report.xlsx"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--report", str(report)]
    assert main([*argv, "--base-url", server.base_url]) == 0
    out = capsys.readouterr()
    assert f"  note: {SAME_NOTE}" in out.out
    assert "warning:" not in out.out + out.err
    assert "0 of them" not in out.out + out.err and "--phone-column" not in out.out + out.err
    assert SAME_NOTE in _summary_warnings(report)
    assert main([*argv[:-2], "--dry-run", "--json", "--base-url", server.base_url]) == 0
    assert SAME_NOTE in json.loads(capsys.readouterr().out)["warnings"]


def test_beside_a_column_of_other_numbers_only_that_one_is_warned(
    make_sandbox: Callable[..., Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = make_sandbox(db_path=tmp_path / "sandbox.db")
    src = _same_book(tmp_path / "same3.xlsx", third=True)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    assert main([*argv, "--base-url", server.base_url]) == 0
    out = capsys.readouterr().out
    assert f"  note: {SAME_NOTE}" in out
    warned = [line for line in out.splitlines() if line.startswith("  warning:")]
    assert warned == [
        "  warning: Column D ('Phone 3') also holds phone numbers (on 2 rows, 2 of them not the "
        "number read from column B ('Phone') on that row: each such row's message names it) "
        "but is not imported: only column B ('Phone') is read. To import it too, run the file "
        "again with --phone-column column:D."
    ], out
