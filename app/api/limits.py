"""The spec's Limits table for the searches DNC Desk pages through, checked before sending."""

from __future__ import annotations

from dataclasses import dataclass

from app.api.errors import LimitError


@dataclass(frozen=True, slots=True)
class PageLimits:
    endpoint: str
    default_limit: int
    max_limit: int
    max_offset: int | None  # None: the spec states no bound

    def check(self, offset: int, limit: int) -> None:
        if limit < 1 or limit > self.max_limit:
            raise LimitError(
                self.endpoint,
                f"limit must be between 1 and {self.max_limit}, not {limit}",
                field="limit",
            )
        if offset < 0:
            raise LimitError(self.endpoint, f"offset cannot be negative ({offset})", field="offset")
        if self.max_offset is not None and offset > self.max_offset:
            raise LimitError(
                self.endpoint,
                f"offset cannot exceed {self.max_offset:,} ({offset:,} asked); narrow the filter",
                field="offset",
            )

    def reachable(self, total: int, page_size: int) -> int:
        """How many of ``total`` matches paging by ``page_size`` reaches under the offset cap."""
        if self.max_offset is None:
            return total
        last_offset = (self.max_offset // page_size) * page_size
        return min(total, last_offset + page_size)


DNC_SEARCH = PageLimits("/dnc/search", default_limit=100, max_limit=1000, max_offset=100_000)
SMS_SEARCH = PageLimits(
    "/sms-opt-out/search", default_limit=1000, max_limit=1000, max_offset=100_000
)
LEADS_SEARCH = PageLimits("/leads/search", default_limit=10, max_limit=2000, max_offset=None)
