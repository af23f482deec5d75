"""/campaigns/search and /campaigns/status. Campaigns are created only by the sandbox operator
(``SandboxServer.seed_campaign``): the API has no endpoint for it."""

from __future__ import annotations

from typing import Any

from app.sandbox.auth import Access
from app.sandbox.endpoints import Endpoint, read, write
from app.sandbox.errors import invalid, not_found
from app.sandbox.params import Params
from app.sandbox.store import Store
from app.sandbox.validation import parse_campaign

# PHP's DateTime serialisation: type 3 means the zone is given by its tz database name.
TIMEZONE_TYPE_NAMED = 3


@read("/campaigns/search")
def search(params: Params, store: Store) -> dict[str, Any]:
    rows = store.all("SELECT * FROM campaigns ORDER BY id")
    return {
        "data": [
            {
                "id": str(row["id"]),
                "name": row["name"],
                "status": row["status"],
                "last_call_date": {
                    "date": row["last_call_date"],
                    "timezone_type": TIMEZONE_TYPE_NAMED,
                    "timezone": row["timezone"],
                },
            }
            for row in rows
        ]
    }


@write("/campaigns/status", Access.CAMPAIGN_MANAGEMENT)
def status(params: Params, store: Store) -> dict[str, Any]:
    campaign_id = parse_campaign(
        store, params.get("campaign_id"), not_found("Invalid campaign id", 6026)
    )
    value = (params.get("status") or "").lower()
    if value not in ("true", "false"):
        raise invalid("Invalid campaign status; must be true or false", 6080)
    store.execute(
        "UPDATE campaigns SET status = ? WHERE id = ?",
        ("Y" if value == "true" else "N", campaign_id),
    )
    return {"success": True}


ENDPOINTS: list[Endpoint] = [search, status]
