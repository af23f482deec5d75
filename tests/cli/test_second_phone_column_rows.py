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
