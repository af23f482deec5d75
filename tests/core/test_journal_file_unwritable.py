"""A change journal whose file (or its -shm) cannot be written, in a data folder that can, is
refused in a sentence naming the file, why and what to do, not in SQLite's words ("attempt to
write a readonly database") with advice to check permissions that an immutable file does not
take (black-box B35 F5/F6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.journal import ChangeJournal, JournalError
from tests.core.test_data_folder_unusable import unwritable


def refusal(path: Path) -> str:
    with pytest.raises(JournalError) as caught:
        ChangeJournal(path)
    return str(caught.value)


def test_a_journal_file_that_cannot_be_written(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    ChangeJournal(path).close()
    with unwritable(path):
        text = refusal(path)
    assert text.startswith(f"The change journal at {path} cannot be written: ")
    assert "; nothing was sent. To go on, " in text
    assert text.endswith("the journal is the record of earlier changes, so keep it.")
    assert "readonly database" not in text and "unable to open" not in text
    assert "\n" not in text


def test_its_shared_memory_file_that_cannot_be_written(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    ChangeJournal(path).close()
    # A -shm left beside it, as a process killed while it had the journal open leaves it.
    shm = tmp_path / "journal.sqlite3-shm"
    shm.write_bytes(b"")
    with unwritable(shm):
        text = refusal(path)
    assert text.startswith(f"The change journal at {path} cannot be written: ")
    assert "journal.sqlite3-shm beside it" in text
    assert "readonly database" not in text and "unable to open" not in text
