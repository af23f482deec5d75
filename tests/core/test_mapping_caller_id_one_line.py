"""A column repeating one valid number on every row (a dialer's "caller_id", "ANI", "From",
"Company Phone": the business's own line) is not read over a column headed as a phone line, or
the log's other end, of at least twice as many different numbers merely because those are
invalid under the default code (black-box B24 F1: a power dialer's log of UK numbers in
"phone" beside its US "caller_id" read "caller_id", one valid row and every consumer a
duplicate of it; a real run would have listed the business's line and left the consumers
callable)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_mapping import ColumnMapping, propose_mapping
from app.core.sheet_types import CellValue, Row

LINE = "+17174231319"
UK = ["07911 123456", "07400 123456", "07812 345678", "07956 123456"]
FICTIONAL = ["+15550113943", "+15550118779", "+15550182181", "+15550199358"]  # invalid


def _propose(header: Sequence[str], *columns: Sequence[CellValue]) -> ColumnMapping:
    rows: list[Row] = [(n + 2, list(c)) for n, c in enumerate(zip(*columns, strict=True))]
    return propose_mapping(list(header), rows)


@pytest.mark.parametrize("consumers", [UK, FICTIONAL])
@pytest.mark.parametrize(
    "line", ["caller_id", "Caller ID", "ANI", "DID", "From", "Company Phone", "Outbound CLI"]
)
def test_the_phone_column_of_many_is_read_over_one_line(line: str, consumers: list[str]) -> None:
    mapping = _propose(["phone", line], consumers, [LINE] * 4)
    assert mapping.phone == 0
    mapping = _propose([line, "phone"], [LINE] * 4, consumers)
    assert mapping.phone == 1


@pytest.mark.parametrize(
    ("line", "other"),
    [("From", "To"), ("Sender", "Recipient"), ("Caller ID", "Number Called")],
)
def test_the_logs_other_end_of_many_is_read_over_one_line(line: str, other: str) -> None:
    mapping = _propose([line, other], [LINE] * 4, UK)
    assert (mapping.phone, mapping.guessed_end) == (1, None)
    mapping = _propose([other, line], UK, [LINE] * 4)
    assert mapping.phone == 0


def test_a_phone_column_of_one_number_does_not_outweigh_the_line() -> None:
    """Both columns repeat one number: nothing tells the consumers' side, as before."""
    mapping = _propose(["phone", "caller_id"], [UK[0]] * 4, [LINE] * 4)
    assert mapping.phone == 1


def test_the_dialer_log_refuses_the_consumers_rows_with_the_country_hint(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    path.write_text(
        "timestamp,name,phone,caller_id,outcome\n"
        f"2026-09-30T08:10:21,Maria Carter,07911 123456,{LINE},Failed\n"
        f"2026-09-30T08:10:21,Daniel Edwards,07400 123456,{LINE},Failed\n"
        f"2026-09-30T08:10:21,Matt Brooks,07812 345678,{LINE},Failed\n",
        encoding="utf-8",
    )
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    rows = [(r.outcome, r.national, r.message) for r in store.rows()]
    store.close()
    assert [r[0] for r in rows] == ["invalid"] * 3, rows
    assert all(r[1] != "7174231319" for r in rows), rows
    assert "use --phone-code 44" in rows[0][2], rows[0][2]
    store, _ = stage_import(
        JobSettings(path, Scope.global_(), phone_code="44"), tmp_path / "jobs44", connection=None
    )
    rows = [(r.outcome, r.phone_code, r.national) for r in store.rows()]
    store.close()
    assert rows == [("", "44", "7911123456"), ("", "44", "7400123456"), ("", "44", "7812345678")]
