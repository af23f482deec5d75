"""The sandbox's failure type, mapped one-to-one onto the spec's failure envelope."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A request failure answered as ``{"success": false, "error": message[, "code": code]}``.

    ``code`` is the spec's endpoint-scoped number, or ``None`` for the failures the spec lists as
    message-only. ``http_status`` is the sandbox's choice (the spec does not state one); clients
    are expected to decode the envelope whatever the status.
    """

    def __init__(
        self,
        message: str,
        code: int | None = None,
        http_status: int = 400,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.http_status = http_status
        self.headers = headers or {}

    def envelope(self) -> dict[str, Any]:
        body: dict[str, Any] = {"success": False, "error": self.message}
        if self.code is not None:
            body["code"] = self.code
        return body


def invalid(message: str, code: int | None = None) -> ApiError:
    return ApiError(message, code, 400)


def not_found(message: str, code: int | None = None) -> ApiError:
    return ApiError(message, code, 404)


def conflict(message: str, code: int | None = None) -> ApiError:
    return ApiError(message, code, 409)
