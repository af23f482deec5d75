"""Black-box B27 on exports past the paging cap and of values xlsx cannot hold.

- F1: an xlsx export wrote a reason or purpose holding a control character (U+0001) with
  U+FFFD in its place without a word; the result counts such cells by column, and the About
  sheet says so (a CSV export keeps them, and says nothing).
- F2: the warning on rows no search reached advised ``--scope campaign:ID`` for rows of a
  campaign the campaign list does not name, which export refuses, as the service refuses a
  search by that campaign id; it no longer does.
- F6: looking for the rows no part held, after the parts were read (counting searches,
  reading searches whose rows were mostly written already), the export's progress said only
  the rows written so far for minutes; it now says it is counting, and how many counts of at
  most how many ran, or reading, and how many pages.

The cap is made small (one search reaches 1,000 rows) so the split runs on a few thousand rows.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.limits import PageLimits
from app.cli import export_cmd
from app.core import export_job
from app.core.export_job import (
    ExportJob,
    ExportResult,
    Gap,
    ListKind,
    replaced_warning,
    unreachable_warning,
)
from tests.conftest import TOKEN

SMALL_CAP = PageLimits("/dnc/search", 100, 1000, max_offset=500)


def test_xlsx_export_counts_and_says_the_values_that_lost_characters(
    sandbox: Any, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [
            ("2025550101", "1", "0", "bad\x01reason", ""),
            ("2025550102", "1", "0", "also\x1fbad", "Sales\x02"),
            ("2025550103", "1", "0", "tab\tand\nline", "fine"),
        ]
    )
    with ApiClient(sandbox.base_url, TOKEN) as api:
        result = ExportJob(api, ListKind.DNC, DncQuery(), tmp_path / "x.xlsx").run()
        as_csv = ExportJob(api, ListKind.DNC, DncQuery(), tmp_path / "x.csv").run()
    assert result.rows == 3
    assert result.replaced == {"reason": 2, "purpose": 1}
    said = replaced_warning(result)
    assert said.startswith("3 values hold characters an xlsx file cannot hold (reason: 2, ")
    assert "U+FFFD" in said and "a CSV export keeps them" in said
    about = dict(openpyxl.load_workbook(result.path)["About"].iter_rows(values_only=True))
    assert about["Characters replaced"] == said[0].upper() + said[1:] + "."
    # The CSV keeps every character, and has nothing to say.
    assert as_csv.replaced == {} and replaced_warning(as_csv) == ""
    with (tmp_path / "x.csv").open(encoding="utf-8-sig", newline="") as fh:
        reasons = {row[6] for row in csv.reader(fh)}
    assert "bad\x01reason" in reasons


def test_the_warning_advises_no_scope_export_refuses(tmp_path: Path) -> None:
    result = ExportResult(tmp_path / "x.csv", 0, 10, 10, reach=101_000)
    result.gaps = {Gap.SCOPE: 9}
    text = unreachable_warning(result)
    assert "campaign the service's campaign list does not name" in text
    assert "--scope campaign:ID" not in text
    assert "no search of the service can select (it refuses that campaign id)" in text
    result.gaps = {Gap.CODE: 6}
    text = unreachable_warning(result)
    assert "--phone-code CODE exports the entries of one such code" in text


@pytest.fixture
def odd_code(sandbox: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """1,500 global +1 entries of today, and after them 5 under phone code 999 (no country's):
    the split by country code leaves the 5 out, and the day split reaching for them counts the
    days before today."""
    monkeypatch.setattr(export_job, "MAX_SPLIT_DAYS", 30)
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(1_500))
    sandbox.bulk_seed_dnc((f"5551{i:06d}", "999", "0", "", "") for i in range(5))
    return sandbox


def test_counting_after_the_parts_is_said_as_counting(odd_code: Any, tmp_path: Path) -> None:
    seen: list[tuple[bool, int, int, str]] = []
    reading: list[str] = []
    with ApiClient(odd_code.base_url, TOKEN) as api:
        job = ExportJob(api, ListKind.DNC, DncQuery(), tmp_path / "x.csv", page_size=500)
        job.limits = SMALL_CAP
        count = job._count
        fetch = job._fetch

        def page(query: DncQuery, offset: int, limit: int) -> Any:
            got = fetch(query, offset, limit)
            if job.reaching and not job.gap_counting and limit > 1:
                reading.append(export_cmd._so_far(job, 60.0))
            return got

        job._fetch = page  # type: ignore[method-assign]

        def watched(query: DncQuery) -> int:
            if job.planned_total is not None:  # the parts are being read
                said = export_cmd._so_far(job, 60.0)
                seen.append((job.gap_counting, job.gap_counted, job.gap_bound, said))
            return count(query)

        job._count = watched  # type: ignore[method-assign]
        result = job.run()
    assert result.gaps.get(Gap.CODE)
    # The first count is the reason split's (said once it runs); the last, the list's count
    # at the end, is no longer the gap's.
    reaching, end = seen[1:-1], seen[-1]
    assert len(reaching) >= 3 and all(counting for counting, *_ in reaching)
    # The day split reaching for the 5 rows may count every day of the 30 but today's.
    assert max(bound for *_, bound, _ in reaching) >= 29
    said = reaching[-1][3]
    assert said.startswith("running for 60 s: 1,000 of 1,505 rows written so far; looking ")
    assert "; looking for the rows no search of the split reached: counting them, " in said
    assert said.endswith(" searches counted.")
    # Pages of searches whose rows were written already are said as read, not as rows.
    assert reading and re.search(
        r"; looking for the rows no search of the split reached: reading the searches that "
        r"may hold them, \d+ pages? read \(rows written already are not written again\)\.$",
        reading[-1],
    )
    assert job.gap_pages >= len(reading)
    assert not end[0] and end[3].endswith("rows written so far.")
    # Days not counted once the day split stopped are taken back from the bound.
    assert job.gap_counted == job.gap_bound
    assert not job.gap_counting  # over with the read
