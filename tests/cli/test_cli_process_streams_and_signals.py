"""The CLI process around its work (black-box R5, task F1): a console that cannot encode a
character (#2), signals once a job has ended (#3, #11), a moved job file's resume hint (#5),
SIGHUP (#6), closed standard streams (#7), another job's report given as --report (#8), an
interrupt while the modules load (#10), and the refusals of ``import -``, ``--token VALUE`` and
``export --out FOLDER`` (#12)."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def numbers_csv(path: Path, rows: int) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[f"303-555-{i:04d}"] for i in range(rows)])
    return path


def start(argv: list[str], **kwargs: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "app", *argv],
        cwd=ROOT,
        env={**os.environ, **kwargs.pop("env", {})},
        stdout=kwargs.pop("stdout", subprocess.PIPE),
        stderr=kwargs.pop("stderr", subprocess.PIPE),
        text=True,
        **kwargs,
    )


def wait_for_line(proc: subprocess.Popen[str], wanted: Callable[[str], bool]) -> list[str]:
    """The lines of ``proc``'s stderr up to the first ``wanted`` one (which is the last)."""
    assert proc.stderr is not None
    lines: list[str] = []
    while True:
        line = proc.stderr.readline()
        assert line, f"the command ended first: {lines}"
        lines.append(line.rstrip("\n"))
        if wanted(lines[-1]):
            return lines


def started(line: str) -> bool:
    return line.startswith("Job ") and " started: if it stops before its end" in line


# -- #2: a console that cannot encode a character ---------------------------------------------


def test_an_ascii_console_gets_escapes_and_valid_json(tmp_path: Path) -> None:
    src = numbers_csv(tmp_path / "Señal 中文 🙂.csv", 3)
    ascii_env = {"PYTHONIOENCODING": "ascii"}
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    text = start(argv, env=ascii_env)
    out, err = text.communicate(timeout=60)
    assert text.returncode == 0, err
    assert "Traceback" not in err
    assert out.startswith("Dry run of Se\\u00f1al \\u4e2d\\u6587 \\ud83d\\ude42.csv: nothing"), out
    as_json = start([*argv, "--json"], env=ascii_env)
    out, err = as_json.communicate(timeout=60)
    assert as_json.returncode == 0, err
    data = json.loads(out)
    assert data["name"] == "Import of Señal 中文 🙂.csv"
    listed = start(["jobs", "--all"], env=ascii_env)
    out, err = listed.communicate(timeout=60)
    assert listed.returncode == 0, err
    assert "Import of Se\\u00f1al" in out


# -- #7: closed standard streams ---------------------------------------------------------------


@pytest.mark.parametrize("closed", [1, 2])
def test_a_closed_stream_does_not_stop_the_import(
    sandbox: Any, tmp_path: Path, closed: int
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 20)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    proc = start(
        [*argv, "--base-url", sandbox.base_url],
        preexec_fn=lambda: os.close(closed),  # `>&-` or `2>&-`
        stdout=subprocess.DEVNULL if closed == 1 else subprocess.PIPE,
        stderr=subprocess.DEVNULL if closed == 2 else subprocess.PIPE,
    )
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, (out, err)
    assert "Traceback" not in (err or "")
    if closed == 2:
        assert json.loads(out)["status"] == "finished"
    phones = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
    assert len(phones) == 20


# -- #3, #11: signals once the job's run has ended -------------------------------------------

# A process whose import's run is followed, at once, by Ctrl+C: in the runner's last moment
# (its handlers still in place), or once the result is printed.
SIGNAL_AT = """
import os, signal, sys
import app.cli.import_cmd as import_cmd
import app.core.import_job as import_job
from app.cli.main import main

where = sys.argv[1]
real_run, real_print = import_job.run_import, import_cmd.print_result

def run_import(*args, **kwargs):
    status = real_run(*args, **kwargs)
    if where == "run":
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGINT)
    return status

def print_result(*args, **kwargs):
    real_print(*args, **kwargs)
    if where == "printed":
        os.kill(os.getpid(), signal.SIGINT)

import_job.run_import, import_cmd.print_result = run_import, print_result
sys.argv = ["dnc-desk", *sys.argv[2:]]
raise SystemExit(main())
"""


def run_signalled(where: str, argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SIGNAL_AT, where, *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_ctrl_c_once_the_result_is_printed_changes_nothing(sandbox: Any, tmp_path: Path) -> None:
    src = numbers_csv(tmp_path / "in.csv", 5)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    done = run_signalled("printed", [*argv, "--base-url", sandbox.base_url])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "finished"  # one object, not two
    assert "Interrupted" not in done.stderr


def test_ctrl_c_after_the_last_row_says_the_job_had_finished(sandbox: Any, tmp_path: Path) -> None:
    src = numbers_csv(tmp_path / "in.csv", 5)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    done = run_signalled("run", [*argv, "--base-url", sandbox.base_url])
    assert done.returncode == 0, done.stderr
    said = done.stderr.splitlines()
    assert said[1].startswith("Interrupted: pausing the job;"), said
    # The second Ctrl+C is acknowledged, not ignored without a word.
    assert said[2].startswith("Still pausing: the job is paused once the requests sent"), said
    assert said[3] == (
        "The job had already sent its last row when interrupted: it has finished, and "
        "nothing is left to resume."
    )
    assert done.stdout.startswith("Import of in.csv: finished.")


# -- #6: SIGHUP as SIGTERM ---------------------------------------------------------------------


@pytest.mark.slow
def test_sighup_pauses_an_import_and_exits_129(sandbox: Any, tmp_path: Path) -> None:
    sandbox.set_faults(latency_ms=50)
    src = numbers_csv(tmp_path / "in.csv", 400)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    proc = start([*argv, "--base-url", sandbox.base_url, "--concurrency", "1"])
    first = wait_for_line(proc, started)
    proc.send_signal(signal.SIGHUP)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 129, err
    said = [*first, *err.splitlines()]
    assert said[-2].startswith("Interrupted: pausing the job;"), said
    assert said[-1].startswith("Interrupted: job paused. Resume with: dnc-desk import --resume")
    paused = json.loads(out)
    assert paused["status"] == "paused" and paused["pending"] > 0


@pytest.mark.slow
def test_sighup_cancels_an_export_removing_its_partial_file(sandbox: Any, tmp_path: Path) -> None:
    sandbox.bulk_seed_dnc([(f"303{i:07d}", "1", "0", "", "") for i in range(6000)])
    sandbox.set_faults(latency_ms=400)
    out_path = tmp_path / "out" / "dnc.csv"
    part = out_path.with_name(out_path.name + ".part")
    proc = start(["export", "dnc", "--out", str(out_path), "--json", "--base-url",
                  sandbox.base_url])  # fmt: skip
    deadline = time.monotonic() + 60
    while not part.exists():  # the export is writing its first page
        assert time.monotonic() < deadline, "the export wrote nothing"
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    proc.send_signal(signal.SIGHUP)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 129, err
    message = "Interrupted: the export was cancelled and no file was written."
    assert json.loads(out) == {"error": message, "exit_status": 129}
    assert not out_path.exists() and not part.exists()


# -- #5: a job file moved out of the jobs folder -----------------------------------------------


@pytest.mark.slow
def test_a_moved_job_files_resume_hint_names_its_path(sandbox: Any, tmp_path: Path) -> None:
    sandbox.set_faults(latency_ms=50)
    src = numbers_csv(tmp_path / "in.csv", 400)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    proc = start([*argv, "--base-url", sandbox.base_url, "--concurrency", "1"])
    wait_for_line(proc, started)
    proc.send_signal(signal.SIGINT)
    paused = json.loads(proc.communicate(timeout=60)[0])
    assert paused["status"] == "paused"
    moved = tmp_path / "moved dir"
    moved.mkdir()
    job_file = moved / Path(paused["job_file"]).name
    shutil.move(paused["job_file"], job_file)
    proc = start(["import", "--resume", str(job_file), "--json"])
    lines = wait_for_line(proc, lambda line: " resumed: if it stops" in line)
    quoted = f"'{job_file}'"
    assert f"resume it with: dnc-desk import --resume {quoted} --base-url" in lines[-1]
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    hint = json.loads(out)["resume"]
    assert hint.startswith(f"dnc-desk import --resume {quoted} --base-url {sandbox.base_url}")
    # What it names works: the job runs to its end.
    sandbox.set_faults(latency_ms=0)
    proc = start(["import", "--resume", str(job_file), "--json"])
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert json.loads(out)["status"] == "finished"


# -- #8: another job's report as --report ------------------------------------------------------


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, Any, str]:
    code = main([*argv, "--json"])
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err.strip()


def test_another_jobs_report_is_refused_even_with_overwrite(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 5)
    report = tmp_path / "evidence.xlsx"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    code, real, err = run_json(
        capsys, [*argv, "--base-url", sandbox.base_url, "--report", str(report)]
    )
    assert code == 0 and real["status"] == "finished", err
    before = report.read_bytes()
    code, data, err = run_json(capsys, [*argv, "--dry-run", "--report", str(report), "--overwrite"])
    assert code == 2, err
    assert err == (
        f"--report {report} is the report of job {real['job']} (Import of in.csv), its record "
        "of what was sent; give another file name."
    )
    assert data == {"error": err, "exit_status": 2}
    assert report.read_bytes() == before
    # A job's own report in the jobs folder, beside its job file.
    own = AppPaths.default().jobs_dir / f"{real['job']}.xlsx"
    code, _, err = run_json(capsys, [*argv, "--dry-run", "--report", str(own), "--overwrite"])
    assert code == 2 and f"is the report of job {real['job']}" in err, err
    # Any other file is replaced with --overwrite, as before: a dry run's report too, which
    # records nothing sent.
    other = tmp_path / "other.xlsx"
    other.write_bytes(b"old")
    for _ in range(2):
        code, data, err = run_json(
            capsys, [*argv, "--dry-run", "--report", str(other), "--overwrite"]
        )
        assert code == 0 and data["report"] == str(other), err


# -- #10: an interrupt before the job ----------------------------------------------------------


@pytest.mark.parametrize("command", ["import", "remove"])
def test_an_interrupt_while_the_command_loads_says_nothing_was_sent(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
) -> None:
    import app.cli.import_cmd
    import app.cli.remove_cmd

    def loading(args: Any) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(getattr(app.cli, f"{command}_cmd"), "run", loading)
    src = numbers_csv(tmp_path / "in.csv", 5)
    argv = [command, str(src), "--scope", "global", "--dry-run", "--json"]
    code, data, err = run_json(capsys, [*argv, *(["--into", "dnc"] if command == "import" else [])])
    assert code == 130
    assert err == "Interrupted before the job started: nothing was sent."
    assert data == {"error": err, "exit_status": 130}


# -- #12: standard input, a token on the command line, a folder as --out ----------------------


def test_standard_input_is_refused_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_json(capsys, ["import", "-", "--into", "dnc", "--scope", "global",
                                        "--dry-run"])  # fmt: skip
    assert code == 2
    assert err == (
        "Standard input is not read: save the rows to a file and give its name to import (a "
        ".csv, .txt or spreadsheet)."
    )


@pytest.mark.parametrize("typed", [["--token", "s3cr3t-value"], ["--api-key=s3cr3t-value"]])
def test_a_token_typed_as_an_option_is_never_echoed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], typed: list[str]
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 2)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    with pytest.raises(SystemExit) as exited:
        main([*argv, *typed])
    out = capsys.readouterr()
    assert exited.value.code == 2
    assert "s3cr3t" not in out.out + out.err
    data = json.loads(out.out)
    assert "<hidden>" in data["error"]
    assert "a token is never taken on the command line: set DNC_DESK_TOKEN" in data["error"]
    assert data["error"].removeprefix("dnc-desk: ") in out.err


def test_export_to_a_folder_says_it_is_a_folder(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_json(
        capsys, ["export", "dnc", "--out", str(tmp_path), "--base-url", sandbox.base_url]
    )
    assert code == 2
    assert err == f"--out {tmp_path} is a folder; give a file name ending in .xlsx or .csv."


@pytest.mark.slow
def test_a_closed_terminal_pauses_the_import(sandbox: Any, tmp_path: Path) -> None:
    """The terminal itself closed: SIGHUP, and every write to it fails (EIO) from then on."""
    import pty

    sandbox.set_faults(latency_ms=50)
    src = numbers_csv(tmp_path / "in.csv", 400)
    argv = [sys.executable, "-m", "app", "import", str(src), "--into", "dnc", "--scope"]
    argv += ["global", "--base-url", sandbox.base_url, "--concurrency", "1"]
    env = {**os.environ}
    pid, master = pty.fork()
    if pid == 0:  # pragma: no cover (the child, replaced at once)
        os.chdir(ROOT)
        os.execvpe(argv[0], argv, env)
    said = b""
    while b" started: if it stops before its end" not in said:
        chunk = os.read(master, 4096)
        assert chunk, said
        said += chunk
    os.close(master)  # the terminal goes: the kernel sends SIGHUP
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 129
    (job,) = AppPaths.default().jobs_dir.glob("*.dncjob")
    from app.core.job_catalog import read_job

    info = read_job(job)
    assert info.status == "paused" and info.pending > 0, info
    assert job.with_suffix(".xlsx").exists()  # its report was written
