"""A text file whose lines end with CR alone (Excel for Mac's "CSV (Macintosh)", which in a
European locale is semicolon-separated) has its delimiter found as any other's (black-box Q1
#2: such a file was refused "No column of phone numbers was found", and with --phone-column
'#1' read one column "Phone;Name;Notes", while comma+CR and semicolon+LF worked)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_csv import CsvSource, sniff_delimiter

LINES = ["Phone;Name;Notes", "3035550194;Renée;Ne pas appeler", "3035550195;Jürgen;Kein Anruf"]


@pytest.mark.parametrize("end", ["\r", "\n", "\r\n"])
@pytest.mark.parametrize("delimiter", [";", ",", "\t", "|"])
def test_the_delimiter_is_found_whatever_ends_the_lines(end: str, delimiter: str) -> None:
    text = end.join(line.replace(";", delimiter) for line in LINES) + end
    assert sniff_delimiter(text) == delimiter


@pytest.mark.parametrize("encoding", ["utf-8", "mac_roman", "cp1252"])
def test_a_semicolon_file_with_cr_lines_is_imported(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "semicolon_cr.csv"
    path.write_bytes("\r".join(LINES).encode(encoding) + b"\r")
    with CsvSource(path) as source:
        assert source.delimiter == ";"
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    assert summary.valid == 2
    assert [r.national for r in store.rows()] == ["3035550194", "3035550195"]
    mapping = store.meta()["mapping"]
    assert mapping["phone"] == "Phone (column A)"
    assert mapping["reason"] == "Notes (column C)"
    store.close()


def test_a_two_column_semicolon_file_with_cr_lines(tmp_path: Path) -> None:
    # The finding's semicolon_cr2.csv: no third column to help.
    path = tmp_path / "semicolon_cr2.csv"
    path.write_bytes(b"Phone;Name\r3035550194;Renee\r3035550195;Jurgen\r")
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    assert summary.valid == 2
    assert [r.national for r in store.rows()] == ["3035550194", "3035550195"]
    store.close()
