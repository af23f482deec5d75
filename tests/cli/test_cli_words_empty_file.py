"""Black-box B30 F9 (b): an empty file said only "empty.csv is empty (0 bytes)."; it now says
what to do. Goes with /tmp/s28/fxc/sheet_reader_empty.patch (app/core/sheet_reader.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli.main import main


def test_an_empty_file_says_what_to_do(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "empty.csv"
    src.write_bytes(b"")
    status = main(["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"])
    _, err = capsys.readouterr()
    assert status == 1
    assert err.strip() == (
        "empty.csv is empty (0 bytes): check that it is the file you meant and, if it was "
        "exported or downloaded, that the export or download finished, then run again."
    )
