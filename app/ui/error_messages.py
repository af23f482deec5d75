"""The one place that turns exceptions into what a person reads.

Views call :func:`user_message` with the action they attempted ("Search the DNC list",
"Add 202-555-0143") and show the result; validation errors carry the field so dialogs put
the text beside it, and token errors say whether re-entering the token would help.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.api import errors
from app.api.paging import Cancelled

FIELD_LABELS = {
    "phone_number": "Phone number",
    "phone_code": "Country code",
    "campaign_id": "Scope",
    "reason": "Reason",
    "purpose": "Purpose",
    "lead_status": "Lead status",
    "id": "Entry",
    "limit": "Page size",
    "offset": "Position",
    "status": "Status code",
    "name": "Name",
    "hex_color": "Colour",
}


@dataclass(frozen=True, slots=True)
class UserMessage:
    title: str
    text: str
    field: str = ""  # request field the message concerns, for showing it beside the widget
    needs_token: bool = False  # re-entering the token would fix it
    retryable: bool = False  # trying again later may work (network, server, rate limit)


def user_message(exc: BaseException, action: str) -> UserMessage:
    """What to tell the user when ``action`` failed with ``exc``."""
    if isinstance(exc, Cancelled):
        return UserMessage("Cancelled", f"{action}: cancelled.")
    if isinstance(exc, errors.AuthMissingError):
        return UserMessage(
            "Token needed",
            f"{action} failed: the service received no API token. Enter the token for this "
            "connection.",
            needs_token=True,
        )
    if isinstance(exc, errors.AuthInvalidError):
        return UserMessage(
            "Token rejected",
            f"{action} failed: the service says the API token is invalid or expired (it may "
            "have been revoked). Enter a new token; the action will be retried.",
            needs_token=True,
        )
    if isinstance(exc, errors.PermissionDeniedError):
        return UserMessage(
            "Not permitted",
            f"{action} failed: this token does not have permission for it. Ask an "
            "administrator for a token with the right permissions (campaign changes need "
            "campaign-management rights).",
        )
    if isinstance(exc, errors.LimitError):
        return UserMessage("Not sent", f"{action}: {exc.message}.", field=exc.field)
    if isinstance(exc, errors.ConflictError):
        return UserMessage("Already there", f"{action}: {_coded(exc)}", field=exc.field)
    if isinstance(exc, errors.ValidationError):
        label = FIELD_LABELS.get(exc.field, "")
        prefix = f"{label}: " if label else ""
        return UserMessage("Check the values", f"{action}: {prefix}{_coded(exc)}", field=exc.field)
    if isinstance(exc, errors.NotFoundError):
        return UserMessage("Not found", f"{action}: {_coded(exc)}", field=exc.field)
    if isinstance(exc, errors.RateLimitedError):
        return UserMessage(
            "Too many requests",
            f"{action}: the service's rate limit was reached; wait a minute and try again, or "
            "lower the requests-per-minute setting.",
            retryable=True,
        )
    if isinstance(exc, errors.TransportError):
        return UserMessage("No answer", f"{action}: {exc.message}.", retryable=True)
    if isinstance(exc, errors.ServerError):
        return UserMessage("Service error", f"{action}: {exc.message}.", retryable=True)
    if isinstance(exc, errors.ApiError):
        return UserMessage("Service refused", f"{action}: {_coded(exc)}")
    if isinstance(exc, OSError):
        return UserMessage(
            "File problem",
            f"{action}: {exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else ""),
        )
    return UserMessage("Unexpected problem", f"{action}: {type(exc).__name__}: {exc}")


def _coded(exc: errors.ApiError) -> str:
    if exc.code is not None and exc.meaning:
        server = f" — the service said: “{exc.message}”" if exc.message else ""
        return f"{exc.meaning} (code {exc.code}){server}."
    return f"{exc.message or exc.meaning}."
