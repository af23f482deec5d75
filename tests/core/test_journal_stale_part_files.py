"""Black-box B19 F4: a process killed while making the change journal left its part files
(``journal.sqlite3.<pid>-<tid>.new`` and its -wal and -shm, readable by others) beside the
journal for good. Opening the journal now removes such parts once they are an hour old (making
one takes milliseconds), and leaves a part another process may still be making."""

from __future__ import annotations

import os
import time
from pathlib import Path

from app.core.journal import ChangeJournal


def test_old_parts_of_a_killed_creation_are_removed_and_new_ones_kept(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    old = [tmp_path / f"journal.sqlite3.4242-1399.new{end}" for end in ("", "-wal", "-shm")]
    fresh = tmp_path / "journal.sqlite3.4243-1400.new"
    other = tmp_path / "journal.sqlite3.notes.txt"
    # Re-test U3 F2: a person's own ".new" files beside it are not _create's parts.
    own = [tmp_path / f"journal.sqlite3.{name}.new" for name in ("copy", "bak", "1-x")]
    for part in (*old, fresh, other, *own):
        part.write_bytes(b"x")
    hours_ago = time.time() - 2 * 3600
    for part in (*old, other, *own):
        os.utime(part, (hours_ago, hours_ago))
    with ChangeJournal(path) as journal:
        assert journal.verify().ok
    assert not any(p.exists() for p in old)
    assert fresh.exists() and other.exists() and all(p.exists() for p in own)
    assert path.is_file()
