"""Black-box findings (second pass) on the files the CLI writes and on what it prints:

- a report never replaces the spreadsheet being read, and an existing ``--report`` or export
  ``--out`` is replaced only with ``--overwrite`` (finding 4);
- a report folder that cannot be created is refused before anything is sent, and a report that
  cannot be written once the rows were sent goes to the jobs folder, with the summary still
  printed (finding 6);
- ``--resume`` keeps the job's ``--rate-limit`` and ``--concurrency`` (finding 7);
- under ``--json`` every refusal is one JSON object on stdout (finding 15);
- an over-long ``--reason`` / ``--purpose`` is refused up front (finding 5).
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.job_store import JobStore
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, Any, str]:
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    out = captured.out.strip()
    return code, (json.loads(out) if out.startswith("{") else out), captured.err.strip()


def numbers_csv(path: Path, n: int, first: int = 0) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[f"303-555-{first + i:04d}"] for i in range(n)])
    return path


def numbers_xlsx(path: Path, n: int) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Reason"])
    for i in range(n):
        ws.append([f"202-555-{i:04d}", "vendor request"])
    wb.save(path)
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sheet_names(path: Path) -> list[str]:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        return list(book.sheetnames)
    finally:
        book.close()


def job_files() -> list[Path]:
    jobs = AppPaths.default().jobs_dir
    return sorted(jobs.iterdir()) if jobs.exists() else []


def dnc_count(sandbox: Any) -> int:
    return int(sandbox.store.scalar("SELECT count(*) FROM dnc"))


def when(condition: Callable[[], bool], action: Callable[[], None]) -> threading.Thread:
    """Run ``action`` in a thread as soon as ``condition`` holds (polled for up to 30 s)."""

    def watch() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if condition():
                action()
                return
            time.sleep(0.01)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


# -- finding 4: never over the input, never over a file without --overwrite -----------------


def test_the_report_is_never_written_over_the_spreadsheet_being_read(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = numbers_xlsx(tmp_path / "vendor.xlsx", 3)
    before = digest(src)
    (tmp_path / "sub").mkdir()
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    spellings = [src, tmp_path / "sub" / ".." / "vendor.xlsx"]
    (tmp_path / "link.xlsx").symlink_to(src)
    spellings.append(tmp_path / "link.xlsx")
    for report in spellings:
        for extra in ([], ["--overwrite"], ["--dry-run"], ["--dry-run", "--overwrite"]):
            code, data, err = run(
                capsys, [*argv, "--base-url", sandbox.base_url, "--report", str(report), *extra]
            )
            expected = (
                f"--report {report} is the spreadsheet being read; the report would replace "
                "the original, so give another file name."
            )
            assert (code, err) == (2, expected)
            assert data == {"error": expected, "exit_status": 2}
    # The same for a removal.
    argv = ["remove", str(src), "--scope", "global", "--report", str(src), "--note", "Asked"]
    code, _, err = run(capsys, argv)
    assert code == 2 and "is the spreadsheet being read" in err
    assert digest(src) == before and sheet_names(src) == ["Sheet"]
    assert dnc_count(sandbox) == 0 and job_files() == []


def test_an_existing_report_is_replaced_only_with_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 4)
    report = tmp_path / "out_exists.xlsx"
    report.write_text("someone else's file\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code, data, err = run(capsys, [*argv, "--report", str(report)])
    expected = (
        f"--report {report} already exists; give another file name, or add --overwrite to "
        "replace it."
    )
    assert (code, data, err) == (2, {"error": expected, "exit_status": 2}, expected)
    assert report.read_text() == "someone else's file\n" and job_files() == []
    code, data, _ = run(capsys, [*argv, "--report", str(report), "--overwrite"])
    assert code == 0 and data["report"] == str(report) and data["valid"] == 4
    assert sheet_names(report) == ["Summary", "Rows"]
    # A fresh name needs no --overwrite, and its missing folders are made.
    fresh = tmp_path / "new" / "deeper" / "r.xlsx"
    code, data, _ = run(capsys, [*argv, "--report", str(fresh)])
    assert code == 0 and data["report"] == str(fresh) and fresh.is_file()


def test_export_replaces_an_existing_file_only_with_overwrite(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([(f"20255501{i:02d}", "1", "0", "", "") for i in range(5)])
    out = tmp_path / "list.csv"
    out.write_text("yesterday's export\n")
    argv = ["export", "dnc", "--out", str(out), "--base-url", sandbox.base_url, "--json"]
    code, data, err = run(capsys, argv)
    expected = (
        f"--out {out} already exists; give another file name, or add --overwrite to replace it."
    )
    assert (code, data, err) == (2, {"error": expected, "exit_status": 2}, expected)
    assert out.read_text() == "yesterday's export\n"
    code, data, _ = run(capsys, [*argv, "--overwrite"])
    assert code == 0 and data["rows"] == 5
    assert out.read_text(encoding="utf-8-sig").startswith("phone_number,")


# -- finding 6: a report that cannot be written -----------------------------------------------


def test_a_report_folder_that_cannot_be_created_is_refused_before_sending(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = numbers_csv(tmp_path / "new4.csv", 2)
    # /proc takes no new folders, not even from root (a read-only mount behaves the same).
    report = Path("/proc/dnc-desk-no-such-folder/sub/r.xlsx")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    code, data, err = run(capsys, [*argv, "--base-url", sandbox.base_url, "--report", str(report)])
    assert code == 1
    assert err.startswith(
        f"The report cannot be written to {report}: the folder {report.parent} cannot be created"
    ), err
    assert data == {"error": err, "exit_status": 1}
    assert dnc_count(sandbox) == 0 and job_files() == []


def test_a_report_that_fails_after_the_run_goes_to_the_jobs_folder(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 4)
    folder = tmp_path / "reports"
    folder.mkdir()
    report = folder / "r.xlsx"

    def break_folder() -> None:
        # The folder passed the pre-check; then (a share unmounted, a disk full) it is gone.
        folder.rename(tmp_path / "moved-away")
        folder.write_text("a file where the report folder was\n")

    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    argv += ["--base-url", sandbox.base_url, "--rate-limit", "240", "--concurrency", "1"]
    watcher = when(lambda: dnc_count(sandbox) >= 1, break_folder)
    code, data, err = run(capsys, [*argv, "--report", str(report)])
    watcher.join()
    assert folder.is_file(), "the folder was not broken while the job ran"
    assert code == 0, err
    assert (data["status"], data["inserted"], data["pending"]) == ("finished", 4, 0)
    fallback = Path(data["job_file"]).with_suffix(".xlsx")
    assert data["report"] == str(fallback) and fallback.is_file() and not report.exists()
    assert sheet_names(fallback) == ["Summary", "Rows"]
    assert len(data["warnings"]) == 1
    assert data["warnings"][0].startswith(f"The report could not be written to {report} (")
    assert data["warnings"][0].endswith(
        f"); it was written to the jobs folder instead: {fallback}."
    )
    # The journal still has the job's end.
    journal = ChangeJournal(AppPaths.default().journal_db)
    try:
        ops = [e.operation for e in journal.query(job=data["job"], limit=100)]
    finally:
        journal.close()
    assert ops.count("job.start") == 1 and ops.count("job.finish") == 1
    # --resume of the ended job names the report that exists, with the note.
    code, text, err = run(capsys, ["import", "--resume", data["job"]])
    assert code == 0, err
    assert f"  report: {fallback}\n" in text + "\n"
    assert f"  note: The report could not be written to {report} (" in text


def test_resume_of_an_ended_job_whose_report_is_gone_writes_it_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 3)
    report = tmp_path / "r.xlsx"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code, data, _ = run(capsys, [*argv, "--report", str(report)])
    assert code == 0
    report.unlink()
    code, again, _ = run(capsys, ["import", "--resume", data["job"], "--json"])
    assert code == 0 and again["report"] == str(report) and report.is_file()


# -- finding 7: a resumed job keeps its pace --------------------------------------------------


def test_resume_keeps_the_jobs_rate_limit_and_concurrency(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, per_minute = 8, 120  # one request every 0.5 s
    src = numbers_csv(tmp_path / "in.csv", rows)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    argv += ["--base-url", sandbox.base_url, "--rate-limit", str(per_minute)]
    argv += ["--concurrency", "1"]
    # Ctrl+C while the job runs (the job's own handler pauses it).
    watcher = when(
        lambda: 2 <= dnc_count(sandbox) < rows, lambda: os.kill(os.getpid(), signal.SIGINT)
    )
    code, data, err = run(capsys, argv)
    watcher.join()
    assert code == 130, err
    hint = (
        f"dnc-desk import --resume {data['job']} --base-url {sandbox.base_url} "
        f"--concurrency 1 --rate-limit {per_minute}"
    )
    assert data["resume"] == hint and err.endswith(f"Resume with: {hint}")
    left = data["pending"]
    assert left >= 3
    with JobStore(Path(data["job_file"])) as store:
        meta = store.meta()
    assert (meta["rate_limit"], meta["concurrency"]) == (per_minute, 1)
    # Resumed without the options: the job's own limit still spaces the requests.
    started = time.monotonic()
    code, done, err = run(capsys, ["import", "--resume", data["job"], "--json"])
    elapsed = time.monotonic() - started
    assert code == 0, err
    assert (done["inserted"], done["pending"]) == (rows, 0)
    assert elapsed >= (left - 1) * 60 / per_minute * 0.9, elapsed


def test_a_resume_given_rate_limit_0_lifts_the_jobs_limit(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Black-box B25-6: a limit given once stuck to the job, and ``--rate-limit 0`` was
    refused ("0 is not 1 or more"): only a huge number took it off."""
    rows = 8
    src = numbers_csv(tmp_path / "in.csv", rows)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    argv += ["--base-url", sandbox.base_url, "--rate-limit", "120", "--concurrency", "1"]
    watcher = when(
        lambda: 2 <= dnc_count(sandbox) < rows, lambda: os.kill(os.getpid(), signal.SIGINT)
    )
    code, data, err = run(capsys, argv)
    watcher.join()
    assert code == 130 and data["resume"].endswith("--rate-limit 120"), err
    code, done, err = run(
        capsys, ["import", "--resume", data["job"], "--rate-limit", "0", "--json"]
    )
    assert code == 0, err
    assert (done["inserted"], done["pending"]) == (rows, 0)
    with JobStore(Path(data["job_file"])) as store:
        assert store.meta()["rate_limit"] == 0


# -- finding 15: --json refusals ----------------------------------------------------------------


def test_every_refusal_under_json_is_one_json_object(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 2)
    base = ["import", str(src), "--into", "dnc", "--json", "--base-url", sandbox.base_url]
    cases: list[tuple[list[str], int, str]] = [
        (
            [*base, "--scope", "campaign:99999"],
            2,
            f"The service at {sandbox.base_url} has no campaign 99999; its campaigns are ",
        ),
        ([*base, "--scope", "campaign"], 2, "The scope 'campaign' given with --scope names no"),
        ([*base, "--scope", "global", "--sheet", "Nope"], 2, "--sheet Nope does not apply"),
        (["import", "--resume", "nope", "--json"], 2, "There is no job 'nope' to resume; "),
        (
            ["health", "--json"],
            2,
            "Name the service with --connection NAME or --base-url URL (with the token in "
            "the environment variable DNC_DESK_TOKEN).",
        ),
    ]
    for argv, status, start in cases:
        code, data, err = run(capsys, argv)
        assert code == status, (argv, err)
        assert data == {"error": err.removeprefix("dnc-desk health: "), "exit_status": status}
        assert data["error"].startswith(start), (argv, data)
    # A refused token, on import and on export.
    monkeypatch.setenv("DNC_DESK_TOKEN", "tok-wrong-0000")
    for argv in (
        [*base, "--scope", "global"],
        ["export", "dnc", "--out", str(tmp_path / "x.csv"), "--json"],
    ):
        if argv[0] == "export":
            argv += ["--base-url", sandbox.base_url]
        code, data, err = run(capsys, argv)
        assert code == 1 and data == {"error": err, "exit_status": 1}
        refused = f"the token in DNC_DESK_TOKEN was refused by the service at {sandbox.base_url} ("
        if argv[0] == "export":
            # Says the export stopped without a file, as an import says it was not started.
            stopped = f"The export to {tmp_path / 'x.csv'} stopped and no file was written: "
            assert err.startswith(stopped + refused), err
        else:
            assert err.startswith(f"Import of in.csv not started: {refused}"), err
    assert dnc_count(sandbox) == 0


def test_a_usage_error_under_json_is_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["import", "x.csv", "--into", "bogus", "--json"])
    assert raised.value.code == 2
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["exit_status"] == 2
    # The last line of stderr, word for word (black-box B30 F7).
    assert data["error"] == captured.err.strip().splitlines()[-1]
    assert data["error"].startswith("dnc-desk import: error: argument --into: invalid choice")
    assert "invalid choice: 'bogus'" in captured.err
    # Without --json stdout stays empty.
    with pytest.raises(SystemExit):
        main(["import", "x.csv", "--into", "bogus"])
    assert capsys.readouterr().out == ""


# -- finding 5: over-long --reason / --purpose --------------------------------------------------


def test_an_over_long_reason_or_purpose_is_refused_up_front(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 2)
    base = ["import", str(src), "--into", "dnc", "--base-url", sandbox.base_url, "--json"]
    cases = [
        (["--scope", "global", "--reason", "r" * 300], "--reason is 300 characters long"),
        (["--scope", "purpose", "--purpose", "p" * 256], "--purpose is 256 characters long"),
        (
            ["--scope", "purpose:" + "q" * 256],
            "The purpose of --scope is 256 characters long",
        ),
    ]
    for extra, start in cases:
        code, data, err = run(capsys, [*base, *extra])
        assert (code, err) == (2, f"{start}; the service takes at most 255.")
        assert data == {"error": err, "exit_status": 2}
    assert dnc_count(sandbox) == 0 and job_files() == []
    # 255 is allowed, and stored as given.
    code, data, err = run(capsys, [*base, "--scope", "global", "--reason", "r" * 255])
    assert code == 0 and data["inserted"] == 2, err
    assert sandbox.store.scalar("SELECT max(length(reason)) FROM dnc") == 255
