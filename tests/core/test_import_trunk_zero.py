"""An import of a number the list keeps with its country's trunk 0 (UK "02079460009", entered by
hand or by another tool) finds that entry and ends ``already_present`` saying so, instead of
adding a second entry for the same line in another form (pass E leftover: both forms ended on
the list). Removals and evidence already find that form; the look-up is in the row's scope."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.import_job import TRUNK_ZERO_PRESENT, run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN, CountingTransport


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    api = ApiClient(sandbox.base_url, TOKEN)
    s = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    yield s
    s.close()
    journal.close()


def _import(session: Session, tmp_path: Path, scope: Scope, *cells: str) -> dict[str, Any]:
    path = tmp_path / "in.csv"
    path.write_text("Phone\n" + "\n".join(cells) + "\n", encoding="utf-8")
    store, _ = stage_import(JobSettings(path, scope), tmp_path / "jobs", connection=None)
    assert run_import(store, session) is JobStatus.FINISHED
    summary = job_summary(store)
    summary["messages"] = {r.original: r.message for r in store.rows()}
    return summary


def _forms(sandbox: Any, table: str = "dnc") -> list[tuple[str, str]]:
    return sorted(
        (r["phone_number"], str(r["campaign_id"]))
        for r in sandbox.store.all(f"SELECT phone_number, campaign_id FROM {table}")
    )


def test_a_number_listed_with_its_trunk_zero_is_already_present(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([("02079460009", "44", "0", "by hand", "")])
    s = _import(session, tmp_path, Scope.global_(), "+44 20 7946 0009", "+44 20 7946 0010")
    assert (s["inserted"], s["already_present"], s["already_present_maybe_inserted"]) == (1, 1, 0)
    assert s["messages"]["+44 20 7946 0009"] == TRUNK_ZERO_PRESENT.format(form="02079460009")
    assert _forms(sandbox) == [("02079460009", "0"), ("2079460010", "0")]


def test_the_trunk_zero_form_in_another_scope_does_not_count(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    campaign = str(sandbox.store.scalar("SELECT min(id) FROM campaigns"))
    sandbox.bulk_seed_dnc([("02079460009", "44", campaign, "", "")])
    s = _import(session, tmp_path, Scope.global_(), "+44 20 7946 0009")
    assert (s["inserted"], s["already_present"]) == (1, 0)
    assert _forms(sandbox) == sorted([("02079460009", campaign), ("2079460009", "0")])


def test_only_a_number_of_a_trunk_zero_country_is_looked_up_first(
    sandbox: Any, tmp_path: Path
) -> None:
    # NANP numbers have no trunk 0: one request per row, as before; a UK one is looked up.
    wire = CountingTransport()
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    api = ApiClient(sandbox.base_url, TOKEN, http_transport=wire)
    session = Session(Connection("Sandbox", sandbox.base_url), api, journal)
    try:
        s = _import(session, tmp_path, Scope.global_(), "3035550190", "+44 20 7946 0011")
    finally:
        session.close()
        journal.close()
    assert s["inserted"] == 2
    assert wire.paths == ["/v1/dnc/search", "/v1/dnc/insert", "/v1/dnc/insert"] or (
        wire.paths == ["/v1/dnc/insert", "/v1/dnc/search", "/v1/dnc/insert"]
    ), wire.paths
