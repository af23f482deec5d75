"""Black-box B20 F4: a quiet export of a list whose unreached rows had two causes said "of
them, up to 499 share one scope, country code, reason and insert day …; up to 1 are on no
insert day of the 3,660 days searched", though both counts were exact (they add up to the 500
rows not reached). Counts that add up so on a list left alone are said exactly now; "up to"
stays where a count is only a bound.

The cap is made small (one search reaches 1,000 rows) so the split runs on a few thousand rows.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.limits import PageLimits
from app.core import export_job
from app.core.export_job import ExportJob, ExportResult, Gap, ListKind, unreachable_warning
from tests.conftest import TOKEN

SMALL_CAP = PageLimits("/dnc/search", 100, 1000, max_offset=500)


@pytest.fixture
def seeded(sandbox: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(export_job, "MAX_SPLIT_DAYS", 30)
    # Ids 1-1,500 of today, 500 more than one search reaches; id 1,501 dated 400 days back.
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(1_501))
    old = (dt.date.today() - dt.timedelta(days=400)).isoformat()
    sandbox.store.execute(f"UPDATE dnc SET insert_date = '{old} 10:00:00' WHERE id = 1501")
    return sandbox


def test_causes_adding_up_to_the_rows_unreached_are_said_exactly(
    seeded: Any, tmp_path: Path
) -> None:
    with ApiClient(seeded.base_url, TOKEN) as api:
        job = ExportJob(api, ListKind.DNC, DncQuery(), tmp_path / "x.csv", page_size=500)
        job.limits = SMALL_CAP
        result = job.run()
    assert not result.list_changed
    assert (result.rows, result.unreachable, result.capped) == (1_000, 501, 500)
    assert result.gaps == {Gap.DAYS: 1}
    text = unreachable_warning(result)
    assert "up to" not in text
    assert "): of them, 500 share one scope, country code, reason and insert day, " in text
    assert "; 1 is on no insert day of the 30 days searched (" in text


def test_causes_stay_bounds_when_they_do_not_add_up_or_the_list_changed(tmp_path: Path) -> None:
    bounds = ExportResult(tmp_path / "x.csv", 10, 1_000, 990, reach=101_000)
    bounds.capped = 400
    bounds.gaps = {Gap.DAYS: 600, Gap.SCOPE: 1}
    text = unreachable_warning(bounds)
    assert "of them, up to 400 share one " in text and "; up to 600 are on no insert day" in text
    changed = ExportResult(tmp_path / "x.csv", 10, 511, 501, reach=101_000, list_changed=True)
    changed.capped = 500
    changed.gaps = {Gap.DAYS: 1}
    text = unreachable_warning(changed)
    assert "of them, up to 500 share one " in text and "; up to 1 are on no insert day" in text
