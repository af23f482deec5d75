"""Black-box B30 F11: a job's result line starts with a capital, a fresh run's and a resume's
alike ("Import of a.csv: finished.", "Import of a.csv: paused."); a --name as written."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path
from typing import Any

import pytest

from app.api.scope import Scope
from app.cli import import_cmd
from app.cli.main import main
from app.core.connections import Connection
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _csv(path: Path, rows: int = 3) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[f"303-555-{i:04d}"] for i in range(rows)])
    return path


def _staged(path: Path, base_url: str) -> JobStore:
    store, _ = stage_import(
        JobSettings(path, Scope.global_()),
        AppPaths.default().jobs_dir,
        connection=Connection("Sandbox", base_url),
    )
    store.close()
    return store


def test_result_lines_start_with_a_capital(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _csv(tmp_path / "fresh.csv")
    argv = ["import", str(path), "--into", "dnc", "--scope", "global"]
    code = main([*argv, "--base-url", sandbox.base_url])
    assert code == 0
    assert capsys.readouterr().out.splitlines()[0] == "Import of fresh.csv: finished."
    store = _staged(_csv(tmp_path / "later.csv"), sandbox.base_url)
    code = main(["import", "--resume", store.path.stem, "--base-url", sandbox.base_url])
    assert code == 0
    assert capsys.readouterr().out.splitlines()[0] == "Import of later.csv: finished."
    paused = JobStore(store.path)
    try:
        import_cmd._print_paused(paused, argparse.Namespace(json=False))
    finally:
        paused.close()
    assert capsys.readouterr().out.splitlines()[0] == "Import of later.csv: paused."
    # A name given with --name is printed as written.
    assert import_cmd.job_headline({"kind": "removal", "name": "iPhone list"}, "paused") == (
        "iPhone list: paused."
    )
