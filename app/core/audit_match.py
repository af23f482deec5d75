"""Match lead numbers against opt-out entries on normalized numbers, locally and fast.

Lead numbers are typed by people (``(202) 555-0123``, ``+1 202-555-0123``) and go through
:func:`app.core.phones.normalize`, which also says which of them cannot be proven clean.
Entries come from the service as bare national digits (it refuses anything else on insert),
so they get a cheaper key: the same (code, national) pair for every valid number, computed
without the validator, which would cost ~20 µs an entry and put 100,000 entries over the
one-second budget. Entries in any other shape still go through ``normalize``.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from app.api.models import Lead
from app.core.audit_types import Conflict, LeadNumber, OptOutRecord
from app.core.dnc_removal import stored_forms
from app.core.phones import normalize, normalize_code
from app.core.sheet_damage import keeps_leading_zero

DEFAULT_PHONE_CODE = "1"
_NON_DIGITS = re.compile(r"\D+")
_MIN_DIGITS, _MAX_DIGITS = 6, 15

Key = tuple[str, str]


@contextmanager
def no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: building 100,000s of small objects next to the
    100,000s of leads already held triggers full collections that traverse all of them and
    cost more than the work itself; nothing made here forms reference cycles."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _canonical_code(raw: str, memo: dict[str, str]) -> str:
    code = memo.get(raw)
    if code is None:
        code = normalize_code(raw.strip() or DEFAULT_PHONE_CODE) or raw.strip()
        memo[raw] = code
    return code


def _digits_key(code: str, digits: str) -> Key | None:
    """The key a valid number with these national digits has, by the numbering plans' rules
    for the supported codes: NANP numbers may carry the country code ``1`` in front, the
    others a trunk ``0`` that is not part of the national number; except where a leading 0 is
    part of the number (:func:`keeps_leading_zero`: Italy's "0612345678", which the app writes
    so and normalizing keeps, was keyed "612345678" and met no lead: an audit said "clean")."""
    if not _MIN_DIGITS <= len(digits) <= _MAX_DIGITS:
        return None
    if code == "1":
        if len(digits) == 11 and digits[0] == "1":
            digits = digits[1:]
    elif digits[0] == "0" and not keeps_leading_zero(code):
        digits = digits[1:]
    return (code, digits)


def _as_written_key(code: str, raw: str) -> Key | None:
    """The key of a number no validator reads (in no range in use today), from its digits as
    written: an international prefix of the lead's own code written in front ("+44 7911…",
    "0044…", "011 44…", "+44 (0)7911…") is dropped, when the digits are one of the forms a
    DNC entry of the remaining number may hold (:func:`stored_forms`, the forms evidence and
    a removal search), so the lead meets the entry kept as national digits (black-box B37
    F1: kept with the prefix, the key never met it and the lead was only "Unparseable").
    Digits with the bare country code and no "+" or exit code are left as written: they may
    be a national number of their own."""
    digits = _NON_DIGITS.sub("", raw)
    prefixes = [f"011{code}", f"00{code}"]
    if raw.lstrip().startswith("+"):
        prefixes.append(code)
    for prefix in prefixes:
        if not digits.startswith(prefix):
            continue
        rest = digits[len(prefix) :]
        key = _digits_key(code, rest)
        if key is not None and stored_forms(key[1], code).get(digits, None) is not None:
            return key
    return _digits_key(code, digits)


class EntryIndex:
    """Opt-out entries by (phone_code, national), built once per audit."""

    def __init__(self) -> None:
        self._by_key: dict[Key, list[OptOutRecord]] = {}
        self._codes: dict[str, str] = {}
        self.entries = 0
        self.unusable: list[OptOutRecord] = []  # entries whose number has no key

    def add(self, records: Iterable[OptOutRecord]) -> None:
        by_key, codes, key_of = self._by_key, self._codes, self.key_of
        for record in records:
            self.entries += 1
            key = key_of(record.phone_number, record.phone_code, codes)
            if key is None:
                self.unusable.append(record)
                continue
            bucket = by_key.get(key)
            if bucket is None:
                by_key[key] = [record]
            elif all(r.id != record.id or r.kind is not record.kind for r in bucket):
                # The same entry can come from a download and from a lookup.
                bucket.append(record)

    @staticmethod
    def key_of(number: str, phone_code: str, codes: dict[str, str]) -> Key | None:
        code = codes.get(phone_code) or _canonical_code(phone_code, codes)
        if number.isascii() and number.isdigit():
            return _digits_key(code, number)
        result = normalize(number, code, stored=True)
        return (result.phone_code, result.national) if result.ok else None

    def get(self, key: Key) -> list[OptOutRecord]:
        return self._by_key.get(key, [])

    def __len__(self) -> int:
        return len(self._by_key)


def warm_phone_cache(leads: Iterable[Lead]) -> None:
    """Normalize the leads' numbers now, into the phone module's cache, so that
    :func:`lead_numbers` later only looks them up. The audit calls this as each page of leads
    arrives, while the service is still preparing the next pages."""
    for lead in leads:
        code = lead.phone_code.strip() or DEFAULT_PHONE_CODE
        for _, raw in lead.phones():
            normalize(raw, normalize_code(code) or code, stored=True)


def lead_numbers(leads: Iterable[Lead]) -> list[LeadNumber]:
    """Every non-blank phone field of every lead, normalized with the lead's phone code
    (``1`` when blank)."""
    out: list[LeadNumber] = []
    codes: dict[str, str] = {}
    for lead in leads:
        code = _canonical_code(lead.phone_code, codes)
        for field_name, raw in lead.phones():
            # As the dialer dials it: the lead's number after its phone code.
            result = normalize(raw, code, stored=True)
            if result.ok:
                out.append(
                    LeadNumber(
                        lead, field_name, raw, code, (result.phone_code, result.national), True
                    )
                )
            else:
                key = _as_written_key(code, raw)
                out.append(LeadNumber(lead, field_name, raw, code, key, False, result.reason))
    return out


def match(
    numbers: Iterable[LeadNumber], index: EntryIndex, list_names: dict[str, str]
) -> list[Conflict]:
    """One conflict per (lead number, entry) pair whose keys are equal."""
    conflicts: list[Conflict] = []
    get = index.get
    for number in numbers:
        if number.key is None:
            continue
        hits = get(number.key)
        if hits:
            name = list_names.get(number.lead.list_id, "")
            conflicts.extend(Conflict(number, entry, name) for entry in hits)
    return conflicts
