"""/status/search, /status/insert, /status/update (lead status definitions)."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from app.sandbox.endpoints import Endpoint, read, write
from app.sandbox.errors import conflict, invalid, not_found
from app.sandbox.params import Params
from app.sandbox.store import Store

# Order matters: the spec numbers the option codes in this order.
OPTIONS = ("final", "reached", "success", "dnc", "callback", "contact", "voicemail")
INSERT_OPTION_CODES = dict(zip(OPTIONS, range(6062, 6069), strict=True))
UPDATE_OPTION_CODES = dict(zip(OPTIONS, range(6071, 6078), strict=True))

DEFAULT_HEX_COLOR = "FFFFFF"
_CODE_RE = re.compile(r"[A-Za-z0-9]{2,6}")
_HEX_RE = re.compile(r"[0-9A-Fa-f]{6}")


def status_record(row: sqlite3.Row) -> dict[str, Any]:
    result: dict[str, Any] = {"status": row["status"], "name": row["name"]}
    result.update({option: row[option] for option in OPTIONS})
    result["workflow_disposition_event_option"] = row["workflow_disposition_event_option"]
    result["custom_status"] = bool(row["custom_status"])
    result["hex_color"] = "#" + row["hex_color"]
    return result


def _flag(value: str | None) -> str | None:
    """``Y``/``N`` (either case) normalised to upper case; None when absent or not a flag."""
    if value is None or value.upper() not in ("Y", "N"):
        return None
    return value.upper()


def _hex_color(params: Params) -> str | None:
    value = params.get("hex_color")
    if value is None:
        return None
    if not _HEX_RE.fullmatch(value):
        raise invalid("Invalid hex color; send six hex digits without #", 6078)
    return value.upper()


@read("/status/search")
def search(params: Params, store: Store) -> dict[str, Any]:
    query = params.get("query")
    if query is None:
        # The spec makes query required and lists no code for this endpoint: a message-only
        # failure, as its general rules give, so a client relying on blank = "all" fails here.
        raise invalid("Missing required parameter: query")
    query = query.lower()
    rows = store.all(
        "SELECT * FROM lead_statuses WHERE instr(lower(status), ?) > 0 OR instr(lower(name), ?) > 0"
        " ORDER BY custom_status, status",
        (query, query),
    )
    return {"data": [status_record(row) for row in rows]}


@write("/status/insert")
def insert(params: Params, store: Store) -> dict[str, Any]:
    name = params.get("name")
    if name is None:
        raise invalid("Missing status description", 6060)
    code = params.get("status")
    if code is None or not _CODE_RE.fullmatch(code):
        raise invalid("Missing or invalid abbreviation (alphanumeric, 2-6 characters)", 6061)
    flags: dict[str, str] = {}
    for option in OPTIONS:
        flag = _flag(params.get(option))
        if flag is None:
            raise invalid(f"Missing or invalid {option} option", INSERT_OPTION_CODES[option])
        flags[option] = flag
    hex_color = _hex_color(params) or DEFAULT_HEX_COLOR
    with store.transaction() as conn:
        if store.status_exists(code):
            raise conflict("Status already exists")
        conn.execute(
            "INSERT INTO lead_statuses(status, name, final, reached, success, dnc, callback,"
            " contact, voicemail, custom_status, hex_color) VALUES (?,?,?,?,?,?,?,?,?,1,?)",
            (code, name, *(flags[option] for option in OPTIONS), hex_color),
        )
    return {"success": True, "code": 200, "data": {"new": "1", "status": code}}


@write("/status/update")
def update(params: Params, store: Store) -> dict[str, Any]:
    code = params.get("status")
    if code is None or not _CODE_RE.fullmatch(code):
        raise invalid("Missing or invalid abbreviation", 6069)
    row = store.one("SELECT * FROM lead_statuses WHERE status = ?", (code,))
    if row is None:
        raise not_found("Status not found", 6069)
    if not row["custom_status"]:
        raise invalid("Only custom statuses can be modified", 6069)
    changes: dict[str, str] = {}
    for option in OPTIONS:
        if not params.present(option):
            continue
        flag = _flag(params.get(option))
        if flag is None:
            raise invalid(f"The {option} option cannot be empty", UPDATE_OPTION_CODES[option])
        changes[option] = flag
    if (hex_color := _hex_color(params)) is not None:
        changes["hex_color"] = hex_color
    if (name := params.get("name")) is not None:
        changes["name"] = name
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        store.execute(
            f"UPDATE lead_statuses SET {assignments} WHERE status = ?",
            (*changes.values(), row["status"]),
        )
    return {"success": True, "data": {"status": row["status"]}}


ENDPOINTS: list[Endpoint] = [search, insert, update]
