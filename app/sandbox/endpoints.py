"""Turns plain handler functions into Starlette routes with the spec's conventions.

A handler takes the request's parameters and the store and returns the success body; it signals
failure by raising :class:`~app.sandbox.errors.ApiError`. Everything common to all endpoints —
form and query parsing, authentication, permission, the failure envelope — lives here once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from app.sandbox.auth import Access, TokenRegistry
from app.sandbox.errors import ApiError, invalid
from app.sandbox.params import Params
from app.sandbox.store import Store

log = logging.getLogger(__name__)

Handler = Callable[[Params, Store], dict[str, Any]]


@dataclass(frozen=True)
class Endpoint:
    path: str
    handler: Handler
    access: Access


def read(path: str) -> Callable[[Handler], Endpoint]:
    return lambda handler: Endpoint(path, handler, Access.READ)


def write(path: str, access: Access = Access.WRITE) -> Callable[[Handler], Endpoint]:
    return lambda handler: Endpoint(path, handler, access)


def failure(error: ApiError) -> JSONResponse:
    return JSONResponse(error.envelope(), status_code=error.http_status, headers=error.headers)


async def request_params(request: Request) -> Params:
    """Query string first, then the form body, so a body field wins over a query parameter."""
    values: dict[str, str] = dict(request.query_params)
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("application/x-www-form-urlencoded"):
        # The stdlib parser is several times cheaper than the multipart machinery, and
        # url-encoded forms are what every client sends.
        body = await request.body()
        try:
            values.update(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
        except UnicodeDecodeError as error:
            raise invalid("Malformed request body") from error
        return Params(values)
    try:
        form = await request.form()
    except Exception as error:  # python-multipart and starlette raise several unrelated types
        raise invalid("Malformed request body") from error
    for key, value in form.multi_items():
        if isinstance(value, str):
            values[key] = value
    await form.close()
    return Params(values)


def route(endpoint: Endpoint, store: Store, tokens: TokenRegistry) -> Route:
    async def handle(request: Request) -> Response:
        try:
            params = await request_params(request)
            tokens.authorize(params.get("auth_token"), endpoint.access)
            return JSONResponse(endpoint.handler(params, store))
        except ApiError as error:
            return failure(error)
        except ClientDisconnect:
            # A client gave up (cancelled, killed, timed out) before its request was read:
            # nothing was done and no one is left to answer, so no traceback either.
            log.info("sandbox: the client hung up before its %s request was read", endpoint.path)
            return Response(status_code=499)
        except Exception:
            log.exception("sandbox handler for %s failed", endpoint.path)
            return failure(ApiError("Internal server error", http_status=500))

    return Route("/v1" + endpoint.path, handle, methods=["POST"], name=endpoint.path)
