"""Black-box B19 F3: a job killed while writing its final report was listed as finished with no
report (only a ``.part`` file beside it), and nothing said so. ``dnc-desk jobs`` now names an
ended job without its report and the ``--resume`` command that writes it again; ``--json`` has
``report_missing``."""

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


def test_a_finished_job_without_its_report_is_named_with_the_command_that_writes_it(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.csv"
    src.write_text("Phone\n3035550101\n3035550102\n", encoding="utf-8")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", sandbox.base_url, "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    report, job = Path(done["report"]), done["job"]
    assert main(["jobs", "--all"]) == 0
    assert "has no report" not in capsys.readouterr().out
    report.unlink()  # as a run killed while writing it leaves it
    assert main(["jobs"]) == 0
    out = capsys.readouterr().out
    said = [line for line in out.splitlines() if line.startswith(f"Job {job} has no report")]
    assert len(said) == 1 and "write it again with: dnc-desk import --resume" in said[0]
    assert main(["jobs", "--all", "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["jobs"]
    assert entry["report_missing"] is True
    assert entry["write_report"].startswith("dnc-desk import --resume")
    # Re-test U3 F3: without --all, --json listed no such job.
    assert main(["jobs", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["jobs"] == [] and [j["job"] for j in listed["reports_missing"]] == [job]
    # The command named writes it, and the job is then as it was.
    assert main(["import", "--resume", job, "--base-url", sandbox.base_url]) == 0
    capsys.readouterr()
    assert report.is_file()
    assert main(["jobs", "--all", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["jobs"][0]["report_missing"] is False
    assert AppPaths.default().jobs_dir.is_dir()
