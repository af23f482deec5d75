"""Black-box bb11: ``dnc-desk journal verify`` called a wiped journal intact and changed the file
it checked (a new chain head, a dropped table made anew); nothing printed let an officer keep the
chain's end elsewhere; a journal path that is a folder was a permission to give; and ``journal
export`` took ``--number hello``, missed the (0) and 011 written forms, dropped the whole day of
``--until 20261125`` and took ``--operation bogus``, each exporting nothing with exit 0. Every
journal here is written by real imports against the sandbox over loopback HTTP."""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.journal import ChangeJournal
from tests.conftest import TOKEN
from tests.core.test_data_folder_unusable import unwritable

UK = ["+44 20 7946 0402", "+44 7911 123456"]
US = ["3035550121", "3035550122"]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _journal(sandbox: Any, tmp_path: Path, capsys: Any) -> Path:
    for name, numbers in (("us.csv", US), ("uk.csv", UK)):
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


def _sql(journal: Path, *statements: str) -> None:
    db = sqlite3.connect(journal, isolation_level=None)
    try:
        for statement in statements:
            db.execute(statement)
    finally:
        db.close()


def _digest(journal: Path) -> str:
    return hashlib.sha256(journal.read_bytes()).hexdigest()


def _tables(journal: Path) -> list[str]:
    db = sqlite3.connect(f"{journal.as_uri()}?mode=ro", uri=True)
    try:
        return sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'"))
    finally:
        db.close()


def test_verify_of_a_wiped_journal_is_altered_and_changes_nothing(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = _journal(sandbox, tmp_path, capsys)
    _sql(journal, "DELETE FROM journal", "DELETE FROM chain_head")
    before = _digest(journal)
    code, out, _ = _run(capsys, "verify", "--json")
    held = json.loads(out)
    assert (code, held["intact"], held["exit_status"]) == (3, False, 3), out
    assert "the chain head was deleted" in held["message"]
    assert held["head_hash"] is None and held["head_entries"] is None
    assert _digest(journal) == before
    # Checked again, it is still altered: the first check did not give it a new head.
    code, out, _ = _run(capsys, "verify")
    assert code == 3 and "Chain head: missing" in out


def test_verify_of_a_dropped_table_says_so_and_does_not_make_it_anew(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = _journal(sandbox, tmp_path, capsys)
    _sql(journal, "DROP TABLE journal")
    before = _digest(journal)
    code, out, _ = _run(capsys, "verify")
    assert code == 3, out
    assert "the table holding its entries was deleted" in out
    assert _tables(journal) == ["chain_head"]
    assert _digest(journal) == before
    # Export reads it without making it either: no entries to export, the file unchanged.
    # Said as verify says it (not SQLite's "no such table: journal"); exit 1, as any journal
    # export cannot read: nothing was exported.
    code, _, err = _run(capsys, "export", "--out", str(tmp_path / "j.csv"))
    assert code == 1, err
    assert (
        f"The change journal at {journal} was altered: the table holding its entries was "
        "deleted, so none of its entries can be read. Keep the file as it is for review. "
        "Nothing was exported."
    ) in err
    assert "no such table" not in err and not (tmp_path / "j.csv").exists()
    code, _, err = _run(capsys, "export", "--operation", "dnc", "--out", str(tmp_path / "j.csv"))
    assert code == 1 and "the table holding its entries was deleted" in err, err
    assert _tables(journal) == ["chain_head"] and _digest(journal) == before


def test_verify_reads_entries_still_in_the_write_ahead_file(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = _journal(sandbox, tmp_path, capsys)
    rows = json.loads(_run(capsys, "verify", "--json")[1])["entries_checked"]
    # The window keeps the journal open: its latest entry is in the -wal, not yet in the file.
    with ChangeJournal(journal) as writer:
        writer.record_event(connection="c", base_url="http://127.0.0.1:1", operation="job.start")
        code, out, _ = _run(capsys, "verify", "--json")
        held = json.loads(out)
        assert (code, held["entries_checked"], held["head_entries"]) == (0, rows + 1, rows + 1)
        assert held["head_hash"] == writer.query(limit=1)[0].hash


def test_verify_prints_the_chain_head_to_keep_elsewhere(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = _journal(sandbox, tmp_path, capsys)
    with ChangeJournal(journal) as read:
        last = read.query(limit=1)[0]
    code, out, _ = _run(capsys, "verify")
    assert code == 0
    assert f"Chain head: {last.id:,} entries, last hash {last.hash} (keep both elsewhere" in out
    code, out, _ = _run(capsys, "verify", "--json")
    kept = json.loads(out)
    assert (kept["head_entries"], kept["head_hash"]) == (last.id, last.hash)
    # The latest entry deleted and its predecessor's hash copied into the head: the file alone
    # verifies, but its head is no longer the one kept.
    _sql(
        journal,
        f"DELETE FROM journal WHERE id = {last.id}",
        "UPDATE chain_head SET last_id = last_id - 1, rows = rows - 1, last_hash = "
        f"(SELECT hash FROM journal WHERE id = {last.id - 1})",
    )
    code, out, _ = _run(capsys, "verify", "--json")
    now = json.loads(out)
    assert code == 0 and now["intact"]
    assert (now["head_entries"], now["head_hash"]) != (kept["head_entries"], kept["head_hash"])


def test_a_journal_path_that_is_a_folder_is_said_to_be_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "data" / "journal.sqlite3").mkdir(parents=True)
    code, _, err = _run(capsys, "verify")
    assert code == 1
    assert "is a folder, not a journal file, so it cannot be verified" in err
    assert "permission" not in err
    code, _, err = _run(capsys, "export", "--out", str(tmp_path / "j.csv"))
    assert code == 1 and "is a folder, not a journal file, so nothing was exported" in err


def _phones(out: Path) -> list[str]:
    with out.open(newline="", encoding="utf-8") as f:
        return [row["Phone"].lstrip("'") for row in csv.DictReader(f)]


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("+44 (0)20 7946 0402", ""),
        ("011 44 20 7946 0402", ""),
        ("0044 20 7946 0402", ""),
        ("020 7946 0402", "44"),
    ],
)
def test_export_number_finds_every_written_form(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, code: str
) -> None:
    journal = _journal(sandbox, tmp_path, capsys)
    db = sqlite3.connect(journal)
    held = db.execute("SELECT count(*) FROM journal WHERE phone = '+442079460402'").fetchone()[0]
    db.close()
    assert held >= 2  # its intent and outcome
    out = tmp_path / "n.csv"
    argv = ["export", "--out", str(out), "--number", written]
    code_argv = ["--phone-code", code] if code else []
    status, said, err = _run(capsys, *argv, *code_argv)
    assert status == 0, err
    assert f"Exported {held} journal entries" in said
    assert _phones(out) == ["+442079460402"] * held


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--number", "hello"], "'hello' is not a phone number"),
        (["--number", "020 7946 0402"], "give --phone-code"),
        (["--number", "020 7946 0402", "--phone-code", "zz"], "is not a country calling code"),
        (["--until", "20261125"], "2026-11-22T14:30:05Z"),
        (["--until", "2026-11-25Z"], "is not a date or time"),
        (["--since", "2026-11-25T10"], "is not a date or time"),
        (["--operation", "bogus"], "dnc.insert"),
        (["--operation", "dnc.insrt"], "is no operation of the change journal"),
        (["--operation", "DNC.insert"], "is no operation of the change journal"),
    ],
)
def test_export_refuses_what_would_export_nothing(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    said: str,
) -> None:
    _journal(sandbox, tmp_path, capsys)
    out = tmp_path / "r.csv"
    code, _, err = _run(capsys, "export", "--out", str(out), *argv)
    assert code == 2, err
    assert said in err and argv[-2] in err
    assert not out.exists()


def test_export_until_counts_what_was_written_and_a_bare_family(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = _journal(sandbox, tmp_path, capsys)
    db = sqlite3.connect(journal)
    total, last = db.execute("SELECT count(*), max(time) FROM journal").fetchone()
    dnc = db.execute("SELECT count(*) FROM journal WHERE operation LIKE 'dnc.%'").fetchone()[0]
    db.close()
    out = tmp_path / "u.csv"
    # The last entry's minute and second, written without the rest, count that whole span.
    for until in (last[:16], last[:19], last[:10]):
        code, said, err = _run(capsys, "export", "--out", str(out), "--overwrite", "--until", until)
        assert code == 0, err
        assert f"Exported {total} journal entries" in said, until
    assert 0 < dnc < total
    for family in ("dnc", "dnc.", "dnc.*"):
        code, said, _ = _run(
            capsys, "export", "--out", str(out), "--overwrite", "--operation", family
        )
        assert (code, f"Exported {dnc} journal entries" in said) == (0, True), family


def test_a_journal_in_a_folder_this_user_cannot_write_is_verified_and_exported(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy on read-only media, or another user's data folder: SQLite cannot make the -shm
    a WAL journal is read with, so read only it was "cannot be opened" (exit 1)."""
    journal = _journal(sandbox, tmp_path, capsys)
    rows = json.loads(_run(capsys, "verify", "--json")[1])["entries_checked"]
    for beside in ("-wal", "-shm"):
        journal.with_name(journal.name + beside).unlink(missing_ok=True)
    before = _digest(journal)
    with unwritable(journal.parent):
        code, out, err = _run(capsys, "verify")
        assert code == 0, err
        assert f"The change journal is intact ({rows} entries checked)." in out
        out_file = tmp_path / "ro.csv"
        code, said, err = _run(capsys, "export", "--out", str(out_file))
        assert code == 0, err
        assert f"Exported {rows} journal entries" in said
    assert _digest(journal) == before
    assert [p.name for p in journal.parent.glob("journal.sqlite3*")] == ["journal.sqlite3"]


def test_a_write_ahead_file_that_cannot_be_read_there_is_named(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = _journal(sandbox, tmp_path, capsys)
    copy = tmp_path / "copy"
    copy.mkdir()
    with ChangeJournal(journal) as writer:
        writer.record_event(connection="c", base_url="http://127.0.0.1:1", operation="job.start")
        # Copied while the writer has it open: its latest entry is only in the -wal.
        for beside in ("", "-wal"):
            shutil.copyfile(f"{journal}{beside}", copy / f"journal.sqlite3{beside}")
    assert (copy / "journal.sqlite3-wal").stat().st_size
    for name in list(journal.parent.glob("journal.sqlite3*")):
        name.unlink()
    for name in copy.iterdir():
        shutil.move(name, journal.parent / name.name)
    with unwritable(journal.parent):
        code, _, err = _run(capsys, "verify")
    assert code == 1
    assert "cannot be read by this user: its latest entries are in journal.sqlite3-wal" in err
