"""/dnc/insert, /dnc/update, /dnc/search, /dnc/delete."""

from __future__ import annotations

import sqlite3
from typing import Any

from app.sandbox import opt_out_queries as q
from app.sandbox.endpoints import Endpoint, read, write
from app.sandbox.errors import conflict, invalid, not_found
from app.sandbox.params import Params, is_int, now_timestamp
from app.sandbox.store import Store
from app.sandbox.validation import (
    ANY_PHONE,
    GLOBAL_SCOPE,
    PHONE_FORMATS,
    PURPOSE_SCOPE,
    check_length,
    is_phone_code,
    is_phone_number,
    is_searchable_phone,
    parse_scope,
)

SEARCH_DEFAULT_LIMIT = 100
SEARCH_MAX_LIMIT = 1000
SEARCH_MAX_OFFSET = 100_000

ALREADY_IN_DNC = "Phone number already in DNC"


def entry(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": str(row["id"]),
        "phone_number": row["phone_number"],
        "phone_code": row["phone_code"],
        "campaign_id": str(row["campaign_id"]),
        "campaign_uid": row["campaign_uid"],
        "campaign_name": row["campaign_name"],
        "insert_date": row["insert_date"],
        "reason": row["reason"],
        "purpose": row["purpose"],
    }


@write("/dnc/insert")
def insert(params: Params, store: Store) -> dict[str, Any]:
    phone_number = params.get("phone_number")
    phone_code = params.get("phone_code")
    if not is_phone_number(phone_number) or not is_phone_code(phone_code):
        raise invalid("Invalid phone number", 6006)
    assert phone_number is not None and phone_code is not None
    scope = parse_scope(store, params.get("campaign_id"), invalid("Invalid campaign id", 6026))
    reason = check_length(params.get("reason"), invalid("Invalid reason", 6057))
    purpose = check_length(params.get("purpose"), invalid("Invalid purpose", 6058))
    if scope == PURPOSE_SCOPE and not purpose:
        raise invalid("Purpose is required for purpose-type DNC entries", 6058)
    with store.transaction() as conn:
        if q.find_duplicate(store, "dnc", phone_number, phone_code, scope, purpose) is not None:
            raise conflict(ALREADY_IN_DNC, 6008)
        cursor = conn.execute(
            "INSERT INTO dnc(phone_number, phone_code, campaign_id, reason, purpose, insert_date)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (phone_number, phone_code, scope, reason, purpose, now_timestamp()),
        )
    return {"success": True, "id": int(cursor.lastrowid or 0)}


@write("/dnc/update")
def update(params: Params, store: Store) -> dict[str, Any]:
    entry_id = params.get("id")
    row = None
    if entry_id is not None and is_int(entry_id):
        row = store.one("SELECT * FROM dnc WHERE id = ?", (int(entry_id),))
    if row is None:
        raise not_found("DNC id not found", 6056)
    phone_number = params.get("phone_number") or row["phone_number"]
    phone_code = params.get("phone_code") or row["phone_code"]
    if not is_phone_number(phone_number) or not is_phone_code(phone_code):
        raise invalid("Invalid phone number format", 6004)
    scope = row["campaign_id"]
    if params.get("campaign_id") is not None:
        scope = parse_scope(store, params.get("campaign_id"), invalid("Invalid campaign id", 6026))
    # The spec makes a blank reason clear the stored one; an absent reason leaves it alone.
    reason = row["reason"]
    if params.present("reason"):
        reason = check_length(params.get("reason"), invalid("Invalid reason code", 6057))
    purpose = check_length(
        params.get("purpose") or row["purpose"], invalid("Invalid purpose value", 6058)
    )
    if scope == PURPOSE_SCOPE and not purpose:
        raise invalid("Purpose is required for purpose-type DNC entries", 6058)
    with store.transaction() as conn:
        clash = q.find_duplicate(store, "dnc", phone_number, phone_code, scope, purpose, row["id"])
        if clash is not None:
            raise conflict(ALREADY_IN_DNC, 6008)
        conn.execute(
            "UPDATE dnc SET phone_number = ?, phone_code = ?, campaign_id = ?, reason = ?,"
            " purpose = ? WHERE id = ?",
            (phone_number, phone_code, scope, reason, purpose, row["id"]),
        )
    return {"success": True, "id": int(row["id"])}


def searching(insert_dates: str = q.DAY, phone_format: str = ANY_PHONE) -> Endpoint:
    """/dnc/search whose insert_date matches as ``insert_dates`` says (q.INSERT_DATE_MODES)
    and whose phone_number is read as ``phone_format`` says (validation.PHONE_FORMATS)."""
    if insert_dates not in q.INSERT_DATE_MODES:
        raise ValueError(f"insert_date matching must be one of {', '.join(q.INSERT_DATE_MODES)}")
    if phone_format not in PHONE_FORMATS:
        raise ValueError(f"phone_number format must be one of {', '.join(PHONE_FORMATS)}")

    def search(params: Params, store: Store) -> dict[str, Any]:
        return _search(params, store, insert_dates, phone_format)

    return read("/dnc/search")(search)


def _search(
    params: Params, store: Store, insert_dates: str, phone_format: str = ANY_PHONE
) -> dict[str, Any]:
    bad_parameter = invalid("Invalid parameter", 6008)
    offset = params.int_or_default("offset", 0, bad_parameter)
    limit = params.int_or_default("limit", SEARCH_DEFAULT_LIMIT, bad_parameter)
    if not 0 <= offset <= SEARCH_MAX_OFFSET or not 0 <= limit <= SEARCH_MAX_LIMIT:
        raise bad_parameter
    filters = q.Filters()
    if (entry_id := params.get("id")) is not None:
        if not is_int(entry_id):
            raise bad_parameter
        filters.add("t.id = ?", int(entry_id))
    if params.get("campaign_id") is not None:
        scope = parse_scope(store, params.get("campaign_id"), invalid("Invalid campaign id", 6026))
        filters.add("t.campaign_id = ?", scope)
    if (phone_number := params.get("phone_number")) is not None:
        if not is_searchable_phone(phone_number, phone_format):
            raise invalid("Invalid phone format", 6006)
        filters.add("t.phone_number = ?", phone_number)
    if (phone_code := params.get("phone_code")) is not None:
        if not is_phone_code(phone_code):
            raise bad_parameter
        filters.add("t.phone_code = ?", phone_code)
    q.insert_date_filter(filters, params, bad_parameter, insert_dates)
    q.reason_filter(filters, params, invalid("Invalid reason filter", 6057))
    if (purpose := params.get("purpose")) is not None:
        filters.add("t.purpose = ?", check_length(purpose, invalid("Invalid purpose filter", 6058)))
    total, rows = q.search(store, "dnc", filters, offset, limit)
    return {
        "data": {
            "offset": offset,
            "limit": limit,
            "total": total,
            "entries": [entry(row) for row in rows],
        }
    }


@write("/dnc/delete")
def delete(params: Params, store: Store) -> dict[str, Any]:
    phone_number = params.get("phone_number")
    if not is_phone_number(phone_number):
        raise invalid("Invalid phone number", 6000)
    phone_code = params.get("phone_code")
    if not is_phone_code(phone_code):
        raise invalid("Invalid phone code", 6003)
    scope = parse_scope(store, params.get("campaign_id"), invalid("Invalid campaign id", 6002))
    lead_status = params.get("lead_status") if params.flag("update_lead_status") else None
    if lead_status is not None and not store.status_exists(lead_status):
        raise invalid("Invalid lead status", 6005)
    with store.transaction() as conn:
        deleted = conn.execute(
            "DELETE FROM dnc WHERE phone_number = ? AND phone_code = ? AND campaign_id = ?",
            (phone_number, phone_code, scope),
        ).rowcount
        if not deleted:
            raise not_found("Phone not found in DNC", 6001)
        if lead_status is not None:
            _set_lead_statuses(conn, str(phone_number), str(phone_code), scope, lead_status)
    return {"success": True}


def _set_lead_statuses(
    conn: sqlite3.Connection, phone_number: str, phone_code: str, scope: int, lead_status: str
) -> None:
    """Give every lead reachable on this number in this scope the new status.

    Lead numbers are stored as typed, so they are compared by their digits. A campaign-scope entry
    concerns that campaign's lists only; global and purpose entries concern every lead.
    """
    sql = (
        "UPDATE leads SET status = (SELECT status FROM lead_statuses WHERE status = ?),"
        " modified_at = ? WHERE (phone_code = ? OR phone_code = '')"
        " AND ? IN (digits_only(phone_number), digits_only(alt_phone_1), digits_only(alt_phone_2))"
    )
    args: list[Any] = [lead_status, now_timestamp(), phone_code, phone_number]
    if scope not in (GLOBAL_SCOPE, PURPOSE_SCOPE):
        sql += " AND list_id IN (SELECT id FROM lists WHERE campaign_id = ?)"
        args.append(scope)
    conn.execute(sql, args)


search = searching()

ENDPOINTS: list[Endpoint] = [insert, update, search, delete]
