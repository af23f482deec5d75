"""A file that changes while it is staged is refused (black-box L4 #1, severe).

A CSV still being written by a download or an export had a half-written line ("+49 30 7052",
the rest still to come) inserted as a valid number nobody asked for, and a line cut in two read
as two rows. The change is made here by a writer appending to the real file while the real
reader goes through it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError
from app.core.removal_job import stage_removal
from app.core.sheet_csv import CsvSource
from app.core.sheet_types import Row, SheetError


def _appending_while_read(monkeypatch: pytest.MonkeyPatch, path: Path, tail: str) -> None:
    read = CsvSource.iter_rows

    def iter_rows(self: CsvSource) -> Iterator[Row]:
        for n, row in enumerate(read(self)):
            if n == 1:
                with path.open("a", encoding="utf-8") as fh:  # the writer, mid-read
                    fh.write(tail)
            yield row

    monkeypatch.setattr(CsvSource, "iter_rows", iter_rows)


@pytest.mark.parametrize("stage", [stage_import, stage_removal])
def test_a_file_written_to_while_read_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stage: object
) -> None:
    path = tmp_path / "growing.csv"
    path.write_text("Phone\n+49 30 70527051\n+49 30 70527052\n", encoding="utf-8")
    before = path.stat().st_size
    _appending_while_read(monkeypatch, path, "+49 30 7052")
    jobs = tmp_path / "jobs"
    with pytest.raises(MappingError) as refused:
        stage(JobSettings(path, Scope.global_()), jobs, connection=None)  # type: ignore[operator]
    assert str(refused.value) == (
        f"growing.csv changed while it was read (its size went from {before:,} to "
        f"{before + 11:,} bytes): it may still be being written, by a download or an export. "
        "Wait until it is complete and run it again; no job was made and nothing was sent."
    )
    assert not list(jobs.glob("*.dncjob"))  # no job file left to resume


def test_a_file_left_alone_is_staged(tmp_path: Path) -> None:
    path = tmp_path / "done.csv"
    path.write_text("Phone\n+49 30 70527051\n+49 30 70527052\n", encoding="utf-8")
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    store.close()
    assert summary.valid == 2


@pytest.mark.parametrize("stage", [stage_import, stage_removal])
def test_a_symbolic_link_loop_is_one_sentence(tmp_path: Path, stage: object) -> None:
    # Black-box L4 #2: a RuntimeError traceback from resolving the path, before any reading.
    (tmp_path / "loopa.csv").symlink_to(tmp_path / "loopb.csv")
    (tmp_path / "loopb.csv").symlink_to(tmp_path / "loopa.csv")
    settings = JobSettings(tmp_path / "loopa.csv", Scope.global_())
    with pytest.raises(SheetError) as refused:
        stage(settings, tmp_path / "jobs", connection=None)  # type: ignore[operator]
    assert "is a symbolic link that leads back to itself (a loop)" in str(refused.value)
