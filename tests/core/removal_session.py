"""For tests of removals against the sandbox over loopback HTTP: a transport to the sandbox
that records every request (its path and parameters), and a session through it (quick
retries, a change journal in the test's folder), as the ``wire`` and ``session`` fixtures;
and a removal of a few numbers staged, or run, through that session.

A test module takes the fixtures by naming them among its own (``wire = removal_session.wire``):
pytest finds a module's fixtures by its names; imported by name, they would be imports never
used that the tests' arguments redefine (ruff F401, F811).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest

from app.api.scope import Scope
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus, JobStore
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.core.lead_wire import LEADS_SEARCH, Forwarding, wired_session

DELETE = "/v1/dnc/delete"


class Wire(Forwarding):
    """Sends every request to the sandbox, recording its path (``paths``) and its parameters
    less the token (``sent``). ``fail`` (when set) answers the requests to ``fails`` (by
    default ``/leads/search``) instead: a response, or an exception to raise. ``after`` maps a
    number to what runs once its ``/dnc/delete`` was answered."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, dict[str, str]]] = []
        self.fails = LEADS_SEARCH
        self.after: dict[str, Callable[[], None]] = {}

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        params = dict(parse_qsl(request.content.decode("utf-8")))
        params.pop("auth_token", None)
        self.paths.append(path)
        self.sent.append((path, params))
        if self.fail is not None and path == self.fails:
            return self.fail(request)
        response = self._http.handle_request(request)
        if path == DELETE and (then := self.after.get(params["phone_number"])):
            response.read()  # answered before ``then`` runs
            then()
        return response

    def deletes(self, field: str) -> list[tuple[str, str | None]]:
        """Each ``/dnc/delete`` sent: its number and its parameter ``field`` (None without)."""
        return [(p["phone_number"], p.get(field)) for path, p in self.sent if path == DELETE]


@pytest.fixture
def wire() -> Wire:
    return Wire()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Wire) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, wire)


def stage(session: Session, tmp_path: Path, lines: list[str], **settings: Any) -> JobStore:
    """A removal of ``lines`` (a file's rows under the header "Phone") in the global scope,
    staged in ``tmp_path``; ``settings`` are the job's other settings (the note, unless
    given, "consumer asked")."""
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n" + "".join(f"{line}\n" for line in lines))
    settings.setdefault("note", "consumer asked")
    job = JobSettings(path, Scope.global_(), **settings)
    store, _ = stage_removal(job, tmp_path / "jobs", connection=session.connection)
    return store


def remove(session: Session, tmp_path: Path, lines: list[str], **settings: Any) -> JobStore:
    """The removal :func:`stage` stages, run to its end two rows at a time."""
    store = stage(session, tmp_path, lines, **settings)
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    return store
