"""/lists/insert, /lists/update, /lists/search."""

from __future__ import annotations

import sqlite3
from typing import Any

from app.sandbox.endpoints import Endpoint, read, write
from app.sandbox.errors import conflict, invalid, not_found
from app.sandbox.params import Params, is_int
from app.sandbox.store import Store
from app.sandbox.validation import MAX_TEXT, parse_campaign

MIN_NAME = 10
MAX_UPDATE_NAME = 30
BAD_STATUS = "Invalid list status; must be 0 or 1"


def list_record(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": str(row["id"]),
        "name": row["name"],
        "status": "Y" if row["status"] else "N",
        "last_called_at": row["last_called_at"],
        "description": row["description"],
        "campaign_id": str(row["campaign_id"]),
    }


def _status(params: Params, default: int | None) -> int | None:
    value = params.get("status")
    if value is None:
        return default
    if value not in ("0", "1"):
        raise invalid(BAD_STATUS)
    return int(value)


def _name_taken(store: Store, name: str, exclude_id: int = -1) -> bool:
    row = store.one("SELECT 1 FROM lists WHERE name = ? AND id <> ?", (name, exclude_id))
    return row is not None


@write("/lists/insert")
def insert(params: Params, store: Store) -> dict[str, Any]:
    name = params.get("name")
    if name is None:
        raise invalid("List requires a name", 6003)
    if len(name) < MIN_NAME:
        raise invalid(f"List name must be at least {MIN_NAME} characters", 6046)
    campaign_id = parse_campaign(
        store, params.get("campaign_id"), not_found("Unknown campaign id", 6004)
    )
    description = params.get("description") or ""
    if len(description) > MAX_TEXT:
        raise invalid(f"List description must be at most {MAX_TEXT} characters")
    status = _status(params, 1)
    with store.transaction() as conn:
        if _name_taken(store, name):
            raise conflict("List name is not unique", 6081)
        cursor = conn.execute(
            "INSERT INTO lists(name, campaign_id, status, description) VALUES (?, ?, ?, ?)",
            (name, campaign_id, status, description),
        )
    list_id = str(cursor.lastrowid)
    return {"success": True, "data": {"list_id": list_id}, "id": list_id}


@write("/lists/update")
def update(params: Params, store: Store) -> dict[str, Any]:
    list_id = params.get("list_id")
    row = None
    if list_id is not None and is_int(list_id):
        row = store.one("SELECT * FROM lists WHERE id = ?", (int(list_id),))
    if row is None:
        raise not_found("No such list", 6002)
    changes: dict[str, Any] = {}
    if (name := params.get("name")) is not None:
        if not MIN_NAME <= len(name) <= MAX_UPDATE_NAME:
            raise invalid(f"List name must be {MIN_NAME}-{MAX_UPDATE_NAME} characters", 6046)
        changes["name"] = name
    if params.get("campaign_id") is not None:
        changes["campaign_id"] = parse_campaign(
            store, params.get("campaign_id"), not_found("Unknown campaign id", 6004)
        )
    if (status := _status(params, None)) is not None:
        changes["status"] = status
    with store.transaction() as conn:
        if "name" in changes and _name_taken(store, changes["name"], row["id"]):
            raise conflict("List name is not unique", 6081)
        if changes:
            assignments = ", ".join(f"{column} = ?" for column in changes)
            conn.execute(
                f"UPDATE lists SET {assignments} WHERE id = ?", (*changes.values(), row["id"])
            )
    return {"success": True, "data": {"list_id": str(row["id"])}}


@read("/lists/search")
def search(params: Params, store: Store) -> dict[str, Any]:
    status = _status(params, None)
    if status is None:
        raise invalid(BAD_STATUS)
    sql = "SELECT * FROM lists WHERE status = ?"
    args: list[Any] = [status]
    if (list_id := params.get("id")) is not None:
        exists = is_int(list_id) and store.one("SELECT 1 FROM lists WHERE id = ?", (int(list_id),))
        if not exists:
            raise not_found("No such list", 6002)
        sql += " AND id = ?"
        args.append(int(list_id))
    if (campaign_id := params.get("campaign_id")) is not None:
        sql += " AND campaign_id = ?"
        args.append(int(campaign_id) if is_int(campaign_id) else None)
    rows = store.all(sql + " ORDER BY id", args)
    return {"data": [list_record(row) for row in rows]}


ENDPOINTS: list[Endpoint] = [insert, update, search]
