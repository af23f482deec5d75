"""Black-box pass I3 on the CLI (``dnc-desk import|remove|export|jobs``):

- (A) two jobs given the same ``--report`` never write over each other's report: the one
  that finds the other's report there writes its own to the jobs folder and says so;
- (B) the printed resume command works for every base-URL form;
- (C) a saved connection on a system without a keyring says so, and what to do instead;
- (D) argparse errors and a wrong kind of ``--resume`` say what to do; an unknown ``--sheet``
  is a bad argument (exit 2);
- (E) the help says what each command does with ``--scope``; export takes a campaign name;
- (F) ``--json`` interrupted before the job exists, a resume's started line, an ended job's
  resume under ``--json``.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import keyring
import openpyxl
import pytest
from keyring.backends import fail

from app.cli.main import main
from app.core.connections import Connection, ConnectionStore
from app.core.paths import AppPaths
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]


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


def cli_env(**extra: str) -> dict[str, str]:
    paths = AppPaths.default()
    return {
        **os.environ,
        "DNC_DESK_TOKEN": TOKEN,
        "DNC_DESK_DATA_DIR": str(paths.data_dir),
        "DNC_DESK_CONFIG_DIR": str(paths.config_dir),
        **extra,
    }


def start_cli(argv: list[str]) -> subprocess.Popen[str]:
    """``dnc-desk ARGV`` as its own process, with SIGINT at its default: pytest started in
    the background by a shell without job control (``nohup … &``) has SIGINT ignored, which
    its children inherit, and the app rightly leaves it so."""
    return subprocess.Popen(
        [sys.executable, "-m", "app", *argv],
        cwd=ROOT,
        env=cli_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_default,
    )


def sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for_done_rows(n: int, proc: subprocess.Popen[str]) -> Path:
    """The job file of the running ``proc`` once ``n`` of its rows are done."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        for job in AppPaths.default().jobs_dir.glob("*.dncjob"):
            try:
                with sqlite3.connect(f"file:{job}?mode=ro", uri=True) as db:
                    done = db.execute("SELECT count(*) FROM rows WHERE state = 'done'").fetchone()
            except sqlite3.Error:
                continue
            if done[0] >= n:
                return job
        time.sleep(0.05)
    raise AssertionError("the job made no progress")


def summary_job(report: Path) -> str:
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        rows = {r[0]: r[1] for r in book["Summary"].iter_rows(values_only=True)}
    finally:
        book.close()
    return str(rows["Job"])


# -- (A) two jobs, one --report path ----------------------------------------------------------


def test_a_job_never_writes_over_the_report_another_job_wrote_at_its_path(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    same = tmp_path / "reports" / "same.xlsx"
    first = ["import", str(numbers_csv(tmp_path / "cr1.csv", 6)), "--into", "dnc"]
    first += ["--scope", "global", "--base-url", sandbox.base_url, "--report", str(same)]
    # One request every 0.5 s: still running when the second job has written its report.
    slow = start_cli([*first, "--json", "--rate-limit", "120", "--concurrency", "1"])
    slow_job = wait_for_done_rows(1, slow)
    assert not same.exists()
    second = ["import", str(numbers_csv(tmp_path / "cr2.csv", 3, first=100)), "--into", "dnc"]
    second += ["--scope", "global", "--base-url", sandbox.base_url, "--report", str(same)]
    code, fast, err = run(capsys, [*second, "--json"])
    assert code == 0, err
    assert fast["report"] == str(same) and fast["warnings"] == []
    assert summary_job(same) == fast["job"]
    out, err = slow.communicate(timeout=60)
    assert slow.returncode == 0, err
    data = json.loads(out)
    assert data["job"] == slow_job.stem and data["status"] == "finished"
    # The second job's report is still there; the first one's went to the jobs folder.
    assert summary_job(same) == fast["job"]
    moved = slow_job.with_suffix(".xlsx")
    assert data["report"] == str(moved) and summary_job(moved) == data["job"]
    said = (
        f"The report could not be written to {same} (another job wrote its report there "
        f"after this job started); it was written to the jobs folder instead: {moved}."
    )
    assert data["warnings"] == [said]
    # Its resume says where its report is, and leaves the other job's alone.
    before = same.stat().st_mtime_ns
    code, text, err = run(capsys, ["import", "--resume", data["job"]])
    assert code == 0, err
    assert f"  report: {moved}\n" in text + "\n" and f"  note: {said}" in text
    code, again, err = run(capsys, ["import", "--resume", fast["job"], "--json"])
    assert code == 0 and again["report"] == str(same), err
    assert same.stat().st_mtime_ns == before and summary_job(same) == fast["job"]


# -- (B) the resume command of a job started with --base-url …/v1 ------------------------------


def paused_job(argv: list[str]) -> dict[str, Any]:
    """The JSON of an import started with ``argv`` and paused by SIGTERM after its first row."""
    proc = start_cli([*argv, "--json", "--rate-limit", "120", "--concurrency", "1"])
    wait_for_done_rows(1, proc)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    data: dict[str, Any] = json.loads(out)
    started = err.splitlines()[0]
    assert started.endswith(f"resume it with: {data['resume']}"), err
    return data


@pytest.mark.parametrize(("suffix", "printed"), [("/v1", True), ("/", True), ("/v1/", False)])
def test_the_printed_resume_command_works_for_every_form_of_the_base_url(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str, printed: bool
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 5)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    paused = paused_job([*argv, "--base-url", sandbox.base_url + suffix])
    assert paused["status"] == "paused" and paused["pending"] > 0
    resume = paused["resume"]
    assert resume.startswith(f"dnc-desk import --resume {paused['job']} --base-url "), resume
    # As printed, or with no connection at all (the job's own).
    again = shlex.split(resume)[1:] if printed else ["import", "--resume", paused["job"]]
    code, data, err = run(capsys, [*again, "--json"])
    assert code == 0, err
    assert (data["status"], data["pending"], data["inserted"]) == ("finished", 0, 5)


# -- (C) a saved connection without a keyring ----------------------------------------------------


def test_a_saved_connection_without_a_keyring_points_to_base_url_and_the_token_variable(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ConnectionStore(AppPaths.default().connections_file).save(
        Connection("Production", sandbox.base_url)
    )
    src = numbers_csv(tmp_path / "in.csv", 2)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--connection", "Production"]
    # A keyring that works but holds no token: saving one in the app is the way.
    code, data, err = run(capsys, [*argv, "--json"])
    assert (code, err) == (
        1,
        "No token is stored for the connection 'Production': save one in the window "
        "(File ▸ Connections…), or run with "
        f"--base-url {sandbox.base_url} and the token in the environment variable "
        "DNC_DESK_TOKEN instead.",
    )
    keyring.set_keyring(fail.Keyring())  # this machine's: no keyring at all
    code, data, err = run(capsys, [*argv, "--json"])
    said = (
        "This computer has no secure keyring for the app to keep tokens in (such as the "
        "Windows Credential Manager, the macOS Keychain, or a Secret Service keyring like "
        "GNOME Keyring or KWallet on Linux), so no saved token can be read for the "
        "connection 'Production': run with "
        f"--base-url {sandbox.base_url} and the token in the environment variable "
        "DNC_DESK_TOKEN instead."
    )
    assert (code, err) == (1, said)
    assert "fail" not in err and "Keyring)" not in err  # no backend class name (black-box s31)
    assert data == {"error": said, "exit_status": 1}
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0


# -- (D) argument errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        (
            "--concurrency",
            "abc",
            "argument --concurrency: 'abc' is not a whole number; give the number of requests "
            "in flight, from 1 to 32.",
        ),
        (
            "--concurrency",
            "40",
            "argument --concurrency: 40 is out of range; give the number of requests in "
            "flight, from 1 to 32.",
        ),
        (
            "--rate-limit",
            "1.5",
            "argument --rate-limit: '1.5' is not a whole number; give the most requests a "
            "minute, 1 or more, or 0 for no limit.",
        ),
        (
            "--rate-limit",
            "-1",
            "argument --rate-limit: -1 is not 0 or more; give the most requests a minute, 1 or "
            "more, or 0 for no limit.",
        ),
    ],
)
def test_a_bad_number_says_the_options_rule_not_an_internal_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, said: str
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 2)
    for command in (["import", "--into", "dnc"], ["remove"]):
        argv = [*command, str(src), "--scope", "global", "--dry-run", option, value]
        with pytest.raises(SystemExit) as exited:
            main(argv)
        err = capsys.readouterr().err.strip().splitlines()[-1]
        assert exited.value.code == 2
        assert err == f"dnc-desk {command[0]}: error: {said}"


def test_an_unknown_sheet_is_a_bad_argument_like_an_unknown_phone_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "two.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Contacts"
    sheet.append(["Phone"])
    sheet.append(["303-555-0100"])
    book.save(src)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code, data, err = run(capsys, [*argv, "--phone-column", "Nope"])
    assert code == 2, err
    code, data, err = run(capsys, [*argv, "--sheet", "Nope"])
    assert (code, err) == (2, "two.xlsx has no sheet named 'Nope'; its sheets are 'Contacts'.")
    assert data == {"error": err, "exit_status": 2}
    code, data, err = run(capsys, ["remove", *argv[1:2], "--scope", "global", "--dry-run"])
    assert code == 0, err


def test_resume_of_the_other_kind_of_dry_run_says_it_cannot_be_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Re-test M2 #6: a dry run was given a resume command that only said it had ended."""
    src = numbers_csv(tmp_path / "in.csv", 2)
    dry = ["--scope", "global", "--dry-run", "--json"]
    code, imported, err = run(capsys, ["import", str(src), "--into", "dnc", *dry])
    assert code == 0, err
    code, removal, err = run(capsys, ["remove", str(src), *dry])
    assert code == 0, err
    code, data, err = run(capsys, ["remove", "--resume", imported["job"], "--json"])
    said = (
        f"Job {imported['job']} is a dry run of an import, not a removal; a dry run sends "
        "nothing and cannot be resumed: run dnc-desk import on the file without --dry-run."
    )
    assert (code, err, data) == (2, said, {"error": said, "exit_status": 2})
    code, _, err = run(capsys, ["import", "--resume", removal["job"]])
    assert (code, err) == (
        2,
        f"Job {removal['job']} is a dry run of a removal, not an import; a dry run sends "
        "nothing and cannot be resumed: run dnc-desk remove on the file without --dry-run.",
    )


def test_resume_of_the_other_kind_names_the_jobs_own_service(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Black-box L2 #7: the command given for a job of the other kind had no --base-url, so
    copying it failed, where every other resume command names the job's service."""
    src = numbers_csv(tmp_path / "in.csv", 5)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    paused = paused_job([*argv, "--base-url", sandbox.base_url])
    code, _, err = run(capsys, ["remove", "--resume", paused["job"]])
    assert (code, err) == (
        2,
        f"Job {paused['job']} is an import, not a removal: resume it with "
        f"dnc-desk import --resume {paused['job']} --base-url {sandbox.base_url} "
        "--concurrency 1 --rate-limit 120.",  # the job's own pace, as its resume command says
    )
    code, data, err = run(capsys, ["import", "--resume", paused["job"], "--json"])
    assert code == 0 and data["status"] == "finished", err
    code, _, err = run(capsys, ["remove", "--resume", paused["job"]])
    assert (code, err) == (
        2,
        f"Job {paused['job']} is an import, not a removal, and it has already ended "
        "(finished): nothing of it is left to resume.",
    )


@pytest.mark.parametrize("command", ["remove", "import"])
def test_a_job_file_that_does_not_say_its_kind_is_not_called_the_other_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """Black-box L2 #4: a copy of a running removal's job file (its latest data still in the
    original's -wal file) was refused as "not a removal"."""
    src = numbers_csv(tmp_path / "in.csv", 2)
    code, removal, err = run(
        capsys, ["remove", str(src), "--scope", "global", "--dry-run", "--json"]
    )
    assert code == 0, err
    copy = tmp_path / "copy.dncjob"
    shutil.copyfile(removal["job_file"], copy)
    with contextlib.closing(sqlite3.connect(copy)) as db, db:
        db.execute("DELETE FROM meta")  # as a copy whose rows were all in the -wal file
    code, _, err = run(capsys, [command, "--resume", str(copy)])
    assert code == 2
    assert err.startswith(f"{copy} does not say what kind of job it is, so it is not resumed")
    assert "copy of a job file taken while its job ran" in err and "not a" not in err


# -- (E) help and export's campaign names ----------------------------------------------------------


def help_text(capsys: pytest.CaptureFixture[str], command: str) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_each_commands_help_says_what_it_does_with_the_scope_and_which_files_it_reads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    imports = help_text(capsys, "import")
    assert (
        "--scope SCOPE global, campaign:ID, campaign:NAME or purpose:TEXT: the scope of rows "
        "naming none (a row's own Scope or Campaign cell wins)"
    ) in imports
    removes = help_text(capsys, "remove")
    assert (
        "--scope SCOPE global, campaign:ID, campaign:NAME, purpose:TEXT or purpose (every "
        "purpose): the scope to remove from; a row whose Scope or Campaign cell names another "
        "scope is invalid unless --per-row-scope"
    ) in removes
    assert "cell wins" not in removes
    for text in (imports, removes):
        assert "the spreadsheet: xlsx, xlsm, xlsb, xls, ods, csv, tsv, tab or txt" in text
    exports = help_text(capsys, "export")
    assert "--scope SCOPE global, campaign:ID, campaign:NAME, purpose:TEXT or purpose" in exports


def test_export_takes_a_campaign_by_its_name_as_import_does(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scope = "campaign:Spring Renewals"
    src = numbers_csv(tmp_path / "in.csv", 2)
    argv = ["import", str(src), "--into", "dnc", "--scope", scope, "--json"]
    code, data, err = run(capsys, [*argv, "--base-url", sandbox.base_url])
    assert code == 0 and data["inserted"] == 2, err
    code, data, err = run(
        capsys,
        [
            "import",
            str(numbers_csv(tmp_path / "g.csv", 1, first=50)),
            "--into",
            "dnc",
            "--scope",
            "global",
            "--json",
            "--base-url",
            sandbox.base_url,
        ],
    )
    assert code == 0 and data["inserted"] == 1, err
    out = tmp_path / "spring.csv"
    export = ["export", "dnc", "--out", str(out), "--base-url", sandbox.base_url, "--json"]
    code, data, err = run(capsys, [*export, "--scope", "  Campaign:Spring Renewals "])
    assert code == 0, err
    assert data["rows"] == 2
    with out.open(newline="") as fh:
        rows = list(csv.reader(fh))
    assert sum(1 for r in rows[1:] if any("555-0001" in c or "5550001" in c for c in r)) == 1
    code, data, err = run(capsys, [*export, "--scope", "campaign:No Such", "--overwrite"])
    said = (
        f"No campaign on the service at {sandbox.base_url} is named 'No Such' (--scope "
        "campaign:No Such); its campaigns are 1 ('Spring Renewals') and 2 ('Old Winback'): "
        "give one's id (campaign:ID) or its name as the service lists it (campaign:NAME)."
    )
    assert (code, err, data) == (2, said, {"error": said, "exit_status": 2})


# -- (F) signals before the job, a resume's started line, an ended job's resume -----------------


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler for ``signum`` (Linux's /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_before_the_job_exists_is_one_json_refusal(tmp_path: Path, signum: int) -> None:
    src = numbers_csv(tmp_path / "in.csv", 20_000)
    proc = start_cli(["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run",
                      "--json"])  # fmt: skip
    deadline = time.monotonic() + 30
    # The command takes SIGTERM once it runs (before, the interpreter is still starting).
    while not catches(proc.pid, signal.SIGTERM):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.005)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, (out, err)
    assert "Traceback" not in err
    data = json.loads(out)
    assert data["exit_status"] == 128 + signum
    assert data["error"] in (
        "Interrupted.",
        "Interrupted before the job started: nothing was sent.",
    )
    assert err.strip().splitlines()[-1] == data["error"]


def test_a_resumed_run_says_so_with_its_resume_command_before_it_sends(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 5)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    paused = paused_job([*argv, "--base-url", sandbox.base_url])
    code, data, err = run(capsys, ["import", "--resume", paused["job"], "--concurrency", "2",
                                   "--json"])  # fmt: skip
    assert code == 0 and data["status"] == "finished", err
    assert err.splitlines()[0] == (
        f"Job {paused['job']} resumed: if it stops before its end, resume it with: "
        f"dnc-desk import --resume {paused['job']} --base-url {sandbox.base_url} "
        "--concurrency 2 --rate-limit 120"
    )
    # Ended: under --json the sentence text mode leads with is a warning.
    code, again, err = run(capsys, ["import", "--resume", paused["job"], "--json"])
    assert code == 0, err
    assert again["already_ended"] is True
    assert again["warnings"][0].startswith(f"Job {paused['job']} had already finished at ")
    assert (again["inserted"], again["pending"]) == (data["inserted"], 0)


def test_argument_errors_name_no_internal_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Re-test J2: "argument list: invalid choice" (an internal name), and a missing --scope's
    # refusal left out campaign:NAME, which import and remove take.
    with pytest.raises(SystemExit) as exit_info:
        main(["export", "foo", "--out", str(tmp_path / "x.csv")])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "argument list" not in err and "argument dnc|sms-opt-out: invalid choice" in err
    path = numbers_csv(tmp_path / "n.csv", 2)
    code, _, err = run(capsys, ["import", str(path), "--into", "dnc", "--dry-run"])
    assert code == 2
    assert "--scope is required: global, campaign:ID, campaign:NAME or purpose:TEXT." in err
