"""Field rules shared by several endpoints: phone numbers, phone codes, scopes, text lengths.

Phone validation is deliberately simple and format-only (the client does the real, per-country
validation with ``phonenumbers`` before sending): a ``phone_number`` is 6-15 digits and a
``phone_code`` is 1-4 digits. A lead's phone may additionally carry the punctuation people type,
``(202) 555-0143``, because the service stores lead numbers as given.
"""

from __future__ import annotations

import re

from app.sandbox.errors import ApiError
from app.sandbox.params import is_int
from app.sandbox.store import Store

GLOBAL_SCOPE = 0
PURPOSE_SCOPE = -1
MAX_TEXT = 255

# ASCII digits only: \d would also accept other scripts' digits.
_PHONE_RE = re.compile(r"[0-9]{6,15}")
_CODE_RE = re.compile(r"[0-9]{1,4}")
_LEAD_PHONE_RE = re.compile(r"\+?[0-9 ().\-]+")
_CAMPAIGN_RE = re.compile(r"-?[0-9]+")


def is_phone_number(value: str | None) -> bool:
    return value is not None and bool(_PHONE_RE.fullmatch(value))


# How /dnc/search reads a phone_number (``--dnc-phone-format``): ``any`` takes any digits up
# to 15; ``strict`` also refuses one starting with 0 (code 6006), as a service may that reads
# phone_number as the number beside its phone_code, E.164's national significant number:
# a trunk 0 or an exit code (00, 011) is then no part of it.
ANY_PHONE = "any"
STRICT_PHONE = "strict"
PHONE_FORMATS = (ANY_PHONE, STRICT_PHONE)


def is_searchable_phone(value: str, phone_format: str) -> bool:
    """Whether /dnc/search takes ``value`` as a phone_number under ``phone_format``."""
    if phone_format == STRICT_PHONE and value.startswith("0"):
        return False
    return is_phone_number(value)


def is_phone_code(value: str | None) -> bool:
    return value is not None and bool(_CODE_RE.fullmatch(value))


def is_lead_phone(value: str | None) -> bool:
    if value is None or not _LEAD_PHONE_RE.fullmatch(value):
        return False
    return 6 <= sum("0" <= ch <= "9" for ch in value) <= 15


def parse_scope(store: Store, value: str | None, error: ApiError) -> int:
    """``0`` global, ``-1`` purpose, or the id of an existing campaign; else raises ``error``."""
    if value is None or not _CAMPAIGN_RE.fullmatch(value):
        raise error
    scope = int(value)
    if scope in (GLOBAL_SCOPE, PURPOSE_SCOPE):
        return scope
    if scope < 0 or not store.campaign_exists(scope):
        raise error
    return scope


def parse_campaign(store: Store, value: str | None, error: ApiError) -> int:
    """The id of an existing campaign (no global or purpose scope); else raises ``error``."""
    if value is None or not is_int(value) or not store.campaign_exists(int(value)):
        raise error
    return int(value)


def check_length(value: str | None, error: ApiError) -> str:
    if value is not None and len(value) > MAX_TEXT:
        raise error
    return value or ""
