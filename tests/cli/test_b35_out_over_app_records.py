"""Black-box B35 F3: ``export dnc --out <DATA>/jobs/import-….xlsx --overwrite`` replaced a
finished import's report (its record of what was sent) with the export. An ``--out`` (export,
diff, audit, evidence) that is a job's report, a job file or the change journal is refused now,
naming what it is, with exit 2, whatever ``--overwrite`` says; nothing is replaced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _import(tmp_path: Path, base_url: str, capsys: pytest.CaptureFixture[str], *more: str) -> dict:
    src = tmp_path / "in.csv"
    src.write_text("Phone\n3035550101\n3035550102\n", encoding="utf-8")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json", *more]
    assert main([*argv, "--base-url", base_url]) == 0
    done: dict = json.loads(capsys.readouterr().out)
    return done


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_an_export_never_replaces_a_jobs_report_job_file_or_journal(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    done = _import(tmp_path, sandbox.base_url, capsys)
    report, job = Path(done["report"]), done["job"]
    assert report.parent == AppPaths.default().jobs_dir
    before = report.read_bytes()
    export = ["export", "dnc", "--base-url", sandbox.base_url, "--overwrite", "--out"]
    for out in (report, report.with_suffix(".csv")):
        # The .csv beside the job file is not there: refused all the same, as the job's own.
        err = _refused([*export, str(out)], capsys)
        if out == report:
            assert f"--out {report} is the report of job {job}" in err
            assert "its record of what was sent; the export would replace it" in err
    assert report.read_bytes() == before
    # Named through a link, the job file and the journal are refused too.
    paths = AppPaths.default()
    links = {
        "job file": (tmp_path / "job.xlsx", report.with_suffix(".dncjob")),
        "change journal": (tmp_path / "journal.xlsx", paths.journal_db),
    }
    for what, (link, target) in links.items():
        assert target.is_file()
        link.symlink_to(target)
        kept = target.read_bytes()
        err = _refused([*export, str(link)], capsys)
        assert f"--out {link} is a {what}" in err or f"--out {link} is the {what}" in err
        assert target.read_bytes() == kept
    # A copy of the report is the user's to replace, with --overwrite.
    copy = tmp_path / "copy.xlsx"
    copy.write_bytes(before)
    assert main([*export, str(copy)]) == 0
    capsys.readouterr()
    assert copy.read_bytes() != before


def test_a_report_given_elsewhere_is_refused_to_diff_and_audit(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "kept" / "sent.xlsx"
    done = _import(tmp_path, sandbox.base_url, capsys, "--report", str(kept))
    assert Path(done["report"]) == kept
    before = kept.read_bytes()
    snapshot = tmp_path / "none.sqlite3"
    for argv in (
        ["diff", str(snapshot), "--out", str(kept), "--overwrite"],
        ["audit", "campaign", "1", "--out", str(kept), "--overwrite"],
    ):
        err = _refused([*argv, "--base-url", sandbox.base_url], capsys)
        assert f"is the report of job {done['job']}" in err
    assert kept.read_bytes() == before


def test_a_dry_runs_report_may_still_be_replaced(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    done = _import(tmp_path, sandbox.base_url, capsys, "--dry-run")
    report = Path(done["report"])
    out = ["export", "dnc", "--base-url", sandbox.base_url, "--out", str(report)]
    assert main([*out, "--overwrite"]) == 0
