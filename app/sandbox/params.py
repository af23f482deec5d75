"""Request parameters: the merged query string and form body of one request."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime

from app.sandbox.errors import ApiError, invalid

# ASCII digits only: \d would also accept other scripts' digits.
_INT_RE = re.compile(r"-?[0-9]+")
_DATE_RE = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})(?: ([0-9]{2}:[0-9]{2}:[0-9]{2}))?")


class Params:
    """Read access to request parameters.

    Blank values count as absent, because form clients commonly send every field of a form,
    filled or not. Where the spec gives a blank value a meaning (``reason`` on /dnc/update),
    :meth:`present` tells a blank value from an absent one.
    """

    def __init__(self, values: Mapping[str, str]) -> None:
        self._values = dict(values)

    def present(self, name: str) -> bool:
        return name in self._values

    def get(self, name: str) -> str | None:
        value = self._values.get(name)
        if value is None:
            return None
        value = value.strip()
        return value or None

    def int_or_default(self, name: str, default: int, error: ApiError) -> int:
        value = self.get(name)
        if value is None:
            return default
        if not _INT_RE.fullmatch(value):
            raise error
        return int(value)

    def flag(self, name: str, default: bool = False) -> bool:
        """A request boolean: ``true``/``false``, also ``1``/``0`` as some endpoints use."""
        value = self.get(name)
        if value is None:
            return default
        lowered = value.lower()
        if lowered in ("true", "1"):
            return True
        if lowered in ("false", "0"):
            return False
        raise invalid(f"{name} must be true or false")


def is_int(value: str) -> bool:
    return bool(_INT_RE.fullmatch(value))


def day_of(value: str) -> str | None:
    """The ``YYYY-MM-DD`` day of a ``YYYY-MM-DD`` or ``YYYY-MM-DD hh:mm:ss`` value, else None."""
    match = _DATE_RE.fullmatch(value)
    if not match:
        return None
    text = match.group(0)
    try:
        datetime.strptime(text, "%Y-%m-%d %H:%M:%S" if match.group(2) else "%Y-%m-%d")
    except ValueError:
        return None
    return match.group(1)


def now_timestamp() -> str:
    """Server local time in the spec's timestamp format."""
    return datetime.now().strftime("%Y-%m-%d %H:%M:%S")
