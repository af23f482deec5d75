"""A data or configuration folder that cannot be used is one sentence naming the folder and
what is wrong (black-box pass L4 #3: an ``OSError: [Errno 30] Read-only file system: '…/jobs'``
or a ``FileExistsError`` traceback for every command)."""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from app.core.paths import DATA_ENV, AppPaths, DataFolderError


def paths(tmp_path: Path, data: Path) -> AppPaths:
    return AppPaths(config_dir=tmp_path / "config", data_dir=data)


def refusal(tmp_path: Path, data: Path) -> str:
    with pytest.raises(DataFolderError) as caught:
        paths(tmp_path, data).ensure()
    text = str(caught.value)
    assert "\n" not in text
    return text


def test_a_data_folder_that_is_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.write_text("not a folder")
    monkeypatch.setenv(DATA_ENV, str(data))
    assert refusal(tmp_path, data) == (
        f"The data folder {data} (DNC_DESK_DATA_DIR) cannot be used: it is a file, not a "
        "folder; nothing was sent. Point DNC_DESK_DATA_DIR at a folder that can be written, "
        "or move that file aside."
    )


def test_a_file_named_jobs_inside_the_data_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "jobs").write_text("")
    text = refusal(tmp_path, data)
    assert text.startswith(f"The data folder {data} (DNC_DESK_DATA_DIR) cannot be used: ")
    assert "jobs inside it is a file, not a folder; nothing was sent." in text


def test_a_file_above_the_data_folder(tmp_path: Path) -> None:
    above = tmp_path / "plain"
    above.write_text("")
    text = refusal(tmp_path, above / "data")
    assert f"cannot be used: {above} is a file, not a folder" in text


def test_a_read_only_file_system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    real_mkdir = Path.mkdir

    # What mkdir says on a read-only mount (a mount needs privileges a test must not need).
    def read_only(self: Path, *args: object, **kwargs: object) -> None:
        if self == data / "jobs":
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", read_only)
    text = refusal(tmp_path, data)
    assert f"The data folder {data} (DNC_DESK_DATA_DIR) cannot be used: it is on a read-only " in (
        text
    )
    assert "file system; nothing was sent." in text


def test_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"

    def full(self: Path, *args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))

    monkeypatch.setattr(Path, "mkdir", full)
    assert "cannot be used: the disk holding it is full; nothing was sent." in refusal(
        tmp_path, data
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root may create folders anywhere")
def test_a_folder_the_user_may_not_create(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        text = refusal(tmp_path, locked / "data")
    finally:
        locked.chmod(0o700)
    assert "cannot be used: the app may not create it (permission denied)" in text


def test_a_default_data_folder_is_named_without_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(DATA_ENV)
    data = tmp_path / "data"
    data.write_text("")
    text = refusal(tmp_path, data)
    assert text.startswith(f"The data folder {data} cannot be used: it is a file")
    assert text.endswith(
        "Set DNC_DESK_DATA_DIR to a folder that can be written, or move that file aside."
    )


def test_a_usable_folder_is_created(tmp_path: Path) -> None:
    made = paths(tmp_path, tmp_path / "a" / "data")
    made.ensure()
    assert made.jobs_dir.is_dir() and made.locks_dir.is_dir()


@contextmanager
def unwritable(folder: Path) -> Iterator[str]:
    """``folder`` made unwritable for real, and the words its refusal gives: by its mode for a
    user, by the immutable attribute for root (whom a mode does not stop); skipped where
    neither can be done."""
    if os.geteuid() != 0:
        folder.chmod(0o500)
        try:
            yield "the app may not write to it (permission denied)"
        finally:
            folder.chmod(0o700)
        return
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"no immutable attribute here: {made.stderr!r}")
    try:
        yield "writing to it is not permitted (an immutable attribute or a security policy)"
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_an_existing_data_folder_that_cannot_be_written(tmp_path: Path) -> None:
    """mkdir of a folder that is there succeeds, so ensure() passes; the first write failed
    with SQLite's "unable to open database file" (black-box B35 F5/F6)."""
    made = paths(tmp_path, tmp_path / "data")
    made.ensure()
    with unwritable(made.data_dir) as why:
        made.ensure()
        with pytest.raises(DataFolderError) as caught:
            made.check_writable()
    assert str(caught.value).startswith(
        f"The data folder {made.data_dir} (DNC_DESK_DATA_DIR) cannot be used to write the "
        f"change journal: {why}; nothing was sent. Point DNC_DESK_DATA_DIR at a folder that "
        "can be written, or "
    )
    assert ".write-check" not in str(caught.value)
    assert not list(made.data_dir.glob(".write-check*"))


def test_a_jobs_folder_that_cannot_be_written(tmp_path: Path) -> None:
    made = paths(tmp_path, tmp_path / "data")
    made.ensure()
    with unwritable(made.jobs_dir), pytest.raises(DataFolderError) as caught:
        made.check_writable()
    assert "cannot be used to write job files: " in str(caught.value)
    assert "jobs inside it" in str(caught.value)
