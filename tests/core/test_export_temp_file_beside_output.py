"""An xlsx export streams its rows to a file beside the output, never to openpyxl's temporary
file in $TMPDIR (black-box R5 #6b: an export killed by SIGKILL left that file, every exported
phone number in it, in /tmp), and leaves nothing behind when it ends or is cancelled."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.paging import Cancelled
from app.core.export_job import ExportJob, ExportProgress, ListKind
from tests.conftest import TOKEN

ROWS = 60


@pytest.fixture
def client(sandbox: Any) -> Iterator[ApiClient]:
    sandbox.bulk_seed_dnc([(f"303555{i:04d}", "1", "0", "", "") for i in range(ROWS)])
    with ApiClient(sandbox.base_url, TOKEN) as api:
        yield api


@pytest.fixture
def temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """$TMPDIR as this process's tempfile sees it, a folder of the test's own."""
    folder = tmp_path / "tmpdir"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_rows_stream_beside_the_output(client: ApiClient, tmp_path: Path, temp_dir: Path) -> None:
    out_dir = tmp_path / "chosen"
    out_dir.mkdir()
    out = out_dir / "dnc.xlsx"
    seen: list[tuple[list[str], list[str]]] = []

    def progress(step: ExportProgress) -> None:
        # What a SIGKILL now would leave: in $TMPDIR, and beside the output.
        if step.rows and not seen:
            seen.append(
                (
                    sorted(p.name for p in temp_dir.iterdir()),
                    sorted(p.name for p in out_dir.iterdir()),
                )
            )

    job = ExportJob(client, ListKind.DNC, DncQuery(), out, progress=progress, page_size=20)
    result = job.run()
    assert result.rows == ROWS
    (in_temp, beside), *_ = seen
    assert in_temp == []
    assert len(beside) == 1 and beside[0].startswith("dnc.xlsx.") and beside[0].endswith(".part")
    assert sorted(p.name for p in out_dir.iterdir()) == ["dnc.xlsx"]
    assert list(temp_dir.iterdir()) == []
    book = openpyxl.load_workbook(out, read_only=True)
    try:
        assert len(list(book["Entries"].iter_rows(values_only=True))) == ROWS + 1
        about = {r[0]: r[1:] for r in book["About"].iter_rows(values_only=True)}
        assert about["Rows exported"] == (ROWS,)
    finally:
        book.close()


def test_cancelled_export_leaves_nothing(client: ApiClient, tmp_path: Path, temp_dir: Path) -> None:
    out = tmp_path / "dnc.xlsx"
    cancel = threading.Event()

    def progress(step: ExportProgress) -> None:
        if step.rows:
            cancel.set()

    job = ExportJob(
        client, ListKind.DNC, DncQuery(), out, progress=progress, cancel=cancel, page_size=20
    )
    with pytest.raises(Cancelled):
        job.run()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tmpdir"]
    assert list(temp_dir.iterdir()) == []
