"""What a job says when it ends in an unusual way (black-box pass L4).

#12: a removal paused because the service kept failing (an HTML 502 mid-run) named one
endpoint and one row's error, with no row or number, reading "nothing was deleted" beside
"whether it was removed is not known". The sentence now names the rows left open, in groups
of what is known of them (the first few of each, with their numbers), and what the resume
does; each group agrees with the job file.

#13: a job whose job file was deleted while it ran finished with its report written, and
``jobs --all`` then listed no job, unsaid. The job's end now says so among its warnings
(which the CLI prints, under ``--json`` too), naming the job file and the report.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_exec import list_jobs
from app.core.job_runner import JobAborted, JobProgress
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, RowState
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.conftest import TOKEN
from tests.core.test_job_hung_service_stop import Gateway

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def gateway(sandbox: Any) -> Iterator[Gateway]:
    host, port = sandbox.base_url.split("//", 1)[1].rsplit(":", 1)
    proxy = Gateway((host, int(port.rstrip("/"))))
    yield proxy
    proxy.close()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[ChangeJournal]:
    j = ChangeJournal(tmp_path / "journal.sqlite3")
    yield j
    j.close()


# -- #12 ---------------------------------------------------------------------------------------

# One group of the sentence: "<state>, as <why>: row 4 (+1…)." / "rows 2 (+1…), 3 (+1…) and
# 21 more."
_GROUP = re.compile(r"(Not known whether removed|Not removed), as ([^:]+): rows? (.+?)\.(?= |$)")
_NAMED = re.compile(r"(\d+) \((\+\d+)\)")


@pytest.mark.parametrize(
    ("fail_from", "concurrency", "named"),
    [
        # Three rows go through (a look-up of each of the number's four written forms, and a
        # delete each); from the next request on, every request is answered 502 with an HTML
        # page, deletes and look-ups alike.
        (15, 1, "Not removed"),  # the next row's look-up fails: no delete sent
        (19, 1, "Not known whether removed"),  # the fourth row's delete is the first to fail
    ],
)
def test_a_removal_stopped_by_a_failing_service_names_its_open_rows_and_what_is_known(
    sandbox: Any,
    gateway: Gateway,
    journal: ChangeJournal,
    tmp_path: Path,
    fail_from: int,
    concurrency: int,
    named: str,
) -> None:
    phones = [f"202555{i + 1:04d}" for i in range(40)]
    with ApiClient(sandbox.base_url, TOKEN) as direct:
        for phone in phones:
            direct.insert_dnc(phone, "1", Scope.global_())
    src = tmp_path / "in.csv"
    src.write_text("phone\n" + "".join(f"{p}\n" for p in phones))
    quick = RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.02)
    api = ApiClient(gateway.base_url, TOKEN, retry=quick)
    session = Session(Connection("Gateway", gateway.base_url), api, journal)
    store, _ = stage_removal(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    gateway.fail_from = fail_from
    with pytest.raises(JobAborted) as stopped:
        run_removal(store, session, concurrency=concurrency)
    session.close()
    said = str(stopped.value)
    assert said.startswith(
        "The service kept failing (HTTP 502 Bad Gateway with an HTML page, the last from /dnc/"
    ), said
    assert "; the job was stopped and can be resumed. " in said
    # No row's own error words, which mixed this send's "nothing was deleted" with an earlier
    # delete's "not known".
    assert "nothing was deleted" not in said, said
    rows = {r.row_number: r for r in store.rows()}
    groups = _GROUP.findall(said)
    # Which other group shows with two requests at a time depends on which came first.
    states = {state for state, _why, _rows in groups}
    assert named in states and states <= {"Not known whether removed", "Not removed"}, said
    listed = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
    in_job: dict[str, int] = {}
    for state, why, named in groups:
        shown = _NAMED.findall(named)
        assert 1 <= len(shown) <= 3, named
        more = re.search(r" and ([\d,]+) more$", named)
        in_job[f"{state}, as {why}"] = len(shown) + (int(more[1]) if more else 0)
        for number, phone in shown:
            row = rows[int(number)]
            assert phone == f"+1{row.national}"  # the row's own number
            if state == "Not removed":
                # Nothing was sent for it: pending, and still on the list.
                assert row.state == RowState.PENDING.value, row
                assert row.national in listed
                assert "look-up before the delete failed, so no delete was sent" in why
            else:
                # Its delete was sent, and it stays "sending" for the resume to settle.
                assert row.state == RowState.SENDING.value, row
                assert why.startswith("the delete was sent"), why
    # The rows whose delete is open are all named (as many as the job file keeps "sending"),
    # and with the rows not sent yet, every row left to send is counted.
    sending = [r for r in rows.values() if r.state == RowState.SENDING.value]
    unknown = sum(n for k, n in in_job.items() if k.startswith("Not known"))
    assert unknown == len(sending), (in_job, said)
    others = re.search(r" ([\d,]+) other rows were not sent yet\. ", said)
    assert others is not None, said
    open_rows = [r for r in rows.values() if r.state != RowState.DONE.value]
    assert sum(in_job.values()) + int(others[1]) == len(open_rows), (in_job, said)
    ending = "The resume sends the rows not done"
    if unknown:
        ending += ", which settles whether those not known were removed"
    assert said.endswith(f"{ending}."), said


# -- #13 ---------------------------------------------------------------------------------------


def _gone_sentence(path: Path, report: Path, left: str = "") -> str:
    return (
        f"The job file {path} was deleted or moved while the job ran, so the jobs list no "
        f"longer shows this job{left}; its outcomes are in the report {report}."
    )


def test_a_job_whose_file_is_deleted_while_it_runs_says_so_at_its_end(
    sandbox: Any, tmp_path: Path
) -> None:
    """The L4 run: ``import`` of 1,000 rows, the job file deleted mid-run (``--json``)."""
    src = tmp_path / "in.csv"
    src.write_text("Phone\n" + "".join(f"303555{i + 1:04d}\n" for i in range(1000)))
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--base-url",
            sandbox.base_url, "--concurrency", "2", "--json"]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", *argv],
        cwd=ROOT,
        env={**os.environ, "DNC_DESK_TOKEN": TOKEN},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    jobs_dir = AppPaths.default().jobs_dir
    deleted: list[Path] = []

    def delete_once_sending() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            for job in jobs_dir.glob("*.dncjob"):
                if int(sandbox.store.one("SELECT COUNT(*) AS n FROM dnc")["n"]) >= 20:
                    job.unlink()
                    deleted.append(job)
                    return
            time.sleep(0.01)

    thread = threading.Thread(target=delete_once_sending, daemon=True)
    thread.start()
    out, err = proc.communicate(timeout=120)
    thread.join()
    assert proc.returncode == 0, err
    assert deleted, "the job ended before its file could be deleted"
    data = json.loads(out)
    assert (data["status"], data["inserted"]) == ("finished", 1000)
    report = Path(data["report"])
    assert report.is_file()
    assert data["warnings"] == [_gone_sentence(deleted[0], report)], data["warnings"]
    assert list_jobs(jobs_dir) == []


def test_a_paused_job_whose_file_went_says_its_rows_cannot_be_resumed(
    session: Session, sandbox: Any, tmp_path: Path
) -> None:
    # Progress is reported at most every 0.25 s: rows that take time keep the first report
    # with a row done well before the last (30 fast rows could all end between two reports,
    # and the job then finished: seen once under load).
    sandbox.set_faults(latency_ms=40)
    src = tmp_path / "in.csv"
    src.write_text("phone\n" + "".join(f"202555{i + 1:04d}\n" for i in range(30)))
    store, _ = stage_import(
        JobSettings(src, Scope.global_()), tmp_path / "jobs", connection=session.connection
    )
    from app.core.job_runner import JobControl

    control = JobControl()
    path = store.path

    def progress(p: JobProgress) -> None:
        if p.done and path.exists():
            path.rename(tmp_path / "elsewhere.dncjob")  # moved away mid-run
            control.suspend()

    assert run_import(store, session, concurrency=1, control=control, progress=progress) is (
        JobStatus.PAUSED
    )
    meta = store.meta()
    report = Path(str(meta["report"]))
    assert report.is_file()
    left = " and the rows it had not sent cannot be resumed"
    assert meta["warnings"] == [_gone_sentence(path, report, left)]
    assert list_jobs(tmp_path / "jobs") == []
    store.close()
