"""Which entries a copy of a list read whole: per part of its split, not list-wide.

A copy (a snapshot, or the list read "now") that could not read every entry records each
search of its split with the entries it left unread (:class:`app.core.snapshots.SnapshotPart`,
labelled with the search's filters: ``scope=global, phone_code=44, insert_date=2026-11-25,
reason=-BLANK-``). An entry that no incomplete search could hold was surely read, so its
absence from the copy is certain: diff's ``certain`` column and health's gaps say so per part
(black-box bb11 F7, F8: 101,500 +44 entries on both lists gave 1,000 false gaps).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.api.scope import Scope
from app.core.job_staging import purpose_key

if TYPE_CHECKING:  # snapshots' diff uses this module
    from app.core.snapshots import SnapshotData

_FILTER_KEYS = ("scope", "id", "phone_number", "phone_code", "insert_date", "purpose", "reason")
# A scope's purpose text may hold ", ": a filter starts only where a known key does.
_SEPARATOR = re.compile(rf", (?=(?:{'|'.join(_FILTER_KEYS)})=)")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True, slots=True)
class Probe:
    """What is known of an entry sought in a copy; ``None``: any value (it may have changed,
    or it is not the entry's own)."""

    scope: Scope | None = None
    phone_code: str | None = None
    insert_date: str | None = None
    reason: str | None = None


def _filters(label: str) -> dict[str, str] | None:
    """A part's label read back as its filters; None when it is no filtered search (the whole
    list, the rows in no search of the split) or cannot be read: any entry may be in it."""
    out: dict[str, str] = {}
    for piece in _SEPARATOR.split(label):
        key, sep, value = piece.partition("=")
        if not sep or key not in _FILTER_KEYS:
            return None
        out[key] = value
    return out


def _code(code: str) -> str:
    return code.strip().lstrip("+").lstrip("0")


def _scope_may_be(value: str, scope: Scope) -> bool:
    if value == "global":
        return scope.is_global
    if value.startswith("campaign:"):
        return scope.is_campaign and scope.api_campaign_id == value.removeprefix("campaign:")
    if value.startswith("purpose:"):
        text = value.removeprefix("purpose:")
        # Compared as the lists' spellings are (case, spaces): a doubt counts as "may be".
        return scope.is_purpose and (
            not text or purpose_key(text) == purpose_key(scope.purpose_text)
        )
    return True


def _filter_may_match(key: str, value: str, probe: Probe) -> bool:
    """Whether one filter of a search may let an entry ``probe`` describes through."""
    if key == "scope" and probe.scope is not None:
        return _scope_may_be(value, probe.scope)
    if key == "phone_code" and probe.phone_code is not None:
        return _code(value) == _code(probe.phone_code)
    if key == "insert_date" and probe.insert_date is not None and _DAY.fullmatch(value):
        return probe.insert_date[:10] == value
    if key == "reason" and probe.reason is not None and probe.reason == probe.reason.strip():
        # A reason of spaces only: whether the service counts it blank is not known.
        blank = not probe.reason
        return not ((value == "-BLANK-" and not blank) or (value == "-NOTBLANK-" and blank))
    return True


def _may_hold(filters: dict[str, str] | None, probe: Probe) -> bool:
    """Whether a search with ``filters`` may hold an entry ``probe`` describes."""
    if filters is None:
        return True
    return all(_filter_may_match(key, value, probe) for key, value in filters.items())


def read_whole_for(data: SnapshotData, probe: Probe) -> bool:
    """Whether ``data`` read every entry of its list that ``probe`` describes: the copy is
    complete, or each search that left entries unread could not hold such an entry. A list
    written to while it was read, or a copy whose parts do not account for every entry it
    could not read (an older file), is taken as read whole nowhere."""
    if not data.unreachable:
        return True
    if data.list_changed:
        return False
    incomplete = [p for p in data.parts if p.unreachable]
    if sum(p.unreachable for p in incomplete) < data.unreachable:
        return False
    return not any(_may_hold(_filters(p.scope), probe) for p in incomplete)
