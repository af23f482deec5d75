"""The contact-center API client: one method per endpoint DNC Desk uses.

Every method is synchronous and thread-safe; bulk work calls them from worker threads
(see :mod:`app.api.concurrency`). Envelopes differ per endpoint and are decoded here,
so callers only see the typed models of :mod:`app.api.models`.
"""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from app.api.errors import (
    ConflictError,
    LimitError,
    NotFoundError,
    ServerError,
    ValidationError,
)
from app.api.limits import DNC_SEARCH, LEADS_SEARCH, SMS_SEARCH
from app.api.models import (
    Campaign,
    DncEntry,
    Lead,
    LeadList,
    LeadStatus,
    Page,
    ReasonFilter,
    SmsOptOut,
    WriteResult,
    WriteStatus,
)
from app.api.paging import PagedSearch
from app.api.scope import Scope
from app.api.transport import DEFAULT_RETRY, Params, RetryPolicy, Secret, Transport

BLANK = "-BLANK-"


@dataclass(frozen=True, slots=True)
class DncQuery:
    """Filters of ``/dnc/search``; empty values are not sent."""

    id: str = ""
    scope: Scope | None = None
    phone_number: str = ""
    phone_code: str = ""
    insert_date: str = ""
    reason: ReasonFilter = ReasonFilter.ANY
    purpose: str = ""

    def params(self) -> dict[str, str]:
        out: dict[str, str] = {}
        if self.id:
            out["id"] = self.id
        purpose = self.purpose
        if self.scope is not None:
            out["campaign_id"] = self.scope.api_campaign_id
            if self.scope.is_purpose and self.scope.purpose_text and not purpose:
                purpose = self.scope.purpose_text
        if self.phone_number:
            out["phone_number"] = self.phone_number
        if self.phone_code:
            out["phone_code"] = self.phone_code
        if self.insert_date:
            out["insert_date"] = self.insert_date
        if self.reason is not ReasonFilter.ANY:
            out["reason"] = self.reason.value
        if purpose:
            out["purpose"] = purpose
        return out


# The SMS search takes the same filters (insert_date as YYYY-MM-DD).
SmsQuery = DncQuery

ALL = DncQuery()


def _insert_params(
    phone_number: str, phone_code: str, scope: Scope, reason: str, purpose: str
) -> dict[str, str]:
    """Form fields of a DNC or SMS opt-out insert (a purpose scope carries its text)."""
    params = {
        "phone_number": phone_number,
        "phone_code": phone_code,
        "campaign_id": scope.api_campaign_id,
    }
    purpose = purpose or (scope.purpose_text if scope.is_purpose else "")
    if reason:
        params["reason"] = reason
    if purpose:
        params["purpose"] = purpose
    return params


def _dict(body: Any, path: str) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ServerError(path, f"unexpected answer shape ({type(body).__name__}, not an object)")
    return body


def _list(value: Any, path: str, key: str) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ServerError(path, f"unexpected answer shape: {key} is not a list of records")
    return value


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def is_this_machine(host: str) -> bool:
    """Whether ``host`` is a loopback address (127.0.0.0/8, ::1) or localhost (``*.localhost``
    too, which is reserved for it): traffic to it never leaves the computer."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def plain_http_host(base_url: str) -> str | None:
    """The host of a plain http:// ``base_url`` that is not this machine, else None: a token
    sent there would cross the network unencrypted (black-box R5 #9)."""
    try:
        parts = urlsplit(base_url.strip())
        host = parts.hostname
    except ValueError:
        return None
    if parts.scheme.lower() != "http" or not host or is_this_machine(host):
        return None
    return host


def cleartext_refusal(host: str) -> str:
    """Why no token is sent to plain http:// ``host``: one sentence without its full stop."""
    return (
        f"plain http:// to {host} would send the API token unencrypted across the network: "
        "use the service's https:// address (http:// is only for a test service on this "
        "computer: localhost, 127.0.0.1 or ::1)"
    )


class CleartextRefused(LimitError):
    """The client was asked to send its token over plain http:// to another machine; nothing
    was sent. (A LimitError: refused before anything is sent.)"""

    def __init__(self, host: str) -> None:
        self.host = host
        super().__init__("connect", cleartext_refusal(host))


class ApiClient:
    """Client for one connection (base URL + token).

    ``base_url`` is the service root (``https://api.example.com``); ``/v1`` is appended.
    The token is held in a :class:`Secret` and only ever sent as a form field, and never over
    plain http:// to another machine (:class:`CleartextRefused`).
    """

    def __init__(
        self,
        base_url: str,
        token: str | Secret,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy = DEFAULT_RETRY,
        requests_per_minute: int | None = None,
        max_connections: int = 64,
        http_transport: httpx.BaseTransport | None = None,
    ) -> None:
        # Refused here, where every token leaves, so no caller can send one in cleartext: a
        # saved connection from before this rule, a job resumed on its old URL. A transport
        # given by the caller is a test's, in process, and reaches no network.
        host = plain_http_host(base_url)
        if host is not None and http_transport is None:
            raise CleartextRefused(host)
        self._t = Transport(
            base_url,
            token,
            timeout=timeout,
            retry=retry,
            requests_per_minute=requests_per_minute,
            max_connections=max_connections,
            http_transport=http_transport,
        )

    def __repr__(self) -> str:
        return f"ApiClient({self._t.api_url!r})"

    def paced(self, requests_per_minute: int) -> ApiClient:
        """A client of the same service and token whose requests stay under
        ``requests_per_minute`` (a job's rate limit), with connections of its own: the cap
        must not slow the other views sharing this client. Close it after use."""
        client = ApiClient.__new__(ApiClient)
        client._t = self._t.paced(requests_per_minute)
        return client

    @property
    def base_url(self) -> str:
        return self._t.base_url

    @property
    def requests_sent(self) -> int:
        return self._t.requests_sent

    @property
    def rate_limit_refusals(self) -> int:
        """HTTP 429 answers this client's requests got so far (each waited out before the
        next attempt): what a progress line says while the service's rate limit holds a run."""
        return self._t.hold.refusals

    @property
    def closed(self) -> bool:
        """Whether the client was closed (its session replaced): it sends nothing more."""
        return self._t.closed

    def close(self) -> None:
        self._t.close()

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read(
        self, path: str, params: Params | None = None, cancel: threading.Event | None = None
    ) -> Any:
        return self._t.call(path, params, idempotent=True, cancel=cancel)[0]

    # ------------------------------------------------------------------ DNC
    def search_dnc(
        self,
        query: DncQuery = ALL,
        *,
        offset: int = 0,
        limit: int = 1000,
        cancel: threading.Event | None = None,
    ) -> Page[DncEntry]:
        DNC_SEARCH.check(offset, limit)
        path = "/dnc/search"
        body = _dict(
            self._read(path, {**query.params(), "offset": offset, "limit": limit}, cancel), path
        )
        data = _dict(body.get("data") or {}, path)
        entries = _list(data.get("entries"), path, "data.entries")
        return Page(
            items=[DncEntry.from_api(e) for e in entries],
            offset=_int(data.get("offset"), offset),
            limit=_int(data.get("limit"), limit),
            total=_int(data.get("total"), len(entries)),
        )

    def iter_dnc(
        self, query: DncQuery = ALL, *, page_size: int = 1000, cancel: threading.Event | None = None
    ) -> PagedSearch[DncEntry]:
        return PagedSearch(
            lambda off, lim: self.search_dnc(query, offset=off, limit=lim, cancel=cancel),
            DNC_SEARCH,
            page_size,
            cancel,
        )

    def insert_dnc(
        self,
        phone_number: str,
        phone_code: str,
        scope: Scope,
        *,
        reason: str = "",
        purpose: str = "",
        already_present_ok: bool = True,
        cancel: threading.Event | None = None,
        stop_before_send: threading.Event | None = None,
    ) -> WriteResult:
        """Add a number; with ``already_present_ok`` an existing entry counts as done."""
        params = _insert_params(phone_number, phone_code, scope, reason, purpose)
        return self._insert("/dnc/insert", params, already_present_ok, cancel, stop_before_send)

    def update_dnc(
        self,
        entry_id: str,
        *,
        phone_number: str | None = None,
        phone_code: str | None = None,
        scope: Scope | None = None,
        reason: str | None = None,
        purpose: str | None = None,
    ) -> WriteResult:
        """Change an entry. ``reason=""`` clears the reason, as the spec says."""
        path = "/dnc/update"
        params: dict[str, str | None] = {
            "id": entry_id,
            "phone_number": phone_number,
            "phone_code": phone_code,
            "campaign_id": scope.api_campaign_id if scope is not None else None,
            "reason": reason,
            "purpose": purpose,
        }
        if scope is not None and scope.is_purpose and purpose is None:
            params["purpose"] = scope.purpose_text
        body, attempts = self._t.call(path, params, idempotent=True)
        return WriteResult(WriteStatus.DONE, str(_dict(body, path).get("id", entry_id)), attempts)

    def delete_dnc(
        self,
        phone_number: str,
        phone_code: str,
        scope: Scope,
        *,
        lead_status: str | None = None,
        not_found_ok: bool = False,
        cancel: threading.Event | None = None,
        stop_before_send: threading.Event | None = None,
    ) -> WriteResult:
        """Remove a number from one scope (for purpose scope: every purpose).

        With ``lead_status`` every lead carrying the number in that scope gets that status.
        With ``not_found_ok`` a "not found" answer is returned as ``NOT_FOUND`` instead of
        raised; when an earlier attempt got no answer saying whether it was done
        (``earlier_attempt_lost``: none came, a 5xx, an answer not the API's JSON) that attempt
        may have removed the entry.
        """
        path = "/dnc/delete"
        params: dict[str, str | bool] = {
            "phone_number": phone_number,
            "phone_code": phone_code,
            "campaign_id": scope.api_campaign_id,
        }
        if lead_status:
            params["update_lead_status"] = True
            params["lead_status"] = lead_status
        try:
            _, attempts = self._t.call(
                path, params, idempotent=True, cancel=cancel, stop_before_send=stop_before_send
            )
        except NotFoundError as exc:
            if not not_found_ok:
                raise
            return WriteResult(
                WriteStatus.NOT_FOUND, "", exc.attempts, exc.message, exc.earlier_attempt_lost
            )
        return WriteResult(WriteStatus.DONE, "", attempts)

    # ------------------------------------------------------------------ SMS opt-out
    def search_sms(
        self,
        query: SmsQuery = ALL,
        *,
        offset: int = 0,
        limit: int = 1000,
        cancel: threading.Event | None = None,
    ) -> Page[SmsOptOut]:
        SMS_SEARCH.check(offset, limit)
        path = "/sms-opt-out/search"
        body = _dict(
            self._read(path, {**query.params(), "offset": offset, "limit": limit}, cancel), path
        )
        records = _list(body.get("records"), path, "records")
        return Page(
            items=[SmsOptOut.from_api(r) for r in records],
            offset=_int(body.get("offset"), offset),
            limit=_int(body.get("limit"), limit),
            total=_int(body.get("total"), len(records)),
        )

    def iter_sms(
        self, query: SmsQuery = ALL, *, page_size: int = 1000, cancel: threading.Event | None = None
    ) -> PagedSearch[SmsOptOut]:
        return PagedSearch(
            lambda off, lim: self.search_sms(query, offset=off, limit=lim, cancel=cancel),
            SMS_SEARCH,
            page_size,
            cancel,
        )

    def insert_sms(
        self,
        phone_number: str,
        phone_code: str,
        scope: Scope,
        *,
        reason: str = "",
        purpose: str = "",
        already_present_ok: bool = True,
        cancel: threading.Event | None = None,
        stop_before_send: threading.Event | None = None,
    ) -> WriteResult:
        params = _insert_params(phone_number, phone_code, scope, reason, purpose)
        return self._insert(
            "/sms-opt-out/insert", params, already_present_ok, cancel, stop_before_send
        )

    def update_sms(
        self,
        record_id: str,
        *,
        phone_number: str,
        phone_code: str,
        scope: Scope,
        reason: str | None = None,
        purpose: str | None = None,
    ) -> WriteResult:
        """Change an opt-out. The service needs number, code and scope on every update;
        ``reason=""``/``purpose=""`` clear the value (sent as ``-BLANK-``)."""
        path = "/sms-opt-out/update"
        if scope.is_purpose and purpose is None:
            purpose = scope.purpose_text
        params: dict[str, str | None] = {
            "id": record_id,
            "phone_number": phone_number,
            "phone_code": phone_code,
            "campaign_id": scope.api_campaign_id,
            "reason": BLANK if reason == "" else reason,
            "purpose": BLANK if purpose == "" else purpose,
        }
        body, attempts = self._t.call(path, params, idempotent=True)
        data = _dict(_dict(body, path).get("data") or {}, path)
        return WriteResult(WriteStatus.DONE, str(data.get("id", record_id)), attempts)

    def _insert(
        self,
        path: str,
        params: Params,
        already_present_ok: bool,
        cancel: threading.Event | None,
        stop_before_send: threading.Event | None = None,
    ) -> WriteResult:
        try:
            body, attempts = self._t.call(
                path, params, idempotent=True, cancel=cancel, stop_before_send=stop_before_send
            )
        except ConflictError as exc:
            if not already_present_ok:
                raise
            return WriteResult(
                WriteStatus.ALREADY_PRESENT, "", exc.attempts, exc.message, exc.earlier_attempt_lost
            )
        new_id = _dict(body, path).get("id")
        return WriteResult(WriteStatus.DONE, "" if new_id is None else str(new_id), attempts)

    # ------------------------------------------------------------------ campaigns
    def campaigns(self, cancel: threading.Event | None = None) -> list[Campaign]:
        path = "/campaigns/search"
        body = _dict(self._read(path, None, cancel), path)
        return [Campaign.from_api(c) for c in _list(body.get("data"), path, "data")]

    def set_campaign_status(self, campaign_id: str, active: bool) -> WriteResult:
        path = "/campaigns/status"
        _, attempts = self._t.call(
            path, {"campaign_id": campaign_id, "status": active}, idempotent=True
        )
        return WriteResult(WriteStatus.DONE, campaign_id, attempts)

    # ------------------------------------------------------------------ lead statuses
    def search_statuses(
        self, query: str, cancel: threading.Event | None = None
    ) -> list[LeadStatus]:
        """The statuses whose code or name contains ``query`` (case-insensitive).

        Raises ValueError for a blank query: the spec makes it required, and a service (or a
        proxy) that enforces it refuses a blank one, so "blank lists them all" is never relied on.
        """
        if not query.strip():
            raise ValueError("A lead status search needs a code or name to look for.")
        path = "/status/search"
        body = _dict(self._read(path, {"query": query.strip()}, cancel), path)
        return [LeadStatus.from_api(s) for s in _list(body.get("data"), path, "data")]

    def insert_status(
        self,
        status: str,
        name: str,
        *,
        final: bool = False,
        reached: bool = False,
        success: bool = False,
        dnc: bool = False,
        callback: bool = False,
        contact: bool = False,
        voicemail: bool = False,
        hex_color: str = "",
    ) -> str:
        path = "/status/insert"
        flags = {
            "final": final,
            "reached": reached,
            "success": success,
            "dnc": dnc,
            "callback": callback,
            "contact": contact,
            "voicemail": voicemail,
        }
        params: dict[str, str] = {"status": status, "name": name}
        params.update({k: "Y" if v else "N" for k, v in flags.items()})
        if hex_color:
            params["hex_color"] = hex_color.lstrip("#")
        body, _ = self._t.call(path, params, idempotent=False)
        data = _dict(_dict(body, path).get("data") or {}, path)
        return str(data.get("status", status))

    def update_status(
        self, status: str, *, name: str | None = None, hex_color: str | None = None, **flags: bool
    ) -> str:
        path = "/status/update"
        unknown = set(flags) - {
            "final",
            "reached",
            "success",
            "dnc",
            "callback",
            "contact",
            "voicemail",
        }
        if unknown:
            raise ValidationError(path, f"unknown status options: {', '.join(sorted(unknown))}")
        params: dict[str, str | None] = {
            "status": status,
            "name": name,
            "hex_color": hex_color.lstrip("#") if hex_color else None,
        }
        params.update({k: "Y" if v else "N" for k, v in flags.items()})
        body, _ = self._t.call(path, params, idempotent=True)
        data = _dict(_dict(body, path).get("data") or {}, path)
        return str(data.get("status", status))

    # ------------------------------------------------------------------ leads
    def search_leads(
        self,
        filters: Mapping[str, str] | None = None,
        *,
        offset: int = 0,
        limit: int = 2000,
        cancel: threading.Event | None = None,
    ) -> Page[Lead]:
        LEADS_SEARCH.check(offset, limit)
        path = "/leads/search"
        body = _dict(
            self._read(path, {**(filters or {}), "offset": offset, "limit": limit}, cancel), path
        )
        results = _list(body.get("results"), path, "results")
        return Page([Lead.from_api(r) for r in results], offset, limit, None)

    def iter_leads(
        self,
        filters: Mapping[str, str] | None = None,
        *,
        page_size: int = 2000,
        cancel: threading.Event | None = None,
    ) -> PagedSearch[Lead]:
        return PagedSearch(
            lambda off, lim: self.search_leads(filters, offset=off, limit=lim, cancel=cancel),
            LEADS_SEARCH,
            page_size,
            cancel,
        )

    def insert_lead(self, list_id: str, phone_number: str, **fields: str | int | bool) -> str:
        """Create a lead and return its id. Not retried once sent: a retry could duplicate it."""
        path = "/leads/insert"
        body, _ = self._t.call(
            path, {"list_id": list_id, "phone_number": phone_number, **fields}, idempotent=False
        )
        body = _dict(body, path)
        data = body.get("data") if isinstance(body.get("data"), dict) else {}
        return str((data or {}).get("lead_id") or body.get("id") or "")

    def update_lead(
        self, lead_id: str, *, cancel: threading.Event | None = None, **fields: str
    ) -> WriteResult:
        path = "/leads/update"
        _, attempts = self._t.call(
            path, {"lead_id": lead_id, **fields}, idempotent=True, cancel=cancel
        )
        return WriteResult(WriteStatus.DONE, lead_id, attempts)

    def delete_lead(self, lead_id: str) -> WriteResult:
        path = "/leads/delete"
        _, attempts = self._t.call(path, {"lead_id": lead_id}, idempotent=False)
        return WriteResult(WriteStatus.DONE, lead_id, attempts)

    # ------------------------------------------------------------------ lists
    def search_lists(
        self,
        *,
        active: bool,
        campaign_id: str | None = None,
        list_id: str | None = None,
        cancel: threading.Event | None = None,
    ) -> list[LeadList]:
        path = "/lists/search"
        body = _dict(
            self._read(
                path,
                {"status": 1 if active else 0, "campaign_id": campaign_id, "id": list_id},
                cancel,
            ),
            path,
        )
        return [LeadList.from_api(x) for x in _list(body.get("data"), path, "data")]

    def all_lists(
        self, campaign_id: str | None = None, cancel: threading.Event | None = None
    ) -> list[LeadList]:
        """Active and inactive lists (the search takes one status at a time)."""
        lists = self.search_lists(active=True, campaign_id=campaign_id, cancel=cancel)
        lists += self.search_lists(active=False, campaign_id=campaign_id, cancel=cancel)
        return sorted(lists, key=lambda x: (len(x.id), x.id))

    def insert_list(
        self, name: str, campaign_id: str, *, description: str = "", active: bool = True
    ) -> str:
        path = "/lists/insert"
        body, _ = self._t.call(
            path,
            {
                "name": name,
                "campaign_id": campaign_id,
                "description": description,
                "status": 1 if active else 0,
            },
            idempotent=False,
        )
        body = _dict(body, path)
        data = body.get("data") if isinstance(body.get("data"), dict) else {}
        return str((data or {}).get("list_id") or body.get("id") or "")
