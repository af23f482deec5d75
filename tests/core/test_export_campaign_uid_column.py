"""An export has the service's campaign_uid of each DNC entry, as its last column (black-box N1
#3: not every field came out), and reading that export back (a removal with --per-row-scope, an
import) takes the column for no campaign column: its uid beside the campaign id must not make
a row name two scopes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.export_job import COLUMNS, ExportJob, ListKind
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.removal_job import stage_removal
from app.core.sheet_scope import CampaignDirectory
from tests.conftest import TOKEN


@pytest.fixture
def client(sandbox: Any) -> Iterator[ApiClient]:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        yield api


def _campaign_entries(client: ApiClient) -> dict[str, str]:
    for i, campaign in enumerate(client.campaigns()):
        client.insert_dnc(f"30355501{i:02d}", "1", Scope.campaign(campaign.id), reason="asked")
    client.insert_dnc("3035550199", "1", Scope.global_(), reason="asked")
    page = client.search_dnc(DncQuery(), limit=1000)
    return {e.id: e.campaign_uid for e in page.items if e.scope.is_campaign}


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_the_export_has_each_entrys_campaign_uid(
    client: ApiClient, sandbox: Any, tmp_path: Path, suffix: str
) -> None:
    uids = _campaign_entries(client)
    assert len(uids) == 2 and all(uids.values())
    out = tmp_path / f"dnc{suffix}"
    ExportJob(client, ListKind.DNC, DncQuery(), out, connection_name="Sandbox").run()
    if suffix == ".xlsx":
        book = openpyxl.load_workbook(out, read_only=True)
        rows = [list(r) for r in book["Entries"].iter_rows(values_only=True)]
        book.close()
    else:
        import csv

        with out.open(encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.reader(fh))
    header, *entries = rows
    assert header == list(COLUMNS) and header[-1] == "campaign_uid"
    by_id = {str(r[header.index("id")]): r[-1] for r in entries}
    assert {i: by_id[i] for i in uids} == uids

    # Read back: the uid column is no campaign column, so no row names two scopes.
    connection = Connection("Sandbox", sandbox.base_url)
    lookup = CampaignDirectory(client.campaigns())
    store, _ = stage_removal(
        JobSettings(out, Scope.global_(), scope_from_rows=True, note="test"),
        tmp_path / "jobs",
        connection=connection,
        campaign_lookup=lookup,
    )
    mapping = store.meta()["mapping"]
    assert not any("campaign_uid" in str(v) for k, v in mapping.items() if k != "ignored")
    invalid = [r.message for r in store.rows() if r.outcome == "invalid"]
    assert invalid == [], invalid[:3]
    store.close()
    store, _ = stage_import(
        JobSettings(out, Scope.global_()),
        tmp_path / "jobs2",
        connection=connection,
        campaign_lookup=lookup,
    )
    assert not any("two scopes" in str(w) for w in store.meta().get("warnings") or [])
    store.close()
