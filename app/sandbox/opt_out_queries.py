"""Queries shared by DNC entries and SMS opt-outs, which have the same shape and scope rules."""

from __future__ import annotations

import sqlite3
from typing import Any

from app.sandbox.errors import ApiError
from app.sandbox.params import Params, day_of
from app.sandbox.store import Store
from app.sandbox.validation import PURPOSE_SCOPE

BLANK = "-BLANK-"
NOT_BLANK = "-NOTBLANK-"

# How a search's insert_date matches. The spec gives /sms-opt-out/search a day (YYYY-MM-DD)
# and /dnc/search a moment (YYYY-MM-DD hh:mm:ss): DAY takes the day of either (what the
# sandbox always did, and a lenient service does); MOMENT matches the exact moment, a bare date
# being its midnight (as MySQL compares '2023-06-10' with a DATETIME); STRICT refuses a bare
# date. The last two are services a client must not trust with a day filter.
DAY = "day"
MOMENT = "moment"
STRICT = "strict"
INSERT_DATE_MODES = (DAY, MOMENT, STRICT)


class Filters:
    """WHERE clauses and their arguments, combined with AND."""

    def __init__(self) -> None:
        self.clauses: list[str] = []
        self.args: list[Any] = []

    def add(self, clause: str, *args: Any) -> None:
        self.clauses.append(clause)
        self.args.extend(args)

    def where(self) -> str:
        return (" WHERE " + " AND ".join(self.clauses)) if self.clauses else ""


def reason_filter(filters: Filters, params: Params, error: ApiError) -> None:
    value = params.get("reason")
    if value is None:
        return
    if value == BLANK:
        filters.add("t.reason = ''")
    elif value == NOT_BLANK:
        filters.add("t.reason <> ''")
    else:
        raise error


def insert_date_filter(
    filters: Filters, params: Params, error: ApiError, matches: str = DAY
) -> None:
    """``matches``: one of :data:`INSERT_DATE_MODES`."""
    value = params.get("insert_date")
    if value is None:
        return
    day = day_of(value)
    if day is None:
        raise error
    if matches == DAY:
        filters.add("substr(t.insert_date, 1, 10) = ?", day)
        return
    bare = len(value) == len(day)
    if bare and matches == STRICT:
        raise error
    filters.add("t.insert_date = ?", f"{day} 00:00:00" if bare else value)


def search(
    store: Store, table: str, filters: Filters, offset: int, limit: int
) -> tuple[int, list[sqlite3.Row]]:
    """The full match count and one page in id order (stable paging)."""
    where = filters.where()
    with store.lock:
        total = int(store.scalar(f"SELECT count(*) FROM {table} t{where}", filters.args))
        rows = store.all(
            "SELECT t.*, coalesce(c.name, '') AS campaign_name,"
            " coalesce(c.uid, '') AS campaign_uid "
            f"FROM {table} t LEFT JOIN campaigns c ON c.id = t.campaign_id AND t.campaign_id > 0"
            f"{where} ORDER BY t.id LIMIT ? OFFSET ?",
            [*filters.args, limit, offset],
        )
    return total, rows


def find_duplicate(
    store: Store,
    table: str,
    phone_number: str,
    phone_code: str,
    campaign_id: int,
    purpose: str,
    exclude_id: int | None = None,
) -> int | None:
    """The id of the entry that would collide with these values, if any."""
    sql = (
        f"SELECT id FROM {table} WHERE phone_number = ? AND phone_code = ? AND campaign_id = ?"
        " AND id <> ?"
    )
    args: list[Any] = [
        phone_number,
        phone_code,
        campaign_id,
        -1 if exclude_id is None else exclude_id,
    ]
    if campaign_id == PURPOSE_SCOPE:
        sql += " AND purpose = ?"
        args.append(purpose)
    row = store.one(sql, args)
    return None if row is None else int(row["id"])
