"""/leads/search, /leads/insert, /leads/update, /leads/delete."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from app.sandbox.endpoints import Endpoint, read, write
from app.sandbox.errors import conflict, invalid, not_found
from app.sandbox.params import Params, day_of, is_int, now_timestamp
from app.sandbox.store import Store, digits_only
from app.sandbox.validation import GLOBAL_SCOPE, is_lead_phone, is_phone_code

SEARCH_DEFAULT_LIMIT = 10
SEARCH_MAX_LIMIT = 2000

# Columns returned for each lead, in the spec's Lead order, then the other writable fields.
LEAD_FIELDS = (
    "id", "created_at", "modified_at", "first_name", "last_name", "email", "status", "owner_id",
    "source_id", "list_id", "phone_number", "alt_phone_1", "alt_phone_2", "address1", "address2",
    "city", "state", "postal_code", "country", "gender", "date_of_birth", "carrier_name",
    "carrier_type", "phone_code", "province", "created_by", "last_modified_by", "std_company_name",
    "std_consumer_number", "std_account_number", "notes", "monthly_revenue", "annual_revenue",
    "title", "business_name", "dba", "industry", "start_date",
)  # fmt: skip

# Plain text fields a client may set; list, phones, status and email have their own rules.
_TEXT_FIELDS = (
    "first_name", "last_name", "address1", "address2", "city", "state", "province",
    "postal_code", "country", "gender", "owner_id", "created_by", "last_modified_by",
    "std_company_name", "std_consumer_number", "std_account_number", "notes", "title",
    "business_name", "dba", "industry",
)  # fmt: skip
_UPDATE_TEXT_FIELDS = (
    "first_name", "last_name", "address1", "address2", "city", "state", "postal_code", "country",
    "std_company_name", "std_consumer_number", "std_account_number", "notes", "title",
    "business_name", "dba", "industry",
)  # fmt: skip
_EXACT_FILTERS = (
    "list_id", "owner_id", "status", "created_by", "email", "last_modified_by", "first_name",
    "last_name", "phone_number", "alt_phone_1", "alt_phone_2", "address1", "address2", "city",
    "state", "province", "postal_code", "country", "gender", "date_of_birth", "std_company_name",
    "std_consumer_number", "std_account_number",
)  # fmt: skip
_RANGE_FILTERS = {
    "created_at_start_date": ("created_at", ">="),
    "created_at_end_date": ("created_at", "<="),
    "updated_at_start_date": ("modified_at", ">="),
    "updated_at_end_date": ("modified_at", "<="),
    "changed_at_start_date": ("modified_at", ">="),
    "changed_at_end_date": ("modified_at", "<="),
}
# The sandbox keeps no deleted or archived leads and no call history, so these ranges can only
# ever match nothing; they are honoured as such rather than ignored.
_NEVER_MATCHING_FILTERS = (
    "deleted_at_start", "deleted_at_end", "archived_at_start", "archived_at_end",
    "last_call_start_date", "last_call_end_date",
)  # fmt: skip

_EMAIL_RE = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_NUMBER_RE = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def lead_record(row: sqlite3.Row) -> dict[str, Any]:
    return {field: str(row[field]) for field in LEAD_FIELDS}


def _optional_fields(params: Params, text_fields: tuple[str, ...]) -> dict[str, str]:
    """Validated column values for the writable fields present in the request."""
    values: dict[str, str] = {}
    for field in text_fields:
        if (value := params.get(field)) is not None:
            values[field] = value
    for field in ("alt_phone_1", "alt_phone_2"):
        if (value := params.get(field)) is not None:
            if not is_lead_phone(value):
                raise invalid(f"Invalid {field}")
            values[field] = value
    if (phone_code := params.get("phone_code")) is not None:
        if not is_phone_code(phone_code):
            raise invalid("Invalid phone code")
        values["phone_code"] = phone_code
    for field in ("monthly_revenue", "annual_revenue"):
        if (value := params.get(field)) is not None:
            if not _NUMBER_RE.fullmatch(value):
                raise invalid(f"{field} must be a number")
            values[field] = value
    for field in ("date_of_birth", "start_date"):
        if (value := params.get(field)) is not None:
            if day_of(value) != value:
                raise invalid(f"{field} must be YYYY-MM-DD")
            values[field] = value
    return values


def _status(params: Params, store: Store) -> str | None:
    status = params.get("status")
    if status is not None and not store.status_exists(status):
        raise invalid("Unknown lead status")
    return status


def _check_bounded(params: Params, name: str, low: int, high: int) -> int:
    value = params.get(name)
    if value is None:
        return low
    if not is_int(value) or not low <= int(value) <= high:
        raise invalid(f"{name} must be an integer from {low} to {high}")
    return int(value)


def _find_existing(
    store: Store, phone_number: str, list_id: int, campaign_id: int | None
) -> int | None:
    """The most recently modified lead with this number in the given list or campaign (or any
    list when both are None)."""
    sql = "SELECT id FROM leads WHERE digits_only(phone_number) = ?"
    args: list[Any] = [digits_only(phone_number)]
    if list_id:
        sql += " AND list_id = ?"
        args.append(list_id)
    elif campaign_id is not None:
        sql += " AND list_id IN (SELECT id FROM lists WHERE campaign_id = ?)"
        args.append(campaign_id)
    row = store.one(sql + " ORDER BY modified_at DESC, id DESC LIMIT 1", args)
    return None if row is None else int(row["id"])


def _in_dnc(store: Store, phone_number: str, phone_code: str, list_id: int) -> bool:
    """Whether a global entry or one of the list's campaign holds this number.

    A DNC entry is a number under its phone code, so a lead with a code matches entries under
    that code only: +44 2025550911 is another line than +1 2025550911, and refusing it would
    keep a lawful lead off the list. A lead sent without a code may be either, so it matches the
    number under any code, as /dnc/delete's new lead statuses do: when in doubt, do not call.
    """
    row = store.one(
        "SELECT 1 FROM dnc WHERE phone_number = ? AND (? = '' OR phone_code = ?) AND"
        " (campaign_id = ? OR campaign_id = (SELECT campaign_id FROM lists WHERE id = ?)) LIMIT 1",
        (digits_only(phone_number), phone_code, phone_code, GLOBAL_SCOPE, list_id),
    )
    return row is not None


@write("/leads/insert")
def insert(params: Params, store: Store) -> dict[str, Any]:
    """Insert a lead, or update the matching one when ``update_if_found`` is true.

    Hopper, wireless, archive and third-party options are accepted but have no effect: the
    sandbox has no dialer queue, carrier lookup or archive.
    """
    list_id_text = params.get("list_id")
    phone_number = params.get("phone_number")
    if list_id_text is None or phone_number is None:
        raise invalid("Lead requires a phone number and list id", 6007)
    list_id = int(list_id_text) if is_int(list_id_text) else 0
    if not store.one("SELECT 1 FROM lists WHERE id = ?", (list_id,)):
        raise not_found("No such list", 6002)
    if not is_lead_phone(phone_number):
        raise invalid("Phone number invalid", 6008)
    email = params.get("email")
    if email is not None and not _EMAIL_RE.fullmatch(email):
        raise invalid("Invalid email", 6079)
    check_dup = _check_bounded(params, "check_dup", 0, 4)
    _check_bounded(params, "hopper_priority", 0, 99)
    _check_bounded(params, "hopper_expires_in", 0, 300)
    values = _optional_fields(params, _TEXT_FIELDS)
    values["phone_number"] = phone_number
    values["list_id"] = str(list_id)
    if email is not None:
        values["email"] = email
    if (status := _status(params, store)) is not None:
        values["status"] = status
    phone_code = values.get("phone_code", "")
    if params.flag("check_dnc") and _in_dnc(store, phone_number, phone_code, list_id):
        raise conflict("Phone number is in the DNC list")
    now = now_timestamp()
    with store.transaction() as conn:
        if params.flag("update_if_found"):
            search_list = params.get("search_list_id")
            search_campaign = params.get("search_campaign_id")
            found = _find_existing(
                store,
                phone_number,
                int(search_list) if search_list and is_int(search_list) else 0,
                int(search_campaign) if search_campaign and is_int(search_campaign) else None,
            )
            if found is not None:
                _apply(conn, found, values, now)
                return {"success": True, "data": {"lead_id": str(found)}, "id": str(found)}
        if check_dup:
            duplicate = _find_existing(store, phone_number, list_id if check_dup == 1 else 0, None)
            if duplicate is not None:
                raise conflict("Phone number already exists", 6009)
        columns = ["created_at", "modified_at", *values]
        cursor = conn.execute(
            f"INSERT INTO leads({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            (now, now, *values.values()),
        )
    lead_id = str(cursor.lastrowid)
    return {"success": True, "data": {"lead_id": lead_id}, "id": lead_id}


def _apply(conn: sqlite3.Connection, lead_id: int, values: dict[str, str], now: str) -> None:
    assignments = ", ".join(f"{column} = ?" for column in values)
    conn.execute(
        f"UPDATE leads SET {assignments}, modified_at = ? WHERE id = ?",
        (*values.values(), now, lead_id),
    )


def _existing_lead(params: Params, store: Store, invalid_code: int, missing_code: int) -> int:
    lead_id = params.get("lead_id")
    if lead_id is None or not is_int(lead_id) or int(lead_id) <= 0:
        raise invalid("Invalid lead id", invalid_code)
    if store.one("SELECT 1 FROM leads WHERE id = ?", (int(lead_id),)) is None:
        raise not_found("Lead not found", missing_code)
    return int(lead_id)


@write("/leads/update")
def update(params: Params, store: Store) -> dict[str, Any]:
    lead_id = _existing_lead(params, store, 6070, 6071)
    values = _optional_fields(params, _UPDATE_TEXT_FIELDS)
    if (list_id := params.get("list_id")) is not None:
        if not is_int(list_id) or not store.one("SELECT 1 FROM lists WHERE id = ?", (list_id,)):
            raise not_found("No such list")
        values["list_id"] = list_id
    if (phone_number := params.get("phone_number")) is not None:
        if not is_lead_phone(phone_number):
            raise invalid("Phone number invalid")
        values["phone_number"] = phone_number
    if (email := params.get("email")) is not None:
        if not _EMAIL_RE.fullmatch(email):
            raise invalid("Invalid email")
        values["email"] = email
    if (status := _status(params, store)) is not None:
        values["status"] = status
    if values:
        with store.transaction() as conn:
            _apply(conn, lead_id, values, now_timestamp())
    return {"success": True, "data": {"lead_id": str(lead_id)}}


@write("/leads/delete")
def delete(params: Params, store: Store) -> dict[str, Any]:
    lead_id = _existing_lead(params, store, 6001, 6001)
    store.execute("DELETE FROM leads WHERE id = ?", (lead_id,))
    return {"success": True}


def _range_bound(value: str, operator: str) -> str:
    day = day_of(value)
    if day is None:
        raise invalid("Invalid date; expected YYYY-MM-DD or YYYY-MM-DD hh:mm:ss")
    if day != value:
        return value
    return day if operator == ">=" else day + " 23:59:59"


@read("/leads/search")
def search(params: Params, store: Store) -> dict[str, Any]:
    limit = params.int_or_default("limit", SEARCH_DEFAULT_LIMIT, invalid("Invalid limit", 7258))
    if not 1 <= limit <= SEARCH_MAX_LIMIT:
        raise invalid("Invalid limit", 7258)
    offset = params.int_or_default("offset", 0, invalid("Invalid offset", 7231))
    if offset < 0:
        raise invalid("Invalid offset", 7231)
    clauses: list[str] = []
    args: list[Any] = []
    if (lead_id := params.get("lead_id")) is not None:
        clauses.append("id = ?")
        args.append(int(lead_id) if is_int(lead_id) else None)
    if (user_id := params.get("user_id")) is not None:
        # Leads carry no separate agent field; the user a lead belongs to is its owner.
        clauses.append("owner_id = ?")
        args.append(user_id)
    for field in _EXACT_FILTERS:
        if (value := params.get(field)) is not None:
            clauses.append(f"{field} = ?")
            args.append(value)
    for name, (column, operator) in _RANGE_FILTERS.items():
        if (value := params.get(name)) is not None:
            clauses.append(f"{column} {operator} ?")
            args.append(_range_bound(value, operator))
    if any(params.get(name) is not None for name in _NEVER_MATCHING_FILTERS):
        clauses.append("0")
    where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
    rows = store.all(
        f"SELECT * FROM leads{where} ORDER BY id LIMIT ? OFFSET ?", [*args, limit, offset]
    )
    if not rows:
        return {"success": True, "results": []}
    return {"results": [lead_record(row) for row in rows], "offset": offset, "limit": limit}


ENDPOINTS: list[Endpoint] = [search, insert, update, delete]
