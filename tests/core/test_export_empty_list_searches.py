"""An export of an empty list says the service was asked (black-box B4 #3): its About sheet
counted "Searches run: 0", which reads as nothing was checked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.core.export_job import ExportJob, ListKind
from tests.conftest import TOKEN


@pytest.fixture
def client(sandbox: Any) -> Iterator[ApiClient]:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        yield api


def _about(path: Path) -> dict[Any, Any]:
    return dict(openpyxl.load_workbook(path)["About"].iter_rows(values_only=True))


def test_an_empty_lists_export_says_the_service_was_asked(
    client: ApiClient, tmp_path: Path
) -> None:
    out = tmp_path / "empty.xlsx"
    result = ExportJob(client, ListKind.SMS, DncQuery(), out, connection_name="Sandbox").run()
    assert result.rows == 0 and result.parts == []
    assert result.counted >= 1
    about = _about(out)
    assert about["Rows exported"] == 0
    assert about["Searches counting the matching rows"] == result.counted


def test_a_lists_export_counts_its_counting_searches_too(
    sandbox: Any, client: ApiClient, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([(f"20255{i:05d}", "1", "0", "", "") for i in range(30)])
    out = tmp_path / "dnc.xlsx"
    result = ExportJob(client, ListKind.DNC, DncQuery(), out, connection_name="Sandbox").run()
    assert result.rows == 30 and len(result.parts) >= 1 and result.counted >= 1
    assert _about(out)["Searches counting the matching rows"] == result.counted
