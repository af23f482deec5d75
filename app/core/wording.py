"""Small pieces of the sentences the app says, shared so every list reads the same way."""

from __future__ import annotations

from collections.abc import Sequence


def joined(items: Sequence[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"`` (``""`` for no items)."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def counted(count: int, one: str, many: str) -> str:
    """``"1 DNC entry"``, ``"2 DNC entries"``, ``"1,024 leads"``: a count with its noun."""
    return f"{count:,} {one if count == 1 else many}"
