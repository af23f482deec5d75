"""The data and configuration folders are absolute once read, with ``~`` expanded (black-box R5
#13), and a job made from a file whose name is not valid UTF-8 still finds that file (R5 #1)."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.job_catalog import made_from, source_change, source_fingerprint, source_path
from app.core.job_staging import JobSettings, stage
from app.core.job_store import SOURCE_PATH_BYTES, JobStore, readable_meta
from app.core.paths import AppPaths, path_text


def test_relative_data_folder_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DNC_DESK_DATA_DIR", "reldata")
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", "relconfig")
    paths = AppPaths.locate()
    assert paths.data_dir == tmp_path / "reldata"
    assert paths.config_dir == tmp_path / "relconfig"
    assert paths.jobs_dir.is_absolute()


def test_home_folder_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", "~/x")
    AppPaths.default()
    assert AppPaths.locate().data_dir == tmp_path / "home" / "x"
    assert (tmp_path / "home" / "x" / "jobs").is_dir()
    assert not (tmp_path / "~").exists()


def test_path_text_shows_undecodable_bytes() -> None:
    bad = Path(os.fsdecode(b"/data/bad\xf1name.csv"))
    assert path_text(bad) == "/data/bad\\xf1name.csv"
    assert path_text(Path("/data/Señal 中文.csv")) == "/data/Señal 中文.csv"


def bad_name(folder: Path) -> Path:
    path = folder / os.fsdecode(b"bad\xf1name.csv")
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[f"303-555-{i:04d}"] for i in range(5)])
    return path


def test_job_from_a_name_not_utf8_finds_its_file(tmp_path: Path) -> None:
    src = bad_name(tmp_path)
    jobs = tmp_path / "jobs"
    store, _ = stage(
        JobSettings(src, Scope.global_(), extra=source_fingerprint(src)),
        jobs,
        kind="import",
        connection=None,
    )
    meta = store.meta()
    store.close()
    assert meta["file"] == str(tmp_path / "bad\\xf1name.csv")
    assert meta["name"] == "Import of bad\\xf1name.csv"
    assert source_path(meta) == src
    assert source_change(meta) == ""
    assert [j.job_id for j in made_from(jobs, src, "import")] == [meta["job_id"]]
    with src.open("a") as fh:
        fh.write("303-555-9999\n")
    assert source_change(meta).startswith("has changed")


def test_meta_of_a_job_made_before_is_readable(tmp_path: Path) -> None:
    """A job staged before names were shown (its ``file`` the path as Python read it) reads
    back as text, its file still found."""
    src = bad_name(tmp_path)
    with JobStore.create(tmp_path, "import-old", {"file": str(src), "name": src.name}) as store:
        meta = store.meta()
    assert meta["file"] == str(tmp_path / "bad\\xf1name.csv")
    assert meta["name"] == "bad\\xf1name.csv"
    assert meta[SOURCE_PATH_BYTES] == os.fsencode(src).hex()
    assert source_path(meta) == src
    assert readable_meta({"file": "/a/b.csv"}) == {"file": "/a/b.csv"}
