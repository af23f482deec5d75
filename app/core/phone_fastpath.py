"""Fast validity check that reproduces ``phonenumbers.parse`` + ``is_valid_number``.

``phonenumbers`` recompiles its metadata regular expressions on every call (its
pattern cache is off by default), re-resolves regions and runs many generic steps
that are no-ops for the shape spreadsheets overwhelmingly contain: a run of ASCII
digits, optionally after a ``+``.  For that shape this module replays exactly the
steps ``phonenumbers.parse(text, region)`` takes (IDD detection, stripping the
default country's calling code, national-prefix / carrier-code stripping with the
same viability and length guards, the 17-digit cap) and then the region
resolution and type matching ``is_valid_number`` does, with every pattern compiled
once from ``phonenumbers``' own ``PhoneMetadata``.

Anything the replay is not certain about returns ``None`` so the caller falls
back to the library itself; ``tests/core/test_phones_fastpath.py`` checks with
hypothesis that every answer given here is the library's answer.  What the app adds to the
library's verdict (a +1 number must have ten digits) is :mod:`app.core.phones`' to add, on this
replay's answer and the library's alike, so this module stays a replay.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from re import _constants as _c  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any, Final

import phonenumbers
from phonenumbers import ValidationResult
from phonenumbers.phonemetadata import PhoneMetadata as NumberMetadata
from phonenumbers.phonemetadata import PhoneNumberDesc

__all__ = ["CodeRules", "fast_national", "fast_nsn", "rules_for_code"]

# Mirrors phonenumbers.phonenumberutil._MAX_LENGTH_FOR_NSN: parse() raises
# TOO_LONG above it.
_MAX_LENGTH_FOR_NSN: Final = 17

# Inputs outside this digit-count window hit parse() branches (viability,
# TOO_SHORT_AFTER_IDD, the 250-character cap) that the replay does not model.
_MIN_FAST_DIGITS: Final = 4
_MAX_FAST_DIGITS: Final = 30

_COUNTRY_CODES: Final[frozenset[str]] = frozenset(
    str(code) for code in phonenumbers.COUNTRY_CODE_TO_REGION_CODE
)

# Order matters only for speed: every type is checked, any match means valid
# (_number_type_helper returns UNKNOWN only when none match).
NUMBER_TYPES: Final = (
    "fixed_line",
    "mobile",
    "toll_free",
    "premium_rate",
    "shared_cost",
    "voip",
    "personal_number",
    "pager",
    "uan",
    "voicemail",
)

_NEVER: Final = re.compile(r"(?!)")

_Item = tuple[Any, Any]


def _first_of_sequence(items: Sequence[_Item]) -> tuple[set[str] | None, bool]:
    """(characters a match can start with or None if unknown, can match empty)."""
    found: set[str] = set()
    for op, arg in items:
        first, nullable = _first_of_item(op, arg)
        if first is None:
            return None, False
        found |= first
        if not nullable:
            return found, False
    return found, True


def _first_of_item(op: Any, arg: Any) -> tuple[set[str] | None, bool]:
    if op is _c.LITERAL:
        return {chr(arg)}, False
    if op is _c.IN:
        chars: set[str] = set()
        for kind, value in arg:
            if kind is _c.LITERAL:
                chars.add(chr(value))
            elif kind is _c.RANGE:
                chars.update(chr(c) for c in range(value[0], value[1] + 1))
            else:
                return None, False
        return chars, False
    if op is _c.SUBPATTERN:
        return _first_of_sequence(arg[-1])
    if op is _c.BRANCH:
        found: set[str] = set()
        any_nullable = False
        for branch in arg[1]:
            first, nullable = _first_of_sequence(branch)
            if first is None:
                return None, False
            found |= first
            any_nullable = any_nullable or nullable
        return found, any_nullable
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
        low, _high, sub = arg
        first, nullable = _first_of_sequence(sub)
        return first, nullable or low == 0
    return None, False


def _first_chars(pattern: str) -> frozenset[str] | None:
    """Characters any match of ``pattern`` must start with; None when not known.

    Lets the replay skip an IDD or national-prefix regex whose match is
    impossible for the input's first digit; None keeps the regex call.
    """
    try:
        first, nullable = _first_of_sequence(list(_parser.parse(pattern)))
    except Exception:  # an unparsable pattern only costs speed, never correctness
        return None
    if first is None or nullable:
        return None
    return frozenset(first)


def _desc_pattern(desc: PhoneNumberDesc | None) -> str | None:
    if desc is None:
        return None
    pattern = desc.national_number_pattern
    if pattern is None or len(pattern) == 0:
        return None
    return str(pattern)


def _desc_lengths(desc: PhoneNumberDesc) -> tuple[int, ...]:
    return tuple(int(n) for n in desc.possible_length)


@dataclass(frozen=True, slots=True)
class _RegionValidator:
    """``_number_type_helper(n, metadata) != UNKNOWN`` as one regex per length."""

    region: str
    leading_digits: re.Pattern[str] | None
    # length -> "general desc matches and some type's desc matches", as one
    # pattern: the general pattern is a lookahead anchored at the end.
    by_length: dict[int, re.Pattern[str]]

    def is_valid(self, national: str) -> bool:
        combined = self.by_length.get(len(national))
        return combined is not None and combined.fullmatch(national) is not None


def _compile_validator(region: str, metadata: NumberMetadata) -> _RegionValidator:
    general = metadata.general_desc
    general_pattern = _desc_pattern(general)
    general_lengths = frozenset(_desc_lengths(general)) if general is not None else frozenset()
    candidates: list[tuple[frozenset[int] | None, str]] = []
    for attr in NUMBER_TYPES:
        desc: PhoneNumberDesc | None = getattr(metadata, attr)
        pattern = _desc_pattern(desc)
        if desc is None or pattern is None:
            continue
        lengths = _desc_lengths(desc)
        candidates.append((frozenset(lengths) if lengths else None, pattern))
    by_length: dict[int, re.Pattern[str]] = {}
    if general_pattern is not None:
        for length in range(1, _MAX_LENGTH_FOR_NSN + 1):
            if general_lengths and length not in general_lengths:
                continue
            # A desc without possible lengths is tried at every length.
            parts = [p for lens, p in candidates if lens is None or length in lens]
            if parts:
                types = "|".join(f"(?:{p})" for p in parts)
                by_length[length] = re.compile(f"(?=(?:{general_pattern})\\Z)(?:{types})")
    leading = metadata.leading_digits
    return _RegionValidator(
        region=region,
        leading_digits=re.compile(leading) if leading is not None else None,
        by_length=by_length,
    )


@dataclass(frozen=True, slots=True)
class CodeRules:
    """Everything the replay needs for one country calling code, compiled once."""

    code: str
    main_region: str
    idd: re.Pattern[str] | None
    idd_first: frozenset[str] | None
    national_prefix: re.Pattern[str] | None
    national_prefix_first: frozenset[str] | None
    transform_rule: str | None
    general: re.Pattern[str]
    general_lengths: tuple[int, ...]
    local_lengths: frozenset[int]
    # Regions sharing the code, in phonenumbers' own resolution order.
    regions: tuple[_RegionValidator, ...]
    # The one region's patterns when the code has a single region (most do).
    single_region: dict[int, re.Pattern[str]] | None
    # A "+<code>..." input is read as this code only if no shorter prefix of
    # the code is itself a calling code.
    plus_prefix_unambiguous: bool

    def _viable(self, number: str) -> bool:
        return self.general.fullmatch(number) is not None

    def strip_national_prefix(self, number: str) -> str:
        """``_maybe_strip_national_prefix_carrier_code`` without the carrier code."""
        prefix = self.national_prefix
        if len(number) == 0 or prefix is None:
            return number
        first = self.national_prefix_first
        if first is not None and number[0] not in first:
            return number
        match = prefix.match(number)
        if match is None:
            return number
        viable_original = self._viable(number)
        groups = match.groups()
        rule = self.transform_rule
        if rule is None or len(rule) == 0 or groups[len(groups) - 1] is None:
            stripped = number[match.end() :]
        else:
            stripped = prefix.sub(rule, number, count=1)
        if viable_original and not self._viable(stripped):
            return number
        return stripped

    def length_allows_strip(self, number: str) -> bool:
        """True unless ``_test_number_length`` says TOO_SHORT, LOCAL_ONLY or INVALID_LENGTH."""
        length = len(number)
        if length in self.local_lengths:
            return False
        lengths = self.general_lengths
        if lengths[0] == length:
            return True
        if lengths[0] > length:
            return False
        if lengths[-1] < length:
            return True
        return length in lengths[1:]

    def length_result(self, national: str) -> int:
        """``_test_number_length(national, main metadata)`` as a ``ValidationResult``."""
        length = len(national)
        if length in self.local_lengths:
            return int(ValidationResult.IS_POSSIBLE_LOCAL_ONLY)
        lengths = self.general_lengths
        if lengths[0] == length:
            return int(ValidationResult.IS_POSSIBLE)
        if lengths[0] > length:
            return int(ValidationResult.TOO_SHORT)
        if lengths[-1] < length:
            return int(ValidationResult.TOO_LONG)
        if length in lengths[1:]:
            return int(ValidationResult.IS_POSSIBLE)
        return int(ValidationResult.INVALID_LENGTH)

    def is_too_long(self, number: str) -> bool:
        length = len(number)
        lengths = self.general_lengths
        return length not in self.local_lengths and lengths[0] < length and lengths[-1] < length

    def idd_may_match(self, digits: str) -> bool:
        idd = self.idd
        if idd is None:
            return False
        first = self.idd_first
        if first is not None and digits[:1] not in first:
            return False
        return idd.match(digits) is not None

    def is_valid_nsn(self, national: str) -> bool:
        """``is_valid_number`` for a number with this code and NSN ``national``."""
        single = self.single_region
        if single is not None:
            pattern = single.get(len(national))
            return pattern is not None and pattern.fullmatch(national) is not None
        regions = self.regions
        for validator in regions:
            leading = validator.leading_digits
            if leading is not None:
                if leading.match(national) is not None:
                    return validator.is_valid(national)
            elif validator.is_valid(national):
                return True
        return False


_RULES: dict[str, CodeRules | None] = {}


def _build_rules(code: str) -> CodeRules | None:
    regions = phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(int(code))
    if not regions:
        return None
    main_region = phonenumbers.region_code_for_country_code(int(code))
    metadata = NumberMetadata.metadata_for_region(main_region, None)
    if metadata is None or metadata.general_desc is None:
        # Non-geographic codes (800, 881, ...) have no region to parse against.
        return None
    validators: list[_RegionValidator] = []
    for region in regions:
        region_meta = NumberMetadata.metadata_for_region(region.upper(), None)
        if region_meta is not None:
            validators.append(_compile_validator(region, region_meta))
    general_pattern = _desc_pattern(metadata.general_desc)
    general_lengths = _desc_lengths(metadata.general_desc)
    if not general_lengths:
        return None
    prefix = metadata.national_prefix_for_parsing
    idd = metadata.international_prefix
    return CodeRules(
        code=code,
        main_region=main_region,
        idd=re.compile(idd) if idd else None,
        idd_first=_first_chars(idd) if idd else None,
        national_prefix=re.compile(prefix) if prefix else None,
        national_prefix_first=_first_chars(prefix) if prefix else None,
        transform_rule=metadata.national_prefix_transform_rule,
        general=re.compile(general_pattern) if general_pattern is not None else _NEVER,
        general_lengths=general_lengths,
        local_lengths=frozenset(int(n) for n in metadata.general_desc.possible_length_local_only),
        regions=tuple(validators),
        single_region=validators[0].by_length if len(validators) == 1 else None,
        plus_prefix_unambiguous=all(code[:i] not in _COUNTRY_CODES for i in range(1, len(code))),
    )


def rules_for_code(code: str) -> CodeRules | None:
    """Compiled rules for a calling code such as ``"44"``; None when it has no region."""
    try:
        return _RULES[code]
    except KeyError:
        rules = _build_rules(code) if code in _COUNTRY_CODES else None
        _RULES[code] = rules
        return rules


def fast_nsn(digits: str, plus: bool, rules: CodeRules) -> str | None:
    """Replay ``national_significant_number(parse(text, main_region))`` for ``[+]digits``.

    ``digits`` are ASCII digits.  Returns None when the input is outside what
    the replay models, or when parse would fail or find another calling code.
    """
    count = len(digits)
    if count < _MIN_FAST_DIGITS or count > _MAX_FAST_DIGITS:
        return None
    code = rules.code
    if plus:
        if not rules.plus_prefix_unambiguous or not digits.startswith(code):
            return None
        national = digits[len(code) :]
    else:
        if rules.idd_may_match(digits):
            return None
        national = digits
        if digits.startswith(code):
            candidate = rules.strip_national_prefix(digits[len(code) :])
            if (not rules._viable(digits) and rules._viable(candidate)) or rules.is_too_long(
                digits
            ):
                national = candidate
    if len(national) < 2:
        return None
    stripped = rules.strip_national_prefix(national)
    if stripped is not national and rules.length_allows_strip(stripped):
        national = stripped
    if len(national) > _MAX_LENGTH_FOR_NSN:
        return None
    return national


def fast_national(digits: str, plus: bool, rules: CodeRules) -> str | None:
    """Replay parse(+code check)+is_valid_number for ``[+]digits`` (ASCII digits only).

    Returns the national significant number when the library would call the
    number valid with this code, ``""`` when it would call it invalid, and
    ``None`` when the input is outside what the replay models (the caller must
    then ask the library).
    """
    national = fast_nsn(digits, plus, rules)
    if national is None:
        return None
    return national if rules.is_valid_nsn(national) else ""
