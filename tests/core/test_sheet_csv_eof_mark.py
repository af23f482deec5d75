"""A DOS end-of-file mark (Ctrl-Z) ending a text file is not data (black-box pass L1 #7: a
CRLF file ending in Ctrl-Z read as an extra row "row 5: phone: '\\x1a' is not a phone number",
where a person counts 3 rows and none invalid)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_reader import open_sheet

HEAD = b"Phone,Name\r\n3035555101,Ann\r\n3035555102,Ben\r\n3035555103,\xc7"  # cp1252 "Ç"


def _rows(path: Path) -> list[tuple[int, list[object]]]:
    with open_sheet(path) as source:
        return [(n, list(cells)) for n, cells in source.iter_rows()]


@pytest.mark.parametrize(
    "ending",
    [b"\r\n\x1a", b"\r\n\x1a\r\n", b"\x1a", b"\x1a\r\n", b"\r\n\x1a\x1a", b"\n\x1a\n"],
)
def test_a_trailing_ctrl_z_is_not_read(tmp_path: Path, ending: bytes) -> None:
    path = tmp_path / "dos.csv"
    path.write_bytes(HEAD + ending)
    assert _rows(path) == [
        (1, ["Phone", "Name"]),
        (2, ["3035555101", "Ann"]),
        (3, ["3035555102", "Ben"]),
        (4, ["3035555103", "Ç"]),
    ]


def test_the_import_counts_three_rows_none_invalid(tmp_path: Path) -> None:
    path = tmp_path / "e2_crlf_ctrlz.csv"
    path.write_bytes(HEAD + b"\r\n\x1a")
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    numbers = [r.national for r in store.rows()]
    store.close()
    assert numbers == ["3035555101", "3035555102", "3035555103"]
    assert summary.invalid == 0


def test_a_ctrl_z_inside_the_file_is_data(tmp_path: Path) -> None:
    # Only the end of the file is a DOS end-of-file mark; a cell holding one elsewhere is read
    # as it is.
    path = tmp_path / "mid.csv"
    path.write_bytes(b"Phone,Name\r\n3035555101,A\x1a\r\n3035555102,Ben\r\n")
    assert _rows(path)[1] == (2, ["3035555101", "A\x1a"])
