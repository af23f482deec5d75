"""Black-box bb8: the README says the change journal is hash-chained and tamper-evident, but
only the window's Change journal tab verified and exported it; an officer on a server had no
command to do either. ``dnc-desk journal verify`` walks the whole chain (0 intact, 3 altered,
naming the entry) and ``dnc-desk journal export`` writes the window's columns to xlsx or CSV;
both read the journal written here by real imports against the sandbox."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from app.cli.main import main
from app.core.journal import EXPORT_HEADERS
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _journal_of_two_imports(sandbox: Any, tmp_path: Path, capsys: Any) -> Path:
    for name, numbers in (("a.csv", ["3035550121", "3035550122"]), ("b.csv", ["3035550123"])):
        src = tmp_path / name
        src.write_text("Phone,Reason\n" + "".join(f"{n},asked\n" for n in numbers))
        argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
        assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 0
    capsys.readouterr()
    return tmp_path / "data" / "journal.sqlite3"


def _run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["journal", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    got = capsys.readouterr()
    return code, got.out, got.err


def _rows(journal: Path) -> int:
    db = sqlite3.connect(journal)
    try:
        return int(db.execute("SELECT count(*) FROM journal").fetchone()[0])
    finally:
        db.close()


def test_verify_says_intact_then_names_the_edited_entry(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = _journal_of_two_imports(sandbox, tmp_path, capsys)
    rows = _rows(journal)
    code, out, _ = _run(capsys, "verify")
    assert code == 0, out
    assert f"Entries checked: {rows:,}, from " in out
    assert "intact" in out
    code, out, _ = _run(capsys, "verify", "--json")
    held = json.loads(out)
    assert (code, held["intact"], held["entries_checked"]) == (0, True, rows)
    assert held["first_time"] <= held["last_time"]
    assert held["entries_at_break"] == []

    db = sqlite3.connect(journal)
    with db:
        edited = db.execute("SELECT min(id) FROM journal WHERE phone = '+13035550122'").fetchone()[
            0
        ]
        db.execute("UPDATE journal SET after = ? WHERE id = ?", ('{"reason": "TAMPERED"}', edited))
    db.close()
    code, out, _ = _run(capsys, "verify")
    assert code == 3, out
    assert "altered" in out
    assert f"  entry {edited}: it does not match its hash (it was edited)" in out
    code, out, _ = _run(capsys, "verify", "--json")
    broken = json.loads(out)
    assert (code, broken["intact"], broken["exit_status"]) == (3, False, 3)
    assert [b["id"] for b in broken["entries_at_break"]] == [edited]


def test_verify_without_a_journal_says_so_and_makes_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "verify")
    assert code == 0
    assert "There is no change journal yet at " in out
    assert not (tmp_path / "data").exists()
    code, _, err = _run(capsys, "export", "--out", str(tmp_path / "j.csv"))
    assert code == 1
    assert "Nothing was exported" in err
    assert not (tmp_path / "j.csv").exists()


def test_export_round_trips_xlsx_and_csv_with_filters(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = _journal_of_two_imports(sandbox, tmp_path, capsys)
    rows = _rows(journal)
    xlsx = tmp_path / "journal.xlsx"
    code, out, err = _run(capsys, "export", "--out", str(xlsx), "--json")
    assert code == 0, err
    assert json.loads(out)["entries"] == rows
    sheet = load_workbook(xlsx, read_only=True)["Change journal"]
    read = [list(r) for r in sheet.iter_rows(values_only=True)]
    assert tuple(read[0]) == EXPORT_HEADERS
    assert len(read) == rows + 1
    hashes = {r[EXPORT_HEADERS.index("Hash")] for r in read[1:]}
    db = sqlite3.connect(journal)
    assert hashes == {h for (h,) in db.execute("SELECT hash FROM journal")}
    mine = db.execute("SELECT count(*) FROM journal WHERE phone = '+13035550123'").fetchone()[0]
    db.close()

    # An existing --out is refused without --overwrite, and left as it was.
    before = xlsx.read_bytes()
    code, _, err = _run(capsys, "export", "--out", str(xlsx))
    assert code == 2 and "--overwrite" in err
    assert xlsx.read_bytes() == before

    out_csv = tmp_path / "one.csv"
    code, out, err = _run(capsys, "export", "--out", str(out_csv), "--number", "(303) 555-0123")
    assert code == 0, err
    with out_csv.open(encoding="utf-8-sig", newline="") as fh:
        got = list(csv.reader(fh))
    assert tuple(got[0]) == EXPORT_HEADERS
    assert 0 < mine == len(got) - 1
    phone = EXPORT_HEADERS.index("Phone")
    # Neutralised as the other CSV exports are: a spreadsheet must not read it as a formula.
    assert {r[phone] for r in got[1:]} == {"'+13035550123"}

    code, _, err = _run(capsys, "export", "--out", str(tmp_path / "x.csv"), "--since", "soon")
    assert code == 2 and "'soon' is not a date" in err
    code, _, err = _run(capsys, "export", "--out", str(tmp_path / "x.txt"))
    assert code == 2 and ".xlsx or .csv" in err
    code, out, err = _run(
        capsys, "export", "--out", str(tmp_path / "none.csv"), "--until", "2000-01-01"
    )
    assert code == 0 and "Exported 0 journal entries" in out
