"""The time a job's file was modified, in the notes that say it changed, is UTC, as the job
file's and the lock's times are (black-box B32 leftover: it was local with no zone)."""

from __future__ import annotations

import calendar
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.job_catalog import (
    SOURCE_MTIME_NS,
    SOURCE_SHA256,
    SOURCE_SIZE,
    source_change,
    source_fingerprint,
)


@pytest.fixture
def far_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")  # UTC+14: a local time is another day
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("far_zone")
def test_a_changed_file_names_its_modification_in_utc(tmp_path: Path) -> None:
    src = tmp_path / "optouts.csv"
    src.write_text("Phone\n3035550401\n", encoding="utf-8")
    meta: dict[str, object] = {"file": str(src), **source_fingerprint(src)}
    src.write_text("Phone\n3035550401\n3035550402\n", encoding="utf-8")
    stamp = calendar.timegm((2026, 11, 24, 20, 30, 0))
    os.utime(src, (stamp, stamp))
    assert source_change(meta) == (
        f"has changed: it is {src.stat().st_size:,} bytes now, {meta[SOURCE_SIZE]:,} then "
        "(modified 2026-11-24 20:30 UTC)"
    )


@pytest.mark.usefixtures("far_zone")
def test_a_job_without_a_fingerprint_names_the_later_modification_in_utc(tmp_path: Path) -> None:
    src = tmp_path / "optouts.csv"
    src.write_text("Phone\n3035550401\n", encoding="utf-8")
    stamp = calendar.timegm((2026, 11, 24, 23, 5, 0))
    os.utime(src, (stamp, stamp))
    meta = {"file": str(src), "created": "2026-11-24 09:00:00"}
    assert SOURCE_MTIME_NS not in meta and SOURCE_SHA256 not in meta
    assert source_change(meta) == "was modified 2026-11-24 23:05 UTC, after the job was made"
