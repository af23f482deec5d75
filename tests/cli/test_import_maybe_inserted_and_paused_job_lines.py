"""What ``dnc-desk import`` prints of already-present rows the job may have inserted, and of
another unfinished job made from the same file (black-box P1 #3 and #4).

P1 #3: the printed summary said "already present: 1,088 (of which 1,088 may have been inserted
by this job: an answer was lost)" though many were sent again after a 5xx, a refused connection
or a resume after a kill; the report's Summary label said why rightly ("an answer was lost, or
the insert ended in an error"). The printed line now says it in the label's words.

P1 #4: with an SMS opt-out import of rm10k.csv paused, an import of rm10k.csv into the DNC list
printed "note: Job import-…, made from rm10k.csv … can still be resumed …: to finish it instead,
run dnc-desk import --resume …", though that job writes to another list. Only a job writing to
the same list and scope is offered "to finish it instead"; one writing elsewhere is named as
writing elsewhere, with its resume command, and this job is said not to finish it.

Run through ``main`` against a sandbox over loopback, with real job files.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.job_report import MAYBE_INSERTED_LABEL
from app.core.job_store import SUFFIX, JobStore, utc_now
from app.core.paths import AppPaths
from tests.conftest import READ_ONLY_TOKEN, TOKEN

NUMBERS = ["3035550101", "3035550102", "3035550103"]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _csv(path: Path) -> Path:
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows([["Phone"], *[[n] for n in NUMBERS]])
    return path


def _paused(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
) -> str:
    """The id of a job ``argv`` starts and a token that may read but not write pauses."""
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    assert main([*argv, "--json"]) == 1
    job = str(json.loads(capsys.readouterr().out)["job"])
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    return job


def test_the_printed_maybe_inserted_count_says_why_as_the_report_does(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = _csv(tmp_path / "in.csv")
    where = ["--base-url", sandbox.base_url]
    job = _paused(
        monkeypatch,
        capsys,
        ["import", str(src), "--into", "dnc", "--scope", "global", *where],
    )
    # Killed with every row in flight, each insert done by the service.
    with JobStore(AppPaths.default().jobs_dir / f"{job}{SUFFIX}") as store:
        store.set_meta({"started": utc_now()})
        for row in store.rows():
            store.mark_sending(row.seq)
    sandbox.bulk_seed_dnc([(n, "1", "0", "", "") for n in NUMBERS])

    assert main(["import", "--resume", job, *where]) == 0
    out = capsys.readouterr().out
    (line,) = [x for x in out.splitlines() if "already present: " in x]
    found = re.search(
        r"already present: 3 \(of which 3 may have been inserted by this job: ([^)]*)\)", line
    )
    assert found, line
    # The report's Summary label says the same reason, in the same words.
    why = found[1]
    assert why == (
        "an attempt got no answer saying whether it was done, or the insert ended in an error"
    )
    assert MAYBE_INSERTED_LABEL.endswith(f"({why})")
    (report,) = [x.split("report: ", 1)[1] for x in out.splitlines() if "report: " in x]
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        summary = dict(book["Summary"].iter_rows(values_only=True))  # type: ignore[arg-type]
    finally:
        book.close()
    assert summary[MAYBE_INSERTED_LABEL] == 3


@pytest.mark.parametrize(
    ("into", "scope"),
    [("sms-opt-out", "global"), ("dnc", "campaign")],
    ids=["another-list", "another-scope"],
)
def test_a_paused_job_writing_elsewhere_is_not_offered_instead(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    into: str,
    scope: str,
) -> None:
    src = _csv(tmp_path / "rm10k.csv")
    where = ["--base-url", sandbox.base_url]
    if scope == "campaign":
        scope = f"campaign:{sandbox.store.all('SELECT id FROM campaigns')[0]['id']}"
    other = _paused(
        monkeypatch, capsys, ["import", str(src), "--into", into, "--scope", scope, *where]
    )
    theirs = "SMS opt-out list (scope global)" if into != "dnc" else f"DNC list (scope {scope})"
    resume = f"dnc-desk import --resume {other} --base-url {sandbox.base_url}"
    base = ["import", str(src), "--into", "dnc", "--scope", "global", *where]
    for argv, this in (([*base, "--dry-run"], "this dry run"), (base, "this import")):
        assert main(argv) == 0
        err = capsys.readouterr().err
        (note,) = [x.removeprefix("note: ") for x in err.splitlines() if x.startswith("note: ")]
        assert re.fullmatch(
            rf"Job {other}, made from rm10k\.csv on \S+ \S+ UTC, can still be resumed \(paused, "
            rf"0 of 3 rows done\) with {re.escape(resume)}; it writes to the "
            rf"{re.escape(theirs)}, not to the DNC list \(scope global\) as {this} does, so "
            rf"{this} does not finish it\.",
            note,
        ), note
        assert "instead" not in note


def test_a_paused_job_writing_where_this_one_does_is_still_offered_instead(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = _csv(tmp_path / "rm10k.csv")
    argv = ["import", str(src), "--into", "sms-opt-out", "--scope", "global"]
    argv += ["--base-url", sandbox.base_url]
    other = _paused(monkeypatch, capsys, argv)
    assert main([*argv, "--dry-run"]) == 0
    (note,) = [x for x in capsys.readouterr().err.splitlines() if x.startswith("note: ")]
    assert f"note: Job {other}, made from rm10k.csv" in note
    assert ": to finish it instead, run dnc-desk import --resume " in note
    assert note.endswith("; this dry run sends nothing and leaves it as it is.")


def test_a_copy_of_the_file_names_the_file_the_paused_job_was_made_from(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Black-box R4 #7: a dry run of big3copy.csv said the paused job of big3.csv was "made
    from big3copy.csv"."""
    src = _csv(tmp_path / "big3.csv")
    argv = ["import", str(src), "--into", "sms-opt-out", "--scope", "global"]
    argv += ["--base-url", sandbox.base_url]
    other = _paused(monkeypatch, capsys, argv)
    copy = tmp_path / "big3copy.csv"
    copy.write_bytes(src.read_bytes())
    assert main(["import", str(copy), *argv[2:], "--dry-run"]) == 0
    (note,) = [x for x in capsys.readouterr().err.splitlines() if x.startswith("note: ")]
    assert f"note: Job {other}, made from big3.csv on " in note
