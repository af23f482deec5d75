"""Black-box B36 F2: the day split asks the service once a run whether its DNC search takes a
bare insert date as a day (one search of an entry's day), and on a service matching a moment
searches no day at all: it neither counts thousands of empty days nor claims the rows found."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.limits import PageLimits
from app.core.export_job import ExportJob, ListKind, unreachable_warning
from tests.conftest import TOKEN

# Written out, not imported: the old code, which these tests must fail, has no such text.
NOT_BY_DAY = "this service's DNC search matches an insert date as an exact moment, not a day"

SMALL_CAP = PageLimits("/dnc/search", 100, 1000, max_offset=500)


def _export(server: Any, path: Path) -> tuple[Any, list[DncQuery]]:
    with ApiClient(server.base_url, TOKEN) as api:
        dated: list[DncQuery] = []
        search = api.search_dnc

        def watched(query: DncQuery, *, offset: int = 0, limit: int = 100, **kw: Any) -> Any:
            assert offset <= 500, f"offset {offset} is past the cap"
            if query.insert_date:
                dated.append(query)
            return search(query, offset=offset, limit=limit, **kw)

        api.search_dnc = watched  # type: ignore[method-assign]
        job = ExportJob(api, ListKind.DNC, DncQuery(), path, page_size=500)
        job.limits = SMALL_CAP
        return job.run(), dated


def _seeded(make_sandbox: Callable[..., Any], mode: str) -> Any:
    server = make_sandbox(dnc_insert_date=mode)
    server.bulk_seed_dnc((f"303{i + 2_000_000:07d}", "1", "0", "", "") for i in range(1_200))
    server.store.execute(
        "UPDATE dnc SET insert_date = CASE WHEN id <= 600 THEN '2026-11-19 08:00:00'"
        " ELSE '2026-11-20 17:45:00' END"
    )
    return server


@pytest.mark.parametrize("mode", ["moment", "strict"])
def test_a_service_matching_moments_is_asked_once_and_no_day_is_searched(
    make_sandbox: Callable[..., Any], tmp_path: Path, mode: str
) -> None:
    result, dated = _export(_seeded(make_sandbox, mode), tmp_path / "d.csv")
    assert len(dated) == 1 and dated[0].id  # the one search of an entry's day
    assert (result.rows, result.total, result.unreachable, result.capped) == (
        1_000,
        1_200,
        200,
        200,
    )
    assert result.days_searched is None
    assert result.not_by_day.startswith(NOT_BY_DAY)
    warning = unreachable_warning(result)
    assert warning.startswith("200 matching rows could not be reached")
    assert f"cannot be parted by insert day: {NOT_BY_DAY}" in warning


def test_a_service_searching_days_is_asked_once_and_split_by_day(
    make_sandbox: Callable[..., Any], tmp_path: Path
) -> None:
    result, dated = _export(_seeded(make_sandbox, "day"), tmp_path / "d.csv")
    assert sum(1 for q in dated if q.id) == 1
    assert (result.rows, result.unreachable, result.not_by_day) == (1_200, 0, "")


@pytest.mark.parametrize("mode", ["moment", "strict"])
def test_the_windows_midnight_filter_is_refused_before_a_file_is_written(
    make_sandbox: Callable[..., Any], tmp_path: Path, mode: str
) -> None:
    # The window's filter bar sends the DNC search's date as "YYYY-MM-DD 00:00:00".
    server = _seeded(make_sandbox, mode)
    out = tmp_path / "d.xlsx"
    with ApiClient(server.base_url, TOKEN) as api:
        job = ExportJob(api, ListKind.DNC, DncQuery(insert_date="2026-11-20 00:00:00"), out)
        with pytest.raises(ValueError) as refused:
            job.run()
    said = str(refused.value)
    assert said.startswith(f"{NOT_BY_DAY}: ")
    if mode == "moment":
        assert "would give only the entries inserted at 2026-11-20 00:00:00." in said
    assert not out.exists()


def test_the_windows_midnight_filter_on_a_service_searching_days_exports_the_day(
    make_sandbox: Callable[..., Any], tmp_path: Path
) -> None:
    server = _seeded(make_sandbox, "day")
    with ApiClient(server.base_url, TOKEN) as api:
        query = DncQuery(insert_date="2026-11-20 00:00:00")
        result = ExportJob(api, ListKind.DNC, query, tmp_path / "d.xlsx").run()
    assert (result.rows, result.unreachable) == (600, 0)
