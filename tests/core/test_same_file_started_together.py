"""Two imports of one file into one list and scope, started together in one app (the window's
wizard twice, each staging then sending in one go): both could run. Each job's check for the
other (job_catalog.same_file_job) ran while the other was "just staged"; one that checked
before the other was staged went on, and the other, seeing it not run yet and made in the same
second, went on too when its random id came first. The check and the job's claim are one step
now (job_catalog.claim_beside, under a lock file in the jobs folder): exactly one runs, the
other is refused naming it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.import_job import run_import, stage_import
from app.core.job_catalog import SameFileRefused, list_jobs, refuse_beside
from app.core.job_staging import JobSettings
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.session import Session
from tests.conftest import TOKEN

ROWS = 6
ROUNDS = 8


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    s = Session(Connection("Test", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal)
    yield s
    s.close()
    journal.close()


class _Start:
    """One start of the import, as the window's wizard makes it: stage, check beside other
    jobs, then send. ``checked`` is set once its check has ended; ``go`` lets it send."""

    def __init__(self, session: Session, file: Path, jobs_dir: Path) -> None:
        self.session, self.file, self.jobs_dir = session, file, jobs_dir
        self.checked = threading.Event()
        self.go = threading.Event()
        self.ended = ""

    def __call__(self, after: threading.Event | None) -> None:
        try:
            self.ended = self._start(after)
        finally:
            self.checked.set()

    def _start(self, after: threading.Event | None) -> str:
        if after is not None:
            after.wait(30)
        store, _ = stage_import(
            JobSettings(self.file, Scope.global_(), name="Together"),
            self.jobs_dir,
            connection=self.session.connection,
        )
        try:
            refuse_beside(store, self.jobs_dir, f"Import of {self.file.name} not started", "-", "-")
        except SameFileRefused as refused:
            return str(refused)
        self.checked.set()
        self.go.wait(30)
        try:
            run_import(store, self.session, concurrency=2)
        finally:
            store.close()
        return "ran"


def _round(session: Session, file: Path, jobs_dir: Path) -> list[str]:
    """Two starts on two threads, the second staged and checked after the first's check and
    before the first sends (the order a start a moment later takes): the interleaving in
    which both went on when the second's id came first, about every other round."""
    first, second = _Start(session, file, jobs_dir), _Start(session, file, jobs_dir)
    threads = [
        threading.Thread(target=first, args=(None,)),
        threading.Thread(target=second, args=(first.checked,)),
    ]
    for thread in threads:
        thread.start()
    second.checked.wait(30)
    first.go.set()
    second.go.set()
    for thread in threads:
        thread.join(60)
    return [first.ended, second.ended]


def test_two_imports_of_one_file_started_together_run_one(
    session: Session, sandbox: Any, tmp_path: Path
) -> None:
    jobs_dir = AppPaths.default().jobs_dir
    listed = 0
    for n in range(ROUNDS):
        file = tmp_path / f"numbers-{n}.csv"
        numbers = [f"303555{n:02d}{i:02d}" for i in range(ROWS)]
        file.write_text("Phone\n" + "".join(f"{x}\n" for x in numbers))
        ended = _round(session, file, jobs_dir)
        assert len(ended) == 2, ended
        assert ended.count("ran") == 1, f"round {n}: {ended}"
        (refusal,) = [text for text in ended if text != "ran"]
        assert refusal.startswith(f"Import of {file.name} not started: job import-"), refusal
        ran = [j for j in list_jobs(jobs_dir) if j.meta.get("file", "").endswith(file.name)]
        assert len(ran) == 1 and ran[0].counts["inserted"] == ROWS, [j.counts for j in ran]
        listed += ROWS
    with ApiClient(sandbox.base_url, TOKEN) as api:
        assert sum(1 for _ in api.iter_dnc(DncQuery())) == listed
