"""Per-row scope from spreadsheet cells: a scope column, a campaign column, or the default.

Scope cells are written the way the CLI takes them (``global``, ``campaign:1001``,
``purpose:Collections``) or the way people write them (``0``, ``1001``, ``Global``, a campaign's
name). Campaign names resolve through the ``campaign_lookup`` the caller fetched from the service
(name → id, matched without regard to case).
"""

from __future__ import annotations

from collections.abc import Mapping

from app.api.scope import PURPOSE_CAMPAIGN_ID, Scope, ScopeError
from app.core.sheet_types import CellValue


class ScopeResolver:
    """Turns scope and campaign cells into :class:`Scope`, caching each distinct cell."""

    def __init__(self, campaign_lookup: Mapping[str, str] | None = None) -> None:
        self._names = {k.strip().casefold(): str(v) for k, v in (campaign_lookup or {}).items()}
        self._scope_cache: dict[str, Scope | str] = {}
        self._campaign_cache: dict[str, Scope | str] = {}

    def scope_cell(self, value: CellValue) -> Scope | str:
        """The scope a scope cell names, or a reason it names none."""
        text = _text(value)
        found = self._scope_cache.get(text)
        if found is None:
            found = self._parse_scope(text)
            self._scope_cache[text] = found
        return found

    def campaign_cell(self, value: CellValue) -> Scope | str:
        """The campaign scope a campaign cell (id or name) names, or a reason it names none."""
        text = _text(value)
        found = self._campaign_cache.get(text)
        if found is None:
            found = self._parse_campaign(text)
            self._campaign_cache[text] = found
        return found

    def _parse_scope(self, text: str) -> Scope | str:
        low = text.casefold()
        if low in ("global", "0", "all", "all campaigns"):
            return Scope.global_()
        if low == PURPOSE_CAMPAIGN_ID or low == "purpose":
            return Scope.purpose("")
        if low.startswith("campaign:"):
            return self._parse_campaign(text.split(":", 1)[1].strip())
        try:
            return Scope.parse(text)
        except ScopeError:
            pass
        by_name = self._names.get(low)
        if by_name is not None:
            return Scope.campaign(by_name)
        return f"{text!r} is not a scope; use global, campaign:ID, purpose:TEXT or a campaign name"

    def _parse_campaign(self, text: str) -> Scope | str:
        if text.casefold().startswith("campaign:"):
            text = text.split(":", 1)[1].strip()
        if text.isdigit() and text != "0":
            return Scope.campaign(text)
        by_name = self._names.get(text.casefold())
        if by_name is not None:
            try:
                return Scope.campaign(by_name)
            except ScopeError as exc:
                return str(exc)
        if not self._names:
            return f"{text!r} is not a campaign id, and no campaign names were loaded"
        return f"no campaign is named {text!r}"


def _text(value: CellValue) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value).strip()
