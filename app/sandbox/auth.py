"""Tokens the sandbox accepts and what each may do."""

from __future__ import annotations

import enum
import threading

from app.sandbox.errors import ApiError

# Messages, not secrets.
MISSING_TOKEN = "Missing authentication token"  # noqa: S105
INVALID_TOKEN = "Invalid or expired authentication token"  # noqa: S105
FORBIDDEN = "Insufficient permissions for this operation"


class Access(enum.Enum):
    """What an endpoint needs."""

    READ = "read"
    WRITE = "write"
    CAMPAIGN_MANAGEMENT = "campaign-management"


class Role(enum.Enum):
    """What a token may do: ``FULL`` everything, ``LIMITED`` all but campaign management,
    ``READ_ONLY`` the search endpoints only."""

    FULL = frozenset(Access)
    LIMITED = frozenset({Access.READ, Access.WRITE})
    READ_ONLY = frozenset({Access.READ})


class TokenRegistry:
    """Accepted tokens and their roles; revocation takes effect on the next request."""

    def __init__(self) -> None:
        self._roles: dict[str, Role] = {}
        self._lock = threading.Lock()

    def grant(self, token: str, role: Role) -> None:
        with self._lock:
            self._roles[token] = role

    def revoke(self, token: str) -> None:
        with self._lock:
            self._roles.pop(token, None)

    def authorize(self, token: str | None, access: Access) -> None:
        if not token:
            raise ApiError(MISSING_TOKEN, http_status=401)
        with self._lock:
            role = self._roles.get(token)
        if role is None:
            raise ApiError(INVALID_TOKEN, http_status=401)
        if access not in role.value:
            raise ApiError(FORBIDDEN, http_status=403)
