"""/sms-opt-out/insert, /sms-opt-out/update, /sms-opt-out/search.

Note the spec swaps 6057/6058 relative to /dnc: here 6057 is the purpose and 6058 the reason.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from app.sandbox import opt_out_queries as q
from app.sandbox.endpoints import Endpoint, read, write
from app.sandbox.errors import ApiError, conflict, invalid, not_found
from app.sandbox.params import Params, is_int, now_timestamp
from app.sandbox.store import Store
from app.sandbox.validation import (
    PURPOSE_SCOPE,
    check_length,
    is_phone_code,
    is_phone_number,
    parse_scope,
)

SEARCH_DEFAULT_LIMIT = 1000
SEARCH_MAX_LIMIT = 1000
SEARCH_MAX_OFFSET = 100_000

PURPOSE_REQUIRED = "Purpose is mandatory for campaigns of type Purpose"


def record(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": str(row["id"]),
        "phone_number": row["phone_number"],
        "phone_code": row["phone_code"],
        "reason": row["reason"],
        "purpose": row["purpose"],
        "insert_date": row["insert_date"],
        "campaign_id": str(row["campaign_id"]),
        "campaign_name": row["campaign_name"],
    }


def _invalid_purpose() -> ApiError:
    return invalid("Invalid purpose", 6057)


def _invalid_reason() -> ApiError:
    return invalid("Invalid reason", 6058)


@write("/sms-opt-out/insert")
def insert(params: Params, store: Store) -> dict[str, Any]:
    scope = parse_scope(store, params.get("campaign_id"), invalid("Invalid campaign id", 6006))
    phone_number = params.get("phone_number")
    if not is_phone_number(phone_number):
        raise invalid("Invalid phone number", 6007)
    phone_code = params.get("phone_code")
    if not is_phone_code(phone_code):
        raise invalid("Missing or invalid country code", 6026)
    assert phone_number is not None and phone_code is not None
    reason = check_length(params.get("reason"), _invalid_reason())
    purpose = check_length(params.get("purpose"), _invalid_purpose())
    if scope == PURPOSE_SCOPE and not purpose:
        raise invalid(PURPOSE_REQUIRED, 6080)
    with store.transaction() as conn:
        if (
            q.find_duplicate(store, "sms_opt_out", phone_number, phone_code, scope, purpose)
            is not None
        ):
            raise conflict("Phone number already exists", 6008)
        conn.execute(
            "INSERT INTO sms_opt_out(phone_number, phone_code, campaign_id, reason, purpose,"
            " insert_date) VALUES (?, ?, ?, ?, ?, ?)",
            (phone_number, phone_code, scope, reason, purpose, now_timestamp()),
        )
    return {"success": True}


def _cleared_or_kept(params: Params, name: str, current: str, error: ApiError) -> str:
    """``-BLANK-`` clears the value, an absent or blank one keeps it."""
    value = params.get(name)
    if value is None:
        return current
    if value == q.BLANK:
        return ""
    return check_length(value, error)


@write("/sms-opt-out/update")
def update(params: Params, store: Store) -> dict[str, Any]:
    record_id = params.get("id")
    if record_id is None or not is_int(record_id):
        raise invalid("Missing or invalid id", 6056)
    required = ("phone_number", "phone_code", "campaign_id")
    missing = [name for name in required if params.get(name) is None]
    if missing:
        raise invalid(f"Missing required field(s): {', '.join(missing)}", 4001)
    phone_number, phone_code, campaign = (str(params.get(name)) for name in required)
    not_numeric = [
        name
        for name, value in zip(required, (phone_number, phone_code, campaign), strict=True)
        if not is_int(value)
    ]
    if not_numeric:
        raise invalid(f"Field(s) must be numeric: {', '.join(not_numeric)}", 4002)
    row = store.one("SELECT * FROM sms_opt_out WHERE id = ?", (int(record_id),))
    if row is None:
        raise not_found("Missing or invalid id", 6056)
    if not is_phone_number(phone_number):
        raise invalid("Phone number invalid", 6008)
    if not is_phone_code(phone_code):
        raise invalid("Missing or invalid country code", 6026)
    scope = parse_scope(store, campaign, not_found("Unknown campaign id", 6004))
    reason = _cleared_or_kept(params, "reason", row["reason"], _invalid_reason())
    purpose = _cleared_or_kept(params, "purpose", row["purpose"], _invalid_purpose())
    if scope == PURPOSE_SCOPE and not purpose:
        raise invalid(PURPOSE_REQUIRED, 6080)
    with store.transaction() as conn:
        clash = q.find_duplicate(
            store, "sms_opt_out", phone_number, phone_code, scope, purpose, row["id"]
        )
        if clash is not None:
            raise conflict("Combination already exists", 6059)
        conn.execute(
            "UPDATE sms_opt_out SET phone_number = ?, phone_code = ?, campaign_id = ?,"
            " reason = ?, purpose = ? WHERE id = ?",
            (phone_number, phone_code, scope, reason, purpose, row["id"]),
        )
    return {"success": True, "data": {"id": str(row["id"])}}


@read("/sms-opt-out/search")
def search(params: Params, store: Store) -> dict[str, Any]:
    bad_paging = invalid("Invalid offset", 7231)
    offset = params.int_or_default("offset", 0, bad_paging)
    limit = params.int_or_default("limit", SEARCH_DEFAULT_LIMIT, bad_paging)
    if not 0 <= offset <= SEARCH_MAX_OFFSET or not 0 <= limit <= SEARCH_MAX_LIMIT:
        raise bad_paging
    filters = q.Filters()
    if (record_id := params.get("id")) is not None:
        # An id that cannot exist simply matches nothing: lookups are not errors.
        filters.add("t.id = ?", int(record_id) if is_int(record_id) else -1)
    if params.get("campaign_id") is not None:
        scope = parse_scope(store, params.get("campaign_id"), invalid("Invalid campaign id", 6006))
        filters.add("t.campaign_id = ?", scope)
    if (phone_number := params.get("phone_number")) is not None:
        filters.add("t.phone_number = ?", phone_number)
    if (phone_code := params.get("phone_code")) is not None:
        if not is_phone_code(phone_code):
            raise invalid("Missing or invalid country code", 6026)
        filters.add("t.phone_code = ?", phone_code)
    if (purpose := params.get("purpose")) is not None:
        filters.add("t.purpose = ?", check_length(purpose, _invalid_purpose()))
    q.reason_filter(filters, params, _invalid_reason())
    q.insert_date_filter(filters, params, invalid("Invalid insert_date; expected YYYY-MM-DD"))
    total, rows = q.search(store, "sms_opt_out", filters, offset, limit)
    return {
        "success": True,
        "offset": offset,
        "limit": limit,
        "total": total,
        "records": [record(row) for row in rows],
    }


ENDPOINTS: list[Endpoint] = [insert, update, search]
