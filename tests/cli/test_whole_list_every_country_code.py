"""A list whose global entries are past one search's reach is split by country code over every
calling code, not only the spec's ten reference codes: a whole-list snapshot (and export) of a
list with Italian entries read them, where before they were left to the plain search's reach
and said to be out of any search's (re-test S2 #1: 43 countries' 5,160 entries).

A cap of 2,000 (3,000 entries reachable at 1,000 a page) stands in for the service's 100,000.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from app.api.limits import PageLimits
from app.cli.main import main
from tests.conftest import TOKEN

SMALL_CAP = PageLimits("/dnc/search", default_limit=100, max_limit=1000, max_offset=2000)


@pytest.fixture(autouse=True)
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    monkeypatch.setattr("app.core.snapshots.limits_of", lambda kind: SMALL_CAP)
    monkeypatch.setattr("app.core.export_job.DNC_SEARCH", SMALL_CAP)


def _seed(sandbox: Any) -> None:
    # 2,900 US entries first, then 300 Italian ones: the whole list's plain search reaches
    # only the first 3,000 by id.
    sandbox.bulk_seed_dnc((f"303{i + 2_000_001:07d}", "1", "0", "", "") for i in range(2_900))
    sandbox.bulk_seed_dnc((f"33{i + 12_345_001:08d}", "39", "0", "", "") for i in range(300))


def test_a_whole_list_snapshot_reads_every_country_s_entries(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed(sandbox)
    status = main(["snapshot", "dnc", "--json", "--base-url", sandbox.base_url])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert status == 0, err
    assert (data["entries"], data["reported_total"], data["unreachable"]) == (3_200, 3_200, 0)


def test_a_whole_list_export_writes_every_country_s_entries(
    sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _seed(sandbox)
    out_path = tmp_path / "all.csv"
    argv = ["export", "dnc", "--out", str(out_path), "--json", "--base-url", sandbox.base_url]
    status = main(argv)
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert status == 0, err
    assert (data["rows"], data["unreachable"]) == (3_200, 0)
    with out_path.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    codes = [next(v for k, v in row.items() if "code" in k.casefold()) for row in rows]
    assert (codes.count("39"), codes.count("1")) == (300, 2_900)
