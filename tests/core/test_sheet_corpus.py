"""Every file of the shared real-world corpus is read and checked with counts, or refused in one
sentence: never another exception, a hang or unbounded memory."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.sheet_check import check_all
from app.core.sheet_mapping import propose_from_preview
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError
from tests.core.sheet_factory import CORPUS

SUBDIRS = ("calamine", "csv-spectrum")
NOT_SPREADSHEETS = {".md", ".rs", ".jpg", ".png"}
PER_FILE_SECONDS = 90


def corpus_files() -> list[Path]:
    files: list[Path] = []
    for sub in SUBDIRS:
        folder = CORPUS / sub
        if folder.is_dir():
            files += sorted(p for p in folder.iterdir() if p.is_file())
    return files


FILES = corpus_files()


@pytest.fixture
def time_limit() -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"no verdict within {PER_FILE_SECONDS} s")

    if sys.platform == "win32":
        yield
        return
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(PER_FILE_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def rss_bytes() -> int:
    with open(f"/proc/{os.getpid()}/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not FILES, reason=f"the shared corpus is not present at {CORPUS}")
@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_corpus_file_is_checked_or_refused_in_one_sentence(path: Path, time_limit: None) -> None:
    before = rss_bytes() if sys.platform == "linux" else 0
    try:
        with open_sheet(path) as source:
            mapping = propose_from_preview(source.preview(50))
            checked, summary = check_all(source.iter_rows(), mapping)
    except SheetError as exc:
        message = str(exc)
        assert path.name in message
        assert "\n" not in message and "Traceback" not in message
        assert message.endswith(".")
        return
    assert path.suffix.lower() not in NOT_SPREADSHEETS, "a non-spreadsheet was read as one"
    assert summary.rows == len(checked)
    assert summary.rows == (
        summary.valid + summary.invalid + summary.duplicates_in_file + summary.blank
    )
    first_data = (mapping.header_row or 0) + 1
    assert [c.row for c in checked] == list(range(first_data, first_data + len(checked)))
    if sys.platform == "linux":
        assert rss_bytes() - before < 300 << 20


EXPECTED = {
    # file: (rows, valid, invalid, duplicates_in_file, blank)
    "csv-spectrum/simple.csv": (1, 0, 1, 0, 0),
    "csv-spectrum/utf8.csv": (2, 0, 2, 0, 0),
    "csv-spectrum/location_coordinates.csv": (1, 1, 0, 0, 0),
    "csv-spectrum/newlines_crlf.csv": (3, 0, 3, 0, 0),
    "calamine/any_sheets.xlsx": (5, 0, 4, 0, 1),
    "calamine/header-row.xlsx": (1, 0, 1, 0, 0),
}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_known_corpus_counts(key: str) -> None:
    path = CORPUS / key
    if not path.exists():
        pytest.skip(f"corpus file {path} is not present")
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
        _, summary = check_all(source.iter_rows(), mapping)
    got = (summary.rows, summary.valid, summary.invalid, summary.duplicates_in_file, summary.blank)
    assert got == EXPECTED[key]


@pytest.mark.parametrize(
    "name", ["OOM_alloc.xls", "OOM_alloc2.xls", "OOM_alloc3.xls", "issue_594_dos.ods"]
)
def test_hostile_corpus_files_end_quickly(name: str, time_limit: None) -> None:
    path = CORPUS / "calamine" / name
    if not path.exists():
        pytest.skip(f"corpus file {path} is not present")
    try:
        with open_sheet(path) as source:
            rows = sum(1 for _ in source.iter_rows())
        assert rows > 0
    except SheetError as exc:
        assert name in str(exc)
