"""Black-box findings on exit statuses of ``import``, ``remove`` and ``export``.

``--phone-column`` naming a column the sheet does not have (or two) is a bad argument: exit 2,
as documented, with the sentence naming the columns that exist (it was 1, the status of a
command that could not run). And a command stopped by a signal exits 128 + the signal's
number: 130 for SIGINT (Ctrl+C), 143 for SIGTERM (SIGTERM gave 130, the code of SIGINT),
still pausing a job cleanly or removing an export's partial file.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from tests.cli.test_import_resume import _csv, _start, _states, _wait_for_progress
from tests.cli.test_job_copy_cli import _cli, _done
from tests.cli.test_phone_column import dry_run, vendor_xlsx
from tests.conftest import TOKEN

# -- --phone-column naming no column: exit 2 -------------------------------------------------

HEADERS_SENTENCE = (
    "'Account' (A), 'Office phone' (B), 'Tel' (C), 'CC' (D), 'Notes' (E) (a column can also "
    "be given by position, as column:A or #1)."
)


@pytest.mark.parametrize("command", ["import", "remove"])
@pytest.mark.parametrize("wanted", ["Z", "Ph", "column:Z", "#9"])
def test_a_phone_column_the_sheet_lacks_is_a_bad_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, wanted: str
) -> None:
    src = vendor_xlsx(tmp_path / "vendor.xlsx")
    argv = [command, str(src), "--scope", "global", "--dry-run", "--json"]
    if command == "import":
        argv += ["--into", "dnc"]
    code = main([*argv, "--phone-column", wanted])
    out = capsys.readouterr()
    assert code == 2, out.err
    assert json.loads(out.out) == {"error": out.err.strip(), "exit_status": 2}
    assert len(out.err.strip().splitlines()) == 1
    if wanted.startswith(("column:", "#")):
        assert "its columns are A to E (#1 to #5)." in out.err
    else:
        assert out.err.strip() == (
            f"vendor.xlsx has no column headed {wanted!r}; its headers are {HEADERS_SENTENCE}"
        )


def test_a_csv_and_a_headerless_file_refuse_a_missing_column_with_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    headed = tmp_path / "headed.csv"
    headed.write_text("Name,Phone\nAnn,3035550101\nBob,3035550102\n")
    code, data, err = dry_run(capsys, str(headed), "--phone-column", "Mobile")
    assert (code, data["exit_status"]) == (2, 2), err
    assert "headed.csv has no column headed 'Mobile'; its headers are 'Name' (A)" in err
    bare = tmp_path / "bare.csv"
    bare.write_text("3035550101\n3035550102\n")
    code, data, err = dry_run(capsys, str(bare), "--phone-column", "Phone")
    assert (code, data["exit_status"]) == (2, 2), err
    assert err == (
        "bare.csv has no header row, so 'Phone' names no column; give it by letter or number "
        "instead: it has one column, A (#1)."
    )


def test_a_workbook_whose_other_sheets_lack_the_column_too_refuses_with_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The other sheets are tried before the first sheet's sentence is given.
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "List"
    first.append(["Name", "Phone"])
    first.append(["Ann", "3035550101"])
    wb.create_sheet("Notes").append(["read me"])
    path = tmp_path / "two-sheets.xlsx"
    wb.save(path)
    code, data, err = dry_run(capsys, str(path), "--phone-column", "Mobile")
    assert (code, data["exit_status"]) == (2, 2), err
    assert err.startswith("sheet 'List' of two-sheets.xlsx has no column headed 'Mobile'")


def test_ambiguous_and_the_refusals_that_are_not_about_the_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = vendor_xlsx(tmp_path / "two.xlsx", ["Account", "Tel", "tel", "CC", "Notes"])
    code, _, err = dry_run(capsys, str(src), "--phone-column", "Tel")
    assert code == 2 and "'Tel' heads 2 columns of two.xlsx (B and C)" in err
    # A file with no phone column to find is not a bad argument: still 1.
    names = tmp_path / "names.csv"
    names.write_text("Name,City\nAnn,Austin\n")
    code, data, err = dry_run(capsys, str(names))
    assert (code, data["exit_status"]) == (1, 1), err
    # Nor is a column found only on a hidden sheet (the refusal names the sheet: --sheet).
    wb = openpyxl.Workbook()
    shown = wb.active
    assert shown is not None
    shown.title = "Instructions"
    shown.append(["Read me first"])
    hidden = wb.create_sheet("Old list")
    hidden.append(["Tel"])
    hidden.append(["3035550101"])
    hidden.sheet_state = "hidden"
    path = tmp_path / "hidden.xlsx"
    wb.save(path)
    code, data, err = dry_run(capsys, str(path), "--phone-column", "Tel")
    assert (code, data["exit_status"]) == (1, 1), err
    assert "the hidden sheet 'Old list' has one" in err


# -- a signal's own exit status: 128 + its number ------------------------------------------------


@pytest.mark.slow
def test_sigterm_pauses_an_import_cleanly_and_exits_143(sandbox: Any, tmp_path: Path) -> None:
    sandbox.set_faults(latency_ms=40)
    paths = AppPaths.default()
    proc = _start(_csv(tmp_path / "in.csv"), sandbox.base_url, paths)
    job = _wait_for_progress(paths, proc, 30)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, err
    # The job's id and resume command come first, said before any row was sent.
    said = err.splitlines()
    assert said[0].startswith(f"Job {job.stem} started: if it stops before its end, "), err
    assert said[1].startswith("Interrupted: pausing the job; no new request is sent"), err
    assert f"Resume with: dnc-desk import --resume {job.stem} --base-url" in err
    paused = json.loads(out)
    assert paused["status"] == "paused" and paused["pending"] > 0
    assert _states(job)["sending"] == 0  # a clean pause leaves nothing in flight


@pytest.mark.slow
def test_sigterm_pauses_a_removal_cleanly_and_exits_143(sandbox: Any, tmp_path: Path) -> None:
    numbers = [f"30355501{i:02d}" for i in range(40)]
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in numbers])
    src = tmp_path / "remove.csv"
    with src.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone"], *[[n] for n in numbers]])
    sandbox.set_faults(latency_ms=60)
    proc = _cli(
        *("remove", str(src), "--scope", "global", "--base-url", sandbox.base_url),
        *("--concurrency", "1", "--json", "--note", "Sent in error, ticket 9"),
    )
    jobs = AppPaths.default().jobs_dir
    deadline = time.monotonic() + 60
    job: Path | None = None
    while job is None:
        assert time.monotonic() < deadline, "the removal made no progress"
        assert proc.poll() is None, proc.communicate()
        for found in jobs.glob("removal-*.dncjob"):
            try:
                if _done(found) >= 3:
                    job = found
            except sqlite3.Error:
                continue
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, err
    assert f"Resume with: dnc-desk remove --resume {job.stem}" in err
    paused = json.loads(out)
    assert paused["status"] == "paused" and paused["pending"] > 0
    assert _states(job)["sending"] == 0


@pytest.mark.slow
@pytest.mark.parametrize(("sig", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_cancels_an_export_removing_its_partial_file(
    sandbox: Any, tmp_path: Path, sig: signal.Signals, status: int
) -> None:
    sandbox.bulk_seed_dnc([(f"303{i:07d}", "1", "0", "", "") for i in range(6000)])
    sandbox.set_faults(latency_ms=400)  # six pages of 1,000: seconds to go once one is written
    out_path = tmp_path / "out" / "dnc.csv"
    part = out_path.with_name(out_path.name + ".part")
    argv = ["export", "dnc", "--out", str(out_path), "--json", "--base-url", sandbox.base_url]
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", *argv],
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "DNC_DESK_TOKEN": TOKEN},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # SIGINT at its default, even when pytest inherited it ignored (`nohup … &`).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not part.exists():  # the export is writing its first page
        assert time.monotonic() < deadline, "the export wrote nothing"
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == status, err
    message = "Interrupted: the export was cancelled and no file was written."
    assert err.strip() == message
    assert json.loads(out) == {"error": message, "exit_status": status}
    assert not out_path.exists() and not part.exists()
