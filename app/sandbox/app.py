"""The sandbox ASGI application: every endpoint route behind the fault injector."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp

from app.sandbox import (
    routes_campaigns,
    routes_dnc,
    routes_leads,
    routes_lists,
    routes_sms,
    routes_statuses,
)
from app.sandbox.auth import TokenRegistry
from app.sandbox.endpoints import Endpoint, failure, route
from app.sandbox.errors import ApiError
from app.sandbox.faults import FaultInjector, FaultSettings
from app.sandbox.opt_out_queries import DAY
from app.sandbox.store import Store
from app.sandbox.validation import ANY_PHONE

ENDPOINTS: list[Endpoint] = [
    *routes_dnc.ENDPOINTS,
    *routes_sms.ENDPOINTS,
    *routes_campaigns.ENDPOINTS,
    *routes_statuses.ENDPOINTS,
    *routes_leads.ENDPOINTS,
    *routes_lists.ENDPOINTS,
]


async def _http_error(request: Request, exc: Exception) -> Response:
    """Unknown paths (404) and wrong methods (405) in the failure envelope too."""
    assert isinstance(exc, HTTPException)
    response = failure(ApiError(str(exc.detail), http_status=exc.status_code))
    if exc.headers:
        response.headers.update(exc.headers)
    return response


def create_app(
    store: Store,
    tokens: TokenRegistry,
    faults: FaultSettings,
    seed: int = 1,
    dnc_insert_date: str = DAY,
    dnc_phone_format: str = ANY_PHONE,
) -> ASGIApp:
    """``dnc_insert_date``: how /dnc/search matches insert_date (opt_out_queries' modes);
    ``dnc_phone_format``: how it reads phone_number (validation.PHONE_FORMATS)."""
    dnc_search = routes_dnc.searching(dnc_insert_date, dnc_phone_format)
    endpoints = [dnc_search if e is routes_dnc.search else e for e in ENDPOINTS]
    api = Starlette(
        routes=[route(endpoint, store, tokens) for endpoint in endpoints],
        exception_handlers={HTTPException: _http_error},
    )
    return FaultInjector(api, faults, seed)
