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
hypothesis that every answer given here is the library's answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

import phonenumbers
from phonenumbers.phonemetadata import PhoneMetadata as NumberMetadata
from phonenumbers.phonemetadata import PhoneNumberDesc

__all__ = ["CodeRules", "fast_national", "rules_for_code"]

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
_TYPE_ATTRS: Final = (
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
    general: re.Pattern[str]
    general_lengths: frozenset[int] | None
    by_length: dict[int, re.Pattern[str]]

    def is_valid(self, national: str) -> bool:
        length = len(national)
        if self.general_lengths is not None and length not in self.general_lengths:
            return False
        if self.general.fullmatch(national) is None:
            return False
        combined = self.by_length.get(length)
        return combined is not None and combined.fullmatch(national) is not None


def _compile_validator(region: str, metadata: NumberMetadata) -> _RegionValidator:
    general = metadata.general_desc
    general_pattern = _desc_pattern(general)
    general_lengths = _desc_lengths(general) if general is not None else ()
    candidates: list[tuple[frozenset[int] | None, str]] = []
    for attr in _TYPE_ATTRS:
        desc: PhoneNumberDesc | None = getattr(metadata, attr)
        pattern = _desc_pattern(desc)
        if desc is None or pattern is None:
            continue
        lengths = _desc_lengths(desc)
        candidates.append((frozenset(lengths) if lengths else None, pattern))
    # A desc without possible lengths is checked against its pattern at every
    # length, so each length's alternation must include it.
    all_lengths = set(range(1, _MAX_LENGTH_FOR_NSN + 1))
    by_length: dict[int, re.Pattern[str]] = {}
    for length in all_lengths:
        parts = [p for lens, p in candidates if lens is None or length in lens]
        if parts:
            by_length[length] = re.compile("|".join(f"(?:{p})" for p in parts))
    leading = metadata.leading_digits
    return _RegionValidator(
        region=region,
        leading_digits=re.compile(leading) if leading is not None else None,
        general=re.compile(general_pattern) if general_pattern is not None else _NEVER,
        general_lengths=frozenset(general_lengths) if general_lengths else None,
        by_length=by_length,
    )


@dataclass(frozen=True, slots=True)
class CodeRules:
    """Everything the replay needs for one country calling code, compiled once."""

    code: str
    main_region: str
    idd: re.Pattern[str] | None
    national_prefix: re.Pattern[str] | None
    transform_rule: str | None
    general: re.Pattern[str]
    general_lengths: tuple[int, ...]
    local_lengths: frozenset[int]
    # Regions sharing the code, in phonenumbers' own resolution order.
    regions: tuple[_RegionValidator, ...]
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

    def is_too_long(self, number: str) -> bool:
        length = len(number)
        lengths = self.general_lengths
        return length not in self.local_lengths and lengths[0] < length and lengths[-1] < length

    def is_valid_nsn(self, national: str) -> bool:
        """``is_valid_number`` for a number with this code and NSN ``national``."""
        regions = self.regions
        if len(regions) == 1:
            return regions[0].is_valid(national)
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
        national_prefix=re.compile(prefix) if prefix else None,
        transform_rule=metadata.national_prefix_transform_rule,
        general=re.compile(general_pattern) if general_pattern is not None else _NEVER,
        general_lengths=general_lengths,
        local_lengths=frozenset(int(n) for n in metadata.general_desc.possible_length_local_only),
        regions=tuple(validators),
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


def fast_national(digits: str, plus: bool, rules: CodeRules) -> str | None:
    """Replay parse(+code check)+is_valid_number for ``[+]digits`` (ASCII digits only).

    Returns the national significant number when the library would call the
    number valid with this code, ``""`` when it would call it invalid, and
    ``None`` when the input is outside what the replay models (the caller must
    then ask the library).
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
        idd = rules.idd
        if idd is not None and idd.match(digits) is not None:
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
    if rules.length_allows_strip(stripped):
        national = stripped
    if len(national) > _MAX_LENGTH_FOR_NSN:
        return None
    return national if rules.is_valid_nsn(national) else ""
