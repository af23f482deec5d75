"""A job's report, the change journal's xlsx export and the campaign audit report stream their
rows to a file beside the output, never to openpyxl's temporary file in $TMPDIR (X2, as
black-box R5 #6b found of the export: a process killed with SIGKILL left that file, every
phone number in it, in /tmp). A killed report leaves only its ``.part`` file beside the output,
which the next report to the same path deletes; a report being written meanwhile keeps its."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.core import xlsx_safe
from app.core.audit_report import write_report as write_audit_report
from app.core.audit_types import AuditResult
from app.core.import_job import stage_import
from app.core.job_report import ReportWriter, write_report
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore, Outcome
from app.core.journal import EXPORT_HEADERS, ChangeJournal, JournalEntry
from app.core.xlsx_safe import SafeWorkbook

ROOT = Path(__file__).resolve().parents[2]
ROWS = 3000
STREAM = re.compile(r"report\.xlsx\.[a-z0-9_]{8}\.part")


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """$TMPDIR as this process's tempfile sees it: a folder of the test's own, empty."""
    folder = tmp_path / "tmpdir"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture
def job(tmp_path: Path) -> Iterator[Path]:
    """A staged import job of ROWS numbers (none sent), its store closed: the job file."""
    src = tmp_path / "in.csv"
    src.write_text(
        "Phone\n" + "".join(f"{2025550000 + i}\n" for i in range(ROWS)), encoding="utf-8"
    )
    store, _ = stage_import(JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=None)
    path = store.path
    store.close()
    yield path


class SaveSpy:
    """What was in :attr:`folders` when a workbook was saved (every sheet written, nothing
    deleted yet), one listing per folder in :attr:`seen`; the save itself is SafeWorkbook's."""

    def __init__(self) -> None:
        self.folders: list[Path] = []
        self.seen: list[list[str]] = []


@pytest.fixture
def at_save(monkeypatch: pytest.MonkeyPatch) -> SaveSpy:
    spy = SaveSpy()
    save = SafeWorkbook.save

    def listing_save(self: SafeWorkbook, path: Path) -> None:
        spy.seen += [_names(f) if f.is_dir() else [] for f in spy.folders]
        save(self, path)

    monkeypatch.setattr(SafeWorkbook, "save", listing_save)
    return spy


def _report_rows(path: Path) -> int:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        return len(list(book["Rows"].iter_rows(values_only=True))) - 1
    finally:
        book.close()


def test_a_report_streams_beside_its_output_and_nothing_goes_to_tmpdir(
    job: Path, tmp_path: Path, temp_dir: Path, at_save: SaveSpy
) -> None:
    out_dir = tmp_path / "reports"  # made by the report, as before
    out = out_dir / "report.xlsx"
    store = JobStore(job)
    try:
        writer = ReportWriter(store, out)
        assert writer.advance(ROWS) == 0  # nothing sent: every row waits for finish
        at_save.folders = [temp_dir, out_dir]
        writer.finish()
    finally:
        store.close()
    in_temp, beside = at_save.seen
    assert in_temp == []
    # Rows and Summary each streamed to a file of their own beside the output.
    assert len(beside) == 2 and all(STREAM.fullmatch(n) for n in beside), beside
    assert _names(out_dir) == ["report.xlsx"]
    assert _names(temp_dir) == []
    assert _report_rows(out) == ROWS


def test_the_journal_export_streams_beside_its_output(tmp_path: Path, temp_dir: Path) -> None:
    out_dir = tmp_path / "chosen"
    out_dir.mkdir()
    out = out_dir / "journal.xlsx"
    seen: list[tuple[list[str], list[str]]] = []

    def entries() -> Iterator[JournalEntry]:
        for i in range(ROWS):
            if i == ROWS - 1:  # every row but this one written: what a kill now would leave
                seen.append((_names(temp_dir), _names(out_dir)))
            phone = f"+1202555{i:04d}"
            yield JournalEntry(
                i + 1, "2026-11-23T10:00:00+00:00", "intent", None, "prod", "https://x",
                "dnc.insert", f"dnc:{phone}", phone, None, {"phone": phone}, "", "", "job-1",
                "", "", "",
            )  # fmt: skip

    with ChangeJournal(tmp_path / "journal.sqlite3") as journal:
        assert journal.export_xlsx(out, entries()) == ROWS
    ((in_temp, beside),) = seen
    assert in_temp == []
    assert len(beside) == 1 and re.fullmatch(r"journal\.xlsx\.[a-z0-9_]{8}\.part", beside[0])
    assert _names(out_dir) == ["journal.xlsx"]
    assert _names(temp_dir) == []
    book = openpyxl.load_workbook(out, read_only=True)
    try:
        rows = list(book["Change journal"].iter_rows(values_only=True))
    finally:
        book.close()
    assert rows[0] == EXPORT_HEADERS and len(rows) == ROWS + 1
    assert rows[-1][EXPORT_HEADERS.index("Phone")] == f"+1202555{ROWS - 1:04d}"


def test_the_audit_report_streams_beside_its_output(
    tmp_path: Path, temp_dir: Path, at_save: SaveSpy
) -> None:
    out_dir = tmp_path / "audits"
    out_dir.mkdir()
    result = AuditResult("Sandbox", "https://x", "7", "Spring", "t0", "t1", [], 0, 0, [], [], [])
    at_save.folders = [temp_dir, out_dir]
    write_audit_report(result, out_dir / "audit.xlsx")
    in_temp, beside = at_save.seen
    assert in_temp == []
    assert len(beside) == 3 and all(n.startswith("audit.xlsx.") for n in beside), beside
    assert _names(out_dir) == ["audit.xlsx"]
    assert _names(temp_dir) == []


def test_an_unwritable_place_fails_at_the_save_and_nothing_goes_to_tmpdir(
    job: Path, tmp_path: Path, temp_dir: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    store = JobStore(job)
    try:
        writer = ReportWriter(store, blocker / "report.xlsx")  # rows written: no error yet
        assert _names(temp_dir) == []
        with pytest.raises(OSError):
            writer.finish()
    finally:
        store.close()
    assert _names(temp_dir) == []
    assert _names(tmp_path) == ["a-file", "in.csv", "jobs", "tmpdir"]


def test_a_stream_that_cannot_be_made_fails_the_save(
    tmp_path: Path, temp_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The folder writable when saved, yet no stream could be made beside the output when the
    # rows were written (the disk full then): the save fails, never a sheet without its rows.
    def full(*args: Any, **kwargs: Any) -> tuple[int, str]:
        raise OSError(28, "No space left on device")

    out = tmp_path / "journal.xlsx"
    book = SafeWorkbook(quote_prefix=True, beside=out)
    sheet = book.add_sheet("Change journal")
    with monkeypatch.context() as patch:
        patch.setattr(xlsx_safe.tempfile, "mkstemp", full)
        sheet.append(["+12025550123"])
    with pytest.raises(OSError, match="No space left"):
        book.save(out)
    assert _names(tmp_path) == ["tmpdir"]
    assert _names(temp_dir) == []


# A child process: writes the job's report (``write``), or its rows only and then waits to be
# killed (``hold``); says which files it opened in $TMPDIR (an audit hook sees every open,
# those deleted again too).
CHILD = """
import json, os, sys, tempfile, time
from pathlib import Path

temp = os.path.realpath(tempfile.gettempdir())
opened = []

def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.fsdecode(args[0])
        if os.path.realpath(path).startswith(temp + os.sep):
            opened.append(path)

sys.addaudithook(hook)
from app.core.job_report import ReportWriter, write_report
from app.core.job_store import JobStore, Outcome

mode, job, out = sys.argv[1:]
store = JobStore(Path(job))
if mode == "write":
    write_report(store, Path(out))
    print(json.dumps(opened), flush=True)
else:
    ReportWriter(store, Path(out)).advance(10**6)  # as a running job's report thread does
    print(json.dumps(opened), flush=True)
    time.sleep(120)
"""


def _child(mode: str, job: Path, out: Path, temp: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "TMPDIR": str(temp), "TEMP": str(temp), "TMP": str(temp)}
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, mode, str(job), str(out)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_report_killed_mid_write_leaves_only_its_part_file_which_the_next_one_deletes(
    job: Path, tmp_path: Path
) -> None:
    temp = tmp_path / "tmpdir"
    temp.mkdir()
    out_dir = tmp_path / "reports"
    out_dir.mkdir()
    out = out_dir / "report.xlsx"
    store = JobStore(job)
    try:
        for seq in [row.seq for row in store.rows()]:
            store.mark_done(seq, Outcome.INSERTED)
        store.flush()
    finally:
        store.close()

    child = _child("write", job, out, temp)
    stdout, stderr = child.communicate(timeout=120)
    assert child.returncode == 0, stderr
    assert json.loads(stdout) == []  # never a file opened in $TMPDIR, even one deleted again
    assert _names(out_dir) == ["report.xlsx"]
    out.unlink()

    child = _child("hold", job, out, temp)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line, child.communicate()
        assert json.loads(line) == []
        (part,) = _names(out_dir)
        assert STREAM.fullmatch(part)
        assert f"{2025550000 + ROWS // 2}".encode() in (out_dir / part).read_bytes()
        # A report written to the same path meanwhile leaves the live one's stream alone.
        store = JobStore(job)
        try:
            write_report(store, out)
        finally:
            store.close()
        assert _names(out_dir) == sorted([part, "report.xlsx"])
        out.unlink()
    finally:
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=10)
    assert _names(temp) == []
    assert _names(out_dir) == [part]  # the rows only where the report was to go

    store = JobStore(job)
    try:
        write_report(store, out)
    finally:
        store.close()
    assert _names(out_dir) == ["report.xlsx"]
    assert _report_rows(out) == ROWS
    assert _names(temp) == []


def test_left_streams_are_deleted_and_nothing_else(tmp_path: Path) -> None:
    out = tmp_path / "report.xlsx"
    names = [
        "report.xlsx.ab12cd_9.part",  # left by a killed report, or an export before X2
        "report.xlsx.part",  # a killed save's, replaced by the next save
        "report.xlsx.ab12cd_9.part.bak",
        "other.xlsx.ab12cd_9.part",
        "report.xlsx.toolongname.part",
    ]
    for name in names:
        (tmp_path / name).write_text("x", encoding="utf-8")
    SafeWorkbook(quote_prefix=True, beside=out)
    assert _names(tmp_path) == sorted(names[1:])
