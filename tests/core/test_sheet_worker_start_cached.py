"""The sheet worker starts as a module loaded through the import system, whose bytecode is
cached, not as a script compiled from source at every start (session 19, P1: some 40 ms on
the way to every workbook's first rows)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from app.core import sheet_reader, sheet_worker
from app.core.sheet_reader import open_sheet
from tests.core import sheet_factory as f


def test_the_worker_is_loaded_as_a_module_with_cached_bytecode(tmp_path: Path) -> None:
    fake = tmp_path / "sheet_worker.py"
    fake.write_text(
        "import sys\n"
        "def main(argv):\n"
        "    print(__name__, __spec__ is not None and __spec__.cached is not None, argv)\n"
        "    return 3\n"
    )
    command = sheet_reader.worker_command()
    assert command[-1] == sheet_worker.__file__
    command[-1] = str(fake)
    done = subprocess.run(
        [*command, "book.xlsx", "", "1024", "0", "xlsx"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 3, done.stderr
    assert done.stdout.split("\n")[0] == (
        "sheet_worker True ['book.xlsx', '', '1024', '0', 'xlsx']"
    )
    assert list((tmp_path / "__pycache__").glob("sheet_worker.*.pyc"))


def test_a_workbook_reads_through_the_worker_so_started(tmp_path: Path) -> None:
    path = f.write_xlsx(tmp_path / "t.xlsx", [["Phone", "Reason"], [2025550123, "asked"]])
    with open_sheet(path) as source:
        assert list(source.iter_rows()) == [(1, ["Phone", "Reason"]), (2, [2025550123.0, "asked"])]
