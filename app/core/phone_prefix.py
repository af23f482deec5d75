"""How many leading digits decide a phone-number pattern's verdict.

phonenumbers' patterns for a national number are alternatives of fixed digits and digit
classes followed by runs of ``\\d``: for the United States, the area code and the first digit
of the exchange decide (``201[2-9]\\d{6}`` and so on; a few toll-free and personal-number
ranges look at six digits). :func:`deciding_prefix` reads a pattern's syntax tree and gives
the number of leading characters after which it only asks for "any digit", so a verdict on
one number holds for every number of the same length sharing that prefix, and a table of
prefixes can stand in for the regular expression (``phones.us_national``).

It models literals, digit classes, groups, alternatives, bounded repeats, anchors and
lookarounds; anything else (back-references, unbounded repeats) gives None, and the caller
keeps the regular expression.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from re import _constants as _c  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

# A path through a pattern: (characters it consumes, end of its last constrained character).
_Path = tuple[int, int]
_DIGITS = frozenset(range(ord("0"), ord("9") + 1))
_MAX_PATHS = 20_000
_MAX_REPEAT_SPAN = 32


class _Unmodelled(Exception):
    """The pattern holds a construct this module does not reason about."""


def deciding_prefix(pattern: str, flags: int = 0) -> int | None:
    """K such that ``fullmatch`` gives one verdict for all strings of ASCII digits of one
    length that share their first K characters; None when the pattern is not modelled."""
    try:
        paths = _sequence(list(_parser.parse(pattern, flags)))
    except (_Unmodelled, RecursionError, re.error):
        return None  # not modelled: the caller keeps the expression, never a wrong answer
    return max((end for _, end in paths), default=0)


def _sequence(items: Sequence[tuple[Any, Any]]) -> set[_Path]:
    paths: set[_Path] = {(0, 0)}
    for op, arg in items:
        item = _item(op, arg)
        paths = {
            (length + extra, max(end, length + item_end) if item_end else end)
            for length, end in paths
            for extra, item_end in item
        }
        if len(paths) > _MAX_PATHS:
            raise _Unmodelled("too many paths")
    return paths


def _item(op: Any, arg: Any) -> set[_Path]:
    if op is _c.LITERAL:
        return {(1, 1)}
    if op is _c.ANY:
        return {(1, 0)}  # any digit passes
    if op is _c.IN:
        return {(1, 0 if _digits_of_class(arg) == _DIGITS else 1)}
    if op is _c.SUBPATTERN:
        return _sequence(arg[-1])
    if op is _c.BRANCH:
        found: set[_Path] = set()
        for branch in arg[1]:
            found |= _sequence(branch)
        return found
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):  # possessive repeats and atomic groups: no
        low, high, sub = arg
        if high is _c.MAXREPEAT or high - low > _MAX_REPEAT_SPAN:
            raise _Unmodelled("unbounded repeat")
        one = _sequence(sub)
        found = set()
        paths: set[_Path] = {(0, 0)}
        for count in range(high + 1):
            if count >= low:
                found |= paths
            paths = {
                (length + extra, max(end, length + item_end) if item_end else end)
                for length, end in paths
                for extra, item_end in one
            }
            if len(paths) > _MAX_PATHS:
                raise _Unmodelled("too many paths")
        return found
    if op is _c.AT:
        return {(0, 0)}  # position only: the same for strings of one length
    if op in (_c.ASSERT, _c.ASSERT_NOT):
        direction, sub = arg
        if direction < 0:
            raise _Unmodelled("lookbehind")
        # Zero width, but its verdict reads the characters its paths constrain.
        return {(0, max((end for _, end in _sequence(sub)), default=0))}
    raise _Unmodelled(str(op))


def _digits_of_class(items: Sequence[tuple[Any, Any]]) -> frozenset[int]:
    """The ASCII digits a character class accepts."""
    digits: set[int] = set()
    for kind, value in items:
        if kind is _c.LITERAL:
            digits.add(value)
        elif kind is _c.RANGE:
            digits.update(range(value[0], value[1] + 1))
        elif kind is _c.CATEGORY and value is _c.CATEGORY_DIGIT:
            digits.update(_DIGITS)
        else:
            raise _Unmodelled(f"class item {kind}")
    return frozenset(digits) & _DIGITS
