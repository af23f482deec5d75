"""A writer that fails on a full disk leaves no partial file and closes its zip quietly
(black-box pass L4 #6: ``all.csv.part`` was left behind, and an xlsx printed "Exception ignored
in: ZipFile.__del__ … ValueError: seek of closed file"). The full disk is /dev/full, where every
write fails with ENOSPC, linked at the writer's ``.part`` name."""

from __future__ import annotations

import errno
import gc
import sys
from pathlib import Path
from typing import Any

import pytest

from app.core.xlsx_safe import SafeCsvWriter, SafeWorkbook

pytestmark = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")


def full_disk_at(path: Path) -> Path:
    part = path.with_name(path.name + ".part")
    part.symlink_to("/dev/full")
    return part


@pytest.fixture
def unraisable(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What Python would print as "Exception ignored in: …"."""
    seen: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    return seen


ROWS = [
    [f"+1303555{i:04d}", "1", "global", "0", "", "2026-01-01", "stop", "", str(i)]
    for i in range(3000)
]


def test_a_csv_that_cannot_be_finished_leaves_no_part_file(tmp_path: Path) -> None:
    out = tmp_path / "all.csv"
    part = full_disk_at(out)
    writer = SafeCsvWriter(out)
    for row in ROWS[:20]:  # within the buffer: the last rows are written by close()
        writer.append_text(row)
    with pytest.raises(OSError) as caught:
        writer.close()
    assert caught.value.errno == errno.ENOSPC
    assert not part.exists() and not part.is_symlink() and not out.exists()


def test_a_csv_given_up_after_a_failed_write_leaves_no_part_file(tmp_path: Path) -> None:
    out = tmp_path / "all.csv"
    part = full_disk_at(out)
    writer = SafeCsvWriter(out)
    with pytest.raises(OSError):
        for row in ROWS * 20:  # past the buffer: a write fails
            writer.append_text(row)
    writer.close(keep=False)  # quietly, though the flush fails again
    assert not part.is_symlink() and not out.exists()


def test_an_xlsx_that_cannot_be_saved_closes_its_zip_quietly(
    tmp_path: Path, unraisable: list[Any]
) -> None:
    out = tmp_path / "all.xlsx"
    part = full_disk_at(out)
    book = SafeWorkbook(quote_prefix=True)
    sheet = book.add_sheet("Entries", text_columns=(0,))
    for row in ROWS:
        sheet.append_text(row)
    with pytest.raises(OSError) as caught:
        book.save(out)
    assert caught.value.errno == errno.ENOSPC
    del caught
    gc.collect()
    assert unraisable == []
    assert not part.is_symlink() and not out.exists()
