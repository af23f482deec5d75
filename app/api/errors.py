"""One exception hierarchy for every way a call to the service can fail.

Each error carries the endpoint, the numeric code (when the response had one), the
spec's meaning of that code *for that endpoint* (codes are endpoint-scoped: 6008 means
"phone already in DNC" on /dnc/insert and "invalid parameter" on /dnc/search), the
server's message, and for validation errors the request field concerned, so the UI can
show the message beside that field. No error text ever contains the request body.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    VALIDATION = "validation"
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"
    FAILED = "failed"
    PROGRESS = "in_progress"


@dataclass(frozen=True, slots=True)
class CodeInfo:
    meaning: str
    kind: Kind
    field: str = ""


def _v(meaning: str, field: str = "") -> CodeInfo:
    return CodeInfo(meaning, Kind.VALIDATION, field)


def _nf(meaning: str, field: str = "") -> CodeInfo:
    return CodeInfo(meaning, Kind.NOT_FOUND, field)


def _c(meaning: str, field: str = "phone_number") -> CodeInfo:
    return CodeInfo(meaning, Kind.CONFLICT, field)


def _f(meaning: str) -> CodeInfo:
    return CodeInfo(meaning, Kind.FAILED)


_STATUS_FLAGS = ("final", "reached", "success", "dnc", "callback", "contact", "voicemail")

# The spec's "Errors" table for the endpoints DNC Desk calls, keyed by (path, code).
CODES: dict[tuple[str, int], CodeInfo] = {
    ("/leads/search", 7258): _v("invalid limit", "limit"),
    ("/leads/search", 7231): _v("invalid offset", "offset"),
    ("/leads/delete", 6001): _nf("no such lead", "lead_id"),
    ("/leads/insert", 6002): _nf("no such list", "list_id"),
    ("/leads/insert", 6006): _nf("no such user", "owner_id"),
    ("/leads/insert", 6007): _v("lead requires a phone number and list id", "phone_number"),
    ("/leads/insert", 6008): _v("phone number invalid", "phone_number"),
    ("/leads/insert", 6009): _c("phone number already exists"),
    ("/leads/insert", 6023): _v("required fields missed"),
    ("/leads/insert", 6079): _v("invalid email", "email"),
    ("/leads/update", 6070): _v("invalid lead id", "lead_id"),
    ("/leads/update", 6071): _nf("lead not found", "lead_id"),
    ("/dnc/update", 6004): _v("invalid phone number format", "phone_number"),
    ("/dnc/update", 6008): _c("phone number already in DNC"),
    ("/dnc/update", 6026): _v("invalid campaign id", "campaign_id"),
    ("/dnc/update", 6056): _nf("DNC id not found", "id"),
    ("/dnc/update", 6057): _v("invalid reason code", "reason"),
    ("/dnc/update", 6058): _v("invalid purpose value", "purpose"),
    ("/dnc/update", 6059): _f("update failed"),
    ("/dnc/insert", 6006): _v("invalid phone number", "phone_number"),
    ("/dnc/insert", 6007): _c("duplicate entry"),
    ("/dnc/insert", 6008): _c("phone already in DNC"),
    ("/dnc/insert", 6026): _v("invalid campaign id", "campaign_id"),
    ("/dnc/insert", 6056): _f("insert failed"),
    ("/dnc/insert", 6057): _v("invalid reason", "reason"),
    ("/dnc/insert", 6058): _v("invalid purpose", "purpose"),
    ("/dnc/search", 6006): _v("invalid phone format", "phone_number"),
    ("/dnc/search", 6008): _v("invalid parameter"),
    ("/dnc/search", 6026): _v("invalid campaign id", "campaign_id"),
    ("/dnc/search", 6057): _v("invalid reason filter", "reason"),
    ("/dnc/search", 6058): _v("invalid purpose filter", "purpose"),
    ("/dnc/delete", 6000): _v("invalid phone number", "phone_number"),
    ("/dnc/delete", 6001): _nf("phone not found in DNC", "phone_number"),
    ("/dnc/delete", 6002): _v("invalid campaign id", "campaign_id"),
    ("/dnc/delete", 6003): _v("invalid phone code", "phone_code"),
    ("/dnc/delete", 6004): _f("delete failed"),
    ("/dnc/delete", 6005): _v("invalid lead status", "lead_status"),
    ("/status/insert", 6060): _v("missing status description", "name"),
    ("/status/insert", 6061): _v("missing or invalid abbreviation (alphanumeric, 2-6)", "status"),
    ("/status/insert", 6078): _v("invalid hex color (no #)", "hex_color"),
    ("/status/update", 6069): _v(
        "missing or invalid abbreviation; only custom statuses can be modified", "status"
    ),
    ("/status/update", 6078): _v("invalid hex color", "hex_color"),
    ("/lists/insert", 6003): _v("list requires a name", "name"),
    ("/lists/insert", 6004): _v("unknown campaign id", "campaign_id"),
    ("/lists/insert", 6046): _v("name shorter than 10 characters", "name"),
    ("/lists/insert", 6081): _c("name not unique", "name"),
    ("/lists/update", 6002): _nf("no such list", "list_id"),
    ("/lists/update", 6004): _v("unknown campaign id", "campaign_id"),
    ("/lists/update", 6046): _v("name too short", "name"),
    ("/lists/update", 6081): _c("name not unique", "name"),
    ("/lists/search", 6002): _nf("no such list", "id"),
    ("/sms-opt-out/search", 6006): _v("invalid campaign id", "campaign_id"),
    ("/sms-opt-out/search", 7231): _v("invalid offset", "offset"),
    ("/sms-opt-out/search", 6008): _c("phone number already exists"),
    ("/sms-opt-out/search", 6026): _v("missing or invalid country code", "phone_code"),
    ("/sms-opt-out/search", 6057): _v("invalid purpose", "purpose"),
    ("/sms-opt-out/search", 6058): _v("invalid reason", "reason"),
    ("/sms-opt-out/update", 6004): _v("unknown campaign id", "campaign_id"),
    ("/sms-opt-out/update", 6008): _v("phone number invalid", "phone_number"),
    ("/sms-opt-out/update", 6026): _v("missing or invalid country code", "phone_code"),
    ("/sms-opt-out/update", 6056): _nf("missing or invalid id", "id"),
    ("/sms-opt-out/update", 6057): _v("invalid purpose", "purpose"),
    ("/sms-opt-out/update", 6058): _v("invalid reason", "reason"),
    ("/sms-opt-out/update", 6059): _c("combination already exists"),
    ("/sms-opt-out/update", 4001): _v("missing required phone_number / phone_code / campaign_id"),
    ("/sms-opt-out/update", 4002): _v("phone_number / phone_code / campaign_id must be numeric"),
    ("/sms-opt-out/update", 6080): _v("purpose mandatory for campaigns of type Purpose", "purpose"),
    ("/sms-opt-out/insert", 6006): _v("invalid campaign id", "campaign_id"),
    ("/sms-opt-out/insert", 6007): _v("invalid phone number", "phone_number"),
    ("/sms-opt-out/insert", 6008): _c("phone number already exists"),
    ("/sms-opt-out/insert", 6080): _v("purpose mandatory for campaigns of type Purpose", "purpose"),
    ("/sms-opt-out/insert", 6026): _v("missing or invalid country code", "phone_code"),
    ("/sms-opt-out/insert", 6057): _v("invalid purpose", "purpose"),
    ("/sms-opt-out/insert", 6058): _v("invalid reason", "reason"),
    ("/campaigns/search", 6026): _v("invalid campaign id", "campaign_id"),
    ("/campaigns/status", 6026): _nf("invalid campaign id", "campaign_id"),
    ("/campaigns/status", 6080): _v("invalid status value", "status"),
}
for _i, _flag_name in enumerate(_STATUS_FLAGS):
    CODES[("/status/insert", 6062 + _i)] = _v(f"missing or invalid {_flag_name} option", _flag_name)
    CODES[("/status/update", 6071 + _i)] = _v(f"{_flag_name} option cannot be empty", _flag_name)


# Added to a write's error when an earlier attempt of the same call got no answer saying whether
# it was done: none came (lost), or a 5xx or an answer that is not the API's JSON did (see
# ``ApiError.earlier_attempt_lost``; black-box R1 #2: a 500 after the write is not a lost
# answer, and was not said to leave the write open).
EARLIER_ATTEMPT_LOST = (
    "an earlier attempt got no answer saying whether it was done, so the service may have done it"
)
# Said instead when it was an earlier send of a job's row whose fate was left open (its error,
# then a look-up that failed too): no answer need have been lost (see ApiError.earlier_send_open).
EARLIER_SEND_OPEN = (
    "an earlier send of this row ended with an error and a look-up that failed too, so the "
    "service may have done it"
)


def code_info(path: str, code: int | None) -> CodeInfo | None:
    if code is None:
        return None
    return CODES.get((path, code))


class ClientClosed(RuntimeError):
    """A request asked of a client that was closed (its session replaced: a new token, another
    connection): not sent. ``attempted``: an earlier attempt of the same call went out before
    the close met its retry, so a write may have been done. Not an :class:`ApiError`: the
    service said nothing."""

    def __init__(self, text: str = "the API client is closed", *, attempted: bool = False):
        super().__init__(text)
        self.attempted = attempted


class ApiError(Exception):
    """Base of every failure of a call to the service."""

    def __init__(
        self,
        endpoint: str,
        message: str,
        *,
        code: int | None = None,
        meaning: str = "",
        field: str = "",
        http_status: int | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.message = message
        self.code = code
        self.meaning = meaning
        self.field = field
        self.http_status = http_status
        # How many requests were sent before this answer (set by the transport): an
        # "already present" or "not found" after a retry may be our own first attempt's doing.
        self.attempts = 1
        # Set by the transport on a write's error when an earlier attempt of the same call got
        # no answer saying whether it was done (none came, a 5xx, an answer that is not the
        # API's JSON): the service may have done the write although this attempt failed, so
        # "failed" must not be read as "nothing changed". (Named for the first case.)
        self.earlier_attempt_lost = False
        # Set by a job on the error of a row sent again after a send whose fate was left open
        # (its error, then a failed look-up): the service may have done the write, as above,
        # though no answer was lost (black-box pass H3: rows said an answer was lost with no
        # connection ever dropped).
        self.earlier_send_open = False
        super().__init__(self.describe())

    def describe(self) -> str:
        """One sentence naming the action, the code and its meaning, and the server's words."""
        parts = [f"{self.endpoint}:"]
        if self.code is not None:
            parts.append(f"code {self.code}")
            if self.meaning:
                parts.append(f"({self.meaning})")
            parts[-1] += ","
        parts.append(self.message or self.meaning or "failed")
        text = " ".join(parts)
        if self._says_earlier_attempt_lost():
            text += f"; {EARLIER_ATTEMPT_LOST}"
        elif self.earlier_send_open and not self.earlier_attempt_lost:
            text += f"; {EARLIER_SEND_OPEN}"
        return text

    def _says_earlier_attempt_lost(self) -> bool:
        return self.earlier_attempt_lost

    def add_detail(self, text: str) -> None:
        """Append what was learned after the error (a look-up's finding) to its message."""
        self.message = f"{self.message}; {text}"
        self.args = (self.message,)

    def __str__(self) -> str:
        # Built on demand: the transport sets ``earlier_attempt_lost`` after construction, and
        # the change journal records ``str(error)``.
        return self.describe()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.describe()!r})"


class AuthError(ApiError):
    """The service refused the token."""


class AuthMissingError(AuthError):
    """No token was sent."""


class AuthInvalidError(AuthError):
    """The token is invalid, expired or revoked: the user must enter a new one."""


class PermissionDeniedError(AuthError):
    """The token works but lacks the permission this operation needs."""


class ValidationError(ApiError):
    """The service rejected a value; ``field`` names the request field when the code says."""


class NotFoundError(ApiError):
    """The record the request names does not exist."""


class ConflictError(ApiError):
    """The record already exists (already in DNC, duplicate entry, name not unique)."""


class RateLimitedError(ApiError):
    """HTTP 429: too many requests for this account; ``retry_after`` seconds if told."""

    def __init__(
        self,
        endpoint: str,
        message: str,
        *,
        retry_after: float | None = None,
        http_status: int | None = 429,
    ) -> None:
        self.retry_after = retry_after
        # Set by the transport on a 429 without Retry-After raised once the service had
        # refused every request for the retry policy's whole rate-limit patience (minutes):
        # a job stops for a resume then, not sooner (black-box R1 #6).
        self.patience_spent = False
        super().__init__(endpoint, message, http_status=http_status)


class ServiceError(ApiError):
    """The service answered with a failure that is none of the above (e.g. 'insert failed')."""


class ServerError(ApiError):
    """HTTP 5xx or a response that is not the API's JSON (an HTML error page, an empty body)."""


class UnconfirmedError(ServerError):
    """A write answered with JSON that does not say ``success: true`` (``{}``, ``{"status":
    "ok"}``): whether the write was done is not known, as with a lost answer. A base URL
    pointing at some other JSON service answers this way."""


class TransportError(ApiError):
    """No answer: connection refused or dropped, or a timeout."""

    def __init__(
        self, endpoint: str, message: str, *, timeout: bool = False, sent: bool = True
    ) -> None:
        self.timeout = timeout
        # False only when we know the request never left (connect failed): safe to retry anything.
        self.sent = sent
        super().__init__(endpoint, message)

    def _says_earlier_attempt_lost(self) -> bool:
        # A sent request's own answer was lost too, which the job runner words for the row
        # ("the request was sent, so the service may have done it ..."): not said twice.
        return self.earlier_attempt_lost and not self.sent


class LimitError(ValidationError):
    """A parameter breaks the spec's Limits table; raised before anything is sent."""


AUTH_MISSING_TEXT = "missing authentication token"
AUTH_INVALID_TEXTS = ("invalid or expired authentication token", "invalid authentication token")
PERMISSION_TEXT = "insufficient permissions"


def error_from_failure(
    endpoint: str, message: str, code: int | None, http_status: int | None
) -> ApiError:
    """Classify a ``{success: false}`` envelope into the right exception."""
    low = message.lower()
    if AUTH_MISSING_TEXT in low:
        return AuthMissingError(endpoint, message, code=code, http_status=http_status)
    if any(t in low for t in AUTH_INVALID_TEXTS):
        return AuthInvalidError(endpoint, message, code=code, http_status=http_status)
    if PERMISSION_TEXT in low:
        return PermissionDeniedError(endpoint, message, code=code, http_status=http_status)
    info = code_info(endpoint, code)
    if info is None:
        return _classify_uncoded(endpoint, message, code, http_status)
    kwargs = {
        "code": code,
        "meaning": info.meaning,
        "field": info.field,
        "http_status": http_status,
    }
    if info.kind is Kind.VALIDATION:
        return ValidationError(endpoint, message, **kwargs)  # type: ignore[arg-type]
    if info.kind is Kind.NOT_FOUND:
        return NotFoundError(endpoint, message, **kwargs)  # type: ignore[arg-type]
    if info.kind is Kind.CONFLICT:
        return ConflictError(endpoint, message, **kwargs)  # type: ignore[arg-type]
    return ServiceError(endpoint, message, **kwargs)  # type: ignore[arg-type]


def _classify_uncoded(
    endpoint: str, message: str, code: int | None, http_status: int | None
) -> ApiError:
    # The spec lists "message-only failures" (duplicate status code, already-present phone,
    # status not found, ...); recognise them by their words and the HTTP status.
    low = message.lower()
    if http_status == 401:
        return AuthInvalidError(endpoint, message, code=code, http_status=http_status)
    if http_status == 403:
        return PermissionDeniedError(endpoint, message, code=code, http_status=http_status)
    if http_status == 429:
        return RateLimitedError(endpoint, message, http_status=http_status)
    if "already" in low or "duplicate" in low or "not unique" in low:
        return ConflictError(endpoint, message, code=code, http_status=http_status)
    if "not found" in low or http_status == 404:
        return NotFoundError(endpoint, message, code=code, http_status=http_status)
    if http_status is not None and http_status >= 500:
        return ServerError(endpoint, message, code=code, http_status=http_status)
    if "invalid" in low or "must" in low or "required" in low or http_status in (400, 422):
        return ValidationError(endpoint, message, code=code, http_status=http_status)
    return ServiceError(endpoint, message, code=code, http_status=http_status)
